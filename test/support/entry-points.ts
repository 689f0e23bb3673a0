import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import type { ProxyHandler } from '../../functions/http';

/**
 * Loads an entry file as a cold Lambda would: a fresh module registry (so module-scope caches start
 * empty) and the given environment, with the DynamoDB document client of that registry mocked.
 */
export interface LoadedEntry<M> {
  readonly module: M;
  readonly dynamo: AwsClientStub<DynamoDBDocumentClient>;
  readonly lib: typeof import('@aws-sdk/lib-dynamodb');
  /** The entry's own copy of functions/runtime (its logger and metrics), for spies. */
  readonly runtime: typeof import('../../functions/runtime');
}

export interface LoadOptions {
  /**
   * Modules of that registry replaced before the entry loads (jest.doMock: a path from this file, and the
   * module's exports), to make a dependency fail in a way no real input can.
   */
  readonly modules?: Record<string, () => unknown>;
  /** false: the entry talks to the DynamoDB its environment names (a dynalite on loopback), unmocked. */
  readonly mockDynamoDB?: boolean;
}

export function loadEntry<M>(entry: string, env: Record<string, string>, options: LoadOptions = {}): LoadedEntry<M> {
  Object.assign(process.env, env);
  let loaded: LoadedEntry<M> | undefined;
  jest.isolateModules(() => {
    for (const [path, factory] of Object.entries(options.modules ?? {})) jest.doMock(path, factory);
    const lib = require('@aws-sdk/lib-dynamodb') as typeof import('@aws-sdk/lib-dynamodb');
    const dynamo =
      options.mockDynamoDB === false
        ? (undefined as unknown as AwsClientStub<DynamoDBDocumentClient>)
        : mockClient(lib.DynamoDBDocumentClient);
    loaded = { module: require(entry) as M, dynamo, lib, runtime: require('../../functions/runtime') };
  });
  return loaded!;
}

/**
 * POST /api/passwordstrength/evaluate's entry (functions/api/evaluate-password.ts) loaded cold, its table named and
 * its metrics off; `env` adds what a test is about (event logging, the Pwned Passwords check, ...).
 */
export const loadEvaluateEntry = (env: Record<string, string> = {}, options: LoadOptions = {}) =>
  loadEntry<{ handler: ProxyHandler }>(
    '../../functions/api/evaluate-password',
    { POLICY_TABLE_NAME: 'strength-table', POWERTOOLS_METRICS_DISABLED: 'true', ...env },
    options,
  );

/** The single values of a multi-value map, as API Gateway gives them (the last value of a repeated name). */
const lastValues = (multi: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v[v.length - 1]!]));

/** A minimal API Gateway proxy event for GET with the given query parameters. */
export function getEvent(path: string, query?: Record<string, string[]>): APIGatewayProxyEvent {
  return proxyEvent('GET', path, { ...(query ? { query } : {}) });
}

/** A minimal API Gateway proxy event: the method, path, query, headers (every value kept) and body given. */
export function proxyEvent(
  method: string,
  path: string,
  parts: {
    query?: Record<string, string[]>;
    headers?: Record<string, string[]>;
    body?: string | null;
    isBase64Encoded?: boolean;
  } = {},
): APIGatewayProxyEvent {
  return {
    resource: path,
    path,
    httpMethod: method,
    headers: lastValues(parts.headers ?? {}),
    multiValueHeaders: parts.headers ?? {},
    queryStringParameters: parts.query ? lastValues(parts.query) : null,
    multiValueQueryStringParameters: parts.query ?? null,
    pathParameters: null,
    stageVariables: null,
    body: parts.body ?? null,
    isBase64Encoded: parts.isBase64Encoded ?? false,
    requestContext: {} as APIGatewayProxyEvent['requestContext'],
  };
}
