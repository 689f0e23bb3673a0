/**
 * Corrupt data (docs/decisions.md, value domains): records written behind the service's back, straight into dynalite with the
 * low-level PutItem (exact DynamoDB types: strings where numbers belong, sets, binary, NULL, numbers beyond
 * JavaScript's precision), next to valid ones. Read through the real PolicyRepository and the function,
 * each bad record must be left out, logged at ERROR with its identifier (once), and counted in the
 * InvalidPolicyRecords metric; every valid record is served, whole.
 *
 * "Duplicate-looking identifiers": both policy tables have a numeric (N) partition key, so DynamoDB itself
 * refuses an identifier of another type ("1" as a string) and stores 1, 1.0, 1E0 and 01 as one item (numbers
 * are normalised). Two records with one identifier therefore cannot exist in a table; the tests below show
 * both DynamoDB behaviours, and that two policies that look alike (same name, different identifiers) are two
 * policies and are both served.
 *
 * Run: npx jest test/reliability/corrupt-data
 */
import { DynamoDBClient, PutItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { strengthPolicies, type StrengthPolicy } from '../../functions/domain/strength-policy';
import type { PolicyResource } from '../../functions/domain/policy-collection';
import type { ProxyHandler } from '../../functions/http';
import { PolicyRepository } from '../../functions/repositories/policies';
import { createDocumentClient, ENV, logger, metrics, localDynamoDbClientConfig } from '../../functions/runtime';
import { createTables } from '../../store/create-tables';
import { startDynalite, type DynaliteServer } from '../support/dynalite-server';
import { getEvent, loadEntry } from '../support/entry-points';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';

jest.setTimeout(30_000);

let server: DynaliteServer;
let raw: DynamoDBClient;
let tableCount = 0;

beforeAll(async () => {
  server = await startDynalite();
  raw = new DynamoDBClient(localDynamoDbClientConfig(server.endpoint));
});

afterAll(async () => {
  raw?.destroy();
  await server?.stop();
});

afterEach(() => {
  jest.restoreAllMocks();
});

type Item = Record<string, AttributeValue>;
const item = (record: object, overrides: Record<string, AttributeValue | undefined> = {}): Item => {
  const base = marshall(record, { removeUndefinedValues: true }) as Item;
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete base[name];
    else base[name] = value;
  }
  return base;
};

/** Fresh tables (one pair per test), the items written as given, and a repository on a real SDK client. */
async function tablesWith<T extends object>(resource: PolicyResource<T>, items: Item[]) {
  tableCount += 1;
  const names = { generator: `CorruptGenerator${tableCount}`, strength: `CorruptStrength${tableCount}` };
  await createTables(raw, names);
  const table = resource === (generatorPolicies as unknown) ? names.generator : names.strength;
  for (const Item of items) await raw.send(new PutItemCommand({ TableName: table, Item }));
  const client = createDocumentClient({
    [ENV.dynamodbEndpoint]: server.endpoint,
    AWS_REGION: 'local',
    [ENV.dynamodbMaxAttempts]: '1',
  });
  return { table, store: new PolicyRepository(resource, client, table, { ttlMs: 0 }), client };
}

function watchLogsAndMetrics() {
  const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  const addMetric = jest.spyOn(metrics, 'addMetric').mockImplementation(() => metrics);
  /** The identifiers logged as left out, in the order logged. */
  const leftOut = () =>
    errors.mock.calls
      .filter(([message]) => String(message).endsWith('record left out'))
      .map(([, data]) => (data as { policyId: unknown }).policyId);
  const problemsOf = (id: unknown) =>
    (
      errors.mock.calls.find(([, data]) => (data as { policyId: unknown })?.policyId === id)?.[1] as
        | { problems: string[] }
        | undefined
    )?.problems ?? [];
  const counted = () =>
    addMetric.mock.calls.filter(([name]) => name === 'InvalidPolicyRecords').map(([, unit, value]) => [unit, value]);
  return { errors, leftOut, problemsOf, counted };
}

const N = (n: string): AttributeValue => ({ N: n });
const S = (s: string): AttributeValue => ({ S: s });

