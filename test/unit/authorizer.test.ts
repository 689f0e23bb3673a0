import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { digestKey, issueKey, keyMatchesDigest, parseKey } from '../../functions/domain/api-key';
import { CREDENTIAL_SCHEMES, GENERATOR_ADMIN_ROLE, ROUTE_PHRASES } from '../../functions/routes';
import { loadEntry } from '../support/entry-points';

type Authorizer = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

const API = 'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5';
const adminKey = issueKey('user');
const rotatedAdminKey = issueKey('user');
const viewerKey = issueKey('user');
const disabledKey = issueKey('user');
const strengthKey = issueKey('strength');
const secondStrengthKey = issueKey('strength');
const generatorKey = issueKey('generator');
const secondGeneratorKey = issueKey('generator');
const stored = (...keys: { keyId: string; digest: string }[]) =>
  Object.fromEntries(keys.map((k) => [k.keyId, { Digest: k.digest, CreatedAt: '2026-01-01T00:00:00Z' }]));

/**
 * Items a check must keep the request away from: were the check gone, the lookup would find them and allow.
 * A user key filed among the strength keys, a strength key filed under a user, and users named exactly as a
 * rejected header value would be looked up (too long, with a space, empty, "undefined" for a missing header).
 */
const strayUserKey = issueKey('user');
const strayStrengthKey = issueKey('strength');
const strayGeneratorKey = issueKey('generator');
const trapKey = issueKey('user');
const LONG_USER_ID = 'u'.repeat(129);
const TRAP_USER_IDS = [LONG_USER_ID, 'ad min', '', 'undefined'];
const trapUser = (userId: string) => ({
  CredentialID: `USER#${userId}`,
  UserID: userId,
  Roles: [GENERATOR_ADMIN_ROLE],
  Keys: stored(trapKey),
});
const duplicateKey = issueKey('user');
const noRolesKey = issueKey('user');
const longestKey = issueKey('user');
const LONGEST_USER_ID = 'l'.repeat(128);

const records: Record<string, Record<string, unknown>> = {
  'USER#admin': {
    CredentialID: 'USER#admin',
    UserID: 'admin',
    Roles: [GENERATOR_ADMIN_ROLE],
    Keys: stored(adminKey, rotatedAdminKey),
  },
  'USER#viewer': { CredentialID: 'USER#viewer', UserID: 'viewer', Roles: ['Some Other Role'], Keys: stored(viewerKey) },
  'USER#gone': {
    CredentialID: 'USER#gone',
    UserID: 'gone',
    Roles: [GENERATOR_ADMIN_ROLE],
    Disabled: true,
    Keys: stored(disabledKey),
  },
  'USER#crossed': {
    CredentialID: 'USER#crossed',
    UserID: 'crossed',
    Roles: [GENERATOR_ADMIN_ROLE],
    Keys: stored(strayStrengthKey),
  },
  'USER#noroles': { CredentialID: 'USER#noroles', UserID: 'noroles', Keys: stored(noRolesKey) },
  [`USER#${LONGEST_USER_ID}`]: {
    CredentialID: `USER#${LONGEST_USER_ID}`,
    UserID: LONGEST_USER_ID,
    Roles: [GENERATOR_ADMIN_ROLE],
    Keys: stored(longestKey),
  },
  'USER#duplicate': {
    CredentialID: 'USER#duplicate',
    UserID: 'duplicate',
    Roles: [GENERATOR_ADMIN_ROLE],
    Keys: stored(duplicateKey),
  },
  ...Object.fromEntries(TRAP_USER_IDS.map((id) => [`USER#${id}`, trapUser(id)])),
  STRENGTH_KEYS: {
    CredentialID: 'STRENGTH_KEYS',
    Keys: stored(strengthKey, secondStrengthKey, strayUserKey, strayGeneratorKey),
  },
  GENERATOR_KEYS: { CredentialID: 'GENERATOR_KEYS', Keys: stored(generatorKey, secondGeneratorKey, strayStrengthKey) },
};

