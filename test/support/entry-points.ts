import type { APIGatewayProxyEvent } from 'aws-lambda';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';

/**
 * Loads an entry file as a cold Lambda would: a fresh module registry (so module-scope caches start
 * empty) and the given environment, with the DynamoDB document client of that registry mocked.
 */
export function loadEntry<M>(entry: string, env: Record<string, string>): { module: M; dynamo: AwsClientStub<any>; lib: typeof import('@aws-sdk/lib-dynamodb') } {
  Object.assign(process.env, env);
  let loaded: { module: M; dynamo: AwsClientStub<any>; lib: typeof import('@aws-sdk/lib-dynamodb') } | undefined;
  jest.isolateModules(() => {
    const lib = require('@aws-sdk/lib-dynamodb') as typeof import('@aws-sdk/lib-dynamodb');
    const dynamo = mockClient(lib.DynamoDBDocumentClient);
    loaded = { module: require(entry) as M, dynamo, lib };
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
