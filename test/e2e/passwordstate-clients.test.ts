/**
 * The exact requests of the public Passwordstate clients, byte for byte in path, query and headers, over real
 * HTTP through `npm start`'s gateway (docs/api.md#passwordstate-clients). Each of them authenticates with a
 * password generator API key in the APIKey header alone, on /api/, as Passwordstate's own server takes it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AMBIGUOUS_CHARS, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { errorEnvelope } from '../../functions/http';
import { ROUTE_PHRASES } from '../../functions/routes';
import { rawRequest, type RawResponse } from '../support/http-client';
import { PROJECT_ROOT, useLocalService } from '../support/local-service';
import { LOCAL_ENV } from '../../local/local-environment';

const CREDENTIALS = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'seed', 'local-credentials.json'), 'utf8')) as {
  generatorAdmin: { UserID: string; APIKey: string };
  passwordGeneratorAPIKey: string;
  passwordStrengthAPIKey: string;
};
const SEED = JSON.parse(
  readFileSync(path.join(PROJECT_ROOT, 'seed', 'generator-policies.json'), 'utf8'),
) as GeneratorPolicy[];
const KEY = CREDENTIALS.passwordGeneratorAPIKey;

/** The headers each client sends with its GETs (Host is added by the request helper, as every client sends it). */
const CLIENTS = {
  // PowerShell's Invoke-RestMethod, as the PowerShell modules call it: a JSON content type even on a GET.
  powershell: [
    ['User-Agent', 'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.19045; en-US) PowerShell/7.4.6'],
    ['APIKey', KEY],
    ['Content-Type', 'application/json'],
  ],
  // Ruby's Net::HTTP, as the ruby-passwordstate gem sets it up.
  ruby: [
    ['Accept-Encoding', 'gzip;q=1.0,deflate;q=0.6,identity;q=0.3'],
    ['Accept', 'application/json'],
    ['User-Agent', 'RubyPasswordstate/0.1.0'],
    ['APIKey', KEY],
  ],
} as const satisfies Record<string, readonly (readonly [string, string])[]>;

const local = useLocalService({ env: { [LOCAL_ENV.authorizerCacheTtl]: '0' } });
const send = (target: string, headers: readonly (readonly [string, string])[]) =>
  rawRequest(local.service.url, 'GET', target, headers);
const passwordsOf = (response: RawResponse) =>
  (JSON.parse(response.body) as { Password: string }[]).map((p) => p.Password);

describe.each(Object.entries(CLIENTS))('%s: GET /api/passwordgenerator/', (_client, headers) => {
  it('lists every generator policy, as /userapi/ does, with the same ETag', async () => {
    const viaKey = await send('/api/passwordgenerator/', headers);
    const viaUser = await send('/userapi/passwordgenerator/', [
      ['UserID', CREDENTIALS.generatorAdmin.UserID],
      ['APIKey', CREDENTIALS.generatorAdmin.APIKey],
    ]);
    expect({
      status: viaKey.status,
      type: viaKey.headers['content-type'],
      etag: viaKey.headers.etag,
      cache: viaKey.headers['cache-control'],
    }).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      etag: viaUser.headers.etag,
      cache: 'private, no-cache',
    });
    expect(viaKey.body).toBe(viaUser.body);
    expect((JSON.parse(viaKey.body) as GeneratorPolicy[]).map((p) => p.PasswordGeneratorID)).toEqual(
      SEED.map((p) => p.PasswordGeneratorID),
    );
  });

  it('searches with ?search=network+devices', async () => {
    const response = await send('/api/passwordgenerator/?search=network+devices', headers);
    expect(response.status).toBe(200);
    expect((JSON.parse(response.body) as GeneratorPolicy[]).map((p) => p.GeneratorName)).toEqual(['Network Devices']);
  });
});

describe.each(Object.entries(CLIENTS))('%s: GET /api/generatepassword/', (_client, headers) => {
  const policy = (id: number) => SEED.find((p) => p.PasswordGeneratorID === id)!;

  it('?Qty=1: one password of the default policy', async () => {
    const response = await send('/api/generatepassword/?Qty=1', headers);
    expect({ status: response.status, cache: response.headers['cache-control'] }).toEqual({
      status: 200,
      cache: 'no-store',
    });
    const [password] = passwordsOf(response);
    const { MinLength, MaxLength } = policy(1);
    expect(password!.length).toBeGreaterThanOrEqual(MinLength);
    expect(password!.length).toBeLessThanOrEqual(MaxLength);
    expect(JSON.parse(response.body)).toEqual([{ Password: password }]);
  });

  it.each(['?PasswordGeneratorID=3&Qty=2', '?Qty=2&PasswordGeneratorID=3'])(
    '%s: two passwords of policy 3',
    async (query) => {
      const response = await send(`/api/generatepassword/${query}`, headers);
      expect(response.status).toBe(200);
      const { MinLength, MaxLength } = policy(3);
      const passwords = passwordsOf(response);
      expect(passwords).toHaveLength(2);
      for (const password of passwords) expect(password.length >= MinLength && password.length <= MaxLength).toBe(true);
    },
  );
});