function authorizer() {
  const loaded = loadEntry<{ handler: Authorizer }>('../../functions/api/authorizer', {
    CREDENTIALS_TABLE_NAME: 'credentials-table',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  loaded.dynamo.on(loaded.lib.GetCommand).callsFake((input: { TableName: string; Key: { CredentialID: string } }) => {
    expect(input.TableName).toBe('credentials-table');
    return { Item: records[input.Key.CredentialID] };
  });
  return loaded;
}

function event(path: string, headers: Record<string, string | string[]>): APIGatewayRequestAuthorizerEvent {
  const multi = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
  const single = Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v[v.length - 1]!]));
  return {
    type: 'REQUEST',
    methodArn: `${API}/prod/GET${path}`,
    resource: path,
    path,
    httpMethod: 'GET',
    headers: single,
    multiValueHeaders: multi,
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

const GENERATOR = '/userapi/passwordgenerator';
const STRENGTH = '/api/passwordstrength';
const GENERATOR_API = '/api/passwordgenerator';

/** The resource paths each credential opens, written out here rather than read from the route table. */
const PATHS = {
  user: ['/userapi/passwordgenerator', '/userapi/generatepassword'],
  generator: ['/api/passwordgenerator', '/api/generatepassword'],
  strength: ['/api/passwordstrength', '/api/passwordstrength/evaluate'],
} as const;
const arns = (paths: readonly string[]) => paths.map((path) => `${API}/prod/*${path}`);
/** An Allow: the exact policy, the API key that meters the key (its usage plan), and the context. */
const allowed = (
  principalId: string,
  paths: readonly string[],
  context: Record<string, string>,
): APIGatewayAuthorizerResult => ({
  principalId,
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: arns(paths) }],
  },
  usageIdentifierKey: `pp-usage-${context.keyId}`,
  context: { ...context, usagePlan: 'standard' },
});
/** What the authorizer answers for an API key of that kind: its kind's paths, the key named in the context. */
const keyAllowed = (kind: 'strength' | 'generator', key: { keyId: string }) =>
  allowed(`${kind}-key:${key.keyId}`, PATHS[kind], { keyId: key.keyId });

/** What an API of keys of `kind` refuses, given two of its keys: the headers, and what they hold. */
const keyRefusals = (
  kind: 'strength' | 'generator',
  key: { key: string },
  second: { key: string },
): [string, Record<string, string | string[]>][] => [
  ['no APIKey', {}],
  ["an administrator's user key, even with its UserID", { UserID: 'admin', APIKey: adminKey.key }],
  [`a revoked (unknown) ${kind} key`, { APIKey: issueKey(kind).key }],
  ['a wrong secret', { APIKey: `${key.key.slice(0, -4)}AAAA` }],
  ['a duplicated header', { APIKey: [key.key, second.key] }],
];

let handler: Authorizer;
beforeEach(() => {
  handler = authorizer().module.handler;
});

