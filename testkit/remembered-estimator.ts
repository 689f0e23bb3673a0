import type { GuessabilityEstimator } from '../functions/domain/evaluation/estimate/guessability';

/**
 * The estimator with its last answer kept, by password and user inputs: asked again about the same password
 * in the same context, it answers without a second zxcvbn-ts run (the costly part of an evaluation property).
 * Keyed by the exact text and the lists of user inputs (context-terms.ts), so an evaluator that asked about
 * another text (a trimmed password, what is left of it) or in another context still gets, and is compared
 * with, its own answer. Not for a property about determinism, which must ask twice.
 */
export function remembered(estimate: GuessabilityEstimator): GuessabilityEstimator {
  let last: [string, ReturnType<GuessabilityEstimator>] | undefined;
  return (password, userInputs) => {
    const key = JSON.stringify([password, userInputs ?? []]);
    return last?.[0] === key ? last[1] : (last = [key, estimate(password, userInputs)])[1];
  };
}
