/**
 * Two constructions that zxcvbn-ts rates too kindly (docs/evaluation.md#patterns-zxcvbn-ts-underrates):
 *
 *   - a word: one dictionary word, l33t or not, a sequence (`abcd`) or a repeat (`A@@44444`), with at most a short affix before and
 *     after it (`J3nn1f3r!`, `Summer2024!`, `Admin@123`, `Abcd@1234`). zxcvbn-ts tries 3 l33t readings of a password (its cost grows with more,
 *     see guessability.ts), and it counts an affix such as `2024!` as random characters;
 *   - a keyboard walk: at most three runs of neighbouring keys, shifted or not (`1qaz@WSX`, `!QAZxsw2`).
 *     zxcvbn-ts's spatial matcher counts the shifted keys and the turns of a walk as if each were a free
 *     choice, and a walk that repeats a key shifted (`mju7&YHN`) is two patterns to it.
 *
 * Both checks are bounded whatever the password: a word is looked up only for the few ways to cut an affix
 * off a password of at most MAX_WORD_PASSWORD characters, with at most MAX_READINGS l33t readings of each;
 * a walk is one pass that stops at the fourth run. Pure: no I/O.
 */

/** A letter, as zxcvbn-ts's dictionaries hold words of letters. */
const LETTER = /\p{L}/u;
const DIGIT = /^[0-9]$/;
const WORD_OF_LETTERS = /^\p{L}+$/u;

/** The symbols an affix may hold. */
const MAX_AFFIX_SYMBOLS = 3;
/** The longest affix: its symbols and the longest date (8 digits); no longer one need be cut off a password. */
const MAX_AFFIX_LENGTH = MAX_AFFIX_SYMBOLS + 8;

/**
 * An affix: no letter, at most 3 symbols, and at most 4 digits or a date of 6 or 8 digits (day, month and
 * year in any of the usual orders) — what password-cracking rules append and prepend.
 */
export function isAffix(text: string): boolean {
  if (text.length > MAX_AFFIX_LENGTH) return false;
  let digits = '';
  let symbols = 0;
  for (const ch of text) {
    if (LETTER.test(ch)) return false;
    if (DIGIT.test(ch)) digits += ch;
    else symbols += 1;
  }
  return symbols <= MAX_AFFIX_SYMBOLS && (digits.length <= 4 || isDate(digits));
}

/** Six or eight digits that read as a date: ddmmyy, mmddyy, yymmdd, or the same with a four-digit year 1900-2099. */
export function isDate(digits: string): boolean {
  const day = (d: string) => Number(d) >= 1 && Number(d) <= 31;
  const month = (m: string) => Number(m) >= 1 && Number(m) <= 12;
  const year = (y: string) => y.length === 2 || /^(19|20)\d\d$/.test(y);
  const cut = digits.length === 8 ? 4 : digits.length === 6 ? 2 : 0;
  if (cut === 0) return false;
  const [a, b, rest] = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)];
  const [y, m, d] = [digits.slice(0, cut), digits.slice(cut, cut + 2), digits.slice(cut + 2)];
  return (year(rest) && ((day(a) && month(b)) || (month(a) && day(b)))) || (year(y) && month(m) && day(d));
}

/** Reversed substitutions for reading a word: one letter each, or two where the character stands for either. */
export const L33T_READINGS: Readonly<Record<string, readonly string[]>> = {
  '4': ['a'], '@': ['a'],
  '8': ['b'],
  '(': ['c'], '{': ['c'], '[': ['c'], '<': ['c'],
  '3': ['e'],
  '6': ['g'], '9': ['g'],
  '1': ['i', 'l'], '!': ['i', 'l'], '|': ['i', 'l'],
  '0': ['o'],
  '$': ['s'], '5': ['s'],
  '7': ['t', 'l'], '+': ['t'],
  '%': ['x'],
  '2': ['z'],
};

/** At most this many readings of one candidate word: 2^4, four characters that read two ways. */
export const MAX_READINGS = 16;
/**
 * Dictionary lookups of one isAffixedWord at most: each of MAX_AFFIX_LENGTH + 1 prefixes with each of as many
 * suffixes, the core as written and its MAX_READINGS l33t readings.
 */
export const AFFIXED_WORD_MAX_LOOKUPS = (MAX_AFFIX_LENGTH + 1) ** 2 * (MAX_READINGS + 1);
/** Longer passwords are no single word with affixes (zxcvbn-ts's longest dictionary word is shorter). */
export const MAX_WORD_PASSWORD = 48;
const MIN_WORD = 3;

/** The lower-case text and its l33t readings, at most MAX_READINGS of them, the first reading of each character first. */
export function readingsOf(text: string): string[] {
  let readings = [text.toLowerCase()];
  let substituted = [''];
  for (const ch of text.toLowerCase()) substituted = spelledOn(substituted, ch);
  if (substituted[0] !== readings[0]) readings = [...readings, ...substituted];
  return readings;
}

