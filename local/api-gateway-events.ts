import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

/** What the local gateway has parsed of one HTTP request, in API Gateway REST (v1) terms. */
export interface ParsedRequest {
  readonly method: string;
  readonly path: string;
  readonly resource: string;
  readonly headers: Record<string, string>;
  readonly multiValueHeaders: Record<string, string[]>;
  readonly query: Record<string, string[]> | null;
  /** The request body as UTF-8 text, or null when the request has none. */
  readonly body: string | null;
  readonly sourceIp: string;
}

const LOCAL_ACCOUNT = '000000000000';
const LOCAL_API_ID = 'local';
const LOCAL_STAGE = 'local';
const LOCAL_REGION = 'local';

export function methodArn(request: Pick<ParsedRequest, 'method' | 'resource'>): string {
  return `arn:aws:execute-api:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${LOCAL_API_ID}/${LOCAL_STAGE}/${request.method}${request.resource}`;
}

/** The event a REQUEST authorizer receives from API Gateway for a REST API. */
export function authorizerEvent(request: ParsedRequest, requestId: string): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: methodArn(request),
    resource: request.resource,
    path: request.path,
    httpMethod: request.method,
    headers: request.headers,
    multiValueHeaders: request.multiValueHeaders,
    pathParameters: {},
    queryStringParameters: singleValues(request.query),
    multiValueQueryStringParameters: request.query,
    stageVariables: {},
    requestContext: requestContext(
      request,
      requestId,
      null,
    ) as unknown as APIGatewayRequestAuthorizerEvent['requestContext'],
  };
}

/** The Lambda proxy event the handler receives, carrying the authorizer's context. */
export function proxyEvent(
  request: ParsedRequest,
  requestId: string,
  authorizer: Record<string, unknown>,
): APIGatewayProxyEvent {
  return {
    resource: request.resource,
    path: request.path,
    httpMethod: request.method,
    headers: request.headers,
    multiValueHeaders: request.multiValueHeaders,
    queryStringParameters: singleValues(request.query),
    multiValueQueryStringParameters: request.query,
    pathParameters: null,
    stageVariables: null,
    body: request.body,
    isBase64Encoded: false,
    requestContext: requestContext(request, requestId, authorizer) as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

function requestContext(request: ParsedRequest, requestId: string, authorizer: Record<string, unknown> | null) {
  return {
    accountId: LOCAL_ACCOUNT,
    apiId: LOCAL_API_ID,
    authorizer,
    httpMethod: request.method,
    path: `/${LOCAL_STAGE}${request.path}`,
    protocol: 'HTTP/1.1',
    requestId,
    requestTimeEpoch: Date.now(),
    resourceId: request.resource,
    resourcePath: request.resource,
    stage: LOCAL_STAGE,
    identity: { sourceIp: request.sourceIp, userAgent: request.headers['user-agent'] ?? null },
  };
}

/** API Gateway's single-value maps keep the last value of a repeated name; null-prototype, as every map of request names. */
function singleValues(multi: Record<string, string[]> | null): Record<string, string> | null {
  if (!multi) return null;
  const single: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(multi)) single[name] = values[values.length - 1]!;
  return single;
}

export const newRequestId = (): string => randomUUID();

/** The resource path a request path names: API Gateway matches a resource with or without one trailing slash. */
export function resourcePath(rawPath: string): string {
  return rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
}

/**
 * The query string as API Gateway hands it over: names and values percent-decoded ("+" is a space),
 * repeated names kept in order. Invalid percent-encoding is rejected rather than guessed at, as API Gateway
 * rejects it, except on a `lenientQuery` route, where a `%` that starts no valid escape is taken literally.
 */
export function parseQuery(raw: string, lenient = false): Record<string, string[]> | null | 'invalid' {
  if (raw === '') return null;
  // Null-prototype: a name such as `constructor` or `__proto__` is a key like any other, never Object.prototype's.
  const parameters: Record<string, string[]> = Object.create(null);
  const decodeOne = lenient ? decodeLeniently : decode;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeOne(eq < 0 ? pair : pair.slice(0, eq));
    const value = decodeOne(eq < 0 ? '' : pair.slice(eq + 1));
    if (name === undefined || value === undefined) return 'invalid';
    (parameters[name] ??= []).push(value);
  }
  return Object.keys(parameters).length > 0 ? parameters : null;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Each run of escapes that is valid UTF-8 is decoded; anything else (a lone `%`, `%+-`, `%FF`) stays as it is. */
export function decodeLeniently(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => decode(run) ?? run);
}

/** Header names keep the case the client sent; a repeated header keeps every value in multiValueHeaders. */
export function headerMaps(rawHeaders: readonly string[]): {
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
} {
  // Null-prototype, as in parseQuery: a header named `toString` or `__proto__` is just a header.
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}
