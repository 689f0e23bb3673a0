/**
 * The credentials CLI against a real DynamoDB-compatible server (dynalite on loopback): every command's output
 * and exit status, the stored items (digests only), the operator errors, and keys it issues checked by the
 * real authorizer logic reading the same table.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { main } from '../../admin/credentials-cli';
import type { Decision } from '../../functions/api/authorizer';
import { CredentialRepository } from '../../functions/repositories/credentials';
import { CREDENTIAL_SCHEMES, GENERATOR_ADMIN_ROLE } from '../../functions/routes';
import { putLocalCredentials, readLocalCredentials } from '../../local/demo-credentials';
import { createTables } from '../../store/create-tables';
import { runCli, type CliRun } from '../support/cli-output';
import { loadEntry } from '../support/entry-points';
import { localDynamoDbClientConfig } from '../../functions/runtime';

const ROOT = path.join(__dirname, '../..');
const TABLE = 'Credentials';
/** The authorizer's decision, from its entry file loaded as Lambda loads it (its settings come from the environment). */
const { authorize } = loadEntry<typeof import('../../functions/api/authorizer')>(
  '../../functions/api/authorizer',
  { CREDENTIALS_TABLE_NAME: TABLE },
  { mockDynamoDB: false },
).module;
const USER_KEY = /^ppg_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;
const STRENGTH_KEY = /^pps_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;
const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const server = require('dynalite')({ createTableMs: 0 });
let endpoint: string;
let client: DynamoDBClient;
let documents: DynamoDBDocumentClient;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new DynamoDBClient(localDynamoDbClientConfig(endpoint));
  documents = DynamoDBDocumentClient.from(client);
  // Policy table names as the local gateway's (DynamoDB table names need at least 3 characters).
  await createTables(client, { generator: 'GeneratorPolicies', strength: 'StrengthPolicies', credentials: TABLE });
});

afterAll(async () => {
  client.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The CLI in-process, against the local store (the table defaults to "Credentials" with --endpoint). */
function cli(...argv: string[]): Promise<CliRun> {
  return runCli(main, [...argv, '--endpoint', endpoint]);
}

/** The CLI as an operator runs it: a child process, so stdout is exactly what `$(...)` would capture. */
function child(...argv: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['admin/credentials-cli.ts', ...argv, '--endpoint', endpoint],
      { cwd: ROOT },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** The 43 random characters after `ppg_<key id>_` (base64url, so they may themselves hold "_"). */
const secretOf = (key: string) => key.slice('ppg_0123456789ab_'.length);

async function item(credentialId: string): Promise<Record<string, unknown> | undefined> {
  return (
    await documents.send(
      new GetCommand({ TableName: TABLE, Key: { CredentialID: credentialId }, ConsistentRead: true }),
    )
  ).Item;
}

async function issueUserKey(userId: string): Promise<{ key: string; keyId: string }> {
  const run = await cli('user', 'issue-key', '--user-id', userId);
  expect(run).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ppg_\S+\n$/) });
  const key = run.stdout.trim();
  return { key, keyId: USER_KEY.exec(key)![1]! };
}

async function issueStrengthKey(): Promise<{ key: string; keyId: string }> {
  const run = await cli('strength-key', 'issue');
  expect(run.code).toBe(0);
  const key = run.stdout.trim();
  return { key, keyId: STRENGTH_KEY.exec(key)![1]! };
}

/** The real authorizer decision, reading the same table through the production credential store. */
function asUser(userId: string, key: string, table = TABLE): Promise<Decision> {
  const headers: Record<string, string> = { userid: userId, apikey: key };
  return authorize(
    CREDENTIAL_SCHEMES.generatorUser,
    (name) => headers[name.toLowerCase()],
    new CredentialRepository(documents, table),
  );
}

function asStrengthKey(key: string, table = TABLE): Promise<Decision> {
  return authorize(
    CREDENTIAL_SCHEMES.strengthKey,
    (name) => (name.toLowerCase() === 'apikey' ? key : undefined),
    new CredentialRepository(documents, table),
  );
}

