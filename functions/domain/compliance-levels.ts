/**
 * The scale of guess numbers the strength evaluation judges on (docs/evaluation.md#guess-numbers): zxcvbn's
 * thresholds, applied to the estimate of the strongest attack model. Its own module because both the
 * evaluator (strength-evaluator.ts) and the judgement in context (context-terms.ts) cap estimates on it.
 */

/** zxcvbn's thresholds: score k (1 to 4) takes at least 10^t + 5 guesses for the k-th t (zxcvbn's margin of 5 guesses). */
const GUESS_THRESHOLDS_LOG10 = [3, 6, 8, 10] as const;

/** The guessability score 0 to 4 of an estimate: zxcvbn's thresholds applied to it. */
export function guessabilityScore(guessesLog10: number): number {
  return GUESS_THRESHOLDS_LOG10.filter((t) => guessesLog10 >= Math.log10(10 ** t + 5) - 1e-12).length;
}

/** The guessability score of Strong (10^8 guesses or more): the bar the evaluation's own judgements use. */
export const STRONG_SCORE = 3;

/**
 * A check that caps the level at Weak (a breached password, a password built on a UserInput or a BannedWord)
 * caps the estimate at 10^6 - 1 guesses, Weak's last.
 */
export const WEAK_CEILING_LOG10 = Math.log10(10 ** GUESS_THRESHOLDS_LOG10[1] - 1);

/** GuessesLog10 as answered: rounded down to 2 decimals, so it stays below a threshold the estimate is below. */
export function answeredGuessesLog10(guessesLog10: number): number {
  return Math.floor(guessesLog10 * 100) / 100;
}
