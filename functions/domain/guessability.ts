import { ZxcvbnFactory, type Options } from '@zxcvbn-ts/core';
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
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

/**
 * The guessability estimator of the strength evaluation: zxcvbn-ts with its common-password list, keyboard
 * adjacency graphs and English dictionaries (words, names, Wikipedia), feedback in English. Building it
 * indexes every dictionary (`npm run bench` times it), so an entry point builds it once, at module scope,
 * during init. Deterministic and free of I/O: the dictionaries are part of the bundle. `bounds` exist for the
 * benchmark, which measures the library's own defaults (256, 100) against ours.
 */
export function zxcvbnEstimator(bounds: GuessabilityBounds = BOUNDS): GuessabilityEstimator {
  const zxcvbn = zxcvbnWithDictionaries(bounds);
  return (password) => {
    const { score, feedback } = zxcvbn.check(password);
    return { score, feedback: [...(feedback.warning ? [feedback.warning] : []), ...feedback.suggestions] };
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
