import { BREACHED_PASSWORDS } from '../domain/breached-password-filter';
import { zxcvbnEstimator } from '../domain/guessability';
import { DEFAULT_POLICY_ID, MAX_POLICY_ID } from '../domain/policy-collection';
import { CONTROL_CHARACTER, evaluatePassword, MAX_PASSWORD_LENGTH, UNPAIRED_SURROGATE } from '../domain/strength-evaluator';
import { strengthPolicies } from '../domain/strength-policy';
import { apiHandler, ApiError, noStoreJsonResponse, readJsonObjectBody } from '../http';
import { PolicyRepository } from '../repositories/policies';
import { pwnedPasswordsCheck, pwnedPasswordsSettings } from '../repositories/pwned-passwords';
import { LIMITS } from '../routes';

/**
 * The function of POST /api/passwordstrength/evaluate with {"PasswordStrengthPolicyID": N, "Password": "..."}:
 * the evaluation of the password against strength policy N. The password is never logged (the logger
 * redacts bodies), echoed in an error, or kept: the answer is no-store, and no phrase quotes the body.
 */
const repository = PolicyRepository.fromEnvironment(strengthPolicies);
// Indexing the estimator's dictionaries takes a moment: here it falls in Lambda's init phase, not a request.
const estimate = zxcvbnEstimator();
// Have I Been Pwned's range API when PWNED_PASSWORDS_CHECK=true; otherwise always false, and nothing is sent.
const online = pwnedPasswordsCheck(pwnedPasswordsSettings());

export const handler = apiHandler(async (event) => {
  if (Object.keys(event.multiValueQueryStringParameters ?? event.queryStringParameters ?? {}).length > 0) {
    // Not even the parameter's name is echoed: `?<password>` would be one.
    throw new ApiError(400, 'This route takes no query parameters: send the password in the JSON body, never in the URL.');
  }
  const request = readEvaluationRequest(readJsonObjectBody(event, LIMITS.evaluationBodyBytes));
  const policy = (await repository.get()).policies.find((p) => p.PasswordStrengthPolicyID === request.policyId);
  if (!policy) throw new ApiError(404, `No password strength policy has PasswordStrengthPolicyID ${request.policyId}.`);
  // The offline blocklist first; the online check (it never throws, it fails open) only when that misses, so a
  // password already known to be breached never leaves the function even as a hash prefix.
  const breached = BREACHED_PASSWORDS.has(request.password) || (await online(request.password));
  return noStoreJsonResponse(JSON.stringify(evaluatePassword(policy, request.password, estimate, breached)));
});

const FIELDS = ['PasswordStrengthPolicyID', 'Password'];

/** The two fields of the body, checked; unknown fields are refused without naming them (a name may be a secret). */
function readEvaluationRequest(body: Record<string, unknown>): { policyId: number; password: string } {
  if (Object.keys(body).some((name) => !FIELDS.includes(name))) {
    throw new ApiError(400, 'The body has an unknown field; the fields are "PasswordStrengthPolicyID" (optional) and "Password" (names are case-sensitive).');
  }
  // Absent means the default policy; null is a client's mistake, not a request for the default.
  const id = body.PasswordStrengthPolicyID === undefined ? DEFAULT_POLICY_ID : body.PasswordStrengthPolicyID;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new ApiError(400, `PasswordStrengthPolicyID must be a whole number from 1 to ${MAX_POLICY_ID}.`);
  const password = body.Password;
  if (password === undefined) throw new ApiError(400, 'Password is required: the password to evaluate, as a JSON string.');
  if (typeof password !== 'string') throw new ApiError(400, 'Password must be a JSON string.');
  if (password === '') throw new ApiError(400, 'Password must not be empty.');
  if (UNPAIRED_SURROGATE.test(password)) throw new ApiError(400, 'Password must be valid Unicode text (it has an unpaired surrogate escape).');
  if ([...password].length > MAX_PASSWORD_LENGTH) throw new ApiError(400, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
  if (CONTROL_CHARACTER.test(password)) throw new ApiError(400, 'Password must not contain control characters (a trailing newline, perhaps).');
  return { policyId: id, password };
}
