/**
 * Names that Object.prototype already holds: a map built from request input on a plain object would find
 * these there (`obj[name] ??= []` gets a function back). Every test of request names draws them.
 */
export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;
