import type { GuessabilityEstimator } from '../../functions/domain/strength-evaluator';

/**
 * The estimator with its last answer kept, by password: asked again about the same password, it answers
 * without a second zxcvbn-ts run (the costly part of an evaluation property). Keyed by the exact text, so an
 * evaluator that asked about another text (a trimmed password, say) still gets, and is compared with, its
 * own answer. Not for a property about determinism, which must ask twice.
 */
export function remembered(estimate: GuessabilityEstimator): GuessabilityEstimator {
  let last: [string, ReturnType<GuessabilityEstimator>] | undefined;
  return (password) => (last?.[0] === password ? last[1] : (last = [password, estimate(password)])[1]);
}
