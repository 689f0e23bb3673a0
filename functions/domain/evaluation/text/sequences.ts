/** Letters typed in order, or a few repeated: what zxcvbn-ts's lists leave out, for its own matchers find them. */

const WORD_OF_LETTERS = /^\p{L}+$/u;
const MIN_WORD = 3;

/** The 1 to 3 letters a word repeats at least twice (`la` of `lalala`), or undefined. */
export function repeatedUnit(word: string): string | undefined {
  for (let size = 1; size <= 3 && size * 2 <= word.length; size++) {
    if (word.length % size !== 0 || !WORD_OF_LETTERS.test(word)) continue;
    const unit = word.slice(0, size);
    if (unit.repeat(word.length / size) === word) return unit;
  }
  return undefined;
}

/** Letters or digits in alphabetical order, forwards or backwards, one step at a time: `abcd`, `ZYXW`, `4321`. */
export function isSequence(text: string): boolean {
  const lower = text.toLowerCase();
  const step = lower.charCodeAt(1) - lower.charCodeAt(0);
  if (lower.length < MIN_WORD || Math.abs(step) !== 1 || !/^([a-z]+|[0-9]+)$/.test(lower)) return false;
  for (let i = 2; i < lower.length; i++) if (lower.charCodeAt(i) - lower.charCodeAt(i - 1) !== step) return false;
  return true;
}
