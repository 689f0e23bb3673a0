/**
 * End-to-end test of the HTTP contract (docs/api.md) and the credential matrix (docs/credentials.md), over real
 * HTTP. Nothing is mocked: requests go through a socket to a gateway, an authorizer, a handler and a store.
 *
 * Target
 *   By default the test starts the real start command (`tsx local/start.ts`, what `npm start` runs) as a
 *   child process on a free port (PORT=0) with QUIET=1 and AUTHORIZER_CACHE_TTL_SECONDS=0 (so no credential
 *   case is answered from another's cached authorizer result), using the demo credentials of
 *   seed/local-credentials.json, and stops it with SIGTERM at the end (it must exit with code 0).
 *
 *   With E2E_BASE_URL set it runs as a smoke test against that URL (a deployed stage, e.g.
 *   https://abc123.execute-api.eu-west-1.amazonaws.com/prod) and starts nothing. Credentials then come from:
 *     E2E_BASE_URL           the API's base URL (stage included)
 *     E2E_ADMIN_USER_ID      a user holding the "Password Generator Policy Security Administrator" role
 *     E2E_ADMIN_API_KEY      that user's API key
 *     E2E_NOROLE_USER_ID     a user without that role
 *     E2E_NOROLE_API_KEY     that user's API key
 *     E2E_STRENGTH_API_KEY   an active password strength key
 *   Expected data always comes from seed/generator-policies.json and seed/strength-policies.json, so the
 *   deployment must hold exactly the seed data (seeded with `npm run seed`, nothing else added or changed).
 *
 * Run: npx jest test/e2e
 */
import { errorEnvelope, methodNotAllowedPhrase, REASON_PHRASES, type ErrorStatus } from '../../functions/http';
import { ROUTE_PHRASES } from '../../functions/routes';
import { userAndKey } from '../support/credential-headers';
import { rawRequest, type RawResponse } from '../support/http-client';
import { spawnLocalService, type SpawnedService } from '../support/local-service';
import {
  LOCAL_CREDENTIALS,
  SEED_GENERATOR,
  SEED_STRENGTH,
  type Policy,
  type SeedCollection,
} from '../support/seed-reference';
import { LOCAL_ENV } from '../../local/local-environment';

jest.setTimeout(30_000);

type Headers = readonly (readonly [string, string])[];

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

// ---------------------------------------------------------------------------------------------------------
// Expected data: the seed files, ordered by identifier, serialised in spec order (the files are in it).

type FieldType = 'integer' | 'string' | 'boolean';

/** The specification's field tables, in its order. */
const GENERATOR_FIELDS: readonly (readonly [string, FieldType])[] = [
  ['PasswordGeneratorID', 'integer'],
  ['GeneratorName', 'string'],
  ['GeneratorDescription', 'string'],
  ['IncludeAlphaSpecial', 'boolean'],
  ['IncludeWordPhrases', 'boolean'],
  ['MinLength', 'integer'],
  ['MaxLength', 'integer'],
  ['LowerCaseChars', 'boolean'],
  ['UpperCaseChars', 'boolean'],
  ['NumericChars', 'boolean'],
  ['HigherAlphaRatio', 'boolean'],
  ['AmbiguousChars', 'boolean'],
  ['SpecialChars', 'boolean'],
  ['BracketChars', 'boolean'],
  ['SpecialCharsText', 'string'],
  ['BracketCharsText', 'string'],
  ['NumberOfWords', 'integer'],
  ['MaximumWordLength', 'integer'],
  ['PrefixAppendWords', 'string'],
  ['SeparateWordsWith', 'string'],
  ['ExcludeChars', 'string'],
  ['GeneratePattern', 'boolean'],
  ['Pattern', 'string'],
];

const STRENGTH_FIELDS: readonly (readonly [string, FieldType])[] = [
  ['PasswordStrengthPolicyID', 'integer'],
  ['PolicyName', 'string'],
  ['PolicyDescription', 'string'],
  ['MinimumLowerCaseCharacters', 'integer'],
  ['MinimumNumericCharacters', 'integer'],
  ['MinimumSymbolCharacters', 'integer'],
  ['MinimumUpperCaseCharacters', 'integer'],
  ['PreferredPasswordLength', 'integer'],
  ['RequiresUpperAndLowerCase', 'boolean'],
  ['CalculationWeightings', 'string'],
  ['PasswordStrengthCompliance', 'integer'],
  ['ComplianceMandatory', 'boolean'],
];

