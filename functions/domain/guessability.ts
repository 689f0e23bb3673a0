import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import type { GuessabilityEstimator } from './strength-evaluator';

/**
 * zxcvbn's matching costs grow faster than linearly with length, and its l33t matcher with the number of
 * substitutions it tries: with the library's defaults (256, 100), 64 pseudo-random printable characters took
 * 0.35-0.5 s and 256 took 2.5-3.6 s here, a cheap way to tie up the function. With 64 and 10 the worst input
 * still took 50-65 ms; with 64 and 3, about 20 ms (`npm run bench` reports it). Truncation only lowers
 * zxcvbn's estimate (fewer characters, fewer guesses), and 64 characters that are not a pattern already score
 * 4. Three substitutions found every l33t password tried (P4$$w0rd, @dm1n1str@t0r, 5up3rm4n, B@$3b@ll1 and 16
 * more scored the same as with the defaults); test/unit/strength-evaluator.test.ts pins such cases.
 */
export const GUESSABILITY_MAX_LENGTH = 64;
export const L33T_MAX_SUBSTITUTIONS = 3;

/**
 * The guessability estimator of the strength evaluation: zxcvbn-ts with its common-password list, keyboard
 * adjacency graphs and English dictionaries (words, names, Wikipedia), feedback in English. Building it
 * ranks every dictionary (about 0.2 s), so an entry point builds it once, at module scope, during init.
 * Deterministic and free of I/O: the dictionaries are part of the bundle. `bounds` exist for the benchmark,
 * which measures the library's own defaults (256, 100) against ours.
 */
export function zxcvbnEstimator(bounds: { maxLength: number; l33tMaxSubstitutions: number } = { maxLength: GUESSABILITY_MAX_LENGTH, l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS }): GuessabilityEstimator {
  const zxcvbn = new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...englishDictionary },
    ...bounds,
  });
  return (password) => {
    const { score, feedback } = zxcvbn.check(password);
    return { score, feedback: [...(feedback.warning ? [feedback.warning] : []), ...feedback.suggestions] };
  };
}
