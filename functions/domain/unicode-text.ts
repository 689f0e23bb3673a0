/**
 * What a text the service is given may hold: the one home of the character classes the evaluation request
 * (Password, UserInputs) refuses.
 */

/** Control characters (C0, DEL, C1): no password field lets anyone type them; a stray newline is a client bug. */
export const CONTROL_CHARACTER = /\p{Cc}/u;
/** In u-mode a surrogate pair is one code point, so only an unpaired surrogate (a lone \\uD800 escape) matches. */
export const UNPAIRED_SURROGATE = /\p{Cs}/u;
