import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { startsLikeKey } from './domain/api-key';
import { repeatedName } from './domain/json-text';
import { errorName, lambdaHandler, logger, UnavailableError } from './runtime';

/**
 * API Gateway's HTTP terms, as every function answers them: the error envelope and its phrases, the
 * responses, the readers of headers, query parameters and JSON bodies, and the one handler wrapper.
 *
 * Every error, whoever produces it (a function, the authorizer, API Gateway, the local gateway), is
 *   [{"errors":[{"message":"<reason phrase>"},{"phrase":"<what is wrong and what to do>"}]}]
 * The phrase never carries a stack, a library's text, a table name, an ARN or any part of a key.
 */
// Stryker disable all: the envelope, its phrases and the responses are not request parsing; npm run mutation
// mutates the request readers below this file's "Requests" line (docs/testing.md#mutation-testing).
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

/**
 * The phrases that more than one producer (function, gateway responses, local gateway) must agree on; those
 * that name paths, headers or the role are built from the route table (functions/routes.ts, ROUTE_PHRASES).
 */
export const PHRASES = {
  expectation: 'Only "Expect: 100-continue" is supported.',
  throttled: 'Too many requests; retry after a short, growing delay.',
  unavailable: 'The policy store is unavailable and nothing is cached; retry shortly.',
  credentialsUnavailable: 'The credentials could not be checked: the credential store is unavailable; retry shortly.',
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

// ---------------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------------

export type ProxyHandler = (event: APIGatewayProxyEvent, context?: Context) => Promise<APIGatewayProxyResult>;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Policies sit behind credentials and change rarely: shared caches keep out, clients revalidate by ETag. */
export const CACHE_CONTROL = 'private, no-cache';

function jsonResponse(body: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: 200, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers }, body };
}

/** A 200 no cache may keep: generated passwords, evaluations of a submitted password (with their language's headers). */
export function noStoreJsonResponse(body: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return jsonResponse(body, { 'Cache-Control': 'no-store', ...headers });
}

/**
 * A 200 with the body and its entity tag, or a 304 with no body when the request's If-None-Match already
 * names that tag (RFC 9110 §13.1.2: weak comparison, "*" matches any). `body` is built only for a 200.
 */
export function conditionalJsonResponse(event: EventHeaders, etag: string, body: () => string): APIGatewayProxyResult {
  const headers = { ETag: etag, 'Cache-Control': CACHE_CONTROL };
  // Repeated If-None-Match headers are one list; none at all names no tag.
  if (noneMatchNames(headerValues(event, 'If-None-Match').join(','), etag))
    return { statusCode: 304, headers, body: '' };
  return jsonResponse(body(), headers);
}

function noneMatchNames(header: string, etag: string): boolean {
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}

export function errorResponse(
  status: ErrorStatus,
  phrase: string,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers },
    body: errorEnvelope(status, phrase),
  };
}

/**
 * The handler of every function that serves a route: `answer` reads like the request, and whatever it
 * throws becomes an answer in the envelope (an ApiError its own status, an unreadable table 503, anything
 * else 500); nothing escapes as a raw 5xx.
 */
export function apiHandler(answer: (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>): ProxyHandler {
  return lambdaHandler(async (event: APIGatewayProxyEvent) => {
    try {
      return await answer(event);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error.status, error.phrase);
      if (error instanceof UnavailableError) return errorResponse(503, PHRASES.unavailable);
      logger.error('Unexpected error', { error: errorName(error) });
      return errorResponse(500, PHRASES.internal);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------
// Stryker restore all

/** The header maps of an API Gateway REST (v1) event: single values, and every value of repeated headers. */
export interface EventHeaders {
  readonly headers?: Record<string, string | undefined> | null;
  readonly multiValueHeaders?: Record<string, string[] | undefined> | null;
}

/**
 * Every value a request sent for one header, matched case-insensitively (HTTP header names are), in order.
 * multiValueHeaders holds them all; headers is read only when an event carries no multi-value map.
 */
export function headerValues(event: EventHeaders, name: string): string[] {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, list] of Object.entries(event.multiValueHeaders ?? {}))
    if (key.toLowerCase() === wanted) values.push(...(list ?? []));
  if (values.length > 0) return values;
  for (const [key, value] of Object.entries(event.headers ?? {}))
    if (key.toLowerCase() === wanted && value !== undefined) values.push(value);
  return values;
}

/**
 * A header value without HTTP's optional whitespace around it: spaces and horizontal tabs only (RFC 9110
 * §5.6.3). String.prototype.trim would also strip Unicode spaces (a no-break space, U+00A0), and so accept
 * a credential that is not printable ASCII. A loop, not a regular expression: it stays linear on any value.
 */
export function trimOptionalWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value[start] === ' ' || value[start] === '\t')) start += 1;
  while (end > start && (value[end - 1] === ' ' || value[end - 1] === '\t')) end -= 1;
  return value.slice(start, end);
}