describe('generator API (/userapi/): UserID + APIKey and the administrator role', () => {
  it('allows an administrator, for every method of exactly the /userapi/ paths', async () => {
    expect(await handler(event(GENERATOR, { UserID: 'admin', APIKey: adminKey.key }))).toEqual(
      allowed('admin', PATHS.user, { userId: 'admin', keyId: adminKey.keyId }),
    );
  });

  it('allows a second active key of the same user (rotation)', async () => {
    expect(
      (await handler(event(GENERATOR, { UserID: 'admin', APIKey: rotatedAdminKey.key }))).policyDocument.Statement[0]!
        .Effect,
    ).toBe('Allow');
  });

  it('denies a valid user without the role, with the reason in the context (403)', async () => {
    expect(await handler(event(GENERATOR, { UserID: 'viewer', APIKey: viewerKey.key }))).toEqual({
      principalId: 'viewer',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: arns(PATHS.user) }],
      },
      context: { reason: ROUTE_PHRASES.missingRole },
    });
  });

  it("accepts header names in any case and trims values of spaces and tabs, HTTP's optional whitespace", async () => {
    const result = await handler(event(GENERATOR, { userid: ' admin\t', APIKEY: `\t${adminKey.key} ` }));
    expect(result.policyDocument.Statement[0]!.Effect).toBe('Allow');
  });

  it.each([
    ['no headers', {}],
    ['UserID only', { UserID: 'admin' }],
    ['APIKey only', { APIKey: adminKey.key }],
    ['an unknown user', { UserID: 'nobody', APIKey: adminKey.key }],
    ["another user's key", { UserID: 'viewer', APIKey: adminKey.key }],
    ['a wrong secret for a known key id', { UserID: 'admin', APIKey: `${adminKey.key.slice(0, -4)}AAAA` }],
    ['an unknown key id', { UserID: 'admin', APIKey: issueKey('user').key }],
    ['a disabled user', { UserID: 'gone', APIKey: disabledKey.key }],
    ['a password strength key', { UserID: 'admin', APIKey: strengthKey.key }],
    ['an empty key', { UserID: 'admin', APIKey: '' }],
    ['an empty UserID', { UserID: '  ', APIKey: adminKey.key }],
    ['an 8 KB key', { UserID: 'admin', APIKey: 'k'.repeat(8192) }],
    ['a non-ASCII key', { UserID: 'admin', APIKey: `${adminKey.key.slice(0, -1)}é` }],
    ['a non-ASCII UserID', { UserID: 'ädmin', APIKey: adminKey.key }],
    ['a duplicated APIKey header', { UserID: 'admin', APIKey: [adminKey.key, adminKey.key] }],
    ['a comma-joined APIKey', { UserID: 'admin', APIKey: `${adminKey.key},${adminKey.key}` }],
    ['a key not in the issued format', { UserID: 'admin', APIKey: 'f3a1c2d4e5b6a7980f1e2d3c4b5a6978' }],
  ])('rejects %s as Unauthorized (401)', async (_, headers) => {
    await expect(handler(event(GENERATOR, headers))).rejects.toThrow(new Error('Unauthorized'));
  });
});

describe('strength API (/api/passwordstrength): a password strength key', () => {
  it('allows each active strength key, for every method of exactly the strength paths', async () => {
    expect(await handler(event(STRENGTH, { APIKey: strengthKey.key }))).toEqual(keyAllowed('strength', strengthKey));
    expect(await handler(event(STRENGTH, { apikey: secondStrengthKey.key }))).toEqual(
      keyAllowed('strength', secondStrengthKey),
    );
  });

  it.each(keyRefusals('strength', strengthKey, secondStrengthKey))(
    'rejects %s as Unauthorized (401)',
    async (_, headers) => {
      await expect(handler(event(STRENGTH, headers))).rejects.toThrow(new Error('Unauthorized'));
    },
  );

  it('rejects every key when no strength key has been issued', async () => {
    const { module, dynamo, lib } = authorizer();
    dynamo.on(lib.GetCommand).resolves({});
    await expect(module.handler(event(STRENGTH, { APIKey: strengthKey.key }))).rejects.toThrow(
      new Error('Unauthorized'),
    );
  });
});

describe('generator API (/api/passwordgenerator, /api/generatepassword): a password generator API key', () => {
  it('allows each active generator key, for every method of exactly the generator API paths', async () => {
    for (const path of PATHS.generator) {
      expect(await handler(event(path, { APIKey: generatorKey.key }))).toEqual(keyAllowed('generator', generatorKey));
    }
    expect(await handler(event(GENERATOR_API, { APIKEY: secondGeneratorKey.key }))).toEqual(
      keyAllowed('generator', secondGeneratorKey),
    );
  });

  it.each([
    ...keyRefusals('generator', generatorKey, secondGeneratorKey),
    ['a strength key, even one filed among the generator keys', { APIKey: strayStrengthKey.key }],
  ])('rejects %s as Unauthorized (401)', async (_, headers) => {
    await expect(handler(event(GENERATOR_API, headers))).rejects.toThrow(new Error('Unauthorized'));
  });
});

