import { ZxcvbnFactory, type Options } from '@zxcvbn-ts/core';
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import { adjacencyOf, guessablePattern, type GuessablePattern } from './guessable-patterns';
import { DICTIONARIES, TRANSLATIONS } from './guessability-dictionaries';
import { rankedDictionary } from './ranked-dictionary';
import type { GuessabilityEstimator } from './strength-evaluator';

/**
 * zxcvbn's matching costs grow faster than linearly with length, and its l33t matcher with the number of
 * substitutions it tries: with the library's defaults (256, 100) one long pseudo-random password costs
 * seconds of CPU, a cheap way to tie up the function (`npm run bench` measures both settings side by side,
 * docs/performance.md#strength-evaluation). Truncation only lowers zxcvbn's estimate (fewer characters,
 * fewer guesses), and 64 characters that are not a pattern already score 4. test/unit/strength-evaluator.test.ts
 * pins l33t passwords whose score three substitutions keep as the defaults give it.
 */
export const GUESSABILITY_MAX_LENGTH = 64;
export const L33T_MAX_SUBSTITUTIONS = 3;

export type GuessabilityBounds = { maxLength: number; l33tMaxSubstitutions: number };
const BOUNDS: GuessabilityBounds = { maxLength: GUESSABILITY_MAX_LENGTH, l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS };

/** The highest score of a password that guessable-patterns.ts finds to be a word with affixes or a keyboard walk: Weak. */
const PATTERN_MAX_SCORE = 1;

/** The feedback sentence of each pattern, first among the suggestions; none quotes the password. */
export const PATTERN_FEEDBACK: Readonly<Record<GuessablePattern, string>> = {
  word: 'A common word or sequence with letter substitutions, digits, a year or a few symbols around it is easy to guess.',
  keyboard: 'Walks along the keyboard, even with shifted keys, are easy to guess.',
};

/**
 * The guessability estimator of the strength evaluation: zxcvbn-ts with its common-password list, keyboard
 * adjacency graphs and English dictionaries (words, names, Wikipedia), feedback in English, and the checks of
 * guessable-patterns.ts where zxcvbn-ts rates a construction too kindly: a password that is one word with
 * affixes or a keyboard walk scores at most PATTERN_MAX_SCORE. Building it indexes every dictionary (`npm run
 * bench` times it), so an entry point builds it once, at module scope, during init. Deterministic and free of
 * I/O: the dictionaries are part of the bundle. `bounds` and `patterns` exist for the benchmark, which
 * measures the library's own defaults (256, 100) and zxcvbn-ts alone against what ships.
 */
export function zxcvbnEstimator(bounds: GuessabilityBounds = BOUNDS, patterns = true): GuessabilityEstimator {
  const zxcvbn = zxcvbnWithDictionaries(bounds);
  const { rankedDictionaries, rankedDictionariesMaxWordSize } = (zxcvbn as unknown as { options: Options }).options;
  const dictionaries = Object.values(rankedDictionaries);
  const words = { has: (word: string) => dictionaries.some((lookup) => typeof lookup[word] === 'number'), maxLength: Math.max(...Object.values(rankedDictionariesMaxWordSize)) };
  const adjacent = adjacencyOf([adjacencyGraphs.qwerty, adjacencyGraphs.keypad] as Parameters<typeof adjacencyOf>[0]);
  return (password) => {
    const { score, feedback } = zxcvbn.check(password);
    const sentences = [...(feedback.warning ? [feedback.warning] : []), ...feedback.suggestions];
    const pattern = patterns ? guessablePattern(password, words, adjacent) : undefined;
    if (pattern === undefined) return { score, feedback: sentences };
    return { score: Math.min(score, PATTERN_MAX_SCORE), feedback: [PATTERN_FEEDBACK[pattern], ...sentences] };
  };
}

/**
 * zxcvbn-ts with the dictionaries of guessability-dictionaries.ts, each read in place (ranked-dictionary.ts)
 * rather than ranked into an object of every word, zxcvbn-ts's own way and most of this function's cold start.
 * zxcvbn-ts takes no ranked dictionary as an option, so they are set on its options as its setOptions would
 * set them. The version is pinned exactly, and test/unit/guessability.test.ts checks that every answer is
 * the one zxcvbn-ts gives with its own ranking.
 */
export function zxcvbnWithDictionaries(bounds: GuessabilityBounds = BOUNDS): ZxcvbnFactory {
  const zxcvbn = new ZxcvbnFactory({ translations: TRANSLATIONS, graphs: adjacencyGraphs, ...bounds });
  const options = (zxcvbn as unknown as { options: Options }).options;
  options.rankedDictionaries = {};
  options.rankedDictionariesMaxWordSize = {};
  for (const [name, lines] of Object.entries(DICTIONARIES)) {
    const { lookup, maxWordSize } = rankedDictionary(lines);
    options.rankedDictionaries[name] = lookup;
    options.rankedDictionariesMaxWordSize[name] = maxWordSize;
  }
  return zxcvbn;
}