/** Longest parameter name echoed back in an error phrase. */
const MAX_ECHOED_NAME = 40;

/**
 * The query parameters a route accepts, each at most once, and no other (a mistyped `?serach=` must not
 * silently be ignored). Returns the decoded value of each parameter given, under its name in `allowed`.
 * With `ignoreCase`, names match in any letter case (`qty` is `Qty`), as Passwordstate's server matches them.
 */
export function readQueryParameters<N extends string>(
  event: Pick<APIGatewayProxyEvent, 'multiValueQueryStringParameters'>,
  allowed: readonly N[],
  options: { readonly ignoreCase?: boolean } = {},
): Partial<Record<N, string>> {
  const fold = (name: string) => (options.ignoreCase ? name.toLowerCase() : name);
  const names = new Map(allowed.map((a) => [fold(a), a]));
  // Null-prototype, so that `read[name]` is only ever what this loop wrote, whatever the allowed names are.
  const read: Partial<Record<N, string>> = Object.create(null);
  const only =
    allowed.length === 1
      ? `the only parameter is "${allowed[0]}"`
      : `the parameters are ${allowed.map((a) => `"${a}"`).join(', ')}`;
  for (const [given, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    const name = names.get(fold(given));
    if (name === undefined) {
      // A key pasted into the URL must not come back in the answer: no error carries any part of a key.
      if (looksLikeKey(given))
        throw new ApiError(400, `Unknown query parameter (not shown: it looks like a key); ${only}.`);
      throw new ApiError(400, `Unknown query parameter "${echo(given)}"; ${only}.`);
    }
    const all = values ?? [];
    if (all.length > 1 || read[name] !== undefined)
      throw new ApiError(400, `The query parameter "${name}" is given more than once; give it once.`);
    read[name] = all[0];
  }
  return read;
}

/** A decimal integer parameter in [min, max], or the fallback when the parameter is absent. */
export function integerParameter(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new ApiError(400, `${name} must be a whole number from ${min} to ${max}.`);
  return n;
}

/** An issued key's prefix (of any kind, functions/domain/api-key.ts), or anything too long to be a parameter name. */
function looksLikeKey(name: string): boolean {
  return startsLikeKey(name) || name.length > MAX_ECHOED_NAME;
}

function echo(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '?');
}

/**
 * The JSON object a POST route takes as its body. Checked in this order: the media type (415 unless
 * application/json, UTF-8), the size (400 over maxBytes), the encoding (400 unless UTF-8), the syntax (400),
 * a name given twice in one object (400), the top level (an object). No phrase ever quotes the body: JSON.parse's own message does (`"xK9#..." is not
 * valid JSON`), so it is dropped, and the body may hold a password.
 */
export function readJsonObjectBody(
  event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded' | 'headers' | 'multiValueHeaders'>,
  maxBytes: number,
): Record<string, unknown> {
  const types = headerValues(event, 'Content-Type');
  if (types.length !== 1 || !isJsonUtf8(types[0]!))
    throw new ApiError(415, 'The body must be JSON: send Content-Type: application/json (UTF-8).');
  const bytes = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '');
  if (bytes.length > maxBytes)
    throw new ApiError(400, `The body must be at most ${maxBytes} bytes; this one has ${bytes.length}.`);
  if (bytes.length === 0) throw new ApiError(400, 'The body is empty; send a JSON object.');
  // Bytes that are not UTF-8 decode to U+FFFD, here or in API Gateway, which with no binary media type hands
  // the body over as text, already replaced (docs/api.md#evaluating-a-password); either way it is refused.
  const text = new TextDecoder().decode(bytes);
  if (text.includes('\uFFFD')) throw new ApiError(400, NOT_UTF8);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'The body is not valid JSON (UTF-8); send a JSON object.');
  }
  // JSON.parse keeps the last of two values under one name; the client meant one of them, we cannot tell which.
  if (repeatedName(text) !== undefined)
    throw new ApiError(400, 'The body gives a field twice in one object; send each field once.');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ApiError(400, 'The body must be a JSON object.');
  return parsed as Record<string, unknown>;
}

const NOT_UTF8 =
  'The body is not valid UTF-8 (or holds U+FFFD, the replacement character, which stands for bytes that were not); send the JSON as UTF-8.';

/** application/json, with at most a charset parameter, which must then be UTF-8 (RFC 8259 §8.1). */
function isJsonUtf8(contentType: string): boolean {
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return parameters.every((parameter) => parameter === '' || /^charset="?utf-8"?$/.test(parameter));
}
