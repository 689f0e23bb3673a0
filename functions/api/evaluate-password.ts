import { strengthPolicies } from '../domain/strength-policy';
import { zxcvbnEstimator } from '../domain/guessability';
import { evaluatePasswordHandler } from '../handlers/evaluate-password-handler';
import { instrumented } from '../observability';
import { catalogFromEnvironment } from './policy-function';

/**
 * Route-bound function of POST /api/passwordstrength/evaluate (routes.ts): reads only the strength policy
 * table. The estimator's dictionaries are ranked here, during Lambda's init phase, not in the first request.
 * Nothing here logs the event: its body holds the password.
 */
const catalog = catalogFromEnvironment(strengthPolicies);
const estimator = zxcvbnEstimator();

export const evaluatePassword = evaluatePasswordHandler(catalog, estimator);
export const handler = instrumented(evaluatePassword);
