import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { validatePolicy } from '../../functions/domain/policy-collection';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import { PolicyRepository } from '../../functions/repositories/policies';
import { logger, metrics, UnavailableError } from '../../functions/runtime';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';

const dynamo = mockClient(DynamoDBDocumentClient);
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' }));
const store = () => new PolicyRepository(generatorPolicies, client, 'GeneratorTable', { ttlMs: 30_000 });

beforeEach(() => {
  dynamo.reset();
  jest.restoreAllMocks();
});

describe('PolicyRepository.scan: paginated, validated', () => {
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

    const policies = await store().scan();

    expect(policies.map((p) => p.PasswordGeneratorID)).toEqual([1, 2, 5, 9]);
    expect(startKeys).toEqual([undefined, { PasswordGeneratorID: 5 }, { PasswordGeneratorID: 2 }]);
  });

  it('fails whole when a later page fails: never a partial collection', async () => {
    dynamo
      .on(ScanCommand)
      .resolvesOnce({
        Items: [generatorPolicy({ PasswordGeneratorID: 1 })],
        LastEvaluatedKey: { PasswordGeneratorID: 1 },
      })
      .rejectsOnce(Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' }));

    await expect(store().scan()).rejects.toThrow('throttled');
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

    const policies = await store().scan();

    expect(policies.map((p) => p.PasswordGeneratorID)).toEqual([1, 4]);
    expect(error).toHaveBeenCalledWith('Invalid generator policy record left out', {
      policyId: 2,
      problems: ['MaxLength: must be at most 256'],
    });
    expect(error).toHaveBeenCalledWith('Invalid generator policy record left out', {
      policyId: 3,
      problems: ['GeneratorName: is missing'],
    });
    expect(addMetric).toHaveBeenCalledWith('InvalidPolicyRecords', 'Count', 2);
  });
});

describe('PolicyRepository: a stored record that a write would now refuse is still served (docs/decisions.md#policy-data)', () => {
  // Written before BannedWords refused these characters and counted after NFKC: a format character, a
  // bidirectional control, and 17 x U+2A0C (17 characters as sent, 68 after NFKC).
  const words = ['Acme', 'Con\u200btoso', '\u202eEmca', '\u2A0C'.repeat(17)];
  const stored = { ...strengthPolicy({ PasswordStrengthPolicyID: 2 }), BannedWords: words, Version: 4 };

  it('reads it with the rules it was written under: kept, not logged, not counted', async () => {
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const addMetric = jest.spyOn(metrics, 'addMetric').mockReturnValue(metrics);
    dynamo.on(ScanCommand).resolves({ Items: [strengthPolicy(), stored] });

    const policies = await new PolicyRepository(strengthPolicies, client, 'StrengthTable', { ttlMs: 30_000 }).scan();

    expect(policies).toEqual([
      strengthPolicy(),
      { ...strengthPolicy({ PasswordStrengthPolicyID: 2 }), BannedWords: words },
    ]);
    expect(error).not.toHaveBeenCalled();
    expect(addMetric).not.toHaveBeenCalledWith('InvalidPolicyRecords', 'Count', expect.anything());
  });

  it('while a write of the same record is refused, naming each word', () => {
    const { Version: _version, ...record } = stored;
    expect(validatePolicy(strengthPolicies, record)).toEqual({
      ok: false,
      problems: [
        'BannedWords[1]: must not contain invisible format characters, such as bidirectional controls and zero-width spaces (character 4 is U+200B)',
        'BannedWords[2]: must not contain invisible format characters, such as bidirectional controls and zero-width spaces (character 1 is U+202E)',
        'BannedWords[3]: must have 3 to 64 characters (it has 17, 68 after NFKC normalization)',
      ],
    });
  });

  it('the rules of before still hold on read: a word of 65 characters as sent is left out, as it always was', async () => {
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    dynamo.on(ScanCommand).resolves({ Items: [strengthPolicy(), { ...stored, BannedWords: ['x'.repeat(65)] }] });
    expect(await new PolicyRepository(strengthPolicies, client, 'StrengthTable', { ttlMs: 30_000 }).scan()).toEqual([
      strengthPolicy(),
    ]);
  });
});

