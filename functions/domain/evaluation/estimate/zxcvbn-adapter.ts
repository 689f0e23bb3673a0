import { ZxcvbnFactory, type Options } from '@zxcvbn-ts/core';
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import { TRANSLATIONS } from '../data/guessability-dictionaries';
import { DICTIONARY_FILE } from './shipped-dictionaries';
import type { WorkMeter } from './guessability';

/**
 * zxcvbn-ts as the service runs it, and the one place that reaches into its internals. zxcvbn-ts has no public
 * API for dictionaries ranked ahead of time nor for user inputs that stay ranked between checks: its options
 * take word lists, which it ranks into an object of every word at construction (most of a cold start) and
 * again on every check. So the ranked dictionaries are set on its options object as its own setOptions would
 * set them, through optionsOf, the only cast. The version is pinned exactly in package.json, and
 * test/unit/zxcvbn-adapter.test.ts fails when the pinned version's options no longer have this shape or no
 * longer read a dictionary set there.
 */

/** zxcvbn-ts's options object, which its matchers read on every check; throws when it is not the shape this adapter sets. */
export function optionsOf(zxcvbn: ZxcvbnFactory): Options {
  const options = (zxcvbn as unknown as { options?: Options }).options;
  if (typeof options?.rankedDictionaries !== 'object' || typeof options.rankedDictionariesMaxWordSize !== 'object') {
    throw new Error(
      'zxcvbn-ts no longer keeps rankedDictionaries and rankedDictionariesMaxWordSize on its options: see estimate/zxcvbn-adapter.ts',
    );
  }
  return options;
}

/**
 * zxcvbn's matching costs grow faster than linearly with length, and its l33t matcher with the number of
 * substitutions it tries: with the library's defaults (256, 100) one long pseudo-random password costs
 * seconds of CPU, a cheap way to tie up the function (`npm run bench` measures both settings side by side,
 * docs/performance.md#strength-evaluation). Truncation only lowers zxcvbn's estimate (fewer characters,
 * fewer guesses), and 48 characters that are not a pattern already score 4 (the rule model reads up to 96, the
 * Markov model all). 48, not 64: the worst body of the hostile bench (a 256-character l33t run) is checked twice,
 * and a check of 48 characters costs about a third less than one of 64. test/unit/strength-evaluator.test.ts
 * pins l33t passwords whose score three substitutions keep as the defaults give it.
 */
export const GUESSABILITY_MAX_LENGTH = 48;
export const L33T_MAX_SUBSTITUTIONS = 3;

export type GuessabilityBounds = { maxLength: number; l33tMaxSubstitutions: number };
export const BOUNDS: GuessabilityBounds = {
  maxLength: GUESSABILITY_MAX_LENGTH,
  l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
};

/**
 * zxcvbn-ts's dictionary lookups in one check, at most, for dictionaries whose longest words are `maxWordSizes`:
 * the password cut to maxLength (n) characters is looked up in each dictionary for every substring no longer
 * than its longest word W (the sum over i < n of min(W, n - i)) and once whole, in 2 + l33tMaxSubstitutions
 * passes (as typed, reversed, and each l33t reading); and at most as much again for the base tokens its repeat
 * matcher estimates (they do not overlap and each is at most half its repeat, so their lengths add up to n).
 */
export function zxcvbnMaxLookups(maxWordSizes: readonly number[], bounds: GuessabilityBounds = BOUNDS): number {
  const n = bounds.maxLength;
  const perPass = maxWordSizes.reduce(
    (sum, w) => sum + 1 + Array.from({ length: n }, (_, i) => Math.min(w, n - i)).reduce((a, b) => a + b, 0),
    0,
  );
  return 2 * (2 + bounds.l33tMaxSubstitutions) * perPass;
}

/** A dictionary whose every lookup is counted as one of zxcvbn-ts's. */
export function counted(lookup: Record<string, number>, meter: WorkMeter): Record<string, number> {
  return new Proxy(lookup, {
    get: (target, key, receiver) => {
      if (typeof key === 'string') meter('zxcvbn lookups', 1);
      return Reflect.get(target, key, receiver);
    },
  });
}

/** How many lists of user inputs one check takes (context-terms.ts: the request's tokens, the policy's BannedWords). */
const USER_INPUT_LISTS = 2;

