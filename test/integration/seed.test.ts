import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import {
  DEFAULT_GENERATOR_FILE,
  DEFAULT_STRENGTH_FILE,
  loadSeed,
  SeedConflictError,
  SeedValidationError,
} from '../../seed/seed-data';
import { createTables } from '../../store/create-tables';
import { startEmbeddedStore, type EmbeddedStore } from '../../embedded-store/embedded-store';
import { localDynamoDbClientConfig } from '../../functions/runtime';

const ROOT = path.join(__dirname, '../..');
const run = promisify(execFile);

/** The local store (dynalite with transactions) on a loopback port, so the SDK, marshalling and transactions are the real ones. */
let store: EmbeddedStore;
let endpoint: string;
let client: DynamoDBClient;
let documentClient: DynamoDBDocumentClient;
let tmp: string;
let tableCounter = 0;

beforeAll(async () => {
  store = await startEmbeddedStore();
  endpoint = store.endpoint;
  client = new DynamoDBClient(localDynamoDbClientConfig(endpoint));
  documentClient = DynamoDBDocumentClient.from(client);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'seed-test-'));
});

afterAll(async () => {
  client.destroy();
  await store.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Fresh, empty tables for each test, so no test sees another's writes. */
async function freshTables(): Promise<{ generator: string; strength: string; credentials: string; history: string }> {
  tableCounter += 1;
  const names = {
    generator: `Generator${tableCounter}`,
    strength: `Strength${tableCounter}`,
    credentials: `Credentials${tableCounter}`,
    history: `History${tableCounter}`,
  };
  await createTables(client, names);
  return names;
}

type Tables = Awaited<ReturnType<typeof freshTables>>;

/** loadSeed's options for the given tables, through the document client on the local store. */
const into = (t: Tables) => ({
  client: documentClient,
  generatorTable: t.generator,
  strengthTable: t.strength,
  historyTable: t.history,
});

async function scanAll(tableName: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client: documentClient }, { TableName: tableName }))
    items.push(...(page.Items ?? []));
  return items;
}

const byId = (idField: string) => (a: Record<string, unknown>, b: Record<string, unknown>) =>
  (a[idField] as number) - (b[idField] as number);

async function readJson(file: string): Promise<Record<string, unknown>[]> {
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
}

/** Writes a variant of a committed seed file to the temp dir and returns its path. */
async function variant(
  source: string,
  name: string,
  change: (records: Record<string, unknown>[]) => unknown[],
): Promise<string> {
  const file = path.join(tmp, name);
  await writeFile(file, JSON.stringify(change(await readJson(source)), null, 2));
  return file;
}

/**
 * Writes the records to the temp dir as one line of JSON, the one at `index` opening with `first`, a field that
 * the record also holds later on, and returns the file's path.
 */
async function givenTwice(
  name: string,
  records: Record<string, unknown>[],
  index: number,
  first: string,
): Promise<string> {
  const file = path.join(tmp, name);
  const text = records.map((r, i) => (i === index ? `{${first},${JSON.stringify(r).slice(1)}` : JSON.stringify(r)));
  await writeFile(file, `[${text.join(',')}]`);
  return file;
}

async function expectEmpty(...tables: string[]): Promise<void> {
  for (const table of tables) expect(await scanAll(table)).toEqual([]);
}

describe('createTables', () => {
  it('creates the four tables once and leaves existing ones alone', async () => {
    const names = { generator: 'CreateGen', strength: 'CreateStr', credentials: 'CreateCred', history: 'CreateHist' };
    expect(await createTables(client, names)).toEqual(['CreateGen', 'CreateStr', 'CreateCred', 'CreateHist']);
    expect(await createTables(client, names)).toEqual([]);
  });
});

