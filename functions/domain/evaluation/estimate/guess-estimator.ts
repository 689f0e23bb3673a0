import { ZxcvbnFactory, type Options } from '@zxcvbn-ts/core';
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import { BREACHED_PASSWORDS } from './breached-password-list';
import { attackModels, type AttackModel } from './attack-models';
import { MARKOV_MODEL_DATA } from '../data/markov-model-data';
import { adjacencyOf, type AdjacencyGraph } from '../text/keyboards';
import { guessablePattern, type GuessablePattern } from './pattern-caps';
import { DICTIONARIES, TRANSLATIONS } from '../data/guessability-dictionaries';
import { rankedDictionary } from './ranked-dictionary';
import { atMostWeak, guessabilityScore, STRONG } from '../../compliance-levels';
import type { GuessabilityEstimator } from './guessability';

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
 * zxcvbn-ts's dictionary lookups in one check, at most, for dictionaries whose longest words are `maxWordSizes`:
 * the password cut to maxLength (n) characters is looked up in each dictionary for every substring no longer
 * than its longest word W (the sum over i < n of min(W, n - i)) and once whole, in 2 + l33tMaxSubstitutions
 * passes (as typed, reversed, and each l33t reading); and at most as much again for the base tokens its repeat
 * matcher estimates (they do not overlap and each is at most half its repeat, so their lengths add up to n).
 */
export function zxcvbnMaxLookups(maxWordSizes: readonly number[], bounds: GuessabilityBounds = BOUNDS): number {
  const n = bounds.maxLength;
  const perPass = maxWordSizes.reduce((sum, w) => sum + 1 + Array.from({ length: n }, (_, i) => Math.min(w, n - i)).reduce((a, b) => a + b, 0), 0);
  return 2 * (2 + bounds.l33tMaxSubstitutions) * perPass;
}

/** The feedback sentence of each pattern, first among the suggestions; none quotes the password. */
export const PATTERN_FEEDBACK: Readonly<Record<GuessablePattern, string>> = {
  word: 'A common word or sequence with letter substitutions, digits, a year or a few symbols around it is easy to guess.',
  keyboard: 'Walks along the keyboard, even with shifted keys, are easy to guess.',
};

/** The sentence of an attack model that estimates fewer guesses than zxcvbn-ts, below Strong; none quotes the password. */
export const MODEL_FEEDBACK: Readonly<Record<AttackModel, string>> = {
  words: 'Common words joined, reversed, doubled or spelled with substitutions, with digits or symbols around them, are among the first guesses of cracking rules.',
  walk: PATTERN_FEEDBACK.keyboard,
  markov: 'This password is built like many leaked passwords.',
};

/**
 * The guessability estimator of the strength evaluation (docs/evaluation.md#guess-numbers): the fewest guesses
 * of the attack models, zxcvbn-ts with its common-password list, keyboard adjacency graphs and English
 * dictionaries (words, names, Wikipedia), the rule model and the Markov model (estimate/), feedback in
 * English; and the checks of pattern-caps.ts: a password that is one word with affixes or a keyboard
 * walk is estimated at most Weak (atMostWeak). Building it indexes every dictionary (`npm run
 * bench` times it), so an entry point builds it once, at module scope, during init. Deterministic and free of
 * I/O: the dictionaries and the models are part of the bundle. `bounds`, `patterns` and `models` exist for
 * the benchmarks, which measure the library's own defaults (256, 100) and zxcvbn-ts alone against what ships.
 */
export function zxcvbnEstimator(bounds: GuessabilityBounds = BOUNDS, patterns = true, models = patterns, meter?: WorkMeter): GuessabilityEstimator {
  const zxcvbn = zxcvbnWithDictionaries(bounds);
  const { rankedDictionaries, rankedDictionariesMaxWordSize } = (zxcvbn as unknown as { options: Options }).options;
  const dictionaries = Object.values(rankedDictionaries);
  const words = { has: (word: string) => (meter?.('pattern lookups', 1), dictionaries.some((lookup) => typeof lookup[word] === 'number')), maxLength: Math.max(...Object.values(rankedDictionariesMaxWordSize)) };
  const graphs = [adjacencyGraphs.qwerty, adjacencyGraphs.keypad] as AdjacencyGraph[];
  const adjacent = adjacencyOf(graphs);
  const withUserInputs = userInputsDictionaries(zxcvbn, meter);
  const attacks = models
    ? attackModels({
        rankedDictionaries,
        maxWordSizes: rankedDictionariesMaxWordSize,
        commonPasswords: { name: 'passwords-common', lines: DICTIONARIES['passwords-common']! },
        breached: BREACHED_PASSWORDS,
        graphs,
        markov: MARKOV_MODEL_DATA,
      })
    : undefined;
  // Metered, zxcvbn-ts's lookups are counted from here on; the attack models keep the dictionaries they were given.
  if (meter) for (const name of Object.keys(rankedDictionaries)) rankedDictionaries[name] = counted(rankedDictionaries[name]!, meter);
  return (password, userInputs = []) => {
    meter?.('estimates', 1);
    const { guessesLog10, feedback } = withUserInputs(userInputs, () => zxcvbn.check(password));
    const sentences = [...(feedback.warning ? [feedback.warning] : []), ...feedback.suggestions];
    const attack = attacks?.estimate(password);
    if (meter && attack) for (const kind of ['rule readings', 'rule steps', 'markov symbols'] as const) meter(kind, attack.work[kind]);
    const estimate = attack && attack.guessesLog10 < guessesLog10 ? attack.guessesLog10 : guessesLog10;
    const pattern = patterns ? guessablePattern(password, words, adjacent) : undefined;
    if (pattern !== undefined) return { guessesLog10: atMostWeak(estimate), feedback: [PATTERN_FEEDBACK[pattern], ...sentences] };
    // The sentence of the model that found the password, when it lowers the score below Strong and below zxcvbn-ts's:
    // it says what zxcvbn-ts did not see.
    const found = attack && estimate < guessesLog10 && guessabilityScore(estimate) < Math.min(STRONG, guessabilityScore(guessesLog10));
    return { guessesLog10: estimate, feedback: found ? [MODEL_FEEDBACK[attack.model], ...sentences] : sentences };
  };
}

/**
 * The work of estimates, counted by kind, for the test that holds each to its bound
 * (test/reliability/evaluation-work.test.ts, docs/evaluation.md#the-evaluations-worst-case); the service counts
 * nothing. zxcvbn-ts's dictionary lookups are counted through a proxy around each dictionary, the rest as the
 * models report them.
 */
export type WorkMeter = (kind: EstimateWork, count: number) => void;
export type EstimateWork = 'estimates' | 'zxcvbn lookups' | 'rule readings' | 'rule steps' | 'markov symbols' | 'pattern lookups';

/** A dictionary whose every lookup is counted as one of zxcvbn-ts's. */
function counted(lookup: Record<string, number>, meter: WorkMeter): Record<string, number> {
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
function userInputsDictionaries(zxcvbn: ZxcvbnFactory, meter?: WorkMeter): <T>(lists: readonly (readonly string[])[], check: () => T) => T {
  const { rankedDictionaries, rankedDictionariesMaxWordSize } = (zxcvbn as unknown as { options: Options }).options;
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
