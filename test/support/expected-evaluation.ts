import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword, type StrengthEvaluation } from '../../functions/domain/evaluation/strength-evaluator';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';

/** The shipped estimator, built once for every expected evaluation of a test file. */
const estimate = guessEstimator();

/**
 * The evaluation the service must answer, made in process with the shipped estimator, for the end-to-end tests
 * to compare the answer over HTTP with; `breached` is what the service's breached-password checks say of it.
 */
export function expectedEvaluation(
  policy: StrengthPolicy,
  password: string,
  breached = false,
  userInputs: readonly string[] = [],
): StrengthEvaluation {
  return evaluatePassword(policy, password, estimate, breached, userInputs);
}
