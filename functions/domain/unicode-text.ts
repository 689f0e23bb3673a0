/**
 * What a text the service is given may hold, and how long it is: the one home of the character classes the
 * evaluation request (Password, UserInputs) refuses, and of the length the limits on what the evaluation
 * matches count.
 */

/** Control characters (C0, DEL, C1): no password field lets anyone type them; a stray newline is a client bug. */
export const CONTROL_CHARACTER = /\p{Cc}/u;
/** In u-mode a surrogate pair is one code point, so only an unpaired surrogate (a lone \\uD800 escape) matches. */
export const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * The length of a text as every limit on what the evaluation matches counts it (Password, UserInputs,
 * BannedWords): its code points as sent and after Unicode NFKC normalization, whichever is more. The
 * matcher works on the NFKC form, which can be longer (U+2A0C is four characters, U+FDFA eighteen) or
 * shorter (`e` then U+0301 is one `é`); the larger of the two bounds both what is received and what is
 * matched. A lone surrogate is one code point either way (NFKC keeps it).
 */
export function matchedLength(text: string): number {
  return Math.max([...text].length, [...text.normalize('NFKC')].length);
}

/** How a phrase says the length is counted, after "must be at most N characters, ". */
export const MATCHED_LENGTH_COUNTED = 'both as sent and after Unicode NFKC normalization (which expands some characters, such as ligatures, into several)';
