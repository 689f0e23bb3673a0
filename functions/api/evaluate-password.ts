import { strengthPolicies } from '../domain/strength-policy';
import { zxcvbnEstimator } from '../domain/guessability';
import { evaluatePasswordHandler } from '../handlers/evaluate-password-handler';
import { instrumented } from '../observability';
import { catalogFromEnvironment } from './policy-function';

/**
 * Route-bound function of POST /api/passwordstrength/evaluate (routes.ts): reads only the strength policy
 * table. The estimator's dictionaries are ranked here, during Lambda's init phase, not in the first request.
 * Its body holds the password: the event is logged only with POWERTOOLS_LOGGER_LOG_EVENT=true, and then
 * through the logger's redaction (observability.ts), body and headers replaced.
 */
const catalog = catalogFromEnvironment(strengthPolicies);
const estimator = zxcvbnEstimator();

export const evaluatePassword = evaluatePasswordHandler(catalog, estimator);
export const handler = instrumented(evaluatePassword);
