import { isDate } from '../text/affixes';
import { isSequence, repeatedUnit } from '../text/sequences';
import { L33T_READINGS, readingsOf, spelledOn } from '../text/l33t';
import type { KeyboardWalks } from './keyboard-walks';
import { binomial, uppercaseVariations } from './markov-model';

/**
 * The rule model (docs/guess-numbers.md#the-rule-model): the mangling rules of hashcat and John the Ripper undone.
 * A password is read as
 *
 *   prefix + one to three words (each l33t or not, reversed or not, in any case, a symbol between them or not)
 *   + suffix, or prefix + a word typed twice + suffix, or prefix + a keyboard walk + suffix,
 *
 * where the prefix and the suffix are affixes (at most MAX_AFFIX_LENGTH characters, either empty; no letter in a
 * prefix, and in a suffix only letters standing alone among its digits and symbols), and TERM_PLACEHOLDER (a
 * term the attacker knows, in the rest of context-terms.ts) is a word of rank 1.
 * Its guesses are what a rule attack spends to reach it, rank x rules: the product of each word's rank among
 * the words an attacker tries (the dictionaries, or the size of the breached-password list for a word found
 * only there) and how many variants each rule has (RULE_COUNTS, the capitalisations, the l33t spellings, the
 * affixes of that shape). The reading with the fewest guesses counts. Pure: the word ranks are passed in.
 *
 * Bounded whatever the input, and never more lenient for it (docs/evaluation.md#the-evaluations-worst-case):
 * passwords longer than MAX_RULE_PASSWORD are not read, as no reading is that long (three of the longest
 * words, two separators and two affixes; test/unit/guess-models.test.ts holds the dictionaries to it), a word
 * is at most `maxLength` characters, and at most READING_BUDGET readings are looked up per password (no
 * random password comes near it); once it is spent, every word-shaped part not yet read counts as the first
 * word, so the estimate can only fall, never rise, against reading them all.
 */

/** Ranks of words (lower-case letters) among the words an attacker tries, 1 for the first. */
export interface RankedWords {
  rank(word: string): number | undefined;
  readonly maxLength: number;
}

/** A list of passwords without ranks: a word found in it counts as its last entry. */
export interface PasswordList {
  has(password: string): boolean;
  readonly entries: number;
}

export interface RuleModelOptions {
  readonly words: RankedWords;
  /** The breached-password filter: a whole password core found only there counts as its last entry. */
  readonly breached?: PasswordList;
  /** Keyboard layouts a walk list walks. */
  readonly walks: readonly KeyboardWalks[];
  /** Readings looked up per password at most: READING_BUDGET unless a test compares the model with a larger one. */
  readonly readingBudget?: number;
}

/**
 * The order in which an affix's symbol is tried: the shifted digits of the keyboard's number row (what people
 * type to add a symbol to a password), then the punctuation that ends a sentence or joins words, then the other
 * ASCII symbols in code order; any other character after them. The training list holds too few symbols to
 * rank them by count (a few dozen in 100,000 passwords).
 */
const COMMON_SYMBOLS = '!@#$%^&*?._-';
export const AFFIX_SYMBOLS =
  COMMON_SYMBOLS + [...' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'].filter((ch) => !COMMON_SYMBOLS.includes(ch)).join('');

/** The variants an attacker tries of each rule that has a fixed number of them. */
export const RULE_COUNTS = {
  /** A four-digit year, 1900 to 2099. */
  year: 200,
  /** A date of six or eight digits: 366 days, 100 years, 3 orders. */
  date: 366 * 100 * 3,
  /** A run of one digit repeated (`111111`) or in sequence up or down (`123456`, `654321`): 30 of each length. */
  digitRun: 30,
  /** A word that is a sequence of letters (`abcdef`, `zyxw`): 26 starts x 2 directions x 8 lengths. */
  sequence: 26 * 2 * 8,
  /** A word that is 1 to 3 letters repeated (`aaaaaa`, `lalala`): 26 per letter of the unit x 8 counts. */
  repeatPerUnit: 26,
  repeatCounts: 8,
  /** Reversing the word (`r`), or typing it twice (`d`). */
  reversal: 2,
  duplication: 2,
  /** Where a second affix block stands: digits before symbols or after. */
  blockOrder: 2,
  /** A letter alone in an affix (`Summer2024!x`, not `2024!xy`): any of 26, in either case. */
  affixLetter: 52,
} as const;

