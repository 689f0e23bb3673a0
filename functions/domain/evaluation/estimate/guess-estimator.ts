import { BREACHED_PASSWORDS } from './breached-password-list';
import { attackModels, COMMON_PASSWORDS, type AttackModel } from './attack-models';
import { MARKOV_MODEL_DATA } from '../data/markov-model-data';
import { adjacencyOf } from '../text/keyboards';
import { KEYBOARDS } from '../text/keyboard-layouts';
import { guessablePattern, type GuessablePattern } from './pattern-caps';
import { COMMON_WORD_RANKS } from './shipped-dictionaries';
import { atMostWeak, guessabilityScore, STRONG } from '../../compliance-levels';
import type { MessageKey } from '../messages/catalogue';
import type { GuessabilityEstimator, WorkMeter } from './guessability';
import {
  BOUNDS,
  counted,
  optionsOf,
  userInputsDictionaries,
  zxcvbnWithDictionaries,
  type GuessabilityBounds,
} from './zxcvbn-adapter';

/** The feedback sentence of each pattern (its key in messages/), first among the suggestions; none quotes the password. */
export const PATTERN_FEEDBACK: Readonly<Record<GuessablePattern, MessageKey>> = {
  word: 'suggestion.wordWithAffixes',
  keyboard: 'suggestion.keyboardWalk',
};

/** The sentence of an attack model that estimates fewer guesses than zxcvbn-ts, below Strong; none quotes the password. */
export const MODEL_FEEDBACK: Readonly<Record<AttackModel, MessageKey>> = {
  words: 'suggestion.mangledWords',
  walk: PATTERN_FEEDBACK.keyboard,
  markov: 'suggestion.leakedShape',
};

/**
 * The guessability estimator of the strength evaluation (docs/evaluation.md#guess-numbers): the fewest guesses
 * of the attack models, zxcvbn-ts with its common-password list, keyboard adjacency graphs and English
 * dictionaries (words, names, Wikipedia), the rule model and the Markov model (estimate/), feedback as
 * message keys; and the checks of pattern-caps.ts: a password that is one word with affixes or a keyboard
 * walk is estimated at most Weak (atMostWeak). The walks of the rule model and the pattern checks are read on
 * every keyboard of KEYBOARDS (US QWERTY, the keypad, QWERTZ, AZERTY, JCUKEN); zxcvbn-ts keeps its own graphs.
 * Building it sets up every dictionary and model (`npm run bench` times it), so an entry point builds it once, at
 * module scope, during init. Deterministic, and free of I/O once built: the models are part of the bundle, and
 * the dictionaries' file beside it is read once, at import (data/guessability-dictionaries.ts).
 * `bounds`, `patterns` and `models` exist for the benchmarks, which measure the library's own defaults (256, 100)
 * and zxcvbn-ts alone against what ships.
 */
export function guessEstimator(
  bounds: GuessabilityBounds = BOUNDS,
  patterns = true,
  models = patterns,
  meter?: WorkMeter,
): GuessabilityEstimator {
  const zxcvbn = zxcvbnWithDictionaries(bounds);
  const { rankedDictionaries, rankedDictionariesMaxWordSize } = optionsOf(zxcvbn);
  const dictionaries = Object.values(rankedDictionaries);
  const words = {
    has: (word: string) => (
      meter?.('pattern lookups', 1), dictionaries.some((lookup) => typeof lookup[word] === 'number')
    ),
    maxLength: Math.max(...Object.values(rankedDictionariesMaxWordSize)),
  };
  const adjacent = adjacencyOf(KEYBOARDS);
  const withUserInputs = userInputsDictionaries(zxcvbn, meter);
  const attacks = models
    ? attackModels({
        rankedDictionaries,
        maxWordSizes: rankedDictionariesMaxWordSize,
        commonPasswords: { name: COMMON_PASSWORDS, wordRanks: COMMON_WORD_RANKS },
        breached: BREACHED_PASSWORDS,
        graphs: KEYBOARDS,
        markov: MARKOV_MODEL_DATA,
      })
    : undefined;
  // Metered, zxcvbn-ts's lookups are counted from here on; the attack models keep the dictionaries they were given.
  if (meter)
    for (const name of Object.keys(rankedDictionaries))
      rankedDictionaries[name] = counted(rankedDictionaries[name]!, meter);
  return (password, userInputs = []) => {
    meter?.('estimates', 1);
    const { guessesLog10, feedback } = withUserInputs(userInputs, () => zxcvbn.check(password));
    // zxcvbn-ts's feedback is keys: its translations are KEYED_TRANSLATIONS (zxcvbn-adapter.ts).
    const sentences = [...(feedback.warning ? [feedback.warning] : []), ...feedback.suggestions] as MessageKey[];
    const attack = attacks?.estimate(password);
    if (meter && attack)
      for (const kind of ['rule readings', 'rule steps', 'markov symbols'] as const) meter(kind, attack.work[kind]);
    const estimate = attack && attack.guessesLog10 < guessesLog10 ? attack.guessesLog10 : guessesLog10;
    const pattern = patterns ? guessablePattern(password, words, adjacent) : undefined;
    if (pattern !== undefined)
      return { guessesLog10: atMostWeak(estimate), feedback: [PATTERN_FEEDBACK[pattern], ...sentences] };
    // The sentence of the model that found the password, when it lowers the score below Strong and below zxcvbn-ts's:
    // it says what zxcvbn-ts did not see.
    const found =
      attack &&
      estimate < guessesLog10 &&
      guessabilityScore(estimate) < Math.min(STRONG, guessabilityScore(guessesLog10));
    return { guessesLog10: estimate, feedback: found ? [MODEL_FEEDBACK[attack.model], ...sentences] : sentences };
  };
}
