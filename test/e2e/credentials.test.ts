/**
 * Issue, rotate and revoke credentials, end to end: keys issued with the credentials library into the
 * store behind the local gateway, then used over HTTP. The gateway runs with a short authorizer cache TTL
 * so the revocation bound (docs/credentials.md) can be waited out in the test.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CredentialAdmin } from '../../admin/credential-admin';
import { errorEnvelope } from '../../functions/http';
import { GENERATOR_ADMIN_ROLE, ROUTE_PHRASES } from '../../functions/routes';
import { ENV, localDynamoDbClientConfig } from '../../functions/runtime';
import { addTransactions } from '../../embedded-store/transactions';
import { type Header, userAndKey } from '../support/credential-headers';
import { rawRequest } from '../support/http-client';
import { spawnLocalService, type SpawnedService } from '../support/local-service';
import { LOCAL_ENV } from '../../local/local-environment';

const AUTHORIZER_CACHE_TTL_SECONDS = 2;
const GENERATOR = '/userapi/passwordgenerator';
const STRENGTH = '/api/passwordstrength';

let store: Server;
let service: SpawnedService;
let admin: CredentialAdmin;
const presentedKeys: string[] = [];

beforeAll(async () => {
  // The local service seeds through TransactWriteItems (versions and history), which plain dynalite lacks.
  store = addTransactions((require('dynalite') as (o: object) => Server)({ createTableMs: 0 }));
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  service = await spawnLocalService({
    // Log everything the functions log, so the test can prove no key reaches a log line.
    env: {
      [ENV.dynamodbEndpoint]: endpoint,
      [LOCAL_ENV.authorizerCacheTtl]: String(AUTHORIZER_CACHE_TTL_SECONDS),
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
      [LOCAL_ENV.quiet]: '',
    },
  });
  const client = new DynamoDBClient(localDynamoDbClientConfig(endpoint));
  admin = new CredentialAdmin(DynamoDBDocumentClient.from(client), 'Credentials');
}, 90_000);

afterAll(async () => {
  expect(await service?.stop()).toEqual({ code: 0, signal: null });
  await new Promise((resolve) => store?.close(resolve));
});

function get(path: string, headers: readonly Header[]) {
  for (const [name, value] of headers) if (name.toLowerCase() === 'apikey') presentedKeys.push(value);
  return rawRequest(service.url, 'GET', path, headers);
}
const asUser = (userId: string, key: string, path = GENERATOR) => get(path, userAndKey(userId, key));
const asStrengthKey = (key: string, path = STRENGTH) => get(path, [['APIKey', key]]);
const statusOf = async (response: Promise<{ status: number }>) => (await response).status;
const waitOutTheBound = () => new Promise((resolve) => setTimeout(resolve, AUTHORIZER_CACHE_TTL_SECONDS * 1000 + 500));

/** A new user with the generator administrator's role (or the roles given), and the key issued to it. */
async function newUser(userId: string, roles = [GENERATOR_ADMIN_ROLE]) {
  await admin.createUser(userId, roles);
  return admin.issueUserKey(userId);
}

const UNAUTHORIZED = { status: 401, body: errorEnvelope(401, ROUTE_PHRASES.unauthorized) };
const FORBIDDEN = { status: 403, body: errorEnvelope(403, ROUTE_PHRASES.missingRole) };

describe('issued keys work, and several at once (rotation)', () => {
  it('a new user key and a second key of the same user both open /userapi/', async () => {
    const first = await newUser('alice');
    const second = await admin.issueUserKey('alice');
    expect(await statusOf(asUser('alice', first.key))).toBe(200);
    expect(await statusOf(asUser('alice', second.key))).toBe(200);
  });

  it('two strength keys both open /api/', async () => {
    const first = await admin.issueSystemKey('strength');
    const second = await admin.issueSystemKey('strength');
    expect(await statusOf(asStrengthKey(first.key))).toBe(200);
    expect(await statusOf(asStrengthKey(second.key, `${STRENGTH}/?search=default`))).toBe(200);
  });
});