describe('the key matrix: each kind opens only its own paths', () => {
  const credentials = {
    user: { UserID: 'admin', APIKey: adminKey.key },
    generator: { APIKey: generatorKey.key },
    strength: { APIKey: strengthKey.key },
  } as const;
  const cases = (Object.keys(credentials) as (keyof typeof credentials)[]).flatMap((kind) =>
    (Object.keys(PATHS) as (keyof typeof PATHS)[]).flatMap((owner) =>
      PATHS[owner].map((path) => [kind, path, kind === owner] as const),
    ),
  );

  it.each(cases)('a %s key on %s: allowed %s', async (kind, path, opens) => {
    const answer = handler(event(path, credentials[kind]));
    if (opens)
      await expect(
        answer.then((a) => [
          a.policyDocument.Statement[0]!.Effect,
          (a.policyDocument.Statement[0] as { Resource?: unknown }).Resource,
        ]),
      ).resolves.toEqual(['Allow', arns(PATHS[kind])]);
    else await expect(answer).rejects.toThrow(new Error('Unauthorized'));
  });
});

describe('each credential rule holds by its own check, before any lookup', () => {
  /** The request's outcome, and how many credential items it read. */
  async function outcome(
    path: string,
    headers: Record<string, string | string[]>,
  ): Promise<{ result: string; lookups: number }> {
    const { module, dynamo, lib } = authorizer();
    const result = await module.handler(event(path, headers)).then(
      (answer) => answer.policyDocument.Statement[0]!.Effect,
      (error: Error) => error.message,
    );
    return { result, lookups: dynamo.commandCalls(lib.GetCommand).length };
  }
  const rejectedUnread = { result: 'Unauthorized', lookups: 0 };

  it('the traps are live: a trap item under a header-safe UserID is allowed', async () => {
    const { module, dynamo, lib } = authorizer();
    dynamo.on(lib.GetCommand).resolves({ Item: trapUser('trap') });
    expect(
      (await module.handler(event(GENERATOR, { UserID: 'trap', APIKey: trapKey.key }))).policyDocument.Statement[0]!
        .Effect,
    ).toBe('Allow');
  });

  it.each([
    ['no UserID header (never looked up as "undefined")', { APIKey: trapKey.key }],
    ['an empty UserID', { UserID: '', APIKey: trapKey.key }],
    ['a UserID of 129 characters, one past the longest the CLI creates', { UserID: LONG_USER_ID, APIKey: trapKey.key }],
    ['a UserID with a space inside', { UserID: 'ad min', APIKey: trapKey.key }],
    ['a UserID with a control character', { UserID: 'ad\u0001min', APIKey: trapKey.key }],
    ['a UserID header given twice', { UserID: ['admin', 'admin'], APIKey: adminKey.key }],
    ['a comma-joined UserID', { UserID: 'admin,admin', APIKey: adminKey.key }],
    ['a strength key on /userapi/, even one filed under the user', { UserID: 'crossed', APIKey: strayStrengthKey.key }],
    ['a key with a character before its prefix', { UserID: 'admin', APIKey: `x${adminKey.key}` }],
    ['a key with a character after its secret', { UserID: 'admin', APIKey: `${adminKey.key}x` }],
    // Not printable ASCII counts as missing (docs/credentials.md): only spaces and tabs are trimmed.
    ['a UserID padded with a no-break space (U+00A0)', { UserID: 'admin\u00a0', APIKey: adminKey.key }],
    ['a key padded with a no-break space (U+00A0)', { UserID: 'admin', APIKey: `${adminKey.key}\u00a0` }],
    ['a key led by an ideographic space (U+3000)', { UserID: 'admin', APIKey: `\u3000${adminKey.key}` }],
  ])('/userapi/: %s is 401, and no credential is read', async (_, headers) => {
    expect(await outcome(GENERATOR, headers)).toEqual(rejectedUnread);
  });

  it.each([
    ['a user key, even one filed among the strength keys', { APIKey: strayUserKey.key }],
    ['a generator key, even one filed among the strength keys', { APIKey: strayGeneratorKey.key }],
    ['a key with a character before its prefix', { APIKey: `x${strengthKey.key}` }],
    ['a key with a character after its secret', { APIKey: `${strengthKey.key}x` }],
    ['a key padded with a no-break space (U+00A0)', { APIKey: `${strengthKey.key}\u00a0` }],
    ['a key led by an em space (U+2003)', { APIKey: `\u2003${strengthKey.key}` }],
    ['a key followed by a byte order mark (U+FEFF)', { APIKey: `${strengthKey.key}\ufeff` }],
    ['a key followed by a line separator (U+2028)', { APIKey: `${strengthKey.key}\u2028` }],
  ])('/api/: %s is 401, and no credential is read', async (_, headers) => {
    expect(await outcome(STRENGTH, headers)).toEqual(rejectedUnread);
  });

  it('a UserID of exactly 128 characters, the longest the credentials CLI creates, signs in', async () => {
    expect(await outcome(GENERATOR, { UserID: LONGEST_USER_ID, APIKey: longestKey.key })).toEqual({
      result: 'Allow',
      lookups: 1,
    });
  });

  it('a user item without Roles holds no role: 403', async () => {
    expect(await outcome(GENERATOR, { UserID: 'noroles', APIKey: noRolesKey.key })).toEqual({
      result: 'Deny',
      lookups: 1,
    });
  });

  it('a path outside both route groups is 401 before any lookup', async () => {
    expect(await outcome('/other', { UserID: 'admin', APIKey: adminKey.key })).toEqual(rejectedUnread);
  });

  it('logs each rejection at INFO with its credential scheme, and never the credentials', async () => {
    const { module, runtime } = authorizer();
    const info = jest.spyOn(runtime.logger, 'info').mockImplementation(() => undefined);
    await expect(module.handler(event(STRENGTH, { APIKey: strayUserKey.key }))).rejects.toThrow(
      new Error('Unauthorized'),
    );
    await expect(module.handler(event(GENERATOR, { UserID: 'admin' }))).rejects.toThrow(new Error('Unauthorized'));
    expect(info.mock.calls).toEqual([
      ['Credentials rejected', { scheme: 'strengthKey' }],
      ['Credentials rejected', { scheme: 'generatorUser' }],
    ]);
  });

  it('a user whose UserID is literally "duplicate" signs in like any other', async () => {
    expect(await outcome(GENERATOR, { UserID: 'duplicate', APIKey: duplicateKey.key })).toEqual({
      result: 'Allow',
      lookups: 1,
    });
  });

  it('parseKey accepts the whole key and nothing around it', () => {
    expect(parseKey(adminKey.key)).toEqual({ kind: 'user', keyId: adminKey.keyId });
    expect(parseKey(` ${adminKey.key}`)).toBeUndefined();
    expect(parseKey(`${adminKey.key} `)).toBeUndefined();
    expect(parseKey(`x${strengthKey.key}`)).toBeUndefined();
    expect(parseKey(`${strengthKey.key}x`)).toBeUndefined();
    expect(parseKey(adminKey.key.replace('ppg_', 'ppx_'))).toBeUndefined();
    expect(parseKey(adminKey.key.replace('ppg_', 'constructor_'))).toBeUndefined();
  });
});

