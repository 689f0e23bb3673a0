import type { APIGatewayProxyEvent } from 'aws-lambda';
import { DEFAULT_POLICY_ID, MAX_POLICY_ID } from '../domain/policy-collection';
import { MAX_PASSWORD_LENGTH, USER_INPUTS, userInputsProblem } from '../domain/evaluation';
import { CONTROL_CHARACTER, MATCHED_LENGTH_COUNTED, matchedLength, UNPAIRED_SURROGATE } from '../domain/unicode-text';
import { strengthPolicies } from '../domain/strength-policy';
import { ApiError, readJsonObjectBody } from '../http';

/**
 * The request of POST /api/passwordstrength/evaluate, {"PasswordStrengthPolicyID": N, "Password": "...",
 * "UserInputs": [...]}, as the function reads it and the API description (docs/openapi.ts) states it. No phrase
 * quotes the body or the URL: either may hold the password, and the body the UserInputs.
 */

/** The body's three fields: the policy by its identifier field, the password, and the words about its owner. */
export const EVALUATION_REQUEST_FIELDS = {
  policyId: strengthPolicies.idField,
  password: 'Password',
  userInputs: USER_INPUTS.field,
} as const;

/**
 * Bytes of an evaluation's JSON body (API Gateway itself accepts up to 10 MB, and cannot be told less): room for
 * the largest valid body however its encoder escapes it, 256 characters of Password and 20 x 256 of UserInputs,
 * each written as a surrogate pair of \u escapes (12 bytes), 64,512 bytes, and the JSON around them.
 */
export const EVALUATION_BODY_BYTES = 65_536;

const { policyId: POLICY_ID, password: PASSWORD, userInputs: USER_INPUTS_FIELD } = EVALUATION_REQUEST_FIELDS;
const FIELDS: readonly string[] = [POLICY_ID, PASSWORD, USER_INPUTS_FIELD];

/** Phrases the API description gives as examples of the evaluation's 400. */
export const EVALUATION_PHRASES = {
  policyId: `${POLICY_ID} must be a whole number from 1 to ${MAX_POLICY_ID}.`,
  passwordMissing: `${PASSWORD} is required: the password to evaluate, as a JSON string.`,
  // Counted as the matcher reads the password too: a limit must bound what is matched (docs/decisions.md#password-evaluation).
  passwordTooLong: `${PASSWORD} must be at most ${MAX_PASSWORD_LENGTH} characters, ${MATCHED_LENGTH_COUNTED}.`,
} as const;

export interface EvaluationRequest {
  readonly policyId: number;
  readonly password: string;
  /** Empty when the body has none. */
  readonly userInputs: readonly string[];
}

/** The request's policy, password and UserInputs, checked; a 400 (415 for another media type) for anything else. */
export function readEvaluationRequest(
  event: Pick<
    APIGatewayProxyEvent,
    | 'body'
    | 'isBase64Encoded'
    | 'headers'
    | 'multiValueHeaders'
    | 'queryStringParameters'
    | 'multiValueQueryStringParameters'
  >,
): EvaluationRequest {
  if (Object.keys(event.multiValueQueryStringParameters ?? event.queryStringParameters ?? {}).length > 0) {
    // Not even the parameter's name is echoed: `?<password>` would be one.
    throw new ApiError(
      400,
      'This route takes no query parameters: send the password in the JSON body, never in the URL.',
    );
  }
  const body = readJsonObjectBody(event, EVALUATION_BODY_BYTES);
  // Unknown fields are refused without naming them (a name may be a secret).
  if (Object.keys(body).some((name) => !FIELDS.includes(name))) {
    throw new ApiError(
      400,
      `The body has an unknown field; the fields are "${POLICY_ID}" (optional), "${PASSWORD}" and "${USER_INPUTS_FIELD}" (optional; names are case-sensitive).`,
    );
  }
  // Absent means the default policy; null is a client's mistake, not a request for the default.
  const id = body[POLICY_ID] === undefined ? DEFAULT_POLICY_ID : body[POLICY_ID];
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
    throw new ApiError(400, EVALUATION_PHRASES.policyId);
  const password = body[PASSWORD];
  if (password === undefined) throw new ApiError(400, EVALUATION_PHRASES.passwordMissing);
  if (typeof password !== 'string') throw new ApiError(400, `${PASSWORD} must be a JSON string.`);
  if (password === '') throw new ApiError(400, `${PASSWORD} must not be empty.`);
  if (UNPAIRED_SURROGATE.test(password))
    throw new ApiError(400, `${PASSWORD} must be valid Unicode text (it has an unpaired surrogate escape).`);
  if (matchedLength(password) > MAX_PASSWORD_LENGTH) throw new ApiError(400, EVALUATION_PHRASES.passwordTooLong);
  if (CONTROL_CHARACTER.test(password))
    throw new ApiError(400, `${PASSWORD} must not contain control characters (a trailing newline, perhaps).`);
  const userInputs = body[USER_INPUTS_FIELD];
  const problem = userInputs === undefined ? undefined : userInputsProblem(userInputs);
  if (problem !== undefined) throw new ApiError(400, problem);
  return { policyId: id, password, userInputs: (userInputs ?? []) as string[] };
}