describe('revocation takes effect within the bound (authorizer cache TTL)', () => {
  it('a revoked key, a disabled user, a revoked role and a revoked strength key', async () => {
    const bob = await newUser('bob');
    const carol = await newUser('carol');
    const daveOld = await newUser('dave');
    const daveNew = await admin.issueUserKey('dave');
    const strength = await admin.issueSystemKey('strength');
    for (const response of [
      asUser('bob', bob.key),
      asUser('carol', carol.key),
      asUser('dave', daveOld.key),
      asUser('dave', daveNew.key),
      asStrengthKey(strength.key),
    ]) {
      expect(await statusOf(response)).toBe(200);
    }

    await admin.disableUser('bob');
    await admin.revokeRole('carol', GENERATOR_ADMIN_ROLE);
    await admin.revokeUserKey('dave', daveOld.keyId);
    await admin.revokeSystemKey('strength', strength.keyId);
    await waitOutTheBound();

    expect(await asUser('bob', bob.key)).toMatchObject(UNAUTHORIZED);
    expect(await asUser('carol', carol.key)).toMatchObject(FORBIDDEN);
    expect(await asUser('dave', daveOld.key)).toMatchObject(UNAUTHORIZED);
    expect(await statusOf(asUser('dave', daveNew.key))).toBe(200);
    expect(await asStrengthKey(strength.key)).toMatchObject(UNAUTHORIZED);
  }, 30_000);

  it('re-enabling a user and granting the role back restore access within the bound', async () => {
    const heidi = await newUser('heidi', []);
    const ivan = await newUser('ivan');
    await admin.disableUser('ivan');
    expect(await asUser('heidi', heidi.key)).toMatchObject(FORBIDDEN);
    expect(await asUser('ivan', ivan.key)).toMatchObject(UNAUTHORIZED);

    await admin.grantRole('heidi', GENERATOR_ADMIN_ROLE);
    await admin.enableUser('ivan');
    await waitOutTheBound();

    expect(await statusOf(asUser('heidi', heidi.key))).toBe(200);
    expect(await statusOf(asUser('ivan', ivan.key))).toBe(200);
  }, 30_000);
});

describe('route groups never share keys', () => {
  it('a user key on /api/ and a strength key on /userapi/ are 401', async () => {
    const user = await newUser('erin');
    const strength = await admin.issueSystemKey('strength');
    for (const path of [STRENGTH, `${STRENGTH}/`, `${STRENGTH}/?search=x`])
      expect(await asStrengthKey(user.key, path)).toMatchObject(UNAUTHORIZED);
    for (const path of [GENERATOR, `${GENERATOR}/`, `${GENERATOR}/?search=x`])
      expect(await asUser('erin', strength.key, path)).toMatchObject(UNAUTHORIZED);
  });
});

describe('header handling', () => {
  let key: string;
  beforeAll(async () => {
    key = (await newUser('frank')).key;
  });

  it.each([[['userid', 'apikey']], [['USERID', 'APIKEY']], [['UserId', 'ApiKey']]])(
    'header names %j are accepted',
    async ([userHeader, keyHeader]) => {
      expect(await statusOf(get(GENERATOR, userAndKey('frank', key, [userHeader!, keyHeader!])))).toBe(200);
    },
  );

  it.each([
    ['an oversized (8 KB) key', () => userAndKey('frank', `${key}${'A'.repeat(8192)}`)],
    ['a duplicated APIKey header', () => [...userAndKey('frank', key), ['APIKey', key]]],
    ['a duplicated UserID header', () => [['UserID', 'frank'], ...userAndKey('frank', key)]],
    ['an empty APIKey', () => userAndKey('frank', '')],
    ['an empty UserID', () => userAndKey('', key)],
    ['a non-ASCII key', () => userAndKey('frank', `${key.slice(0, -1)}\u00e9`)],
    ['a non-ASCII UserID', () => userAndKey('fr\u00e4nk', key)],
  ] as [string, () => Header[]][])('%s is 401', async (_, headers) => {
    expect(await get(GENERATOR, headers())).toMatchObject(UNAUTHORIZED);
  });
});

describe('bookkeeping and secrecy', () => {
  it('records when a key was last used, without ever listing a key or a digest', async () => {
    const used = await newUser('grace');
    const unused = await admin.issueUserKey('grace');
    expect(await statusOf(asUser('grace', used.key))).toBe(200);

    const grace = (await admin.list()).users.find((u) => u.userId === 'grace')!;
    const byId = Object.fromEntries(grace.keys.map((k) => [k.keyId, k]));
    expect(byId[used.keyId]?.lastUsedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(byId[unused.keyId]?.lastUsedAt).toBeUndefined();
    expect(JSON.stringify(await admin.list())).not.toContain(used.key.split('_').slice(2).join('_'));
  });

  it('no key presented in this suite appears in any log line of the service', () => {
    const logs = service.output();
    expect(logs).toContain('GET /userapi/passwordgenerator'); // the request log is on, so the check has lines to read
    const secrets = new Set(presentedKeys.filter((k) => k.length >= 16).map((k) => k.slice(-16)));
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) expect(logs).not.toContain(secret);
  });
});
