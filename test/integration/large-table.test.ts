/**
 * A generator table larger than one DynamoDB Scan page (1 MB), read through the real PolicyRepository
 * against dynalite on loopback: every record comes back, in ID order, across several pages, and an invalid
 * record is left out while the rest are served.
 *
 * Run: npx jest test/integration/large-table
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { validatePolicy } from '../../functions/domain/policy-collection';
import { PolicyRepository } from '../../functions/repositories/policies';
import { createDocumentClient, ENV, logger, metrics, localDynamoDbClientConfig } from '../../functions/runtime';
import { writePolicies } from '../../seed/seed-data';
import { createTables } from '../../store/create-tables';

jest.setTimeout(60_000);

const TABLE = 'LargeGeneratorPolicies';
const STRENGTH_TABLE = 'LargeStrengthPolicies'; // createTables makes both policy tables; this one stays empty
const POLICY_COUNT = 1_200;
const DESCRIPTION_LENGTH = 900;
const ONE_MEGABYTE = 1024 * 1024;

/** Policy 1 of the seed, the template every bulk policy is built from. */
const template = (
  JSON.parse(
    readFileSync(path.join(__dirname, '..', '..', 'seed', 'generator-policies.json'), 'utf8'),
  ) as GeneratorPolicy[]
).find((p) => p.PasswordGeneratorID === 1)!;

/** A valid policy with the given ID and a description of exactly DESCRIPTION_LENGTH characters. */
function bulkPolicy(id: number): GeneratorPolicy {
  const prefix = `Bulk policy ${id}: `;
  const filler = 'lorem ipsum dolor sit amet, consectetur adipiscing elit; '.repeat(Math.ceil(DESCRIPTION_LENGTH / 50));
  return {
    ...template,
    PasswordGeneratorID: id,
    GeneratorName: `Bulk Policy ${id}`,
    GeneratorDescription: `${prefix}${filler}`.slice(0, DESCRIPTION_LENGTH),
  };
}

const expected: GeneratorPolicy[] = Array.from({ length: POLICY_COUNT }, (_, i) => bulkPolicy(i + 1));

let server: Server;
let endpoint: string;
let documents: DynamoDBDocumentClient;
/** ScanCommand calls the store's client has sent, counted by a middleware on that client. */
let scanCalls = 0;

/** A repository on its own document client, as a function builds it (createDocumentClient with DYNAMODB_ENDPOINT). */
function storeCountingScans(): PolicyRepository<GeneratorPolicy> {
  const client = createDocumentClient({ [ENV.dynamodbEndpoint]: endpoint, AWS_REGION: 'local' });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'ScanCommand') scanCalls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countScans' },
  );
  return new PolicyRepository(generatorPolicies, client, TABLE, { ttlMs: 0 });
}

beforeAll(async () => {
  // dynalite ships no type declarations.
  const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;
  server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const raw = new DynamoDBClient(localDynamoDbClientConfig(endpoint));
  expect(await createTables(raw, { generator: TABLE, strength: STRENGTH_TABLE })).toEqual([TABLE, STRENGTH_TABLE]);
  raw.destroy();

  documents = createDocumentClient({ [ENV.dynamodbEndpoint]: endpoint, AWS_REGION: 'local' });
  for (const policy of expected) expect(validatePolicy(generatorPolicies, policy).ok).toBe(true);
  expect(await writePolicies(documents, TABLE, expected)).toBe(POLICY_COUNT);
});

afterAll(async () => {
  documents?.destroy();
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  scanCalls = 0;
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('a generator table larger than one Scan page', () => {
  test('holds more than 1 MB, so a single Scan stops at a LastEvaluatedKey', async () => {
    const bytes = expected.reduce((sum, p) => sum + Buffer.byteLength(JSON.stringify(p)), 0);
    expect(bytes).toBeGreaterThan(ONE_MEGABYTE);
    const first = await documents.send(new ScanCommand({ TableName: TABLE }));
    expect(first.LastEvaluatedKey).toBeDefined();
    expect(first.Items!.length).toBeGreaterThan(0);
    expect(first.Items!.length).toBeLessThan(POLICY_COUNT);
  });

  test('PolicyRepository returns every record, in ID order, with the spec fields in spec order, after several Scan pages', async () => {
    const policies = await storeCountingScans().scan();
    expect(scanCalls).toBeGreaterThan(1);
    expect(policies.length).toBe(POLICY_COUNT);
    expect(policies.map((p) => p.PasswordGeneratorID)).toEqual(expected.map((p) => p.PasswordGeneratorID));
    expect(policies).toEqual(expected);
    // The seed file is in spec order, so the serialised form must match byte for byte.
    expect(JSON.stringify(policies)).toBe(JSON.stringify(expected));
  });

  test('an invalid record is left out, logged with its ID and counted, while every valid one is served', async () => {
    const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const addMetric = jest.spyOn(metrics, 'addMetric');
    const invalidId = POLICY_COUNT + 1;
    await documents.send(new PutCommand({ TableName: TABLE, Item: { ...bulkPolicy(invalidId), MaxLength: 999 } }));
    expect(validatePolicy(generatorPolicies, { ...bulkPolicy(invalidId), MaxLength: 999 }).ok).toBe(false);

    const policies = await storeCountingScans().scan();

    expect(scanCalls).toBeGreaterThan(1);
    expect(policies.map((p) => p.PasswordGeneratorID)).toEqual(expected.map((p) => p.PasswordGeneratorID));
    expect(policies).toEqual(expected);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![1]).toEqual(
      expect.objectContaining({ policyId: invalidId, problems: [expect.stringContaining('MaxLength')] }),
    );
    expect(addMetric).toHaveBeenCalledWith('InvalidPolicyRecords', 'Count', 1);
  });
});