export const MAX_AFFIX_LENGTH = 12;
/** An affix's blocks: a run of digits, of letters, or of other characters. */
const AFFIX_BLOCKS = /[0-9]+|\p{L}+|[^0-9\p{L}]+/gu;
/** What a matched term becomes in the rest that context-terms.ts judges: one character that is no letter or digit, so it joins no word. */
export const TERM_PLACEHOLDER = '\u2022';
/** Three words of the dictionaries' longest (23 letters), two separators and two affixes: 95 characters, and one to spare. */
export const MAX_RULE_PASSWORD = 96;
const MIN_WORD = 3;
/** A walk of fewer keys is an affix's business, not a walk list's. */
const MIN_WALK = 4;
const MAX_WORDS = 3;
export const READING_BUDGET = 2000;

const LETTER = /\p{L}/u;
const LETTERS = /^\p{L}+$/u;
const DIGIT = /[0-9]/;

export type RuleConstruction = 'words' | 'walk';

interface RuleEstimate {
  /** log10 of the guesses of the cheapest reading, or Infinity when the password is none of these constructions. */
  readonly guessesLog10: number;
  /** What that reading is: words (with affixes), or a keyboard walk (with affixes). */
  readonly construction: RuleConstruction;
  /** The work it took: readings looked up (at most READING_BUDGET) and steps (RULE_MODEL_MAX_STEPS at most). */
  readonly readings: number;
  readonly steps: number;
}

/**
 * Steps of one estimate at most, for MAX_RULE_PASSWORD characters and `walks` keyboards: a word (segment) tried
 * for each of the MAX_WORDS positions, each start and each end, from the start or after a separator; and each
 * core between the affixes read as one word, a word typed twice and a walk of each keyboard.
 */
export function ruleModelMaxSteps(walks: number): number {
  const n = MAX_RULE_PASSWORD;
  return MAX_WORDS * 2 * n * n + ((n * (n + 1)) / 2) * (2 + walks);
}

export interface RuleModel {
  estimate(password: string): RuleEstimate;
}