describe('PolicyRepository: version attributes never reach a response', () => {
  it('drops Version from a stored record: the policy and the served body hold exactly the specification fields, in order', async () => {
    dynamo.on(ScanCommand).resolves({
      Items: [
        { Version: 7, ...generatorPolicy({ PasswordGeneratorID: 2 }) },
        { ...generatorPolicy({ PasswordGeneratorID: 1 }), Version: 1 },
      ],
    });

    const collection = await store().get();

    expect(collection.policies).toEqual([
      generatorPolicy({ PasswordGeneratorID: 1 }),
      generatorPolicy({ PasswordGeneratorID: 2 }),
    ]);
    for (const policy of collection.policies) expect(Object.keys(policy)).toEqual(generatorPolicies.fields);
    expect(collection.body).toBe(
      `[${JSON.stringify(generatorPolicy({ PasswordGeneratorID: 1 }))},${JSON.stringify(generatorPolicy({ PasswordGeneratorID: 2 }))}]`,
    );
    expect(collection.body).not.toContain('Version');
  });

  it('still refuses any other unknown attribute (the schema stays strict)', async () => {
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    dynamo
      .on(ScanCommand)
      .resolves({ Items: [{ ...generatorPolicy({ PasswordGeneratorID: 1 }), Version: 2, UpdatedBy: 'someone' }] });

    expect(await store().scan()).toEqual([]);
  });
});

describe('PolicyRepository.get: TTL and stale-on-error', () => {
  let now = 0;
  const cached = () =>
    new PolicyRepository(generatorPolicies, client, 'GeneratorTable', { ttlMs: 30_000, now: () => now });
  /** A Scan answering these policy IDs. */
  const page = (...ids: number[]) => ({ Items: ids.map((id) => generatorPolicy({ PasswordGeneratorID: id })) });
  const ids = async (repository: PolicyRepository<GeneratorPolicy>) =>
    (await repository.get()).policies.map((p) => p.PasswordGeneratorID).join(',');
  const scans = () => dynamo.commandCalls(ScanCommand).length;

  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });

  it('makes no store call inside the TTL and one after it', async () => {
    dynamo
      .on(ScanCommand)
      .resolvesOnce(page(1, 2))
      .resolvesOnce(page(1, 2, 3));
    const cache = cached();

    expect(await ids(cache)).toBe('1,2');
    now += 29_999;
    expect(await ids(cache)).toBe('1,2');
    expect(scans()).toBe(1);
    now += 1;
    expect(await ids(cache)).toBe('1,2,3');
    expect(scans()).toBe(2);
  });

  it('shares one reload between concurrent callers', async () => {
    dynamo.on(ScanCommand).resolves(page(7));
    const cache = cached();
    await Promise.all([cache.get(), cache.get(), cache.get()]);
    expect(scans()).toBe(1);
  });

  it('serves the cached collection when a reload fails, logs it, and retries only after another TTL', async () => {
    dynamo.on(ScanCommand).resolvesOnce(page(1)).rejectsOnce(new Error('unavailable')).resolvesOnce(page(1, 2));
    const cache = cached();
    await cache.get();
    now += 30_000;

    expect(await ids(cache)).toBe('1');
    expect(logger.warn).toHaveBeenCalledWith(
      'Policy store unavailable; serving the cached collection for another TTL',
      { ageMs: 30_000, error: 'Error' },
    );
    now += 29_999;
    expect(await ids(cache)).toBe('1');
    expect(scans()).toBe(2);
    now += 1;
    expect(await ids(cache)).toBe('1,2');
  });

  it('throws UnavailableError when the store fails and nothing is cached', async () => {
    dynamo.on(ScanCommand).rejectsOnce(new Error('connection refused')).resolvesOnce(page(4));
    const cache = cached();
    await expect(cache.get()).rejects.toBeInstanceOf(UnavailableError);
    expect(await ids(cache)).toBe('4');
  });
});