/** A corrupt record: its identifier, what is wrong with it, the item as written, and the problem it must be logged with. */
interface Corrupt {
  id: number;
  what: string;
  item: Item;
  problem: RegExp;
}

/** Each row's record: the collection's valid `base` policy of that identifier, with the row's attributes set or removed. */
const corruptRecords = (
  base: (id: number) => object,
  rows: [number, string, Record<string, AttributeValue | undefined>, RegExp][],
): Corrupt[] => rows.map(([id, what, overrides, problem]) => ({ id, what, item: item(base(id), overrides), problem }));

const numerically = (a: string, b: string) => Number(a) - Number(b);

/**
 * Every bad record (the `corrupt` ones and any other) logged at ERROR once as left out, with its identifier
 * (compared as text, in `ids`), each corrupt one with its problem, and nothing else at ERROR; all of them
 * counted in one InvalidPolicyRecords metric.
 */
function expectEachLeftOut(watch: ReturnType<typeof watchLogsAndMetrics>, corrupt: Corrupt[], ids: string[]) {
  expect(watch.leftOut().map(String).sort(numerically)).toEqual(ids);
  expect(watch.errors).toHaveBeenCalledTimes(ids.length);
  for (const { id, what, problem } of corrupt)
    expect({ id, what, problems: watch.problemsOf(id) }).toEqual({
      id,
      what,
      problems: expect.arrayContaining([expect.stringMatching(problem)]),
    });
  expect(watch.counted()).toEqual([['Count', ids.length]]);
}

// ---------------------------------------------------------------------------------------------------------

