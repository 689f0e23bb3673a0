import { ZxcvbnFactory, type Options } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
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

/**
 * The guessability estimator of the strength evaluation: zxcvbn-ts with its common-password list, keyboard
 * adjacency graphs and English dictionaries (words, names, Wikipedia), feedback in English. Building it
 * ranks every dictionary (`npm run bench` times it), so an entry point builds it once, at module scope, during init.
 * Deterministic and free of I/O: the dictionaries are part of the bundle. `bounds` exist for the benchmark,
 * which measures the library's own defaults (256, 100) against ours.
 */
export function zxcvbnEstimator(bounds: { maxLength: number; l33tMaxSubstitutions: number } = { maxLength: GUESSABILITY_MAX_LENGTH, l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS }): GuessabilityEstimator {
  const zxcvbn = new ZxcvbnFactory({ translations, graphs: adjacencyGraphs, ...bounds });
  const dictionary = { ...commonDictionary, ...englishDictionary };
  const ranked: Record<string, Record<string, number>> = {};
  const maxWordSize: Record<string, number> = {};
  for (const [name, words] of Object.entries(dictionary)) {
    ranked[name] = rankedLookup(words);
    maxWordSize[name] = words.reduce((max, word) => Math.max(max, word.length), 0);
  }
  const options = (zxcvbn as unknown as { options: Options }).options;
  options.dictionary = dictionary;
  options.rankedDictionaries = ranked;
  options.rankedDictionariesMaxWordSize = maxWordSize;
  return (password) => {
    const { score, feedback } = zxcvbn.check(password);
    return { score, feedback: [...(feedback.warning ? [feedback.warning] : []), ...feedback.suggestions] };
  };
}

function rankedLookup(words: readonly string[]): Record<string, number> {
  const ranks = new Map<string, number>();
  words.forEach((word, i) => ranks.set(word, i + 1));
  return new Proxy({}, { get: (target, key, receiver) => (typeof key === 'string' ? ranks.get(key) : undefined) ?? Reflect.get(target, key, receiver) });
}