describe('authorizer failures', () => {
  it('fails (500 through API Gateway), not 401, when the credentials table cannot be read, and counts the failure', async () => {
    const { module, dynamo, lib, runtime } = authorizer();
    const counted = jest.spyOn(runtime.metrics, 'addMetric');
    const logged = jest.spyOn(runtime.logger, 'error').mockImplementation(() => undefined);
    dynamo.on(lib.GetCommand).rejects(
      Object.assign(new Error('Throughput exceeded for table credentials-table'), {
        name: 'ProvisionedThroughputExceededException',
      }),
    );
    await expect(module.handler(event(STRENGTH, { APIKey: strengthKey.key }))).rejects.toThrow(
      new Error('Authorizer failure'),
    );
    expect(counted).toHaveBeenCalledWith('AuthorizerFailure', 'Count', 1);
    // The log names the error kind only: an SDK message can carry a table name.
    expect(logged).toHaveBeenCalledWith('Authorizer failed', { error: 'ProvisionedThroughputExceededException' });
  });

  it('never writes a presented key to the logs', async () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await handler(event(GENERATOR, { UserID: 'admin', APIKey: adminKey.key }));
      await handler(event(GENERATOR, { UserID: 'viewer', APIKey: viewerKey.key }));
      await handler(event(STRENGTH, { APIKey: adminKey.key })).catch(() => undefined);
    } finally {
      spy.mockRestore();
    }
    // The secret is everything after the key id; base64url may itself hold '_', so split no further.
    const secretParts = [adminKey.key, viewerKey.key].map((k) => k.split('_').slice(2).join('_'));
    expect(written.length).toBeGreaterThan(0);
    for (const line of written) for (const secret of secretParts) expect(line).not.toContain(secret);
  });
});