describe('generator policies: each corrupt record left out, logged with its identifier, counted; the rest served', () => {
  const valid = [1, 2, 5, 40].map((id) => generatorPolicy({ PasswordGeneratorID: id, GeneratorName: `Valid ${id}` }));
  const base = (id: number) => generatorPolicy({ PasswordGeneratorID: id, GeneratorName: `Corrupt ${id}` });
  const corrupt = corruptRecords(base, [
    [10, 'missing field (GeneratorName)', { GeneratorName: undefined }, /^GeneratorName: is missing$/],
    [11, 'missing field (Pattern)', { Pattern: undefined }, /^Pattern: is missing$/],
    [12, 'wrong type (MinLength as a string)', { MinLength: S('12') }, /^MinLength: must be an integer$/],
    [
      13,
      'wrong type (IncludeAlphaSpecial as a string)',
      { IncludeAlphaSpecial: S('true') },
      /^IncludeAlphaSpecial: must be a boolean$/,
    ],
    [14, 'wrong type (GeneratorName as a number)', { GeneratorName: N('42') }, /^GeneratorName: must be a string$/],
    [
      15,
      'wrong type (SpecialCharsText as a string set)',
      { SpecialCharsText: { SS: ['!', '@'] } },
      /^SpecialCharsText: /,
    ],
    [16, 'wrong type (ExcludeChars as binary)', { ExcludeChars: { B: new Uint8Array([1, 2]) } }, /^ExcludeChars: /],
    [17, 'wrong type (NumberOfWords as NULL)', { NumberOfWords: { NULL: true } }, /^NumberOfWords: /],
    [18, 'out of range (MaxLength 999)', { MaxLength: N('999') }, /^MaxLength: must be at most 256$/],
    [
      19,
      'out of range (MinLength above MaxLength)',
      { MinLength: N('20'), MaxLength: N('10') },
      /^MaxLength: must be at least MinLength/,
    ],
    [20, 'out of range (MinLength 12.5, not an integer)', { MinLength: N('12.5') }, /^MinLength: /],
    [21, 'out of range (SeparateWordsWith "X")', { SeparateWordsWith: S('X') }, /^SeparateWordsWith: must be one of/],
    [
      22,
      'out of range (every option off)',
      {
        IncludeAlphaSpecial: { BOOL: false },
        IncludeWordPhrases: { BOOL: false },
        GeneratePattern: { BOOL: false },
      },
      /at least one of/,
    ],
    [23, 'an unknown extra field', { Owner: S('someone') }, /unknown field\(s\) Owner/],
    [24, 'an invalid pattern', { GeneratePattern: { BOOL: true }, Pattern: S('q{999}') }, /^Pattern: /],
  ]);
  const badIds = [...corrupt.map(({ id }) => id), 0, 25];

  test(`${corrupt.length + 2} corrupt records among ${valid.length} valid ones`, async () => {
    const items = [
      ...valid.map((p) => item(p)),
      ...corrupt.map((c) => c.item),
      item(base(1), { PasswordGeneratorID: N('0'), GeneratorName: S('Identifier zero') }), // id out of range (>= 1)
      item(base(25), { PasswordGeneratorID: N('25.5') }), // id not an integer
    ];
    const { store, client, table } = await tablesWith(generatorPolicies, items);
    const watch = watchLogsAndMetrics();

    const served = await store.scan();

    expect(served).toEqual(valid);
    // Identifiers compared as text: an invalid one may be logged as read (25.5) or as DynamoDB wrote it ("25.5").
    expectEachLeftOut(watch, corrupt, badIds.map((id) => String(id === 25 ? 25.5 : id)).sort(numerically));

    // Through the function: 200 with exactly the valid ones, in identifier order.
    const fn = loadEntry<{ handler: ProxyHandler }>(
      '../../functions/api/generator-policies',
      {
        [ENV.policyTable]: table,
        [ENV.dynamodbEndpoint]: server.endpoint,
        AWS_REGION: 'local',
        POWERTOOLS_METRICS_DISABLED: 'true',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
      },
      { mockDynamoDB: false },
    );
    const result = await fn.module.handler(getEvent('/userapi/passwordgenerator'));
    expect(result).toMatchObject({ statusCode: 200, body: JSON.stringify(valid) });
    expect(result.body).not.toContain('Corrupt');
    expect(table).toBeDefined();
    client.destroy();
  });

  /** The valid policies and one bad record: the scan serves the valid ones and leaves out, logs and counts the bad. */
  async function expectLeftOutAlone(bad: Item, loggedId: string) {
    const { store, client } = await tablesWith(generatorPolicies, [...valid.map((p) => item(p)), bad]);
    const watch = watchLogsAndMetrics();
    await expect(store.scan()).resolves.toEqual(valid);
    expect(watch.leftOut().map(String)).toEqual([loggedId]);
    expect(watch.counted()).toEqual([['Count', 1]]);
    return { store, client };
  }

  test('a number beyond JavaScript precision (MinLength 12345678901234567.5) is left out like any other bad value', async () => {
    const { client } = await expectLeftOutAlone(item(base(30), { MinLength: N('12345678901234567.5') }), '30');
    client.destroy();
  });

  test('an identifier beyond JavaScript precision (99999999999999999999) is left out, logged and counted', async () => {
    const id = '99999999999999999999';
    const { store, client } = await expectLeftOutAlone(item(base(31), { PasswordGeneratorID: N(id) }), id);
    // The structured logger must be able to write that line (a BigInt is not JSON).
    jest.restoreAllMocks();
    const written: string[] = [];
    for (const stream of [process.stdout, process.stderr])
      jest
        .spyOn(stream, 'write')
        .mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      await expect(store.scan()).resolves.toEqual(valid);
    } finally {
      jest.restoreAllMocks();
    }
    expect(written.join('')).toContain(id);
    client.destroy();
  });
});