describe('generation by settings, as the PowerShell modules send it', () => {
  it('takes the raw "%+-" of specialCharsText literally and keeps every setting', async () => {
    const target =
      '/api/generatepassword/?IncludeAlphaSpecial=true&IncludeWordPhrases=false&minLength=16&maxLength=16&lowerCaseChars=true&upperCaseChars=true&numericChars=true&higherAlphaRatio=true&ambiguousChars=true&specialChars=false&specialCharsText=!$%+-_=^&bracketChars=false&bracketCharsText={}()&NumberOfWords=0&MaxWordLength=0&PrefixAppend=P&SeparateWords=N&ExcludeChars=%20*&GeneratePattern=false&Pattern=null&Qty=1';
    for (let round = 0; round < 20; round += 1) {
      const response = await send(target, CLIENTS.powershell);
      expect(response.status).toBe(200);
      const [password] = passwordsOf(response);
      // 16 letters and digits, every class present, letters more than half; no special, bracket, space or *.
      expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
      for (const cls of [/[a-z]/, /[A-Z]/, /[0-9]/]) expect(password).toMatch(cls);
      expect(password!.replace(/[0-9]/g, '').length).toBeGreaterThan(8);
    }
  });

  it('builds a word phrase with a prefixed segment, none of its characters ambiguous', async () => {
    const target =
      '/api/generatepassword/?Qty=1&IncludeAlphaSpecial=True&IncludeWordPhrases=True&minLength=8&maxLength=&lowerCaseChars=True&upperCaseChars=True&numericChars=True&higherAlphaRatio=True&ambiguousChars=False&specialChars=True&specialCharsText=&bracketChars=False&bracketCharsText=&NumberOfWords=3&MaxWordLength=8&PrefixAppend=P&SeparateWords=D';
    const special = policy1SpecialChars();
    for (let round = 0; round < 20; round += 1) {
      const response = await send(target, CLIENTS.powershell);
      expect(response.status).toBe(200);
      const [password] = passwordsOf(response);
      // A segment of one lower, upper, digit and special (the default policy's specials), then 3 words, by dashes.
      // The segment may itself hold "-", one of the default policy's specials: the words are the last three parts.
      const parts = password!.split('-');
      const words = parts.slice(-3);
      const segment = parts.slice(0, -3).join('-');
      for (const word of words) expect(word).toMatch(/^[a-z]{3,8}$/);
      expect(segment).toHaveLength(4);
      for (const cls of [/[a-z]/, /[A-Z]/, /[0-9]/]) expect(segment).toMatch(cls);
      expect([...segment].some((c) => special.includes(c))).toBe(true);
      expect([...password!].filter((c) => AMBIGUOUS_CHARS.includes(c))).toEqual([]);
    }
  });
});

/** The default policy's special characters, which an empty specialCharsText leaves in place. */
function policy1SpecialChars(): string {
  return SEED.find((p) => p.PasswordGeneratorID === 1)!.SpecialCharsText;
}

describe('key separation over HTTP: each kind opens only its own paths', () => {
  const user: [string, string][] = [
    ['UserID', CREDENTIALS.generatorAdmin.UserID],
    ['APIKey', CREDENTIALS.generatorAdmin.APIKey],
  ];
  const generator: [string, string][] = [['APIKey', KEY]];
  const strength: [string, string][] = [['APIKey', CREDENTIALS.passwordStrengthAPIKey]];
  const paths = {
    user: ['/userapi/passwordgenerator', '/userapi/generatepassword'],
    generator: ['/api/passwordgenerator', '/api/generatepassword'],
    strength: ['/api/passwordstrength'],
  };
  const credentials = { user, generator, strength };
  const cases = (Object.keys(credentials) as (keyof typeof credentials)[]).flatMap((kind) =>
    (Object.keys(paths) as (keyof typeof paths)[]).flatMap((owner) =>
      paths[owner].map((target) => [kind, target, kind === owner ? 200 : 401] as const),
    ),
  );

  it.each(cases)('a %s key on %s: %i', async (kind, target, status) => {
    const response = await send(target, credentials[kind]);
    expect(response.status).toBe(status);
    if (status === 401) expect(response.body).toBe(errorEnvelope(401, ROUTE_PHRASES.unauthorized));
  });
});