/** An operation failure: exit 1, one line on stderr, nothing on stdout, no stack trace. */
function expectFailure(run: CliRun, message: RegExp): void {
  expect(run).toMatchObject({ code: 1, stdout: '' });
  expect(run.stderr).toMatch(message);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

function expectUsageError(run: CliRun, message: RegExp): void {
  expect(run).toMatchObject({ code: 2, stdout: '' });
  expect(run.stderr).toMatch(message);
  expect(run.stderr).toContain('Usage: npm run credentials --');
}

describe('user create', () => {
  it('stores the user with its unique roles, no key, and the maps the authorizer writes into', async () => {
    const run = await cli(
      'user',
      'create',
      '--user-id',
      'alice',
      '--role',
      GENERATOR_ADMIN_ROLE,
      '--role',
      'Auditor',
      '--role',
      GENERATOR_ADMIN_ROLE,
    );

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Created user "alice"');
    expect(run.stderr).toContain('"Auditor" grants nothing by itself');
    expect(await item('USER#alice')).toEqual({
      CredentialID: 'USER#alice',
      UserID: 'alice',
      Roles: [GENERATOR_ADMIN_ROLE, 'Auditor'],
      Disabled: false,
      CreatedAt: expect.stringMatching(ISO_DATE),
      Keys: {},
      LastUsed: {},
    });
  });

  it('creates a user without roles', async () => {
    expect((await cli('user', 'create', '--user-id', 'no-roles')).code).toBe(0);
    expect(await item('USER#no-roles')).toMatchObject({ Roles: [], Disabled: false });
  });

  it('refuses to overwrite an existing user', async () => {
    await cli('user', 'create', '--user-id', 'exists', '--role', GENERATOR_ADMIN_ROLE);
    const before = await item('USER#exists');

    expectFailure(await cli('user', 'create', '--user-id', 'exists'), /^User "exists" already exists\.\n$/);
    expect(await item('USER#exists')).toEqual(before);
  });

  it.each([
    ['a space', 'al ice'],
    ['a comma (the authorizer reads it as a repeated header)', 'al,ice'],
    ['a non-ASCII character', 'jos\u00e9'],
    ['129 characters', 'a'.repeat(129)],
    ['nothing', ''],
  ])('rejects a user id with %s, writing nothing', async (_, userId) => {
    expectFailure(
      await cli('user', 'create', '--user-id', userId),
      /user id must be 1 to 128 printable ASCII characters without spaces or commas/,
    );
    expect(await item(`USER#${userId}`)).toBeUndefined();
  });

  it('rejects an invalid role', async () => {
    expectFailure(
      await cli('user', 'create', '--user-id', 'bad-role', '--role', ' padded '),
      /role must be 1 to 100 printable characters/,
    );
    expectFailure(
      await cli('user', 'create', '--user-id', 'bad-role', '--role', 'x'.repeat(101)),
      /role must be 1 to 100/,
    );
    expect(await item('USER#bad-role')).toBeUndefined();
  });
});

describe('user grant-role and revoke-role', () => {
  beforeAll(async () => {
    await cli('user', 'create', '--user-id', 'roles-user');
  });

  it('grants a role once, however often it is granted', async () => {
    expect(await cli('user', 'grant-role', '--user-id', 'roles-user', '--role', GENERATOR_ADMIN_ROLE)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('holds the role'),
    });
    expect((await cli('user', 'grant-role', '--user-id', 'roles-user', '--role', GENERATOR_ADMIN_ROLE)).code).toBe(0);
    expect((await cli('user', 'grant-role', '--user-id', 'roles-user', '--role', 'Auditor')).code).toBe(0);
    expect((await item('USER#roles-user'))?.Roles).toEqual([GENERATOR_ADMIN_ROLE, 'Auditor']);
  });

  it('revokes a role, and refuses to revoke one the user does not hold', async () => {
    expect(await cli('user', 'revoke-role', '--user-id', 'roles-user', '--role', GENERATOR_ADMIN_ROLE)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Revoked the role'),
    });
    expect((await item('USER#roles-user'))?.Roles).toEqual(['Auditor']);

    expectFailure(
      await cli('user', 'revoke-role', '--user-id', 'roles-user', '--role', GENERATOR_ADMIN_ROLE),
      /User "roles-user" does not hold the role "Password Generator Policy Security Administrator"\./,
    );
  });

  it('fails for an unknown user', async () => {
    expectFailure(
      await cli('user', 'grant-role', '--user-id', 'nobody', '--role', GENERATOR_ADMIN_ROLE),
      /^User "nobody" does not exist\.\n$/,
    );
    expectFailure(
      await cli('user', 'revoke-role', '--user-id', 'nobody', '--role', GENERATOR_ADMIN_ROLE),
      /^User "nobody" does not exist\.\n$/,
    );
    expect(await item('USER#nobody')).toBeUndefined();
  });
});

