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

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_API_ID = 'local';
export const LOCAL_STAGE = 'local';
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
    requestContext: requestContext(request, requestId, null) as unknown as APIGatewayRequestAuthorizerEvent['requestContext'],
  };
}

/** The Lambda proxy event the handler receives, carrying the authorizer's context. */
export function proxyEvent(request: ParsedRequest, requestId: string, authorizer: Record<string, unknown>): APIGatewayProxyEvent {
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
