import type { APIGatewayProxyEvent } from 'aws-lambda';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';

/**
 * Loads an entry file as a cold Lambda would: a fresh module registry (so module-scope caches start
 * empty) and the given environment, with the DynamoDB document client of that registry mocked.
 */
export interface LoadedEntry<M> {
  readonly module: M;
  readonly dynamo: AwsClientStub<any>;
  readonly lib: typeof import('@aws-sdk/lib-dynamodb');
  /** The entry's own copy of functions/observability (its logger and metrics), for spies. */
  readonly observability: typeof import('../../functions/observability');
}

export function loadEntry<M>(entry: string, env: Record<string, string>): LoadedEntry<M> {
  Object.assign(process.env, env);
  let loaded: LoadedEntry<M> | undefined;
  jest.isolateModules(() => {
    const lib = require('@aws-sdk/lib-dynamodb') as typeof import('@aws-sdk/lib-dynamodb');
    const dynamo = mockClient(lib.DynamoDBDocumentClient);
    loaded = { module: require(entry) as M, dynamo, lib, observability: require('../../functions/observability') };
  });
  return loaded!;
}

/** A minimal API Gateway proxy event for GET with the given query parameters. */
export function getEvent(path: string, query?: Record<string, string[]>): APIGatewayProxyEvent {
  return {
    resource: path,
    path,
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: query ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v[v.length - 1]!])) : null,
    multiValueQueryStringParameters: query ?? null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {} as APIGatewayProxyEvent['requestContext'],
  };
}