export function ruleModel(options: RuleModelOptions): RuleModel {
  const { words, breached, walks, readingBudget = READING_BUDGET } = options;
  const symbolRank = new Map([...AFFIX_SYMBOLS].map((ch, i) => [ch, i + 1]));
  const otherSymbol = AFFIX_SYMBOLS.length + 1;

  /** Guesses of one block of an affix: digits or symbols. */
  const blockCost = (block: string): number => {
    if (DIGIT.test(block[0]!)) {
      const k = block.length;
      let cost = 10 ** k;
      if (k === 4 && /^(19|20)\d\d$/.test(block)) cost = Math.min(cost, RULE_COUNTS.year);
      if ((k === 6 || k === 8) && isDate(block)) cost = Math.min(cost, RULE_COUNTS.date);
      if (k >= 3 && isDigitRun(block)) cost = Math.min(cost, RULE_COUNTS.digitRun);
      return cost;
    }
    // One letter among a suffix's digits and symbols (`!!x`), not a run of them: that is a word's business.
    if (LETTER.test(block)) return [...block].length === 1 ? RULE_COUNTS.affixLetter : Infinity;
    const symbols = [...block];
    const rank = (ch: string) => symbolRank.get(ch) ?? otherSymbol;
    if (symbols.every((ch) => ch === symbols[0])) return rank(symbols[0]!);
    return symbols.reduce((product, ch) => product * rank(ch), 1) * symbols.length;
  };

  /**
   * Guesses of an affix (1 for none), or Infinity when the text is no affix. Only a suffix may hold letters, one
   * at a time: appending is what rules mostly do, and a prefix of letters would let every word start anywhere.
   */
  const affixCost = (affix: string, letters = false): number => {
    if (affix === '') return 1;
    if ([...affix].length > MAX_AFFIX_LENGTH || (!letters && LETTER.test(affix))) return Infinity;
    const blocks = affix.match(AFFIX_BLOCKS)!;
    return (
      blocks.reduce((product, block) => product * blockCost(block), 1) * RULE_COUNTS.blockOrder ** (blocks.length - 1)
    );
  };

  return {
    estimate(password) {
      const chars = [...password];
      const n = chars.length;
      let construction: RuleConstruction = 'words';
      if (n > MAX_RULE_PASSWORD || n === 0) return { guessesLog10: Infinity, construction, readings: 0, steps: 0 };
      let budget = readingBudget;
      let steps = 0;
      // A reading met again (`aaa` in `aaaaaa`) is looked up once.
      const ranks = new Map<string, number>();
      const rankOf = (reading: string): number => {
        let rank = ranks.get(reading);
        if (rank === undefined) {
          const unit = repeatedUnit(reading);
          // zxcvbn-ts's lists leave out what its other matchers find: sequences and repeats are words here.
          rank = Math.min(
            words.rank(reading) ?? Infinity,
            isSequence(reading) ? RULE_COUNTS.sequence : Infinity,
            unit === undefined
              ? Infinity
              : Math.min(words.rank(unit) ?? Infinity, RULE_COUNTS.repeatPerUnit ** unit.length) *
                  RULE_COUNTS.repeatCounts,
          );
          ranks.set(reading, rank);
        }
        return rank;
      };
      const prefix = chars.map((_, i) => affixCost(chars.slice(0, i).join('')));
      prefix.push(Infinity);
      const suffix = chars.map((_, j) => affixCost(chars.slice(j).join(''), true));
      suffix.push(1);

      // readingsOf(chars[i..j)), each start's lists grown one character at a time as readingsOf grows its own,
      // rather than spelled again from the start for every end the DP tries. For ASCII only: there lower-casing
      // one character is lower-casing it in the text (not so for a final sigma, say).
      const ascii = /^\p{ASCII}*$/u.test(password);
      const spelled = new Map<number, string[][]>();
      const readingsAt = (i: number, j: number, text: string): string[] => {
        if (!ascii) return readingsOf(text);
        let lists = spelled.get(i);
        if (lists === undefined) spelled.set(i, (lists = [['']]));
        for (let m = lists.length; m <= j - i; m++)
          lists.push(spelledOn(lists[m - 1]!, chars[i + m - 1]!.toLowerCase()));
        const lower = text.toLowerCase();
        const substituted = lists[j - i]!;
        return substituted[0] !== lower ? [lower, ...substituted] : [lower];
      };

      // The guesses of chars[i..j) as one word: its best reading (as typed, or reversed when it is the whole
      // core) x its capitalisations x its l33t spellings. A word has at least as many letters as l33t characters.
      const segments = new Map<number, number>();
      const segment = (i: number, j: number, reversible = false): number => {
        steps++;
        const key = (i * (n + 1) + j) * 2 + (reversible ? 1 : 0);
        const known = segments.get(key);
        if (known !== undefined) return known;
        let best = Infinity;
        if (j - i >= MIN_WORD && j - i <= words.maxLength && isWordShaped(chars, i, j)) {
          const text = chars.slice(i, j).join('');
          const ways: (readonly [string, number])[] = [[text, 1]];
          if (reversible) ways.push([[...text].reverse().join(''), RULE_COUNTS.reversal]);
          let spent = false;
          for (const [typed, factor] of ways) {
            // Spent: no reading is looked up, so none is spelled out (readingsOf is most of an adversarial password's cost).
            if (budget <= 0) {
              spent = true;
              break;
            }
            const lower = typed.toLowerCase();
            for (const reading of LETTERS.test(lower)
              ? [lower]
              : factor === 1
                ? readingsAt(i, j, typed)
                : readingsOf(typed)) {
              if (budget-- <= 0) {
                spent = true;
                break;
              }
              if (!LETTERS.test(reading)) continue;
              const rank = rankOf(reading);
              if (rank < Infinity)
                best = Math.min(best, rank * factor * (reading === lower ? 1 : l33tVariations(lower, reading)));
            }
          }
          // Readings left unread count as the cheapest any could be: the first word, spelled as typed (letters
          // alone) or with one substitution (l33tVariations is at least 2), so a spent budget never raises an estimate.
          if (spent) best = Math.min(best, LETTERS.test(text) ? 1 : 2);
          if (best < Infinity) best *= uppercaseVariations(text);
        }
        segments.set(key, best);
        return best;
      };

      // cost[k][j]: the cheapest prefix + k words (with separators) covering chars[0..j).
      let best = Infinity;
      let previous: number[] = prefix.slice();
      for (let k = 1; k <= MAX_WORDS; k++) {
        const current = new Array<number>(n + 1).fill(Infinity);
        for (let i = 0; i < n; i++) {
          if (previous[i] === Infinity) continue;
          // A word right after, or after one separator character (between words only).
          const starts: [number, number][] = [[i, previous[i]!]];
          if (k > 1 && i < n && !LETTER.test(chars[i]!)) starts.push([i + 1, previous[i]! * affixCost(chars[i]!)]);
          for (const [from, cost] of starts) {
            // A known term's placeholder (the rest of context-terms.ts) is a word, the attacker's first.
            if (chars[from] === TERM_PLACEHOLDER) current[from + 1] = Math.min(current[from + 1]!, cost);
            for (let j = from + MIN_WORD; j <= Math.min(n, from + words.maxLength); j++) {
              const word = segment(from, j);
              if (word === Infinity) continue;
              current[j] = Math.min(current[j]!, cost * word);
            }
          }
        }
        for (let j = 1; j <= n; j++) if (current[j]! < Infinity) best = Math.min(best, current[j]! * suffix[j]!);
        previous = current;
      }

      // The core between the affixes: one word reversed, a word typed twice, a keyboard walk, or a password of
      // the breached list.
      for (let i = 0; i < n; i++) {
        if (prefix[i] === Infinity) continue;
        for (let j = n; j > i; j--) {
          if (suffix[j] === Infinity) continue;
          const core = chars.slice(i, j).join('');
          const around = prefix[i]! * suffix[j]!;
          best = Math.min(best, around * segment(i, j, true));
          const half = (j - i) / 2;
          if (
            Number.isInteger(half) &&
            half >= MIN_WORD &&
            core.slice(0, half).toLowerCase() === core.slice(half).toLowerCase()
          ) {
            best = Math.min(
              best,
              around * segment(i, i + half) * RULE_COUNTS.duplication * uppercaseVariations(core.slice(half)),
            );
          }
          if (j - i < MIN_WALK) continue;
          for (const walk of walks) {
            steps++;
            const walked = around * 10 ** walk.guessesLog10(core);
            if (walked < best) [best, construction] = [walked, 'walk'];
          }
        }
      }
      const first = chars.findIndex((ch) => LETTER.test(ch));
      if (breached && first >= 0 && best > breached.entries) {
        let last = n;
        while (!LETTER.test(chars[last - 1]!)) last--;
        const core = chars.slice(first, last).join('');
        if (prefix[first]! < Infinity && suffix[last]! < Infinity && breached.has(core)) {
          best = Math.min(
            best,
            breached.entries *
              prefix[first]! *
              suffix[last]! *
              uppercaseVariations(core) *
              2 ** [...core].filter((ch) => !LETTER.test(ch)).length,
          );
        }
      }
      return {
        guessesLog10: Math.log10(Math.max(1, best)),
        construction,
        readings: readingBudget - Math.max(0, budget),
        steps,
      };
    },
  };
}

