import type { Context } from 'aws-lambda';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { generatorPolicy } from '../../testkit/policy-fixtures';

type Runtime = typeof import('../../functions/runtime');
type Repositories = typeof import('../../functions/repositories/policies');
type DocumentClientModule = typeof import('@aws-sdk/lib-dynamodb');

/**
 * A fresh copy of the module state (tallies, last flush) per test, with its Powertools calls spied on and the
 * DynamoDB document client of that copy mocked.
 */
function load() {
  let modules!: {
    observability: Runtime;
    repositories: Repositories;
    lib: DocumentClientModule;
    dynamo: AwsClientStub<DynamoDBDocumentClient>;
  };
  jest.isolateModules(() => {
    const lib = require('@aws-sdk/lib-dynamodb') as DocumentClientModule;
    modules = {
      observability: require('../../functions/runtime'),
      repositories: require('../../functions/repositories/policies'),
      lib,
      dynamo: mockClient(lib.DynamoDBDocumentClient),
    };
  });
  const { metrics, logger } = modules.observability;
  const added: [string, number][] = [];
  jest.spyOn(metrics, 'addMetric').mockImplementation((name, _unit, value) => {
    added.push([name, value]);
    return metrics;
  });
  const published = jest.spyOn(metrics, 'publishStoredMetrics').mockReturnValue(metrics);
  jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  return { ...modules, added, published };
}

beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z') });
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('metrics are published once per invocation that recorded some', () => {
  it('publishes a counted metric when the invocation ends, and nothing for an invocation that counted none', async () => {
    const { observability, added, published } = load();
    await observability.lambdaHandler(async () => observability.countMetric('AuthorizerAllow'))({});
    expect(added).toEqual([['AuthorizerAllow', 1]]);
    expect(published).toHaveBeenCalledTimes(1);
    await observability.lambdaHandler(async () => 'nothing counted')({});
    expect(published).toHaveBeenCalledTimes(1);
  });

  it('publishes even when the handler throws', async () => {
    const { observability, published } = load();
    const failing = observability.lambdaHandler(async () => {
      observability.countMetric('InvalidPolicyRecords', 2);
      throw new Error('boom');
    });
    await expect(failing({})).rejects.toThrow('boom');
    expect(published).toHaveBeenCalledTimes(1);
  });

  it('adds the Lambda context (request id, cold start) to the logger when there is one', async () => {
    const { observability } = load();
    const addContext = jest.spyOn(observability.logger, 'addContext').mockImplementation(() => undefined);
    const context = { awsRequestId: 'req-1', functionName: 'fn' } as Context;
    await observability.lambdaHandler(async () => undefined)({}, context);
    expect(addContext).toHaveBeenCalledWith(context);
  });
});

describe('per-request tallies (cache hits) are batched, not an EMF line per request', () => {
  it('holds hits until a minute has passed, then publishes their sum once', async () => {
    const { observability, added, published } = load();
    const hit = observability.lambdaHandler(async () => observability.tallyMetric('PolicyCacheHit'));
    for (let i = 0; i < 500; i++) await hit({});
    expect(published).not.toHaveBeenCalled();
    jest.setSystemTime(new Date('2026-11-21T12:01:00Z'));
    await hit({});
    expect(added).toEqual([['PolicyCacheHit', 501]]);
    expect(published).toHaveBeenCalledTimes(1);
  });

  it('publishes pending hits with any invocation that publishes anyway', async () => {
    const { observability, added } = load();
    await observability.lambdaHandler(async () => observability.tallyMetric('PolicyCacheHit'))({});
    await observability.lambdaHandler(async () => observability.countMetric('PolicyCacheMiss'))({});
    expect(added).toEqual([
      ['PolicyCacheMiss', 1],
      ['PolicyCacheHit', 1],
    ]);
  });
});

describe('the policy cache reports hits, misses and stale serves', () => {
  it('tallies each fresh read as a hit, counts each reload as a miss, and each stale serve', async () => {
    const { repositories, observability, added, lib, dynamo } = load();
    dynamo
      .on(lib.ScanCommand)
      .resolvesOnce({ Items: [generatorPolicy({ PasswordGeneratorID: 1 })] })
      .rejectsOnce(new Error('down'));
    const client = observability.createDocumentClient({ AWS_REGION: 'local' });
    const repository = new repositories.PolicyRepository(generatorPolicies, client, 'GeneratorTable', {
      ttlMs: 30_000,
    });
    const run = observability.lambdaHandler(async () => repository.get());

    await run({}); // miss: first load
    await run({}); // hit
    await run({}); // hit
    jest.setSystemTime(new Date('2026-11-21T12:00:31Z'));
    await run({}); // miss, DynamoDB down: stale serve
    expect(added).toEqual([
      ['PolicyCacheMiss', 1],
      ['PolicyCacheMiss', 1],
      ['StaleCollectionServed', 1],
      ['PolicyCacheHit', 2],
    ]);
  });
});

describe('the logger redacts secrets wherever they appear', () => {
  it('redacts bodies, header and query maps, passwords and keys at any depth and in any letter case; keeps the rest', () => {
    const { observability } = load();
    const event = {
      httpMethod: 'POST',
      path: '/api/passwordstrength/evaluate',
      body: '{"Password":"Velvet-Orchard-Comet-58?"}',
      headers: { APIKey: 'pps_000000000000_secret' },
      multiValueHeaders: { APIKey: ['pps_000000000000_secret'] },
      queryStringParameters: { ppg_000000000000_secret: '' },
      multiValueQueryStringParameters: { search: ['x'] },
      nested: { password: 'hunter2hunter2', apikey: 'pps_1', list: [{ Body: 'b' }] },
      requestContext: { requestId: 'r-1' },
    };
    const written = JSON.parse(JSON.stringify(event, observability.redactSecrets)) as Record<string, unknown>;
    expect(written).toEqual({
      httpMethod: 'POST',
      path: '/api/passwordstrength/evaluate',
      body: '[redacted]',
      headers: '[redacted]',
      multiValueHeaders: '[redacted]',
      queryStringParameters: '[redacted]',
      multiValueQueryStringParameters: '[redacted]',
      nested: { password: '[redacted]', apikey: '[redacted]', list: [{ Body: '[redacted]' }] },
      requestContext: { requestId: 'r-1' },
    });
    expect(JSON.parse(JSON.stringify({ body: null, headers: undefined }, observability.redactSecrets))).toEqual({
      body: null,
    });
  });
});
