/**
 * The compliance levels (docs/evaluation.md#compliancelevel), the one home of what makes each: their names, the
 * Score band and the guess threshold of each, and the two levels the evaluation's own judgements use, Weak and
 * Strong. The evaluator, the strength policy's schema, the policy lint, the API description and the docs' level
 * table (test/unit/compliance-levels.test.ts) read them here.
 */

/** The levels, 0 to 4, by name: a policy's PasswordStrengthCompliance and an evaluation's ComplianceLevel index them. */
export const COMPLIANCE_LEVELS = ['Very Poor', 'Weak', 'Average', 'Strong', 'Excellent'] as const;
export type ComplianceLevelName = (typeof COMPLIANCE_LEVELS)[number];

/** The level a check caps a password at (a breached password, a word with affixes, one built on a term). */
export const WEAK = COMPLIANCE_LEVELS.indexOf('Weak');
/** The level of 10^8 guesses: the bar of the evaluation's own judgements (what a rest must reach to stand alone). */
export const STRONG = COMPLIANCE_LEVELS.indexOf('Strong');

/** A Score band's width: Score 0-19 gives level 0, 20-39 level 1, ..., 80-100 level 4. */
const SCORE_BAND_WIDTH = 20;

/** The level of a Score (0 to 100) by its band. */
export function scoreBand(score: number): number {
  return Math.min(COMPLIANCE_LEVELS.length - 1, Math.floor(score / SCORE_BAND_WIDTH));
}

/** The Scores of a level's band, first and last. */
export function scoreBandRange(level: number): readonly [number, number] {
  return [level * SCORE_BAND_WIDTH, level === COMPLIANCE_LEVELS.length - 1 ? 100 : (level + 1) * SCORE_BAND_WIDTH - 1];
}

/**
 * zxcvbn's thresholds: level k (1 to 4) takes at least 10^t + 5 guesses for the k-th t (zxcvbn's margin of 5
 * guesses); level 0 none.
 */
export const GUESS_THRESHOLDS_LOG10 = [3, 6, 8, 10] as const;

/** The guesses (log10, before the margin of 5) a level needs: 10^3 for Weak ... 10^10 for Excellent; 0 for Very Poor. */
export function guessThresholdLog10(level: number): number {
  return level === 0 ? 0 : GUESS_THRESHOLDS_LOG10[level - 1]!;
}

/** The guessability score 0 to 4 of an estimate: the level its guesses reach. */
export function guessabilityScore(guessesLog10: number): number {
  return GUESS_THRESHOLDS_LOG10.filter((t) => guessesLog10 >= Math.log10(10 ** t + 5) - 1e-12).length;
}

/** The most guesses a Weak password may count: one fewer than the threshold of the level above Weak (10^6 - 1). */
export const WEAK_CEILING_LOG10 = Math.log10(10 ** guessThresholdLog10(WEAK + 1) - 1);

/**
 * An estimate capped at Weak. The cap is defined here once; each check that finds a password guessable whatever
 * zxcvbn-ts counts applies it where it decides: the pattern caps in the estimate (so that the judgement in
 * context sees a capped rest), the judgement in context, and the breached-password check in the evaluator.
 */
export function atMostWeak(guessesLog10: number): number {
  return Math.min(guessesLog10, WEAK_CEILING_LOG10);
}

/** GuessesLog10 as answered: rounded down to 2 decimals, so it stays below a threshold the estimate is below. */
export function answeredGuessesLog10(guessesLog10: number): number {
  return Math.floor(guessesLog10 * 100) / 100;
}