/** Whether chars[i..j) may be a word: no character that is neither a letter nor a l33t spelling, and at least as many letters as l33t spellings. */
function isWordShaped(chars: readonly string[], i: number, j: number): boolean {
  let letters = 0;
  for (let k = i; k < j; k++) {
    if (LETTER.test(chars[k]!)) letters++;
    else if (L33T_READINGS[chars[k]!] === undefined) return false;
  }
  return 2 * letters >= j - i;
}

/** A run of one digit repeated, or digits in sequence up or down (`111111`, `123456`, `987654`, `7890`). */
export function isDigitRun(digits: string): boolean {
  const step = (digits.charCodeAt(1) - digits.charCodeAt(0) + 10) % 10;
  if (step !== 0 && step !== 1 && step !== 9) return false;
  for (let i = 2; i < digits.length; i++)
    if ((digits.charCodeAt(i) - digits.charCodeAt(i - 1) + 10) % 10 !== step) return false;
  return true;
}

/**
 * zxcvbn's count of l33t spellings of a word (l33tVariations): for each letter substituted, by the ways to
 * choose which of its occurrences are, at least 2.
 */
export function l33tVariations(typed: string, reading: string): number {
  const substituted = new Map<string, { subbed: number; unsubbed: number }>();
  const typedChars = [...typed];
  const readChars = [...reading];
  typedChars.forEach((ch, i) => {
    if (ch === readChars[i]) return;
    const pair = `${ch}${readChars[i]}`;
    const entry = substituted.get(pair) ?? { subbed: 0, unsubbed: 0 };
    entry.subbed++;
    substituted.set(pair, entry);
  });
  let variations = 1;
  for (const [pair, entry] of substituted) {
    const letter = [...pair][1]!;
    entry.unsubbed = typedChars.filter((ch) => ch === letter).length;
    if (entry.unsubbed === 0) variations *= 2;
    else {
      let sum = 0;
      for (let i = 1; i <= Math.min(entry.subbed, entry.unsubbed); i++)
        sum += binomial(entry.subbed + entry.unsubbed, i);
      variations *= sum;
    }
  }
  return variations;
}