/**
 * Runs a check with each list of user inputs as a dictionary of zxcvbn-ts, named `userInputs-N` so that its
 * feedback is the user-inputs warning. zxcvbn-ts's own `check(password, userInputs)` ranks the list into a new
 * object on every check and copies it again for every dictionary pass (about 2 ms for 1,000 words); here a
 * list's lookup is built once per array (a policy's BannedWords stay one array while the policy does) and set
 * on the options for the one synchronous check. Each slot is always present (empty when unused), so the
 * options keep their shape. Ranks are positions in the list, as zxcvbn-ts ranks user inputs.
 */
export function userInputsDictionaries(
  zxcvbn: ZxcvbnFactory,
  meter?: WorkMeter,
): <T>(lists: readonly (readonly string[])[], check: () => T) => T {
  const { rankedDictionaries, rankedDictionariesMaxWordSize } = optionsOf(zxcvbn);
  const names = Array.from({ length: USER_INPUT_LISTS }, (_, i) => `userInputs-${i + 1}`);
  const EMPTY: Record<string, number> = Object.create(null);
  const lookups = new WeakMap<readonly string[], { lookup: Record<string, number>; maxWordSize: number }>();
  const lookupOf = (list: readonly string[]) => {
    let built = lookups.get(list);
    if (built === undefined) {
      const lookup: Record<string, number> = Object.create(null);
      list.forEach((word, i) => (lookup[word] ??= i + 1));
      built = { lookup, maxWordSize: Math.max(0, ...list.map((word) => word.length)) };
      lookups.set(list, built);
    }
    return built;
  };
  const set = (lists: readonly (readonly string[])[]) =>
    names.forEach((name, i) => {
      const { lookup, maxWordSize } = lists[i] === undefined ? { lookup: EMPTY, maxWordSize: 0 } : lookupOf(lists[i]);
      rankedDictionaries[name] = meter ? counted(lookup, meter) : lookup;
      rankedDictionariesMaxWordSize[name] = maxWordSize;
    });
  set([]);
  return (lists, check) => {
    if (lists.length > USER_INPUT_LISTS) throw new Error(`At most ${USER_INPUT_LISTS} lists of user inputs`);
    if (lists.length === 0) return check();
    set(lists);
    try {
      return check();
    } finally {
      set([]);
    }
  };
}

/**
 * zxcvbn-ts's feedback as message keys: each warning and suggestion of its English translations replaced by its
 * key in the catalogues (messages/en.json's `zxcvbn.warnings.<name>`, `zxcvbn.suggestions.<name>`, which hold the
 * same English sentences), so that its feedback is rendered in the answer's language like the evaluation's own
 * sentences. test/unit/message-catalogues.test.ts checks that every key is in every catalogue.
 */
export const KEYED_TRANSLATIONS: typeof TRANSLATIONS = {
  ...TRANSLATIONS,
  warnings: keyed(TRANSLATIONS.warnings, 'warnings'),
  suggestions: keyed(TRANSLATIONS.suggestions, 'suggestions'),
};

function keyed<T extends Record<string, string>>(sentences: T, group: string): T {
  return Object.fromEntries(Object.keys(sentences).map((name) => [name, `zxcvbn.${group}.${name}`])) as T;
}

/**
 * zxcvbn-ts with the dictionaries of guessability-dictionaries.bin, each read in place (ranked-dictionary.ts)
 * rather than ranked into an object of every word, zxcvbn-ts's own way and most of this function's cold start.
 * zxcvbn-ts takes no ranked dictionary as an option, so they are set on its options as its setOptions would
 * set them. The version is pinned exactly, and test/unit/guessability.test.ts checks that every answer is
 * the one zxcvbn-ts gives with its own ranking.
 */
export function zxcvbnWithDictionaries(bounds: GuessabilityBounds = BOUNDS): ZxcvbnFactory {
  const zxcvbn = new ZxcvbnFactory({ translations: KEYED_TRANSLATIONS, graphs: adjacencyGraphs, ...bounds });
  const options = optionsOf(zxcvbn);
  options.rankedDictionaries = {};
  options.rankedDictionariesMaxWordSize = {};
  for (const [name, { lookup, maxWordSize }] of Object.entries(DICTIONARY_FILE.ranked)) {
    options.rankedDictionaries[name] = lookup;
    options.rankedDictionariesMaxWordSize[name] = maxWordSize;
  }
  return zxcvbn;
}