describe('strength policies: unparsable CalculationWeightings and other corruption', () => {
  const valid = [1, 3].map((id) => strengthPolicy({ PasswordStrengthPolicyID: id, PolicyName: `Valid ${id}` }));
  const base = (id: number) => strengthPolicy({ PasswordStrengthPolicyID: id, PolicyName: `Corrupt ${id}` });
  const corrupt = corruptRecords(base, [
    [10, 'three weights', { CalculationWeightings: S('50;15;35') }, /^CalculationWeightings: must be four integers/],
    [
      11,
      'words for weights',
      { CalculationWeightings: S('fifty;15;15;20') },
      /^CalculationWeightings: must be four integers/,
    ],
    [
      12,
      'commas for semicolons',
      { CalculationWeightings: S('50,15,15,20') },
      /^CalculationWeightings: must be four integers/,
    ],
    [
      13,
      'weights summing to 105',
      { CalculationWeightings: S('50;15;15;25') },
      /^CalculationWeightings: must sum to 100/,
    ],
    [14, 'an empty string', { CalculationWeightings: S('') }, /^CalculationWeightings: must be four integers/],
    [15, 'a number', { CalculationWeightings: N('50151520') }, /^CalculationWeightings: must be a string$/],
    [
      16,
      'a list',
      { CalculationWeightings: { L: [N('50'), N('15'), N('15'), N('20')] } },
      /^CalculationWeightings: must be a string$/,
    ],
    [
      17,
      'negative weight',
      { CalculationWeightings: S('60;-5;25;20') },
      /^CalculationWeightings: must be four integers/,
    ],
    [18, 'missing', { CalculationWeightings: undefined }, /^CalculationWeightings: is missing$/],
    [
      19,
      'PasswordStrengthCompliance 5',
      { PasswordStrengthCompliance: N('5') },
      /^PasswordStrengthCompliance: must be at most 4$/,
    ],
    [20, 'ComplianceMandatory "yes"', { ComplianceMandatory: S('yes') }, /^ComplianceMandatory: must be a boolean$/],
    [
      21,
      'PolicyName over 100 characters',
      { PolicyName: S('x'.repeat(101)) },
      /^PolicyName: must have at most 100 characters$/,
    ],
  ]);

  test(`${corrupt.length} corrupt records among ${valid.length} valid ones`, async () => {
    const { store, client } = await tablesWith(strengthPolicies, [
      ...valid.map((p) => item(p)),
      ...corrupt.map((c) => c.item),
    ]);
    const watch = watchLogsAndMetrics();

    const served: readonly StrengthPolicy[] = await store.scan();

    expect(served).toEqual(valid);
    expectEachLeftOut(
      watch,
      corrupt,
      corrupt.map(({ id }) => String(id)),
    );
    client.destroy();
  });
});

describe('duplicate-looking identifiers', () => {
  test('DynamoDB refuses an identifier of another type: "1" cannot sit beside 1', async () => {
    const { table, client } = await tablesWith(generatorPolicies, [item(generatorPolicy({ PasswordGeneratorID: 1 }))]);
    await expect(
      raw.send(
        new PutItemCommand({
          TableName: table,
          Item: item(generatorPolicy({ PasswordGeneratorID: 1 }), { PasswordGeneratorID: S('1') }),
        }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
    });
    client.destroy();
  });

  test('1, 1.0, 1E0 and 01 are one key: the last write wins and the policy is served once', async () => {
    const spellings = ['1', '1.0', '1E0', '01'];
    const { store, client } = await tablesWith(
      generatorPolicies,
      spellings.map((n) =>
        item(generatorPolicy({ PasswordGeneratorID: 1, GeneratorName: `Written as ${n}` }), {
          PasswordGeneratorID: N(n),
        }),
      ),
    );
    const watch = watchLogsAndMetrics();
    const served = await store.scan();
    expect(served.map((p) => [p.PasswordGeneratorID, p.GeneratorName])).toEqual([[1, 'Written as 01']]);
    expect(watch.errors).not.toHaveBeenCalled();
    client.destroy();
  });

  test('policies that look alike (same name and description, different identifiers) are distinct, and both served', async () => {
    const twins: GeneratorPolicy[] = [7, 8].map((id) =>
      generatorPolicy({
        PasswordGeneratorID: id,
        GeneratorName: 'Same Name',
        GeneratorDescription: 'Same description',
      }),
    );
    const { store, client } = await tablesWith(
      generatorPolicies,
      twins.map((p) => item(p)),
    );
    const served = await store.scan();
    expect(served).toEqual(twins);
    expect(new Set(served.map((p) => p.PasswordGeneratorID)).size).toBe(served.length);
    client.destroy();
  });
});