/** A seed collection (its path without a trailing slash, its policies ordered by identifier) and the specification's fields. */
interface Collection extends SeedCollection {
  readonly title: string;
  readonly fields: readonly (readonly [string, FieldType])[];
}

const GENERATOR: Collection = { ...SEED_GENERATOR, title: 'generator policies', fields: GENERATOR_FIELDS };

const STRENGTH: Collection = { ...SEED_STRENGTH, title: 'strength policies', fields: STRENGTH_FIELDS };

const COLLECTIONS = [GENERATOR, STRENGTH] as const;

const bodyOf = (policies: readonly Policy[]): string => JSON.stringify(policies);
const idsOf = (c: Collection, policies: readonly Policy[]): number[] => policies.map((p) => p[c.idField] as number);

/** The search rules (docs/api.md#search) read independently of the product code: NFKC, lower case, trim; every term in name or description. */
function referenceSearch(c: Collection, text: string): Policy[] {
  const fold = (s: string) => s.normalize('NFKC').toLowerCase();
  const query = fold(text).trim();
  if (query === '' || query === '*') return [...c.policies];
  const terms = query.split(/\s+/u);
  return c.policies.filter((p) =>
    terms.every((t) => fold(String(p[c.nameField])).includes(t) || fold(String(p[c.descriptionField])).includes(t)),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Target and credentials.

interface Credentials {
  readonly admin: { readonly userId: string; readonly apiKey: string };
  readonly noRole: { readonly userId: string; readonly apiKey: string };
  readonly strengthKey: string;
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`E2E_BASE_URL is set, so ${name} must be set too (see the top of test/e2e/api.test.ts)`);
  return value;
}

const DEPLOYED_URL = process.env.E2E_BASE_URL || undefined;

const CREDENTIALS: Credentials = DEPLOYED_URL
  ? {
      admin: { userId: requiredEnv('E2E_ADMIN_USER_ID'), apiKey: requiredEnv('E2E_ADMIN_API_KEY') },
      noRole: { userId: requiredEnv('E2E_NOROLE_USER_ID'), apiKey: requiredEnv('E2E_NOROLE_API_KEY') },
      strengthKey: requiredEnv('E2E_STRENGTH_API_KEY'),
    }
  : {
      admin: { userId: LOCAL_CREDENTIALS.generatorAdmin.UserID, apiKey: LOCAL_CREDENTIALS.generatorAdmin.APIKey },
      noRole: { userId: LOCAL_CREDENTIALS.userWithoutRole.UserID, apiKey: LOCAL_CREDENTIALS.userWithoutRole.APIKey },
      strengthKey: LOCAL_CREDENTIALS.passwordStrengthAPIKey,
    };

/** The same key with its last character changed: well-formed, same key id, wrong secret. */
function wrongKey(key: string): string {
  return `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
}

const ADMIN = userAndKey(CREDENTIALS.admin.userId, CREDENTIALS.admin.apiKey);
const STRENGTH_KEY: Headers = [['APIKey', CREDENTIALS.strengthKey]];
const validHeaders = (c: Collection): Headers => (c.group === 'userapi' ? ADMIN : STRENGTH_KEY);

let service: SpawnedService | undefined;
let baseUrl = DEPLOYED_URL ?? '';

/** Every key any test has sent, to check that no response ever echoes one. */
const submittedKeys = new Set<string>([CREDENTIALS.admin.apiKey, CREDENTIALS.noRole.apiKey, CREDENTIALS.strengthKey]);

async function send(method: string, target: string, headers: Headers = []): Promise<RawResponse> {
  for (const [name, value] of headers)
    if (name.toLowerCase() === 'apikey' && value.length >= 8) submittedKeys.add(value);
  return rawRequest(baseUrl, method, target, headers);
}

const get = (target: string, headers: Headers = []) => send('GET', target, headers);

function expectJsonContentType(response: RawResponse): void {
  expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
}

function expectSuccess(response: RawResponse, expectedBody: string): void {
  expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: expectedBody });
  expectJsonContentType(response);
}

function expectError(response: RawResponse, status: ErrorStatus, phrase: string): void {
  expect({ status: response.status, body: response.body }).toEqual({ status, body: errorEnvelope(status, phrase) });
  expectJsonContentType(response);
}

/** An error envelope whose phrase the test does not pin down word for word; returns the phrase. */
function expectErrorEnvelope(response: RawResponse, status: ErrorStatus): string {
  expect(response.status).toBe(status);
  expectJsonContentType(response);
  const parsed = JSON.parse(response.body) as unknown;
  expect(parsed).toEqual([{ errors: [{ message: REASON_PHRASES[status] }, { phrase: expect.any(String) }] }]);
  const phrase = (parsed as [{ errors: [unknown, { phrase: string }] }])[0].errors[1].phrase;
  expect(phrase.length).toBeGreaterThan(0);
  return phrase;
}

/** No part of a submitted key in the body or any header: neither the whole key nor its secret tail. */
function expectNoKeyIn(response: RawResponse, keys: Iterable<string>): void {
  const everything = [response.body, ...response.rawHeaders].join('\n');
  for (const key of keys) {
    if (key.length < 8) continue;
    expect(everything.includes(key)).toBe(false);
    expect(everything.includes(key.slice(-16))).toBe(false);
  }
}

beforeAll(async () => {
  if (DEPLOYED_URL) return;
  service = await spawnLocalService({ env: { [LOCAL_ENV.authorizerCacheTtl]: '0' }, startTimeoutMs: 60_000 });
  baseUrl = service.url;
}, 90_000);

afterAll(async () => {
  if (!service) return;
  const exit = await service.stop();
  expect(exit).toEqual({ code: 0, signal: null });
}, 30_000);

// ---------------------------------------------------------------------------------------------------------

describe('the seed files the expectations come from', () => {
  test.each(COLLECTIONS.map((c) => [c.title, c] as const))(
    '%s are in spec field order with unique identifiers',
    (_title, c) => {
      for (const p of c.policies) expect(Object.keys(p)).toEqual(c.fields.map(([name]) => name));
      expect(new Set(idsOf(c, c.policies)).size).toBe(c.policies.length);
      expect(idsOf(c, c.policies)).toContain(1);
    },
  );
});

describe.each(COLLECTIONS.map((c) => [c.title, c] as const))('list of %s', (_title, c) => {
  test.each([c.path, `${c.path}/`])('GET %s returns the whole collection ordered by ID', async (target) => {
    const response = await get(target, validHeaders(c));
    expectSuccess(response, bodyOf(c.policies));
  });

  test('every element has exactly the spec fields, in spec order, with the spec JSON types', async () => {
    const response = await get(c.path, validHeaders(c));
    expect(response.status).toBe(200);
    const elements = JSON.parse(response.body) as Policy[];
    expect(Array.isArray(elements)).toBe(true);
    expect(elements.length).toBe(c.policies.length);
    const ids = idsOf(c, elements);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const element of elements) {
      expect(Object.keys(element)).toEqual(c.fields.map(([name]) => name));
      for (const [name, type] of c.fields) {
        const value = element[name];
        const ok = type === 'integer' ? Number.isInteger(value) : typeof value === type;
        if (!ok)
          throw new Error(
            `${c.idField} ${String(element[c.idField])}: ${name} is ${JSON.stringify(value)}, not a JSON ${type}`,
          );
      }
    }
  });
});

describe.each(COLLECTIONS.map((c) => [c.title, c] as const))('search of %s', (_title, c) => {
  const search = (encodedQuery: string, slash = '/') =>
    get(`${c.path}${slash}?search=${encodedQuery}`, validHeaders(c));
  const expectIds = async (encodedQuery: string, ids: readonly number[]) => {
    const expected = c.policies.filter((p) => ids.includes(p[c.idField] as number));
    expect(idsOf(c, expected)).toEqual(ids); // the hard-coded IDs are in ID order and all exist
    expectSuccess(await search(encodedQuery), bodyOf(expected));
  };
  const isGenerator = c === GENERATOR;

  test.each(['/', ''])('with and without the trailing slash (%j)', async (slash) => {
    expectSuccess(await search('default', slash), bodyOf(c.policies.filter((p) => p[c.idField] === 1)));
  });

  test('finds the default policy (ID 1) by "default"', () => expectIds('default', [1]));

  test('is case-insensitive', async () => {
    await expectIds('DEFAULT', [1]);
    await expectIds('DeFaUlT', [1]);
  });

  test('normalises NFKC: fullwidth "ＤＥＦＡＵＬＴ" matches "default"', () =>
    expectIds(encodeURIComponent('ＤＥＦＡＵＬＴ'), [1]));

  test('matches substrings, not only whole words', () => expectIds('defaul', [1]));

  test('needs every term (AND), each in the name or the description', async () => {
    // "PIN" is in the name, "voicemail" only in the description.
    await expectIds('pin+voicemail', isGenerator ? [8] : [7]);
    await expectIds('domain+accounts', isGenerator ? [2, 9] : [2, 6]);
    await expectIds('pin+kerberos', []);
  });

  test('takes "+" and %20 as spaces, and runs of white space as one separator', async () => {
    const expected = isGenerator ? [9] : [6];
    await expectIds('root+break-glass', expected);
    await expectIds('root%20break-glass', expected);
    await expectIds('%20root%09%20%20break-glass%20', expected);
  });

  test('considers only the name and the description', async () => {
    const otherFieldValues = isGenerator
      ? [
          '!@#$%^&*',
          '%^&*-_=+',
          '[]{}()<>',
          'u{2}l{4}d{3}s{2}',
          'true',
          'GeneratorName',
          'PasswordGeneratorID',
          'IncludeAlphaSpecial',
        ]
      : [
          '50;15;15;20',
          '60;10;10;20',
          'true',
          'false',
          'PolicyName',
          'MinimumLowerCaseCharacters',
          'ComplianceMandatory',
        ];
    for (const value of otherFieldValues) {
      expect(referenceSearch(c, value)).toEqual([]); // the value really occurs in no name or description
      expectSuccess(await search(encodeURIComponent(value)), '[]');
    }
  });

  test.each([
    ['empty', ''],
    ['whitespace only', '%20%20%09'],
    ['"+" only', '+'],
    ['"*"', '*'],
    ['"*" percent-encoded, padded', '%20%2A%20'],
  ])('%s returns the whole collection', async (_name, query) => {
    expectSuccess(await search(query), bodyOf(c.policies));
    expectSuccess(await search(query, ''), bodyOf(c.policies));
  });

  test('no match: 200 and []', async () => {
    expectSuccess(await search('no-policy-has-this-text-zq'), '[]');
  });

  test('results equal the reference reading of the search rules: a subset, complete elements, ordered by ID', async () => {
    const queries = [
      'accounts',
      'characters',
      'oracle',
      'legacy',
      'DOMAIN',
      'strong mandatory',
      'excellent',
      'wpa2/wpa3',
      'a',
      'e s',
      'policy',
      '  Service  ',
    ];
    for (const query of queries) {
      const expected = referenceSearch(c, query);
      const response = await search(encodeURIComponent(query));
      expectSuccess(response, bodyOf(expected));
      const elements = JSON.parse(response.body) as Policy[];
      const ids = idsOf(c, elements);
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
      for (const element of elements)
        expect(element).toEqual(c.policies.find((p) => p[c.idField] === element[c.idField]));
    }
  });

  test('exactly 256 characters (after trimming) is accepted', async () => {
    expectSuccess(await search('a'.repeat(256)), '[]');
    expectSuccess(await search(`%20%20${'a'.repeat(256)}%20`), '[]');
    expectSuccess(await search(encodeURIComponent('ａ'.repeat(256))), '[]');
  });

  test('257 characters is a 400 with the envelope', async () => {
    for (const query of [
      'a'.repeat(257),
      `${'a'.repeat(128)}+${'b'.repeat(128)}`,
      encodeURIComponent('ａ'.repeat(257)),
    ]) {
      const response = await search(query);
      const phrase = expectErrorEnvelope(response, 400);
      expect(phrase).toContain('256');
    }
  });
});

describe.each(COLLECTIONS.map((c) => [c.title, c] as const))('bad queries on %s', (_title, c) => {
  const paths = [c.path, `${c.path}/`];

  test.each(paths)('unknown parameter ?serach=x on %s: 400 naming "serach"', async (p) => {
    const phrase = expectErrorEnvelope(await get(`${p}?serach=x`, validHeaders(c)), 400);
    expect(phrase).toContain('"serach"');
  });

  test.each(paths)('an unknown parameter beside search on %s: 400 naming it', async (p) => {
    const phrase = expectErrorEnvelope(await get(`${p}?search=default&limit=5`, validHeaders(c)), 400);
    expect(phrase).toContain('"limit"');
  });

  test.each(paths)('search given twice on %s: 400 naming "search"', async (p) => {
    for (const query of ['search=default&search=policy', 'search=default&search=default', 'search=&search=']) {
      const phrase = expectErrorEnvelope(await get(`${p}?${query}`, validHeaders(c)), 400);
      expect(phrase).toContain('search');
    }
  });

  test.each(paths)('invalid percent-encoding on %s: 400', async (p) => {
    for (const query of ['search=%zz', 'search=%', 'search=abc%2', 'search=%E0%A4%A']) {
      expectErrorEnvelope(await get(`${p}?${query}`, validHeaders(c)), 400);
    }
  });
});

describe.each(COLLECTIONS.map((c) => [c.title, c] as const))('conditional requests on %s', (_title, c) => {
  test.each([c.path, `${c.path}/?search=default`])(
    'GET %s: a strong ETag, then 304 with no body for If-None-Match',
    async (target) => {
      const first = await get(target, validHeaders(c));
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);

      const revalidated = await get(target, [...validHeaders(c), ['If-None-Match', etag]]);
      expect({ status: revalidated.status, body: revalidated.body, etag: revalidated.headers.etag }).toEqual({
        status: 304,
        body: '',
        etag,
      });

      const changed = await get(target, [...validHeaders(c), ['If-None-Match', '"another"']]);
      expect({ status: changed.status, body: changed.body }).toEqual({ status: 200, body: first.body });
    },
  );

  test('a 304 still requires credentials', async () => {
    const etag = (await get(c.path, validHeaders(c))).headers.etag as string;
    expect((await get(c.path, [['If-None-Match', etag]])).status).toBe(401);
  });
});

describe('paths and methods', () => {
  test.each([
    '/nope',
    '/api/passwordstrength/extra',
    '/userapi/passwordgenerator/extra',
    '/',
    '/api',
    '/userapi/',
    '/api/passwordstrengthx',
    '/API/passwordstrength',
  ])('GET %s: 404', async (target) => {
    expectError(await get(target), 404, ROUTE_PHRASES.notFound);
    expectError(await get(target, target.startsWith('/userapi') ? ADMIN : STRENGTH_KEY), 404, ROUTE_PHRASES.notFound);
  });

  const fourPaths = COLLECTIONS.flatMap((c) => [c.path, `${c.path}/`]);
  const cases = fourPaths.flatMap((p) => ['POST', 'PUT', 'DELETE', 'PATCH'].map((method) => [method, p] as const));
  test.each(cases)('%s %s: 405 with Allow: GET', async (method, target) => {
    const response = await send(method, target);
    expectError(response, 405, methodNotAllowedPhrase(['GET']));
    expect(response.headers.allow).toBe('GET');
  });
});

// ---------------------------------------------------------------------------------------------------------
// The credential matrix, on all four endpoints.

interface CredentialCase {
  readonly name: string;
  readonly headers: Headers;
  /** 200: the endpoint's normal answer; otherwise the error status and its phrase. */
  readonly expect: 200 | { status: ErrorStatus; phrase: string };
}

const unauthorized = { status: 401, phrase: ROUTE_PHRASES.unauthorized } as const;
const OVERSIZED_KEY_LENGTH = 8 * 1024;
const oversized = (key: string) => `${key}${'A'.repeat(OVERSIZED_KEY_LENGTH - key.length)}`;
const { admin, noRole, strengthKey } = CREDENTIALS;

const GENERATOR_CASES: readonly CredentialCase[] = [
  { name: 'no credential headers', headers: [], expect: unauthorized },
  { name: 'only UserID', headers: [['UserID', admin.userId]], expect: unauthorized },
  { name: 'only APIKey', headers: [['APIKey', admin.apiKey]], expect: unauthorized },
  { name: 'wrong key for the user', headers: userAndKey(admin.userId, wrongKey(admin.apiKey)), expect: unauthorized },
  { name: 'a key not in the key format', headers: userAndKey(admin.userId, 'not-a-key'), expect: unauthorized },
  { name: 'unknown user', headers: userAndKey('e2e-no-such-user', admin.apiKey), expect: unauthorized },
  { name: "another user's key", headers: userAndKey(noRole.userId, admin.apiKey), expect: unauthorized },
  {
    name: 'a valid user without the role',
    headers: userAndKey(noRole.userId, noRole.apiKey),
    expect: { status: 403, phrase: ROUTE_PHRASES.missingRole },
  },
  {
    name: 'the password strength key (with UserID)',
    headers: userAndKey(admin.userId, strengthKey),
    expect: unauthorized,
  },
  { name: 'the password strength key alone', headers: [['APIKey', strengthKey]], expect: unauthorized },
  { name: 'an empty APIKey', headers: userAndKey(admin.userId, ''), expect: unauthorized },
  { name: 'an empty UserID', headers: userAndKey('', admin.apiKey), expect: unauthorized },
  {
    name: 'an oversized (8 KB) APIKey',
    headers: userAndKey(admin.userId, oversized(admin.apiKey)),
    expect: unauthorized,
  },
  {
    name: 'APIKey sent twice',
    headers: [...ADMIN, ['APIKey', admin.apiKey]],
    expect: unauthorized,
  },
  {
    name: 'APIKey sent twice in different cases',
    headers: [...ADMIN, ['apikey', admin.apiKey]],
    expect: unauthorized,
  },
  // Not printable ASCII counts as missing: a no-break space (the byte 0xA0 on the wire) is not trimmed.
  {
    name: 'an APIKey padded with a no-break space',
    headers: userAndKey(admin.userId, `${admin.apiKey}\u00a0`),
    expect: unauthorized,
  },
  {
    name: 'a UserID padded with a no-break space',
    headers: userAndKey(`\u00a0${admin.userId}`, admin.apiKey),
    expect: unauthorized,
  },
  {
    name: 'values padded with spaces and tabs (HTTP optional whitespace)',
    headers: userAndKey(` ${admin.userId}\t`, `\t${admin.apiKey} `),
    expect: 200,
  },
  {
    name: 'header names in lower case (userid, apikey)',
    headers: userAndKey(admin.userId, admin.apiKey, ['userid', 'apikey']),
    expect: 200,
  },
  {
    name: 'header names in upper case (USERID, APIKEY)',
    headers: userAndKey(admin.userId, admin.apiKey, ['USERID', 'APIKEY']),
    expect: 200,
  },
  {
    name: 'header names in mixed case (UserId, ApiKey)',
    headers: userAndKey(admin.userId, admin.apiKey, ['UserId', 'ApiKey']),
    expect: 200,
  },
  { name: 'the administrator', headers: ADMIN, expect: 200 },
];

const STRENGTH_CASES: readonly CredentialCase[] = [
  { name: 'no credential headers', headers: [], expect: unauthorized },
  { name: 'only UserID', headers: [['UserID', admin.userId]], expect: unauthorized },
  { name: 'wrong key', headers: [['APIKey', wrongKey(strengthKey)]], expect: unauthorized },
  { name: 'a key not in the key format', headers: [['APIKey', 'not-a-key']], expect: unauthorized },
  { name: "a user's key (with UserID)", headers: ADMIN, expect: unauthorized },
  { name: "a user's key alone", headers: [['APIKey', admin.apiKey]], expect: unauthorized },
  {
    name: 'the credentials of a user without the role',
    headers: userAndKey(noRole.userId, noRole.apiKey),
    expect: unauthorized,
  },
  { name: 'an empty APIKey', headers: [['APIKey', '']], expect: unauthorized },
  { name: 'an oversized (8 KB) APIKey', headers: [['APIKey', oversized(strengthKey)]], expect: unauthorized },
  {
    name: 'APIKey sent twice',
    headers: [
      ['APIKey', strengthKey],
      ['APIKey', strengthKey],
    ],
    expect: unauthorized,
  },
  {
    name: 'APIKey sent twice in different cases',
    headers: [
      ['APIKey', strengthKey],
      ['ApiKey', strengthKey],
    ],
    expect: unauthorized,
  },
  {
    name: 'an APIKey padded with a no-break space',
    headers: [['APIKey', `${strengthKey}\u00a0`]],
    expect: unauthorized,
  },
  {
    name: 'an APIKey padded with spaces and tabs (HTTP optional whitespace)',
    headers: [['APIKey', ` ${strengthKey}\t`]],
    expect: 200,
  },
  { name: 'header name in lower case (apikey)', headers: [['apikey', strengthKey]], expect: 200 },
  { name: 'header name in upper case (APIKEY)', headers: [['APIKEY', strengthKey]], expect: 200 },
  { name: 'header name in mixed case (ApiKey)', headers: [['ApiKey', strengthKey]], expect: 200 },
  { name: 'the password strength key', headers: STRENGTH_KEY, expect: 200 },
];

interface Endpoint {
  readonly name: string;
  readonly target: string;
  readonly collection: Collection;
  readonly expectedBody: string;
}

const ENDPOINTS: readonly Endpoint[] = COLLECTIONS.flatMap((c) => [
  { name: `1/3 list ${c.path}`, target: c.path, collection: c, expectedBody: bodyOf(c.policies) },
  {
    name: `2/4 search ${c.path}/?search=default`,
    target: `${c.path}/?search=default`,
    collection: c,
    expectedBody: bodyOf(referenceSearch(c, 'default')),
  },
]);

const MATRIX = ENDPOINTS.flatMap((endpoint) =>
  (endpoint.collection.group === 'userapi' ? GENERATOR_CASES : STRENGTH_CASES).map(
    (credentialCase) => [endpoint.name, credentialCase.name, endpoint, credentialCase] as const,
  ),
);

describe('credential matrix', () => {
  test.each(MATRIX)('%s with %s', async (_endpoint, _case, endpoint, credentialCase) => {
    const response = await get(endpoint.target, credentialCase.headers);
    if (credentialCase.expect === 200) expectSuccess(response, endpoint.expectedBody);
    else expectError(response, credentialCase.expect.status, credentialCase.expect.phrase);
    expectNoKeyIn(
      response,
      credentialCase.headers.filter(([name]) => name.toLowerCase() === 'apikey').map(([, value]) => value),
    );
  });

  test('no error response of this run echoed any key that was submitted', async () => {
    // A sample of every kind of error, each checked against every key submitted so far.
    const targets = [
      '/nope',
      `${GENERATOR.path}?serach=x`,
      `${STRENGTH.path}?search=%zz`,
      GENERATOR.path,
      STRENGTH.path,
    ];
    for (const target of targets) {
      for (const headers of [ADMIN, STRENGTH_KEY, userAndKey(noRole.userId, noRole.apiKey)]) {
        const response = await get(target, headers);
        if (response.status !== 200) expectNoKeyIn(response, submittedKeys);
      }
    }
  });
});

describe('after every bad request above', () => {
  test.each(COLLECTIONS.map((c) => [c.title, c] as const))(
    'the gateway still answers a valid request for %s correctly',
    async (_title, c) => {
      expectSuccess(await get(c.path, validHeaders(c)), bodyOf(c.policies));
      expectSuccess(
        await get(`${c.path}/?search=${encodeURIComponent('ＤＥＦＡＵＬＴ')}`, validHeaders(c)),
        bodyOf(referenceSearch(c, 'default')),
      );
    },
  );

  test('the service process is still running', () => {
    if (service) expect(service.child.exitCode).toBeNull();
  });
});
