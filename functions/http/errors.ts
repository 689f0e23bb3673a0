/**
 * design.md §1: every error, whoever produces it, is this envelope:
 *   [{"errors":[{"message":"<reason phrase>"},{"phrase":"<what is wrong and what to do>"}]}]
 * The phrase never carries a stack, a library's text, a table name, an ARN or any part of a key.
 */
export const REASON_PHRASES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
} as const;

export type ErrorStatus = keyof typeof REASON_PHRASES;

/** The phrases that more than one producer (handler, gateway responses, local gateway) must agree on. */
export const PHRASES = {
  unauthorized:
    'Credentials are missing or not valid: /userapi/ needs the UserID and APIKey headers of a user, /api/ the APIKey header of a password strength key.',
  missingRole: 'This user does not hold the Password Generator Policy Security Administrator role.',
  notFound: 'No such path; the paths are /userapi/passwordgenerator, /userapi/generatepassword, /api/passwordstrength and /api/passwordstrength/evaluate.',
  tooLarge: 'The request is too large: API Gateway accepts at most 10 MB, and /api/passwordstrength/evaluate a body of at most 4096 bytes.',
  throttled: 'Too many requests; retry after a short, growing delay.',
  unavailable: 'The policy store is unavailable and nothing is cached; retry shortly.',
  internal: 'An internal error occurred; retry, and contact the operator if it persists.',
} as const;

/** The 405 phrase of a path that answers these methods (its Allow header lists the same). */
export function methodNotAllowedPhrase(allowed: readonly string[]): string {
  return `Only ${allowed.join(' and ')} is supported on this path.`;
}

/** The Allow header of that 405 (RFC 9110 §10.2.1: a comma-separated list), for the stack and the local gateway alike. */
export function allowHeader(allowed: readonly string[]): string {
  return allowed.join(', ');
}

export function errorEnvelope(status: ErrorStatus, phrase: string): string {
  return JSON.stringify([{ errors: [{ message: REASON_PHRASES[status] }, { phrase }] }]);
}

/** An error a handler means to answer with; anything else thrown becomes a 500 with a generic phrase. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly phrase: string,
  ) {
    super(phrase);
    this.name = 'ApiError';
  }
}
