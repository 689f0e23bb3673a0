import type { AwsClientStub } from 'aws-sdk-client-mock';
import { mockClient } from 'aws-sdk-client-mock';

/**
 * Like loadEntry (entry-points.ts): an entry file loaded as a cold Lambda would be, in a fresh module
 * registry with its DynamoDB document client mocked, and also that registry's logger, so a test can see what
 * the function logged. `entry` is resolved from this folder (e.g. '../../functions/api/generator-policies').
 */
export interface IsolatedEntry<M> {
  readonly module: M;
  readonly dynamo: AwsClientStub<any>;
  readonly lib: typeof import('@aws-sdk/lib-dynamodb');
  readonly observability: typeof import('../../functions/observability');
}

export function loadIsolatedEntry<M>(entry: string, env: Record<string, string>): IsolatedEntry<M> {
  Object.assign(process.env, env);
  let loaded: IsolatedEntry<M> | undefined;
  jest.isolateModules(() => {
    const lib = require('@aws-sdk/lib-dynamodb') as typeof import('@aws-sdk/lib-dynamodb');
    const dynamo = mockClient(lib.DynamoDBDocumentClient);
    const observability = require('../../functions/observability') as typeof import('../../functions/observability');
    loaded = { module: require(entry) as M, dynamo, lib, observability };
  });
  return loaded!;
}