describe('last-used dates', () => {
  it('records the use of an accepted key, touching only LastUsed and at most hourly', async () => {
    const { module, dynamo, lib } = authorizer();
    await module.handler(event(GENERATOR, { UserID: 'admin', APIKey: adminKey.key }));
    await module.handler(event(STRENGTH, { APIKey: strengthKey.key }));
    await module.handler(event(GENERATOR_API, { APIKey: generatorKey.key }));

    const updates = dynamo.commandCalls(lib.UpdateCommand).map((call) => call.args[0].input);
    expect(updates).toHaveLength(3);
    expect(updates[0]).toEqual({
      TableName: 'credentials-table',
      Key: { CredentialID: 'USER#admin' },
      UpdateExpression: 'SET LastUsed.#key = :now',
      ConditionExpression:
        'attribute_exists(CredentialID) AND (attribute_not_exists(LastUsed.#key) OR LastUsed.#key < :threshold)',
      ExpressionAttributeNames: { '#key': adminKey.keyId },
      ExpressionAttributeValues: {
        ':now': expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        ':threshold': expect.any(String),
      },
    });
    const { ':now': now, ':threshold': threshold } = updates[0]!.ExpressionAttributeValues as Record<string, string>;
    expect(Date.parse(now!) - Date.parse(threshold!)).toBe(3_600_000);
    expect(updates[1]).toMatchObject({
      Key: { CredentialID: 'STRENGTH_KEYS' },
      ExpressionAttributeNames: { '#key': strengthKey.keyId },
    });
    expect(updates[2]).toMatchObject({
      Key: { CredentialID: 'GENERATOR_KEYS' },
      ExpressionAttributeNames: { '#key': generatorKey.keyId },
    });
  });

  it('records nothing for a rejected or denied request', async () => {
    const { module, dynamo, lib } = authorizer();
    await module.handler(event(GENERATOR, { UserID: 'viewer', APIKey: viewerKey.key }));
    await module.handler(event(STRENGTH, { APIKey: adminKey.key })).catch(() => undefined);
    expect(dynamo).toHaveReceivedCommandTimes(lib.UpdateCommand, 0);
  });

  it('still allows when the last-used write fails (already written this hour, or a fault)', async () => {
    const { module, dynamo, lib } = authorizer();
    dynamo
      .on(lib.UpdateCommand)
      .rejects(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }));
    expect(
      (await module.handler(event(STRENGTH, { APIKey: strengthKey.key }))).policyDocument.Statement[0]!.Effect,
    ).toBe('Allow');
  });
});

