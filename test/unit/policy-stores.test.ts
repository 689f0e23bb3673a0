import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { logger, metrics } from '../../functions/observability';
import { CachedPolicyStore } from '../../functions/store/cached-policy-store';
import { DynamoDbPolicyStore } from '../../functions/store/dynamodb-policy-store';
import { StoreUnavailableError, type PolicyStore } from '../../functions/store/policy-store';
import { generatorPolicy } from '../support/policies';

const dynamo = mockClient(DynamoDBDocumentClient);
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' }));
const store = () => new DynamoDbPolicyStore(client, 'GeneratorTable', generatorPolicies);

beforeEach(() => {
  dynamo.reset();
  jest.restoreAllMocks();
});

describe('DynamoDbPolicyStore: paginated scan', () => {
  it('follows LastEvaluatedKey through every page and orders by identifier', async () => {
    const pages = [
      { Items: [generatorPolicy({ PasswordGeneratorID: 5 })], LastEvaluatedKey: { PasswordGeneratorID: 5 } },
      { Items: [generatorPolicy({ PasswordGeneratorID: 2 })], LastEvaluatedKey: { PasswordGeneratorID: 2 } },
      { Items: [generatorPolicy({ PasswordGeneratorID: 9 }), generatorPolicy({ PasswordGeneratorID: 1 })] },
    ];
    // The paginator reuses one input object, so record each call's start key as it is made.
    const startKeys: unknown[] = [];
    dynamo.on(ScanCommand).callsFake((input: { TableName: string; ExclusiveStartKey?: unknown }) => {
      expect(input.TableName).toBe('GeneratorTable');
      startKeys.push(input.ExclusiveStartKey);
      return pages[startKeys.length - 1];
    });

    const policies = await store().loadAll();

    expect(policies.map((p) => p.PasswordGeneratorID)).toEqual([1, 2, 5, 9]);
    expect(startKeys).toEqual([undefined, { PasswordGeneratorID: 5 }, { PasswordGeneratorID: 2 }]);
  });

  it('fails whole when a later page fails: never a partial collection', async () => {
    dynamo
      .on(ScanCommand)
      .resolvesOnce({ Items: [generatorPolicy({ PasswordGeneratorID: 1 })], LastEvaluatedKey: { PasswordGeneratorID: 1 } })
      .rejectsOnce(Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' }));

    await expect(store().loadAll()).rejects.toThrow('throttled');
  });

  it('leaves out invalid records, logs each with its identifier at ERROR and counts them', async () => {
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const addMetric = jest.spyOn(metrics, 'addMetric').mockReturnValue(metrics);
    dynamo.on(ScanCommand).resolves({
      Items: [
        generatorPolicy({ PasswordGeneratorID: 1 }),
        { ...generatorPolicy({ PasswordGeneratorID: 2 }), MaxLength: 999 },
        { ...generatorPolicy({ PasswordGeneratorID: 3 }), GeneratorName: undefined },
        generatorPolicy({ PasswordGeneratorID: 4 }),
      ],
    });

    const policies = await store().loadAll();

    expect(policies.map((p) => p.PasswordGeneratorID)).toEqual([1, 4]);
    expect(error).toHaveBeenCalledWith('Invalid generator policy record left out', { policyId: 2, problems: ['MaxLength: must be at most 256'] });
    expect(error).toHaveBeenCalledWith('Invalid generator policy record left out', { policyId: 3, problems: ['GeneratorName: is missing'] });
    expect(addMetric).toHaveBeenCalledWith('InvalidPolicyRecords', 'Count', 2);
  });
});

describe('CachedPolicyStore: TTL and stale-on-error', () => {
  let now = 0;
  const source = { loadAll: jest.fn<ReturnType<PolicyStore<number>['loadAll']>, []>() };
  const cached = () => new CachedPolicyStore<number, string>(source, (items) => items.join(','), { ttlMs: 30_000, now: () => now });

  beforeEach(() => {
    now = 1_000_000;
    source.loadAll.mockReset();
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });

  it('makes no store call inside the TTL and one after it', async () => {
    source.loadAll.mockResolvedValueOnce([1, 2]).mockResolvedValueOnce([1, 2, 3]);
    const cache = cached();

    expect(await cache.get()).toBe('1,2');
    now += 29_999;
    expect(await cache.get()).toBe('1,2');
    expect(source.loadAll).toHaveBeenCalledTimes(1);
    now += 1;
    expect(await cache.get()).toBe('1,2,3');
    expect(source.loadAll).toHaveBeenCalledTimes(2);
  });

  it('shares one reload between concurrent callers', async () => {
    source.loadAll.mockResolvedValue([7]);
    const cache = cached();
    await Promise.all([cache.get(), cache.get(), cache.get()]);
    expect(source.loadAll).toHaveBeenCalledTimes(1);
  });

  it('serves the cached collection when a reload fails, logs it, and retries only after another TTL', async () => {
    source.loadAll.mockResolvedValueOnce([1]).mockRejectedValueOnce(new Error('unavailable')).mockResolvedValueOnce([1, 2]);
    const cache = cached();
    await cache.get();
    now += 30_000;

    expect(await cache.get()).toBe('1');
    expect(logger.warn).toHaveBeenCalledWith('Policy store unavailable; serving the cached collection for another TTL', { ageMs: 30_000, error: 'Error' });
    now += 29_999;
    expect(await cache.get()).toBe('1');
    expect(source.loadAll).toHaveBeenCalledTimes(2);
    now += 1;
    expect(await cache.get()).toBe('1,2');
  });

  it('throws StoreUnavailableError when the store fails and nothing is cached', async () => {
    source.loadAll.mockRejectedValueOnce(new Error('connection refused')).mockResolvedValueOnce([4]);
    const cache = cached();
    await expect(cache.get()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await cache.get()).toBe('4');
  });
});