describe('user disable and enable', () => {
  it('sets and clears the Disabled flag', async () => {
    await cli('user', 'create', '--user-id', 'flip');
    expect(await cli('user', 'disable', '--user-id', 'flip')).toMatchObject({
      code: 0,
      stdout: 'Disabled user "flip".\n',
    });
    expect((await item('USER#flip'))?.Disabled).toBe(true);
    expect(await cli('user', 'enable', '--user-id', 'flip')).toMatchObject({
      code: 0,
      stdout: 'Enabled user "flip".\n',
    });
    expect((await item('USER#flip'))?.Disabled).toBe(false);
  });

  it('fails for an unknown user, creating nothing', async () => {
    expectFailure(await cli('user', 'disable', '--user-id', 'ghost'), /^User "ghost" does not exist\.\n$/);
    expectFailure(await cli('user', 'enable', '--user-id', 'ghost'), /^User "ghost" does not exist\.\n$/);
    expect(await item('USER#ghost')).toBeUndefined();
  });
});

describe('user issue-key', () => {
  beforeAll(async () => {
    await cli('user', 'create', '--user-id', 'keyholder', '--role', GENERATOR_ADMIN_ROLE);
  });

  it('prints the key alone on stdout and the key id on stderr, and stores only its digest (child process)', async () => {
    const run = await child('user', 'issue-key', '--user-id', 'keyholder');

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ppg_[0-9a-f]{12}_[A-Za-z0-9_-]{43}\n$/);
    const key = run.stdout.trim();
    const keyId = USER_KEY.exec(key)![1]!;
    expect(run.stderr).toContain(
      `Issued key id ${keyId} for user "keyholder". The key is shown only this once; store it in a secret manager now.`,
    );
    expect(run.stderr).not.toContain(secretOf(key));

    const stored = await item('USER#keyholder');
    expect((stored!.Keys as Record<string, unknown>)[keyId]).toEqual({
      Digest: sha256(key),
      CreatedAt: expect.stringMatching(ISO_DATE),
    });
    expect(JSON.stringify(stored)).not.toContain(secretOf(key));
  }, 30_000);

  it('fails for an unknown user, creating nothing', async () => {
    expectFailure(await cli('user', 'issue-key', '--user-id', 'stranger'), /^User "stranger" does not exist\.\n$/);
    expect(await item('USER#stranger')).toBeUndefined();
  });

  it('fails for a disabled user, storing no key', async () => {
    await cli('user', 'create', '--user-id', 'suspended', '--role', GENERATOR_ADMIN_ROLE);
    await cli('user', 'disable', '--user-id', 'suspended');

    expectFailure(
      await cli('user', 'issue-key', '--user-id', 'suspended'),
      /^User "suspended" is disabled; enable it before issuing a key\.\n$/,
    );
    expect((await item('USER#suspended'))?.Keys).toEqual({});
  });
});

describe('user revoke-key', () => {
  it('removes the key, and fails for an unknown key id or user', async () => {
    await cli('user', 'create', '--user-id', 'revoker', '--role', GENERATOR_ADMIN_ROLE);
    const { key, keyId } = await issueUserKey('revoker');

    expect(await cli('user', 'revoke-key', '--user-id', 'revoker', '--key-id', keyId)).toMatchObject({
      code: 0,
      stdout: `Revoked key id ${keyId} of user "revoker".\n`,
    });
    expect((await item('USER#revoker'))?.Keys).toEqual({});

    expectFailure(
      await cli('user', 'revoke-key', '--user-id', 'revoker', '--key-id', keyId),
      new RegExp(`^User "revoker" has no key with id ${keyId}\\.\\n$`),
    );
    expectFailure(
      await cli('user', 'revoke-key', '--user-id', 'nobody', '--key-id', keyId),
      /^User "nobody" does not exist\.\n$/,
    );
    // The whole key pasted as the key id: refused without echoing it.
    const pasted = await cli('user', 'revoke-key', '--user-id', 'revoker', '--key-id', key);
    expectFailure(pasted, /key id is the 12 hexadecimal characters/);
    expect(pasted.stderr).not.toContain(secretOf(key));
    expect(await item('USER#nobody')).toBeUndefined();
  });
});