/** The first MAX_READINGS readings of a text one lower-case character longer, from those of the text (readingsOf's step). */
export function spelledOn(substituted: readonly string[], ch: string): string[] {
  const options = L33T_READINGS[ch] ?? [ch];
  return substituted.flatMap((prefix) => options.map((option) => prefix + option)).slice(0, MAX_READINGS);
}

/** The dictionary words: whether a word is one (zxcvbn-ts's `lookup[word]` gives its rank), and the longest one's length. */
export interface Words {
  has(word: string): boolean;
  readonly maxLength: number;
}

/** The password as one dictionary word (l33t or not) or a sequence, with an affix before and after it, either empty. */
export function isAffixedWord(password: string, words: Words): boolean {
  if (password.length > MAX_WORD_PASSWORD) return false;
  const leading = runLength(password, 0, 1);
  const trailing = runLength(password, password.length - 1, -1);
  for (let start = 0; start <= Math.min(leading, MAX_AFFIX_LENGTH); start++) {
    if (!isAffix(password.slice(0, start))) continue;
    for (let end = password.length; end >= Math.max(password.length - trailing, password.length - MAX_AFFIX_LENGTH, start + MIN_WORD); end--) {
      if (!isAffix(password.slice(end))) continue;
      const core = password.slice(start, end);
      if (isSequence(core) || (core.length <= words.maxLength && readingsOf(core).some((reading) => words.has(reading) || repeatedUnit(reading) !== undefined))) return true;
    }
  }
  return false;
}

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

/** How many characters from `from`, stepping by `step`, are not letters. */
function runLength(text: string, from: number, step: 1 | -1): number {
  let length = 0;
  for (let i = from; i >= 0 && i < text.length && !LETTER.test(text[i]!); i += step) length++;
  return length;
}

/** zxcvbn-ts's adjacency graphs: each key, its neighbours in a fixed order of directions, as strings of the key and its shifted character. */
export type AdjacencyGraph = Readonly<Record<string, readonly (string | null)[]>>;

/** At most this many runs of neighbouring keys make a walk; each run has at least MIN_RUN keys. */
const MAX_WALK_RUNS = 3;
const MIN_RUN = 4;
const MIN_WALK = 6;

/** Whether two characters are on one key or neighbouring keys, shifted or not, in any of the graphs. */
export type Adjacency = (a: string, b: string) => boolean;

export function adjacencyOf(graphs: readonly AdjacencyGraph[]): Adjacency {
  const perGraph = graphs.map((graph) => {
    const keyOf = new Map<string, string>();
    const neighbours = new Map<string, Set<string>>();
    for (const [key, around] of Object.entries(graph)) {
      for (const ch of key) keyOf.set(ch, key[0]!);
      for (const neighbour of around) if (neighbour) for (const ch of neighbour) keyOf.set(ch, neighbour[0]!);
    }
    for (const [key, around] of Object.entries(graph)) {
      neighbours.set(keyOf.get(key[0]!)!, new Set(around.filter((n): n is string => n !== null).map((n) => n[0]!)));
    }
    return { keyOf, neighbours };
  });
  return (a, b) =>
    perGraph.some(({ keyOf, neighbours }) => {
      const [x, y] = [keyOf.get(a), keyOf.get(b)];
      return x !== undefined && y !== undefined && (x === y || neighbours.get(x)!.has(y));
    });
}

/** The password as a keyboard walk: at least MIN_WALK characters in at most MAX_WALK_RUNS runs of neighbouring keys, each at least MIN_RUN long. */
export function isKeyboardWalk(password: string, adjacent: Adjacency): boolean {
  const characters = [...password];
  if (characters.length < MIN_WALK) return false;
  let runs = 1;
  let run = 1;
  for (let i = 1; i < characters.length; i++) {
    if (adjacent(characters[i - 1]!, characters[i]!)) run++;
    else {
      if (run < MIN_RUN || ++runs > MAX_WALK_RUNS) return false;
      run = 1;
    }
  }
  return run >= MIN_RUN;
}

export type GuessablePattern = 'word' | 'keyboard';

/** Which of the two constructions the password is, if any: a walk with an affix cut off counts too. */
export function guessablePattern(password: string, words: Words, adjacent: Adjacency): GuessablePattern | undefined {
  if (isKeyboardWalk(password, adjacent)) return 'keyboard';
  if (isAffixedWord(password, words)) return 'word';
  const leading = runLength(password, 0, 1);
  const trailing = runLength(password, password.length - 1, -1);
  for (let cut = 1; cut <= Math.min(Math.max(leading, trailing), MAX_AFFIX_LENGTH); cut++) {
    if (cut <= leading && isAffix(password.slice(0, cut)) && isKeyboardWalk(password.slice(cut), adjacent)) return 'keyboard';
    if (cut <= trailing && isAffix(password.slice(-cut)) && isKeyboardWalk(password.slice(0, -cut), adjacent)) return 'keyboard';
  }
  return undefined;
}