describe('loadSeed against dynalite', () => {
  it('writes every record of both files as version 1, each with its creation in the history; a Scan reads them back equal to the files', async () => {
    const t = await freshTables();

    const written = await loadSeed({ ...into(t), actor: 'seed-test' });

    const generator = await readJson(DEFAULT_GENERATOR_FILE);
    const strength = await readJson(DEFAULT_STRENGTH_FILE);
    expect(written).toEqual({
      generator: generator.length,
      strength: strength.length,
      created: generator.length + strength.length,
      overwritten: 0,
      unchanged: 0,
    });
    expect((await scanAll(t.generator)).sort(byId('PasswordGeneratorID'))).toEqual(
      generator.map((p) => ({ ...p, Version: 1 })),
    );
    expect((await scanAll(t.strength)).sort(byId('PasswordStrengthPolicyID'))).toEqual(
      strength.map((p) => ({ ...p, Version: 1 })),
    );
    const history = await scanAll(t.history);
    expect(history).toHaveLength(generator.length + strength.length);
    expect(history.find((r) => r.PolicyKey === 'generator#1')).toEqual({
      PolicyKey: 'generator#1',
      Version: 1,
      Change: 'create',
      ChangedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      ChangedBy: 'seed-test',
      After: generator[0],
    });
  });

  it('a second load writes nothing; a changed policy is refused without --overwrite (nothing written) and replaced with it, as a new version', async () => {
    const t = await freshTables();
    const tables = { ...into(t), actor: 'seed-test' };
    await loadSeed(tables);
    expect(await loadSeed(tables)).toEqual({ generator: 0, strength: 0, created: 0, overwritten: 0, unchanged: 22 });

    const file = await variant(DEFAULT_GENERATOR_FILE, 'changed-3.json', (records) => {
      records[2]!.GeneratorDescription = 'Changed by a newer seed file.';
      return [...records, { ...records[1], PasswordGeneratorID: 40, GeneratorName: 'New in the seed' }];
    });
    const before = { generator: await scanAll(t.generator), history: await scanAll(t.history) };

    const refused = await loadSeed({ ...tables, generatorFile: file }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SeedConflictError);
    expect((refused as SeedConflictError).policies).toEqual([
      expect.stringMatching(
        /^generator policy 3 differs from the seed file: GeneratorDescription: ".*" → "Changed by a newer seed file\."$/,
      ),
    ]);
    expect(await scanAll(t.generator)).toEqual(before.generator);
    expect(await scanAll(t.history)).toEqual(before.history);

    expect(await loadSeed({ ...tables, generatorFile: file, overwrite: true })).toEqual({
      generator: 2,
      strength: 0,
      created: 1,
      overwritten: 1,
      unchanged: 21,
    });
    const stored = await scanAll(t.generator);
    expect(stored.find((p) => p.PasswordGeneratorID === 3)).toMatchObject({
      GeneratorDescription: 'Changed by a newer seed file.',
      Version: 2,
    });
    expect(stored.find((p) => p.PasswordGeneratorID === 40)).toMatchObject({ Version: 1 });
    const record = (await scanAll(t.history)).find((r) => r.PolicyKey === 'generator#3' && r.Version === 2);
    expect(record).toMatchObject({
      Change: 'update',
      Before: { GeneratorDescription: expect.any(String) },
      After: { GeneratorDescription: 'Changed by a newer seed file.' },
    });
  });

  it('rejects a record with an invalid field, naming file, record and field, and writes nothing to either table', async () => {
    const t = await freshTables();
    const file = await variant(DEFAULT_GENERATOR_FILE, 'bad-max-length.json', (records) => {
      records[3]!.MaxLength = 999;
      return records;
    });

    const load = loadSeed({ ...into(t), generatorFile: file });

    await expect(load).rejects.toThrow(SeedValidationError);
    await expect(load).rejects.toThrow(
      /bad-max-length\.json record #3 \(PasswordGeneratorID 4\): MaxLength: must be at most 256/,
    );
    await expectEmpty(t.generator, t.strength);
  });

  it('writes nothing to the generator table when only the strength file is invalid', async () => {
    const t = await freshTables();
    const file = await variant(DEFAULT_STRENGTH_FILE, 'bad-weightings.json', (records) => {
      records[1]!.CalculationWeightings = '50;50;50;50';
      return records;
    });

    await expect(loadSeed({ ...into(t), strengthFile: file })).rejects.toThrow(
      /bad-weightings\.json record #1 \(PasswordStrengthPolicyID 2\): CalculationWeightings: must sum to 100/,
    );
    await expectEmpty(t.generator, t.strength);
  });

  it('reports the problems of both files together', async () => {
    const t = await freshTables();
    const generatorFile = await variant(DEFAULT_GENERATOR_FILE, 'both-gen.json', (records) => [
      ...records,
      { ...records[0], PasswordGeneratorID: 99, MinLength: 2 },
    ]);
    const strengthFile = await variant(DEFAULT_STRENGTH_FILE, 'both-str.json', (records) => [
      ...records,
      { ...records[0], PasswordStrengthPolicyID: 99, PolicyName: '' },
    ]);

    const error = await loadSeed({ ...into(t), generatorFile, strengthFile }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SeedValidationError);
    expect((error as SeedValidationError).problems).toEqual([
      expect.stringMatching(/both-gen\.json record #\d+ \(PasswordGeneratorID 99\): MinLength: must be at least 4$/),
      expect.stringMatching(
        /both-str\.json record #\d+ \(PasswordStrengthPolicyID 99\): PolicyName: must have at least 1 characters$/,
      ),
    ]);
    await expectEmpty(t.generator, t.strength);
  });

  it('rejects duplicate IDs, naming both records', async () => {
    const t = await freshTables();
    const file = await variant(DEFAULT_GENERATOR_FILE, 'duplicate.json', (records) => {
      records[5]!.PasswordGeneratorID = 3;
      return records;
    });

    await expect(loadSeed({ ...into(t), generatorFile: file })).rejects.toThrow(
      /duplicate\.json record #5 \(PasswordGeneratorID 3\): PasswordGeneratorID: duplicates record #2/,
    );
    await expectEmpty(t.generator, t.strength);
  });

  it('rejects a file without the default policy (ID 1)', async () => {
    const t = await freshTables();
    const file = await variant(DEFAULT_STRENGTH_FILE, 'no-default.json', (records) =>
      records.filter((r) => r.PasswordStrengthPolicyID !== 1),
    );

    await expect(loadSeed({ ...into(t), strengthFile: file })).rejects.toThrow(
      /no-default\.json: no record has PasswordStrengthPolicyID 1/,
    );
    await expectEmpty(t.generator, t.strength);
  });

  it.each([
    ['not JSON', 'not-json.json', '{ nope', /not-json\.json: is not valid JSON/],
    [
      'not an array',
      'not-array.json',
      '{"PasswordGeneratorID": 1}',
      /not-array\.json: must hold a JSON array of policies/,
    ],
    ['missing', 'missing.json', undefined, /missing\.json: cannot be read \(ENOENT\)/],
  ])('rejects a file that is %s', async (_, name, content, message) => {
    const t = await freshTables();
    const file = path.join(tmp, name);
    if (content !== undefined) await writeFile(file, content);

    await expect(loadSeed({ ...into(t), generatorFile: file })).rejects.toThrow(message);
    await expectEmpty(t.generator, t.strength);
  });

  it('rejects a field given twice in one record, naming the file, the field and the record, though the last value would be valid', async () => {
    const t = await freshTables();
    // JSON.parse keeps the last MinLength (the seed's own); the first, 4, is what someone meant, or not.
    const file = await givenTwice('repeated.json', await readJson(DEFAULT_GENERATOR_FILE), 1, '"MinLength":4');

    const error = await loadSeed({ ...into(t), generatorFile: file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SeedValidationError);
    expect((error as SeedValidationError).problems).toEqual([
      `${file}: "MinLength" is given twice in one object (at $[1]); give it once (a JSON reader keeps only the last)`,
    ]);
    await expectEmpty(t.generator, t.strength);
  });

  it('writes more than one transaction holds completely (several transactions)', async () => {
    const t = await freshTables();
    const file = await variant(DEFAULT_GENERATOR_FILE, 'sixty.json', (records) =>
      Array.from({ length: 60 }, (_, i) => ({
        ...records[i % records.length],
        PasswordGeneratorID: i + 1,
        GeneratorName: `Generated policy ${i + 1}`,
      })),
    );

    const written = await loadSeed({ ...into(t), generatorFile: file });

    expect(written.generator).toBe(60);
    const ids = (await scanAll(t.generator))
      .map((r) => r.PasswordGeneratorID)
      .sort((a, b) => (a as number) - (b as number));
    expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });
});

describe('npm run seed (seed/load.ts as a child process)', () => {
  const tsx = path.join(ROOT, 'node_modules/.bin/tsx');

  /** Runs the CLI without blocking this process's event loop, which serves dynalite to the child. */
  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(tsx, ['seed/load.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, AWS_REGION: 'local' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  /** The CLI's options for the local store and the given tables. */
  const tableOptions = (t: Pick<Tables, 'generator' | 'strength' | 'history'>) => [
    '--endpoint',
    endpoint,
    '--generator-table',
    t.generator,
    '--strength-table',
    t.strength,
    '--history-table',
    t.history,
  ];

  it('creates the tables, writes both files and prints what it wrote', async () => {
    const result = await cli(
      ...tableOptions({ generator: 'CliGen', strength: 'CliStr', history: 'CliHist' }),
      '--create-tables',
    );

    const generator = await readJson(DEFAULT_GENERATOR_FILE);
    const strength = await readJson(DEFAULT_STRENGTH_FILE);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created table(s) CliGen, CliStr, CliHist.');
    expect(result.stdout).toContain(
      `Wrote ${generator.length} generator policies to CliGen and ${strength.length} strength policies to CliStr (${generator.length + strength.length} created, 0 overwritten, 0 unchanged), each recorded in CliHist.`,
    );
    expect(await scanAll('CliHist')).toHaveLength(generator.length + strength.length);
    expect(await scanAll('CliGen')).toHaveLength(generator.length);
    expect(await scanAll('CliStr')).toHaveLength(strength.length);
  });

  it('exits 1 with the validation message and no stack trace for an invalid file, writing nothing', async () => {
    const t = await freshTables();
    const file = await variant(DEFAULT_GENERATOR_FILE, 'cli-bad.json', (records) => {
      records[3]!.MaxLength = 999;
      return records;
    });

    const result = await cli(...tableOptions(t), '--generator-file', file);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cli-bad\.json record #3 \(PasswordGeneratorID 4\): MaxLength: must be at most 256/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toContain('Wrote');
    await expectEmpty(t.generator, t.strength);
  });

  it('exits 1 for a field given twice in one record, naming the file, the field and the record, writing nothing', async () => {
    const t = await freshTables();
    const records = await readJson(DEFAULT_STRENGTH_FILE);
    // The record's last BannedWords, the one a JSON reader keeps, is Acme; the first, Harmless, would be lost.
    records[2] = { ...records[2], BannedWords: ['Acme'] };
    const file = await givenTwice('cli-repeated.json', records, 2, '"BannedWords":["Harmless"]');

    const result = await cli(...tableOptions(t), '--strength-file', file);

    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `Seed data is invalid; nothing was written.\n${file}: "BannedWords" is given twice in one object (at $[2]); give it once (a JSON reader keeps only the last)\n`,
    });
    await expectEmpty(t.generator, t.strength);
  });

  it('exits 1 with a hint when a table does not exist', async () => {
    const result = await cli(...tableOptions({ generator: 'Missing1', strength: 'Missing2', history: 'Missing3' }));

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--create-tables');
  });

  it.each([
    [['--strength-table', 'S1x'], '--generator-table is required'],
    [['--generator-table', 'G1x', '--strength-table', 'S1x', '--bogus'], "Unknown option '--bogus'"],
    [
      ['--generator-table', 'G1x', '--strength-table', 'S1x', '--history-table', 'H1x', '--endpoint', 'not a url'],
      '--endpoint must be a URL',
    ],
    [['--generator-table', 'x', '--strength-table', 'S1x'], '--generator-table must be 3 to 255'],
  ])('exits 2 with the usage on a usage error (%j)', async (args, message) => {
    const result = await cli(...args);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: npm run seed --');
  });

  it('prints the usage for --help and exits 0', async () => {
    const result = await cli('--help');

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--generator-table NAME');
    expect(result.stdout).toContain('--endpoint URL');
  });
});
