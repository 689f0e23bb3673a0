/**
 * Two constructions that zxcvbn-ts rates too kindly (docs/evaluation.md#patterns-zxcvbn-ts-underrates):
 *
 *   - a word: one dictionary word, l33t or not, a sequence (`abcd`) or a repeat (`A@@44444`), with at most a short affix before and
 *     after it (`J3nn1f3r!`, `Summer2024!`, `Admin@123`, `Abcd@1234`). zxcvbn-ts tries 3 l33t readings of a password (its cost grows with more,
 *     see guess-estimator.ts), and it counts an affix such as `2024!` as random characters;
 *   - a keyboard walk: at most three runs of neighbouring keys, shifted or not (`1qaz@WSX`, `!QAZxsw2`).
 *     zxcvbn-ts's spatial matcher counts the shifted keys and the turns of a walk as if each were a free
 *     choice, and a walk that repeats a key shifted (`mju7&YHN`) is two patterns to it.
 *
 * Both checks are bounded whatever the password: a word is looked up only for the few ways to cut an affix
 * off a password of at most MAX_WORD_PASSWORD characters, with at most MAX_READINGS l33t readings of each;
 * a walk is one pass that stops at the fourth run. Pure: no I/O.
 */
import { isAffix, MAX_AFFIX_LENGTH } from '../text/affixes';
import type { Adjacency } from '../text/keyboards';
import { MAX_READINGS, readingsOf } from '../text/l33t';
import { isSequence, repeatedUnit } from '../text/sequences';

/** A letter, as zxcvbn-ts's dictionaries hold words of letters. */
const LETTER = /\p{L}/u;

/**
 * Dictionary lookups of one isAffixedWord at most: each of MAX_AFFIX_LENGTH + 1 prefixes with each of as many
 * suffixes, the core as written and its MAX_READINGS l33t readings.
 */
export const AFFIXED_WORD_MAX_LOOKUPS = (MAX_AFFIX_LENGTH + 1) ** 2 * (MAX_READINGS + 1);
/** Longer passwords are no single word with affixes (zxcvbn-ts's longest dictionary word is shorter). */
export const MAX_WORD_PASSWORD = 48;
const MIN_WORD = 3;

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
    for (
      let end = password.length;
      end >= Math.max(password.length - trailing, password.length - MAX_AFFIX_LENGTH, start + MIN_WORD);
      end--
    ) {
      if (!isAffix(password.slice(end))) continue;
      const core = password.slice(start, end);
      if (
        isSequence(core) ||
        (core.length <= words.maxLength &&
          readingsOf(core).some((reading) => words.has(reading) || repeatedUnit(reading) !== undefined))
      )
        return true;
    }
  }
  return false;
}

/** How many characters from `from`, stepping by `step`, are not letters. */
function runLength(text: string, from: number, step: 1 | -1): number {
  let length = 0;
  for (let i = from; i >= 0 && i < text.length && !LETTER.test(text[i]!); i += step) length++;
  return length;
}

/** zxcvbn-ts's adjacency graphs: each key, its neighbours in a fixed order of directions, as strings of the key and its shifted character. */

/** At most this many runs of neighbouring keys make a walk; each run has at least MIN_RUN keys. */
const MAX_WALK_RUNS = 3;
const MIN_RUN = 4;
const MIN_WALK = 6;

/** Every bit set: the graphs a run may still be on before its first step. */
const ALL_GRAPHS = -1;

/** The password as a keyboard walk: at least MIN_WALK characters in at most MAX_WALK_RUNS runs of neighbouring keys, each at least MIN_RUN long. */
export function isKeyboardWalk(password: string, adjacent: Adjacency): boolean {
  const characters = [...password];
  if (characters.length < MIN_WALK) return false;
  const folded = characters.map((ch) => ch.toLowerCase());
  let runs = 1;
  let run = 1;
  // The keyboards every step of the run so far is a step on: a run that goes from the QWERTY keys to the keypad's
  // (`ft689`) is no walk anyone types.
  let graphs = ALL_GRAPHS;
  for (let i = 1; i < characters.length; i++) {
    const shared = graphs & adjacent(characters[i - 1]!, characters[i]!);
    // A step back to the key before turns the walk: the way back is a run of its own (`qwert` then `rewq`), or
    // random text would zigzag through a run of 4 (`ESeeaw22`, `RErdsq`, which AZERTY makes one).
    const back = folded[i] !== folded[i - 1] && folded[i] === folded[i - 2];
    if (shared !== 0 && !back) {
      graphs = shared;
      // A character typed again keeps the run going but adds no length.
      if (folded[i] !== folded[i - 1]) run++;
    } else {
      if (run < MIN_RUN || ++runs > MAX_WALK_RUNS) return false;
      run = 1;
      graphs = ALL_GRAPHS;
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
    if (cut <= leading && isAffix(password.slice(0, cut)) && isKeyboardWalk(password.slice(cut), adjacent))
      return 'keyboard';
    if (cut <= trailing && isAffix(password.slice(-cut)) && isKeyboardWalk(password.slice(0, -cut), adjacent))
      return 'keyboard';
  }
  return undefined;
}