/** The two system-wide key kinds, as the CLI, the table and the authorizer name them. */
const SYSTEM_KINDS = [
  {
    group: 'strength-key',
    prefix: 'pps',
    item: 'STRENGTH_KEYS',
    title: 'password strength key',
    scheme: CREDENTIAL_SCHEMES.strengthKey,
  },
  {
    group: 'generator-key',
    prefix: 'ppa',
    item: 'GENERATOR_KEYS',
    title: 'password generator API key',
    scheme: CREDENTIAL_SCHEMES.generatorKey,
  },
] as const;

describe.each(SYSTEM_KINDS)('$group issue, list and revoke', ({ group, prefix, item: itemId, title, scheme }) => {
  const keyPattern = new RegExp(`^${prefix}_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$`);
  const asKind = (key: string) =>
    authorize(
      scheme,
      (name) => (name.toLowerCase() === 'apikey' ? key : undefined),
      new CredentialRepository(documents, TABLE),
    );

  it('prints the key alone, stores only its digest, lists it, and revokes it by id', async () => {
    const run = await cli(group, 'issue');

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${prefix}_[0-9a-f]{12}_[A-Za-z0-9_-]{43}\\n$`));
    const key = run.stdout.trim();
    const keyId = keyPattern.exec(key)![1]!;
    expect(run.stderr).toBe(
      `Issued ${title} id ${keyId}. The key is shown only this once; store it in a secret manager now.\n`,
    );
    const stored = await item(itemId);
    expect(stored).toMatchObject({
      CredentialID: itemId,
      Keys: { [keyId]: { Digest: sha256(key), CreatedAt: expect.stringMatching(ISO_DATE) } },
      LastUsed: {},
    });
    expect(JSON.stringify(stored)).not.toContain(secretOf(key));
    expect(await asKind(key)).toMatchObject({ outcome: 'allow', principalId: `${scheme.keyKind}-key:${keyId}` });

    const listed = await cli(group, 'list', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toContainEqual({
      keyId,
      createdAt: expect.stringMatching(ISO_DATE),
      lastUsedAt: expect.stringMatching(ISO_DATE),
      usagePlan: 'standard',
    });
    expect(listed.stdout).not.toContain(sha256(key));

    expect(await cli(group, 'revoke', '--key-id', keyId)).toMatchObject({
      code: 0,
      stdout: `Revoked ${title} id ${keyId}.\n`,
    });
    expect((await item(itemId))?.Keys).not.toHaveProperty(keyId);
    expect(await asKind(key)).toEqual({ outcome: 'unauthorized' });
    expectFailure(
      await cli(group, 'revoke', '--key-id', keyId),
      new RegExp(`^There is no ${title} with id ${keyId}\\.\\n$`),
    );
  });

  it(`works through \`KEY=$(npm run -s credentials -- ${group} issue ...)\``, async () => {
    const script = `KEY=$(npm run -s credentials -- ${group} issue --endpoint ${endpoint} 2>/dev/null) && printf '%s' "$KEY"`;
    const captured = await new Promise<string>((resolve, reject) =>
      execFile('sh', ['-c', script], { cwd: ROOT }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );

    expect(captured).toMatch(keyPattern);
    expect(await asKind(captured)).toMatchObject({ outcome: 'allow' });
  }, 30_000);
});

describe('list', () => {
  const issued: string[] = [];
  let listUser: { key: string; keyId: string }[];
  let strength: { key: string; keyId: string };

  beforeAll(async () => {
    await cli('user', 'create', '--user-id', 'lister', '--role', GENERATOR_ADMIN_ROLE);
    await cli('user', 'create', '--user-id', 'lister-off');
    listUser = [await issueUserKey('lister'), await issueUserKey('lister')];
    const off = await issueUserKey('lister-off');
    await cli('user', 'disable', '--user-id', 'lister-off');
    strength = await issueStrengthKey();
    issued.push(...listUser.map((k) => k.key), off.key, strength.key);
    // A use recorded by the real authorizer, so a last-used date is listed.
    expect(await asUser('lister', listUser[0]!.key)).toMatchObject({ outcome: 'allow' });
  });

  /** No issued key, no key's secret part and no digest, anywhere in what list printed. */
  function expectNoSecret(run: CliRun): void {
    const printed = run.stdout + run.stderr;
    for (const key of issued) {
      expect(printed).not.toContain(key);
      expect(printed).not.toContain(secretOf(key));
      expect(printed).not.toContain(sha256(key));
    }
    expect(printed).not.toMatch(/[0-9a-f]{64}/);
    expect(printed).not.toMatch(/pp[gs]_[0-9a-f]{12}_/);
  }

  it('prints users, roles, the disabled flag, key ids with dates and strength key ids (child process)', async () => {
    const run = await child('list');

    expect(run.code).toBe(0);
    expectNoSecret(run);
    const [used, unused] = listUser;
    expect(run.stdout).toMatch(new RegExp(`^  lister  created \\S+\\n    roles: "${GENERATOR_ADMIN_ROLE}"\\n`, 'm'));
    expect(run.stdout).toMatch(
      new RegExp(`^    key ${used!.keyId}  created \\S+  last used \\d{4}-\\d\\d-\\d\\dT`, 'm'),
    );
    expect(run.stdout).toMatch(
      new RegExp(`^    key ${unused!.keyId}  created \\S+  last used never recorded  plan standard$`, 'm'),
    );
    expect(run.stdout).toMatch(/^ {2}lister-off {2}\[DISABLED\]/m);
    expect(run.stdout).toMatch(/^Password strength keys \(\d+\):$/m);
    expect(run.stdout).toContain(`key ${strength.keyId}  created `);
  }, 30_000);

  it('--json prints the listing as JSON (child process)', async () => {
    const run = await child('list', '--json');

    expect(run.code).toBe(0);
    expectNoSecret(run);
    const listing = JSON.parse(run.stdout) as { users: { userId: string }[]; strengthKeys: { keyId: string }[] };
    const lister = listing.users.find((u) => u.userId === 'lister');
    expect(lister).toEqual({
      userId: 'lister',
      roles: [GENERATOR_ADMIN_ROLE],
      disabled: false,
      createdAt: expect.stringMatching(ISO_DATE),
      keys: expect.arrayContaining([
        {
          keyId: listUser[0]!.keyId,
          createdAt: expect.stringMatching(ISO_DATE),
          lastUsedAt: expect.stringMatching(ISO_DATE),
          usagePlan: 'standard',
        },
        { keyId: listUser[1]!.keyId, createdAt: expect.stringMatching(ISO_DATE), usagePlan: 'standard' },
      ]),
    });
    expect(listing.users.find((u) => u.userId === 'lister-off')).toMatchObject({ disabled: true, roles: [] });
    expect(listing.strengthKeys).toContainEqual({
      keyId: strength.keyId,
      createdAt: expect.stringMatching(ISO_DATE),
      usagePlan: 'standard',
    });
    expect(listing.users.map((u) => u.userId)).toEqual([...listing.users.map((u) => u.userId)].sort());
  }, 30_000);

  it('--json gives every key its usage plan, the default one included, as the text does', async () => {
    await cli('user', 'create', '--user-id', 'planner');
    const [onDefault, moved] = [await issueUserKey('planner'), await issueUserKey('planner')];
    expect((await cli('usage-plan', 'set', '--key-id', moved.keyId, '--plan', 'high')).code).toBe(0);

    const json = JSON.parse((await cli('list', '--json')).stdout) as {
      users: { userId: string; keys: { keyId: string; usagePlan: string }[] }[];
    };
    const text = (await cli('list')).stdout;

    const plans = new Map(json.users.find((u) => u.userId === 'planner')!.keys.map((k) => [k.keyId, k.usagePlan]));
    expect(plans).toEqual(
      new Map([
        [onDefault.keyId, 'standard'],
        [moved.keyId, 'high'],
      ]),
    );
    for (const [keyId, plan] of plans) expect(text).toMatch(new RegExp(`^    key ${keyId}  .*  plan ${plan}$`, 'm'));
  });
});

describe('keys issued by the CLI, decided by the real authorizer', () => {
  it('rotation: two keys of a user both allow; revoking one leaves the other', async () => {
    await cli('user', 'create', '--user-id', 'rotator', '--role', GENERATOR_ADMIN_ROLE);
    const first = await issueUserKey('rotator');
    const second = await issueUserKey('rotator');

    expect(await asUser('rotator', first.key)).toMatchObject({ outcome: 'allow', principalId: 'rotator' });
    expect(await asUser('rotator', second.key)).toMatchObject({ outcome: 'allow', principalId: 'rotator' });
    const listed = JSON.parse((await cli('list', '--json')).stdout) as {
      users: { userId: string; keys: { keyId: string }[] }[];
    };
    expect(
      listed.users
        .find((u) => u.userId === 'rotator')
        ?.keys.map((k) => k.keyId)
        .sort(),
    ).toEqual([first.keyId, second.keyId].sort());

    expect((await cli('user', 'revoke-key', '--user-id', 'rotator', '--key-id', first.keyId)).code).toBe(0);

    expect(await asUser('rotator', first.key)).toEqual({ outcome: 'unauthorized' });
    expect(await asUser('rotator', second.key)).toMatchObject({ outcome: 'allow' });
    const after = JSON.parse((await cli('list', '--json')).stdout) as {
      users: { userId: string; keys: { keyId: string }[] }[];
    };
    expect(after.users.find((u) => u.userId === 'rotator')?.keys.map((k) => k.keyId)).toEqual([second.keyId]);
  });

  it('a disabled user is unauthorized, and allowed again once enabled', async () => {
    await cli('user', 'create', '--user-id', 'sleeper', '--role', GENERATOR_ADMIN_ROLE);
    const { key } = await issueUserKey('sleeper');

    await cli('user', 'disable', '--user-id', 'sleeper');
    expect(await asUser('sleeper', key)).toEqual({ outcome: 'unauthorized' });
    await cli('user', 'enable', '--user-id', 'sleeper');
    expect(await asUser('sleeper', key)).toMatchObject({ outcome: 'allow' });
  });

  it('a user whose role was revoked is denied, and allowed again once it is granted', async () => {
    await cli('user', 'create', '--user-id', 'demoted', '--role', GENERATOR_ADMIN_ROLE);
    const { key } = await issueUserKey('demoted');

    await cli('user', 'revoke-role', '--user-id', 'demoted', '--role', GENERATOR_ADMIN_ROLE);
    expect(await asUser('demoted', key)).toMatchObject({ outcome: 'deny', principalId: 'demoted' });
    await cli('user', 'grant-role', '--user-id', 'demoted', '--role', GENERATOR_ADMIN_ROLE);
    expect(await asUser('demoted', key)).toMatchObject({ outcome: 'allow' });
  });

  it('a strength key allows /api/ until it is revoked, and never opens /userapi/', async () => {
    const first = await issueStrengthKey();
    const second = await issueStrengthKey();

    expect(await asStrengthKey(first.key)).toMatchObject({
      outcome: 'allow',
      principalId: `strength-key:${first.keyId}`,
    });
    expect(await asStrengthKey(second.key)).toMatchObject({ outcome: 'allow' });
    expect(await asUser('lister', first.key)).toEqual({ outcome: 'unauthorized' });

    await cli('strength-key', 'revoke', '--key-id', first.keyId);
    expect(await asStrengthKey(first.key)).toEqual({ outcome: 'unauthorized' });
    expect(await asStrengthKey(second.key)).toMatchObject({ outcome: 'allow' });
  });

  it('a user key never opens /api/', async () => {
    await cli('user', 'create', '--user-id', 'wrong-door', '--role', GENERATOR_ADMIN_ROLE);
    const { key } = await issueUserKey('wrong-door');
    expect(await asStrengthKey(key)).toEqual({ outcome: 'unauthorized' });
  });
});

describe("the local gateway's demo credentials", () => {
  it('are stored in the same item shapes as the CLI writes, and accepted by the authorizer', async () => {
    const table = 'LocalDemoCredentials';
    await createTables(client, { generator: 'GeneratorPolicies', strength: 'StrengthPolicies', credentials: table });
    const demo = await readLocalCredentials(path.join(ROOT, 'seed/local-credentials.json'));

    await putLocalCredentials(documents, table, demo);

    const admin = (
      await documents.send(
        new GetCommand({ TableName: table, Key: { CredentialID: `USER#${demo.generatorAdmin.UserID}` } }),
      )
    ).Item;
    const cliUser = await item('USER#alice');
    expect(Object.keys(admin!).sort()).toEqual(Object.keys(cliUser!).sort());
    expect(await asUser(demo.generatorAdmin.UserID, demo.generatorAdmin.APIKey, table)).toMatchObject({
      outcome: 'allow',
    });
    expect(await asUser(demo.userWithoutRole.UserID, demo.userWithoutRole.APIKey, table)).toMatchObject({
      outcome: 'deny',
    });
    expect(await asStrengthKey(demo.passwordStrengthAPIKey, table)).toMatchObject({ outcome: 'allow' });
    const generatorKey = demo.passwordGeneratorAPIKey;
    expect(
      await authorize(
        CREDENTIAL_SCHEMES.generatorKey,
        (name) => (name.toLowerCase() === 'apikey' ? generatorKey : undefined),
        new CredentialRepository(documents, table),
      ),
    ).toMatchObject({
      outcome: 'allow',
    });
  });
});

describe('usage', () => {
  /** Each command as typed, with what its help must mention. */
  const COMMANDS: [string, string[]][] = [
    ['user create', ['--user-id', '--role', 'Password Generator Policy Security Administrator']],
    ['user grant-role', ['--user-id', '--role']],
    ['user revoke-role', ['--user-id', '--role']],
    ['user disable', ['--user-id']],
    ['user enable', ['--user-id']],
    ['user issue-key', ['--user-id', 'shown only this once']],
    ['user revoke-key', ['--user-id', '--key-id']],
    ['strength-key issue', ['shown only this once']],
    ['strength-key list', ['--json']],
    ['strength-key revoke', ['--key-id', 'pps_']],
    ['generator-key issue', ['shown only this once', '/api/passwordgenerator']],
    ['generator-key list', ['--json']],
    ['generator-key revoke', ['--key-id', 'ppa_']],
    ['list', ['--json']],
  ];

  it.each(COMMANDS)('%s --help describes the command and its options (exit 0)', async (command, mentions) => {
    const run = await cli(...command.split(' '), '--help');

    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`Usage: npm run credentials -- ${command}`);
    for (const text of [...mentions, '--table', '--stack', '--endpoint', '--region'])
      expect(run.stdout).toContain(text);
  });

  it('--help alone lists every command (exit 0)', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    for (const [command] of COMMANDS) expect(run.stdout).toContain(command);
  });

  it.each([
    [['user', 'create'], /--user-id is required/],
    [['user', 'grant-role', '--user-id', 'alice'], /--role is required/],
    [['user', 'revoke-key', '--user-id', 'alice'], /--key-id is required/],
    [['strength-key', 'revoke'], /--key-id is required/],
    [['user', 'grant-role', '--user-id', 'alice', '--role', 'a', '--role', 'b'], /--role may be given only once/],
    [['list', '--user-id', 'alice'], /--user-id is not an option of "list"/],
    [['user', 'disable', '--user-id', 'alice', '--frobnicate'], /Unknown option '--frobnicate'/],
    [
      ['user', 'disable', '--user-id', 'alice', '--table', 'Credentials', '--stack', 'PasswordPolicyService'],
      /--table or --stack, not both/,
    ],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    expectUsageError(await cli(...argv), message);
  });

  it('an option without its value is a usage error (exit 2)', async () => {
    // main itself, as cli() would add --endpoint after the option.
    const { code, stderr } = await runCli(main, ['user', 'issue-key', '--user-id']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Option '--user-id <value>' argument missing/);
  });

  it.each([[['user', 'delete', '--user-id', 'alice']], [['users']], [['strength-key', 'rotate']]])(
    'unknown command %j is a usage error (exit 2)',
    async (argv) => {
      expectUsageError(await cli(...argv), /^Unknown command "/);
    },
  );

  it('no command, or a group without a command, is a usage error (exit 2)', async () => {
    expectUsageError(await cli(), /A command is required/);
    expectUsageError(await cli('user'), /"user" needs a command/);
  });

  it('an extra argument is refused without being echoed (it may be a key)', async () => {
    const key = 'ppg_0123456789ab_secretsecretsecretsecretsecretsecretsecret123';
    const run = await cli('user', 'revoke-key', '--user-id', 'alice', key);
    expectUsageError(run, /Unexpected argument after the command/);
    expect(run.stderr).not.toContain('secretsecret');
  });
});

describe('AWS failures', () => {
  it('a missing table is one sentence naming it (exit 1)', async () => {
    expectFailure(
      await cli('list', '--table', 'NoSuchTable'),
      /^The credentials table "NoSuchTable" does not exist at http:\/\/127\.0\.0\.1:\d+; check --table/,
    );
  });

  it('an unreachable endpoint is one sentence (exit 1)', async () => {
    const { code, stderr } = await runCli(main, ['list', '--endpoint', 'http://127.0.0.1:9']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Cannot reach http:\/\/127\.0\.0\.1:9 .*\n$/);
  });
});
