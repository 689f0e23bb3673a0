/** GET /userapi/generatepassword through the local gateway: every seed policy, statuses, the credential matrix. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { characterClasses, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { errorEnvelope } from '../../functions/http';
import { ROUTE_PHRASES } from '../../functions/routes';
import { expectNoStoreJson } from '../support/answers';
import { rawRequest } from '../support/http-client';
import { spawnLocalService, type SpawnedService } from '../support/local-service';
import { LOCAL_ENV } from '../../local/local-environment';

const ROOT = path.join(__dirname, '..', '..');
const SEED = JSON.parse(readFileSync(path.join(ROOT, 'seed', 'generator-policies.json'), 'utf8')) as GeneratorPolicy[];
const CREDENTIALS = JSON.parse(readFileSync(path.join(ROOT, 'seed', 'local-credentials.json'), 'utf8')) as {
  generatorAdmin: { UserID: string; APIKey: string };
  userWithoutRole: { UserID: string; APIKey: string };
  passwordStrengthAPIKey: string;
};
const ADMIN: [string, string][] = [
  ['UserID', CREDENTIALS.generatorAdmin.UserID],
  ['APIKey', CREDENTIALS.generatorAdmin.APIKey],
];

let service: SpawnedService;
beforeAll(async () => {
  service = await spawnLocalService({ env: { [LOCAL_ENV.authorizerCacheTtl]: '0' } });
}, 90_000);
afterAll(async () => {
  expect(await service?.stop()).toEqual({ code: 0, signal: null });
});

const get = (target: string, headers: [string, string][] = ADMIN) => rawRequest(service.url, 'GET', target, headers);

describe('every seed generator policy generates through the endpoint', () => {
  it.each(SEED.map((p) => [p.PasswordGeneratorID, p.GeneratorName, p] as const))(
    'policy %i (%s): 20 passwords that keep its rules',
    async (id, _name, policy) => {
      const response = await get(`/userapi/generatepassword/?PasswordGeneratorID=${id}&Qty=20`);
      expectNoStoreJson(response);
      const passwords = (JSON.parse(response.body) as { Password: string }[]).map((p) => p.Password);
      expect(passwords).toHaveLength(20);
      const excluded = new Set(policy.ExcludeChars + (policy.AmbiguousChars ? '' : '0Oo1lI|'));
      const classes = Object.values(characterClasses(policy)).filter((c) => c.on);
      for (const password of passwords) {
        // Exclusions hold over the whole password, words included.
        expect([...password].filter((c) => excluded.has(c))).toEqual([]);
        if (policy.IncludeAlphaSpecial && !policy.IncludeWordPhrases && !policy.GeneratePattern) {
          expect(password.length).toBeGreaterThanOrEqual(policy.MinLength);
          expect(password.length).toBeLessThanOrEqual(policy.MaxLength);
          for (const c of classes) expect([...password].some((ch) => c.chars.includes(ch))).toBe(true);
        }
      }
    },
  );
});

describe('parameters and statuses', () => {
  it('defaults to one password of the default policy, with or without the trailing slash', async () => {
    for (const target of ['/userapi/generatepassword', '/userapi/generatepassword/']) {
      const response = await get(target);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toEqual([{ Password: expect.any(String) }]);
    }
  });

  it('answers Qty=100 and refuses Qty=101', async () => {
    expect(JSON.parse((await get('/userapi/generatepassword?Qty=100')).body)).toHaveLength(100);
    expect(await get('/userapi/generatepassword?Qty=101')).toMatchObject({
      status: 400,
      body: errorEnvelope(400, 'Qty must be a whole number from 1 to 100.'),
    });
  });

  it('answers 404 for an unknown policy and 405 for another method', async () => {
    expect(await get('/userapi/generatepassword?PasswordGeneratorID=999')).toMatchObject({
      status: 404,
      body: errorEnvelope(404, 'No password generator policy has PasswordGeneratorID 999.'),
    });
    const post = await rawRequest(service.url, 'POST', '/userapi/generatepassword', ADMIN);
    expect({ status: post.status, allow: post.headers.allow }).toEqual({ status: 405, allow: 'GET' });
  });
});

describe('credentials: as the generator policies', () => {
  it.each([
    ['no headers', [], 401, ROUTE_PHRASES.unauthorized],
    [
      'a wrong key',
      [
        ['UserID', CREDENTIALS.generatorAdmin.UserID],
        ['APIKey', `${CREDENTIALS.generatorAdmin.APIKey.slice(0, -4)}AAAA`],
      ],
      401,
      ROUTE_PHRASES.unauthorized,
    ],
    [
      'a password strength key',
      [
        ['UserID', CREDENTIALS.generatorAdmin.UserID],
        ['APIKey', CREDENTIALS.passwordStrengthAPIKey],
      ],
      401,
      ROUTE_PHRASES.unauthorized,
    ],
    [
      'a user without the role',
      [
        ['UserID', CREDENTIALS.userWithoutRole.UserID],
        ['APIKey', CREDENTIALS.userWithoutRole.APIKey],
      ],
      403,
      ROUTE_PHRASES.missingRole,
    ],
  ] as [string, [string, string][], 401 | 403, string][])(
    '%s: the expected status and envelope',
    async (_, headers, status, phrase) => {
      expect(await get('/userapi/generatepassword', headers)).toMatchObject({
        status,
        body: errorEnvelope(status, phrase),
      });
    },
  );

  it('header names in other cases work', async () => {
    expect(
      (
        await get('/userapi/generatepassword', [
          ['userid', CREDENTIALS.generatorAdmin.UserID],
          ['APIKEY', CREDENTIALS.generatorAdmin.APIKey],
        ])
      ).status,
    ).toBe(200);
  });
});