describe('key format and digests (docs/credentials.md)', () => {
  it('issues keys with a kind prefix, a key id and 256 random bits, stored only as a SHA-256 digest', () => {
    const key = issueKey('strength');
    expect(key.key).toMatch(/^pps_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(parseKey(key.key)).toEqual({ kind: 'strength', keyId: key.keyId });
    expect(key.digest).toBe(digestKey(key.key));
    expect(key.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(issueKey('user').key).toMatch(/^ppg_/);
    expect(issueKey('generator').key).toMatch(/^ppa_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(parseKey(generatorKey.key)).toEqual({ kind: 'generator', keyId: generatorKey.keyId });
    expect(issueKey('user').key).not.toBe(issueKey('user').key);
  });

  it('compares a presented key with a digest, and never matches a malformed digest', () => {
    const key = issueKey('user');
    expect(keyMatchesDigest(key.key, key.digest)).toBe(true);
    expect(keyMatchesDigest(key.key, digestKey('other'))).toBe(false);
    expect(keyMatchesDigest(key.key, key.digest.slice(2))).toBe(false);
    expect(keyMatchesDigest(key.key, undefined)).toBe(false);
  });
});

describe('malformed credential records count as absent (logged with their id, counted), never a throw', () => {
  const key = issueKey('user');
  const strength = issueKey('strength');
  it.each([
    ['no Keys', { UserID: 'odd', Roles: [GENERATOR_ADMIN_ROLE] }],
    ['Keys a list', { UserID: 'odd', Roles: [GENERATOR_ADMIN_ROLE], Keys: [stored(key)] }],
    [
      'a key without its Digest',
      { UserID: 'odd', Roles: [GENERATOR_ADMIN_ROLE], Keys: { [key.keyId]: { CreatedAt: 'x' } } },
    ],
    [
      'a Digest that is not a string',
      { UserID: 'odd', Roles: [GENERATOR_ADMIN_ROLE], Keys: { [key.keyId]: { Digest: 7 } } },
    ],
    ['Roles a string', { UserID: 'odd', Roles: GENERATOR_ADMIN_ROLE, Keys: stored(key) }],
    ['Disabled a string', { UserID: 'odd', Roles: [GENERATOR_ADMIN_ROLE], Disabled: 'no', Keys: stored(key) }],
    ['no UserID', { Roles: [GENERATOR_ADMIN_ROLE], Keys: stored(key) }],
  ])('a user record with %s: 401', async (_, item) => {
    const { module, dynamo, lib, runtime } = authorizer();
    dynamo.on(lib.GetCommand).resolves({ Item: { CredentialID: 'USER#odd', ...item } });
    const warned = jest.spyOn(runtime.logger, 'warn').mockImplementation(() => undefined);
    const counted = jest.spyOn(runtime.metrics, 'addMetric');
    await expect(module.handler(event(GENERATOR, { UserID: 'odd', APIKey: key.key }))).rejects.toThrow(
      new Error('Unauthorized'),
    );
    expect(warned).toHaveBeenCalledWith('Invalid credential record', { credentialId: 'USER#odd' });
    expect(counted).toHaveBeenCalledWith('InvalidCredentialRecords', 'Count', 1);
  });

  it('a well-formed twin of the same record is allowed (the traps are live)', async () => {
    const { module, dynamo, lib } = authorizer();
    dynamo.on(lib.GetCommand).resolves({
      Item: {
        CredentialID: 'USER#odd',
        UserID: 'odd',
        Roles: new Set([GENERATOR_ADMIN_ROLE]),
        Disabled: false,
        Keys: stored(key),
      },
    });
    expect(
      (await module.handler(event(GENERATOR, { UserID: 'odd', APIKey: key.key }))).policyDocument.Statement[0]!.Effect,
    ).toBe('Allow');
  });

  it('a system keys record without Keys: 401', async () => {
    const { module, dynamo, lib, runtime } = authorizer();
    dynamo.on(lib.GetCommand).resolves({ Item: { CredentialID: 'STRENGTH_KEYS', LastUsed: {} } });
    const warned = jest.spyOn(runtime.logger, 'warn').mockImplementation(() => undefined);
    await expect(module.handler(event(STRENGTH, { APIKey: strength.key }))).rejects.toThrow(new Error('Unauthorized'));
    expect(warned).toHaveBeenCalledWith('Invalid credential record', { credentialId: 'STRENGTH_KEYS' });
  });
});

describe('the last-used write is skipped when the record read shows one within the hour', () => {
  const key = issueKey('user');
  const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
  it.each([
    ['a minute ago: no write', at(60_000), 0],
    ['two hours ago: one write', at(2 * 3_600_000), 1],
    ['never: one write', undefined, 1],
    ['an unreadable date: one write', 'yesterday-ish', 1],
  ])('%s', async (_, lastUsed, writes) => {
    const { module, dynamo, lib } = authorizer();
    const LastUsed = lastUsed === undefined ? {} : { [key.keyId]: lastUsed };
    dynamo.on(lib.GetCommand).resolves({
      Item: {
        CredentialID: 'USER#admin',
        UserID: 'admin',
        Roles: [GENERATOR_ADMIN_ROLE],
        Keys: stored(key),
        LastUsed,
      },
    });
    expect(
      (await module.handler(event(GENERATOR, { UserID: 'admin', APIKey: key.key }))).policyDocument.Statement[0]!
        .Effect,
    ).toBe('Allow');
    expect(dynamo.commandCalls(lib.UpdateCommand)).toHaveLength(writes);
  });
});

describe('UserIDs: exactly those the credentials CLI creates', () => {
  it.each([
    ['a comma', 'ad,min'],
    ['129 characters', 'u'.repeat(129)],
    ['a space', 'ad min'],
  ])('a UserID with %s is 401 before any lookup', async (_, userId) => {
    const { module, dynamo, lib } = authorizer();
    await expect(module.handler(event(GENERATOR, { UserID: userId, APIKey: adminKey.key }))).rejects.toThrow(
      new Error('Unauthorized'),
    );
    expect(dynamo.commandCalls(lib.GetCommand)).toHaveLength(0);
  });
});

describe('usage plans: the key that meters each issued key, and its plan', () => {
  const key = issueKey('generator');
  it.each([
    ['the default plan', undefined, 'standard'],
    ['a plan set by the CLI', 'high', 'high'],
    ['an unknown plan name (written by hand): the default', 'gold', 'standard'],
    ['a prototype name: the default', 'constructor', 'standard'],
  ])('%s', async (_, UsagePlan, plan) => {
    const { module, dynamo, lib } = authorizer();
    dynamo.on(lib.GetCommand).resolves({
      Item: {
        CredentialID: 'GENERATOR_KEYS',
        Keys: { [key.keyId]: { Digest: key.digest, ...(UsagePlan ? { UsagePlan } : {}) } },
      },
    });
    const result = await module.handler(event(GENERATOR_API, { APIKey: key.key }));
    expect({ usageIdentifierKey: result.usageIdentifierKey, plan: result.context?.usagePlan }).toEqual({
      usageIdentifierKey: `pp-usage-${key.keyId}`,
      plan,
    });
  });

  it('a Deny (403) names no usage key', async () => {
    expect(await handler(event(GENERATOR, { UserID: 'viewer', APIKey: viewerKey.key }))).not.toHaveProperty(
      'usageIdentifierKey',
    );
  });
});

describe('the hour of the last-used date, at its edge', () => {
  const key = issueKey('user');
  const now = new Date('2026-11-24T12:00:00.000Z');
  it.each([
    ['exactly an hour ago: written again', 3_600_000, 1],
    ['a millisecond less: skipped', 3_599_999, 0],
  ])('%s', async (_, msAgo, writes) => {
    const { module } = loadEntry<{ authorize: typeof import('../../functions/api/authorizer').authorize }>(
      '../../functions/api/authorizer',
      {
        CREDENTIALS_TABLE_NAME: 'credentials-table',
        POWERTOOLS_METRICS_DISABLED: 'true',
      },
    );
    const recordKeyUse = jest.fn(async () => undefined);
    const user = {
      UserID: 'admin',
      Roles: [GENERATOR_ADMIN_ROLE],
      Keys: stored(key),
      LastUsed: { [key.keyId]: new Date(now.getTime() - msAgo).toISOString() },
    };
    const headers: Record<string, string> = { userid: 'admin', apikey: key.key };
    const decision = await module.authorize(
      CREDENTIAL_SCHEMES.generatorUser,
      (name) => headers[name.toLowerCase()],
      { findUser: async () => user, findSystemKeys: async () => undefined, recordKeyUse },
      () => now,
    );
    expect(decision.outcome).toBe('allow');
    expect(recordKeyUse).toHaveBeenCalledTimes(writes);
  });
});
