import type { StrengthPolicy } from '../domain/strength-policy';
import { evaluatePassword, type GuessabilityEstimator } from '../domain/strength-evaluator';
import { ApiError } from '../http/errors';
import { readJsonObjectBody } from '../http/json-body';
import { noStoreJsonResponse } from '../http/responses';
import { answering, type CatalogSource, type ProxyHandler } from './policy-handlers';

/** The largest body accepted, in bytes (API Gateway itself accepts up to 10 MB, and cannot be told less). */
export const MAX_EVALUATION_BODY_BYTES = 4096;
/** The longest password evaluated, in characters (Unicode code points), as a generator policy's MaxLength. */
export const MAX_PASSWORD_LENGTH = 256;
/** The policy used when the request names none: the default strength policy (spec rule 3). */
export const DEFAULT_STRENGTH_POLICY_ID = 1;

const FIELDS = ['PasswordStrengthPolicyID', 'Password'] as const;
/** C0 controls, DEL and C1 controls: no password field lets anyone type them; a stray newline is a client bug. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** In u-mode a pair is one code point, so only an unpaired surrogate (a lone \\uD800 escape) matches. */
const LONE_SURROGATE = /\p{Cs}/u;

export interface EvaluationRequest {
  readonly policyId: number;
  readonly password: string;
}

/**
 * POST /api/passwordstrength/evaluate with {"PasswordStrengthPolicyID": N, "Password": "..."}: the
 * evaluation of the password against policy N (strength-evaluator.ts). The password is never logged,
 * echoed in an error, or kept: the answer is no-store, and no phrase below quotes any part of the body.
 */
export function evaluatePasswordHandler(source: CatalogSource<StrengthPolicy>, estimate: GuessabilityEstimator): ProxyHandler {
  return answering(async (event) => {
    if (Object.keys(event.multiValueQueryStringParameters ?? event.queryStringParameters ?? {}).length > 0) {
      // Not even the parameter's name is echoed: `?<password>` would be one.
      throw new ApiError(400, 'This route takes no query parameters: send the password in the JSON body, never in the URL.');
    }
    const request = readEvaluationRequest(readJsonObjectBody(event, MAX_EVALUATION_BODY_BYTES));
    const catalog = source.peek() ?? (await source.get());
    const policy = catalog.policies.find((p) => p.PasswordStrengthPolicyID === request.policyId);
    if (!policy) throw new ApiError(404, `No password strength policy has PasswordStrengthPolicyID ${request.policyId}.`);
    return noStoreJsonResponse(JSON.stringify(evaluatePassword(policy, request.password, estimate)));
  });
}

/** The two fields of the body, checked; unknown fields are refused without naming them (a name may be a secret). */
export function readEvaluationRequest(body: Record<string, unknown>): EvaluationRequest {
  if (Object.keys(body).some((name) => !(FIELDS as readonly string[]).includes(name))) {
    throw new ApiError(400, 'The body has an unknown field; the fields are "PasswordStrengthPolicyID" (optional) and "Password" (names are case-sensitive).');
  }
  // Absent means the default policy; null is a client's mistake, not a request for the default.
  const id = body.PasswordStrengthPolicyID === undefined ? DEFAULT_STRENGTH_POLICY_ID : body.PasswordStrengthPolicyID;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new ApiError(400, 'PasswordStrengthPolicyID must be a whole number of at least 1.');
  const password = body.Password;
  if (password === undefined) throw new ApiError(400, 'Password is required: the password to evaluate, as a JSON string.');
  if (typeof password !== 'string') throw new ApiError(400, 'Password must be a JSON string.');
  if (password === '') throw new ApiError(400, 'Password must not be empty.');
  if (LONE_SURROGATE.test(password)) throw new ApiError(400, 'Password must be valid Unicode text (it has an unpaired surrogate escape).');
  if ([...password].length > MAX_PASSWORD_LENGTH) throw new ApiError(400, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
  if (CONTROL.test(password)) throw new ApiError(400, 'Password must not contain control characters (a trailing newline, perhaps).');
  return { policyId: id, password };
}
