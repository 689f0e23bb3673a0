/**
 * docs/openapi.json against what the service really answers: `npm start`'s gateway (tsx local/start.ts) on a
 * dynalite store on loopback, driven through every operation and every status the document declares for it,
 * as far as each can be provoked locally. Every answer is checked with ResponseConformance (Ajv, draft
 * 2020-12): a status the operation does not declare, a missing or wrong header, or a body off its schema
 * fails the test. Boundary probes check each bound the document states: just inside is accepted, just
 * outside is a 400. The pairs that cannot be provoked locally are NOT_PROVOKABLE_LOCALLY, each with its
 * reason (docs/testing.md#the-api-description); the last test proves every other declared pair was seen.
 *
 * Two gateways share one store: `plain` for the ordinary answers, and `limited` (EMULATE_USAGE_PLANS=1)
 * whose functions never read the store before it is stopped, for 429 and for both 503s (the function's,
 * with nothing cached, and the authorizer's, for a credential it has not cached).
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { EVALUATION_BODY_BYTES } from '../../functions/api/evaluation-request';
import { issueKey } from '../../functions/domain/api-key';
import { MAX_PASSWORDS_PER_GENERATION } from '../../functions/domain/password-generator';
import { resourcePaths, type ResourcePath } from '../../functions/routes';
import { ENV } from '../../functions/runtime';
import { USAGE_PLANS } from '../../lib/deployment';
import { addTransactions } from '../../embedded-store/transactions';
import { rawRequest } from '../support/http-client';
import { PROJECT_ROOT, spawnLocalService, type SpawnedService } from '../support/local-service';
import { ResponseConformance, type ObservedResponse, type OpenApiDocument } from '../support/openapi-conformance';
import { rawExchange } from '../support/raw-socket';
import { LOCAL_ENV } from '../../local/local-environment';

type Parameter = { name: string; in: string; schema: { minimum?: number; maximum?: number; maxLength?: number } };
type Operation = { parameters?: Parameter[]; responses: Record<string, unknown> };
const document = JSON.parse(
  readFileSync(path.join(PROJECT_ROOT, 'docs', 'openapi.json'), 'utf8'),
) as OpenApiDocument & {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<
      string,
      { properties: Record<string, { maximum?: number; maxLength?: number; minLength?: number }> }
    >;
  };
};
const conformance = new ResponseConformance(document);
const CREDENTIALS = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'seed', 'local-credentials.json'), 'utf8')) as {
  generatorAdmin: { UserID: string; APIKey: string };
  userWithoutRole: { UserID: string; APIKey: string };
  passwordGeneratorAPIKey: string;
  passwordStrengthAPIKey: string;
};

/**
 * The operation × status pairs the document declares that no local request can provoke, and why. The last
 * test fails when one of them is provoked after all (then it belongs out of this list) or when any other
 * declared pair was not.
 */
const NOT_PROVOKABLE_LOCALLY: readonly {
  readonly operations: 'all' | 'api-key';
  readonly status: number;
  readonly reason: string;
}[] = [
  {
    operations: 'api-key',
    status: 403,
    reason:
      "API Gateway's own 403 for a valid key that has no API Gateway API key on a usage plan of the stage; the local gateway has no API keys to miss. (On /userapi/ the missing role's 403 is provoked.)",
  },
  {
    operations: 'all',
    status: 500,
    reason:
      'An unexpected fault: no request provokes one (the bad-input property tests in test/reliability/ show none does).',
  },
];

const OPERATIONS = resourcePaths().flatMap((route) =>
  route.methods.map((method) => ({ route, method, key: `${method} ${route.path}` })),
);
const declaredPairs = OPERATIONS.flatMap(({ route, method, key }) =>
  Object.keys(document.paths[route.path]![method.toLowerCase()]!.responses).map((status) => `${key} ${status}`),
);
const notProvokable = new Set(
  NOT_PROVOKABLE_LOCALLY.flatMap(({ operations, status }) =>
    OPERATIONS.filter(({ route }) => operations === 'all' || route.credentials.role === undefined).map(
      ({ key }) => `${key} ${status}`,
    ),
  ),
);
/** Every operation × status answered so far, conforming. */
const seen = new Set<string>();

/** The credential headers of a route's scheme: the real ones, or those of a user without the role. */
function credentials(route: ResourcePath, who: 'valid' | 'withoutRole' | 'none' = 'valid'): [string, string][] {
  if (who === 'none') return [];
  switch (route.credentials.name) {
    case 'generatorUser': {
      const user = who === 'withoutRole' ? CREDENTIALS.userWithoutRole : CREDENTIALS.generatorAdmin;
      return [
        ['UserID', user.UserID],
        ['APIKey', user.APIKey],
      ];
    }
    case 'generatorKey':
      return [['APIKey', CREDENTIALS.passwordGeneratorAPIKey]];
    case 'strengthKey':
      return [['APIKey', CREDENTIALS.passwordStrengthAPIKey]];
  }
}

/** Credentials of the route's kind that no cache has seen: checking them needs the credentials store. */
function unseenCredentials(route: ResourcePath): [string, string][] {
  const kind = route.credentials.keyKind;
  return kind === 'user'
    ? [
        ['UserID', 'nobody-cached'],
        ['APIKey', issueKey(kind).key],
      ]
    : [['APIKey', issueKey(kind).key]];
}

const isEvaluation = (route: ResourcePath) => route.methods.includes('POST');
const isGeneration = (route: ResourcePath) => route.function.id === 'GeneratePassword';
const JSON_BODY: [string, string] = ['Content-Type', 'application/json'];

/**
 * Asserts the status, then conformance to the document, and records the pair. For a method the path has no
 * operation for (a 405), every operation of the path is recorded: each declares that 405.
 */
function expectConforming(method: string, route: ResourcePath, response: ObservedResponse, status: number): void {
  expect({ status: response.status, body: response.body.slice(0, 300) }).toEqual({ status, body: expect.any(String) });
  expect(conformance.problems(method, route.path, response)).toEqual([]);
  const methods = route.methods.includes(method as never) ? [method] : route.methods;
  for (const m of methods) seen.add(`${m} ${route.path} ${response.status}`);
}

/** One request to a route: its own method and credentials unless told otherwise; the evaluation gets a JSON body. */
async function call(
  base: () => string,
  route: ResourcePath,
  options: {
    query?: string;
    who?: 'valid' | 'withoutRole' | 'none';
    headers?: [string, string][];
    body?: string;
    method?: string;
  } = {},
): Promise<ObservedResponse> {
  const method = options.method ?? route.methods[0]!;
  const body = options.body ?? (method === 'POST' ? JSON.stringify({ Password: 'Correct-Horse-7' }) : undefined);
  const headers = options.headers ?? [...credentials(route, options.who), ...(body !== undefined ? [JSON_BODY] : [])];
  return rawRequest(base(), method, `${route.path}${options.query ?? ''}`, headers, 20_000, body);
}

let store: Server;
let plain: SpawnedService;
let limited: SpawnedService;

beforeAll(async () => {
  // The local service seeds through TransactWriteItems (versions and history), which plain dynalite lacks.
  store = addTransactions((require('dynalite') as (o: object) => Server)({ createTableMs: 0 }));
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  // One after the other: the second finds the tables seeded and leaves them as they are.
  plain = await spawnLocalService({ env: { [ENV.dynamodbEndpoint]: endpoint, [LOCAL_ENV.authorizerCacheTtl]: '0' } });
  limited = await spawnLocalService({ env: { [ENV.dynamodbEndpoint]: endpoint, [LOCAL_ENV.emulateUsagePlans]: '1' } });
}, 180_000);

afterAll(async () => {
  expect(await plain?.stop()).toEqual({ code: 0, signal: null });
  expect(await limited?.stop()).toEqual({ code: 0, signal: null });
  if (store.listening) await new Promise((resolve) => store.close(resolve));
});

const atPlain = () => plain.url;
const atLimited = () => limited.url;

describe.each(OPERATIONS.map((o) => [o.key, o.route] as const))(
  '%s answers only what the document declares',
  (_key, route) => {
    const method = route.methods[0]!;
    const declares = (status: number) =>
      document.paths[route.path]![method.toLowerCase()]!.responses[String(status)] !== undefined;

    it('200', async () => {
      expectConforming(method, route, await call(atPlain, route, { query: isGeneration(route) ? '?Qty=2' : '' }), 200);
    });

    if (declares(304)) {
      it('304 with If-None-Match naming the ETag of its 200', async () => {
        const etag = (await call(atPlain, route)).headers.etag as string;
        expectConforming(
          method,
          route,
          await call(atPlain, route, { headers: [...credentials(route), ['If-None-Match', etag]] }),
          304,
        );
      });
    }

    it('400 for a bad request', async () => {
      if (isEvaluation(route)) expectConforming(method, route, await call(atPlain, route, { body: '{}' }), 400);
      else
        expectConforming(
          method,
          route,
          await call(atPlain, route, { query: isGeneration(route) ? '?Qty=0' : '?serach=x' }),
          400,
        );
    });

    it('401 without credentials', async () => {
      expectConforming(method, route, await call(atPlain, route, { who: 'none' }), 401);
    });

    if (route.credentials.role !== undefined) {
      it('403 for a user without the role', async () => {
        expectConforming(method, route, await call(atPlain, route, { who: 'withoutRole' }), 403);
      });
    }

    if (isEvaluation(route) || isGeneration(route)) {
      it('404 for a policy that does not exist', async () => {
        const missing = isEvaluation(route)
          ? { body: JSON.stringify({ PasswordStrengthPolicyID: 999_999, Password: 'x' }) }
          : { query: '?PasswordGeneratorID=999999' };
        expectConforming(method, route, await call(atPlain, route, missing), 404);
      });
    }

    it('405 with Allow for every other method, OPTIONS included', async () => {
      for (const other of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(
        (m) => !route.methods.includes(m as never),
      )) {
        expectConforming(other, route, await call(atPlain, route, { method: other, headers: credentials(route) }), 405);
      }
    });

    it('413 for a body declared over 10 MB, 417 for an Expect header other than 100-continue', async () => {
      const head = (extra: string) =>
        `${method} ${route.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${credentials(route)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')}${extra}Connection: close\r\n\r\n`;
      expectConforming(
        method,
        route,
        await rawExchange(plain.url, head(`Content-Type: application/json\r\nContent-Length: ${11 * 1024 * 1024}\r\n`)),
        413,
      );
      expectConforming(
        method,
        route,
        await rawExchange(plain.url, head('Expect: something-else\r\nContent-Length: 2\r\n')),
        417,
      );
    });

    if (isEvaluation(route)) {
      it('415 for a body that is not JSON', async () => {
        expectConforming(
          method,
          route,
          await call(atPlain, route, {
            headers: [...credentials(route), ['Content-Type', 'text/plain']],
            body: 'Correct-Horse-7',
          }),
          415,
        );
      });
    }

    if (isGeneration(route)) {
      it('422 for settings that cannot be satisfied', async () => {
        // Five character classes switched on, each to appear once, in four characters: refused by calculation.
        const query =
          '?IncludeAlphaSpecial=true&IncludeWordPhrases=false&GeneratePattern=false&lowerCaseChars=true&upperCaseChars=true&numericChars=true' +
          '&specialChars=true&specialCharsText=!%23&bracketChars=true&bracketCharsText=()&minLength=4&maxLength=4';
        expectConforming(method, route, await call(atPlain, route, { query }), 422);
      });
    }
  },
);

describe('boundary probes: each bound the document states, just inside accepted, just outside a 400', () => {
  const routeOf = (p: string) => resourcePaths().find((r) => r.path === p)!;
  const parameterBound = (p: string, name: string) =>
    document.paths[p]!.get!.parameters!.find((q) => q.name === name)!.schema;

  it.each(['/userapi/passwordgenerator', '/api/passwordgenerator', '/api/passwordstrength'])(
    '%s: search of maxLength characters, counted after NFKC',
    async (p) => {
      const route = routeOf(p);
      const max = parameterBound(p, 'search').maxLength!;
      expect(max).toBe(256);
      expectConforming('GET', route, await call(atPlain, route, { query: `?search=${'a'.repeat(max)}` }), 200);
      expectConforming('GET', route, await call(atPlain, route, { query: `?search=${'a'.repeat(max + 1)}` }), 400);
      // U+FB00 (ﬀ) is two characters after NFKC: half the bound of them is accepted, one more is not.
      expectConforming(
        'GET',
        route,
        await call(atPlain, route, { query: `?search=${encodeURIComponent('\ufb00'.repeat(max / 2))}` }),
        200,
      );
      expectConforming(
        'GET',
        route,
        await call(atPlain, route, { query: `?search=${encodeURIComponent('\ufb00'.repeat(max / 2 + 1))}` }),
        400,
      );
    },
  );

  it.each(['/userapi/generatepassword', '/api/generatepassword'])(
    '%s: PasswordGeneratorID, Qty and the always-read settings at and past their bounds',
    async (p) => {
      const route = routeOf(p);
      const probe = async (query: string, status: number) =>
        expectConforming('GET', route, await call(atPlain, route, { query }), status);
      const id = parameterBound(p, 'PasswordGeneratorID');
      expect([id.minimum, id.maximum]).toEqual([1, Number.MAX_SAFE_INTEGER]);
      await probe(`?PasswordGeneratorID=${id.minimum}`, 200);
      await probe(`?PasswordGeneratorID=${id.minimum! - 1}`, 400);
      await probe(`?PasswordGeneratorID=${id.maximum}`, 404); // accepted: a whole number in range that names no policy
      await probe(`?PasswordGeneratorID=${BigInt(id.maximum!) + 1n}`, 400);
      const qty = parameterBound(p, 'Qty');
      expect([qty.minimum, qty.maximum]).toEqual([1, MAX_PASSWORDS_PER_GENERATION]);
      await probe(`?Qty=${qty.minimum}`, 200);
      await probe(`?Qty=${qty.minimum! - 1}`, 400);
      await probe(`?Qty=${qty.maximum}`, 200);
      await probe(`?Qty=${qty.maximum! + 1}`, 400);
      // The lengths of random characters: MinLength <= MaxLength, so each inside value sets both.
      const length = parameterBound(p, 'minLength');
      expect(parameterBound(p, 'maxLength')).toEqual(length);
      const random =
        '?IncludeAlphaSpecial=true&IncludeWordPhrases=false&GeneratePattern=false&lowerCaseChars=true&upperCaseChars=false&numericChars=false&specialChars=false&bracketChars=false';
      for (const edge of [length.minimum!, length.maximum!])
        await probe(`${random}&minLength=${edge}&maxLength=${edge}`, 200);
      for (const setting of ['minLength', 'maxLength']) {
        await probe(`${random}&${setting}=${length.minimum! - 1}`, 400);
        await probe(`${random}&${setting}=${length.maximum! + 1}`, 400);
      }
      const exclude = parameterBound(p, 'ExcludeChars').maxLength!;
      await probe(`${random}&minLength=8&maxLength=8&ExcludeChars=${encodeURIComponent('é'.repeat(exclude))}`, 200);
      await probe(`${random}&minLength=8&maxLength=8&ExcludeChars=${encodeURIComponent('é'.repeat(exclude + 1))}`, 400);
    },
  );

  it('/api/passwordstrength/evaluate: PasswordStrengthPolicyID, Password (code points, pattern), UserInputs and the body size at and past their bounds', async () => {
    const route = routeOf('/api/passwordstrength/evaluate');
    const probe = async (body: string, status: number) =>
      expectConforming('POST', route, await call(atPlain, route, { body }), status);
    const { PasswordStrengthPolicyID: id, Password: password } =
      document.components.schemas.PasswordEvaluationRequest!.properties;
    expect([id!.maximum, password!.minLength, password!.maxLength]).toEqual([Number.MAX_SAFE_INTEGER, 1, 256]);
    await probe(`{"PasswordStrengthPolicyID":${id!.maximum},"Password":"x"}`, 404); // accepted: in range, no such policy
    await probe(`{"PasswordStrengthPolicyID":${BigInt(id!.maximum!) + 1n},"Password":"x"}`, 400);
    await probe('{"PasswordStrengthPolicyID":0,"Password":"x"}', 400);
    // An emoji is one code point (two UTF-16 units): maxLength of them is accepted, one more is not.
    await probe(JSON.stringify({ Password: '\u{1F600}'.repeat(password!.maxLength!) }), 200);
    await probe(JSON.stringify({ Password: '\u{1F600}'.repeat(password!.maxLength! + 1) }), 400);
    // Within maxLength as sent, past it after NFKC (U+2A0C is four characters there), which no schema can state: a 400 all the same.
    await probe(JSON.stringify({ Password: '\u2A0C'.repeat(65) }), 400);
    await probe(JSON.stringify({ Password: '\u2A0C'.repeat(64) }), 200);
    await probe(JSON.stringify({ Password: 'x'.repeat(password!.minLength!) }), 200);
    await probe(JSON.stringify({ Password: '' }), 400);
    // The pattern: a control character and an unpaired surrogate are refused.
    await probe('{"Password":"Correct-Horse-7\\n"}', 400);
    await probe('{"Password":"Correct-Horse-7\\ud800"}', 400);
    // UserInputs: minItems to maxItems strings of minLength to maxLength code points, the pattern of Password.
    const inputs = document.components.schemas.PasswordEvaluationRequest!.properties.UserInputs as {
      minItems: number;
      maxItems: number;
      items: { minLength: number; maxLength: number };
    };
    expect([inputs.minItems, inputs.maxItems, inputs.items.minLength, inputs.items.maxLength]).toEqual([1, 20, 1, 256]);
    const withInputs = (userInputs: unknown) => JSON.stringify({ Password: 'Correct-Horse-7', UserInputs: userInputs });
    await probe(
      withInputs(Array.from({ length: inputs.maxItems }, () => '\u{1F600}'.repeat(inputs.items.maxLength))),
      200,
    );
    await probe(withInputs(Array.from({ length: inputs.maxItems + 1 }, () => 'jsmith')), 400);
    await probe(withInputs(Array.from({ length: inputs.minItems - 1 }, () => 'jsmith')), 400);
    await probe(withInputs(['\u{1F600}'.repeat(inputs.items.maxLength + 1)]), 400);
    await probe(withInputs(['\u2A0C'.repeat(65)]), 400);
    await probe(withInputs(['x'.repeat(inputs.items.minLength)]), 200);
    await probe(withInputs(['']), 400);
    await probe(withInputs(['jsmith\n']), 400);
    // The body: at most EVALUATION_BODY_BYTES bytes, padding included.
    const base = JSON.stringify({ Password: 'Correct-Horse-7' });
    await probe(`${base}${' '.repeat(EVALUATION_BODY_BYTES - base.length)}`, 200);
    await probe(`${base}${' '.repeat(EVALUATION_BODY_BYTES + 1 - base.length)}`, 400);
  });
});

describe('429 and 503, through the gateway with usage plans whose functions have not read the store', () => {
  /** A request the function refuses before it reads the store (an unknown query parameter). */
  const untouched = (route: ResourcePath) => call(atLimited, route, { query: '?unknown=1' });

  it("429 once a key's burst is spent, on every operation of that key", async () => {
    for (const { route, method } of OPERATIONS) {
      const answers = await Promise.all(
        Array.from({ length: USAGE_PLANS.standard.burstLimit + 10 }, () => untouched(route)),
      );
      expect(answers.some((a) => a.status === 429)).toBe(true);
      for (const answer of answers) expectConforming(method, route, answer, answer.status === 429 ? 429 : 400);
    }
  });

  it("503 when the store is down: the function's with nothing cached, the authorizer's for a credential it has not cached", async () => {
    // The authorizer has cached every credential above; let the buckets refill before the store goes.
    await new Promise((resolve) =>
      setTimeout(resolve, (USAGE_PLANS.standard.burstLimit / USAGE_PLANS.standard.rateLimit) * 1000 + 500),
    );
    await new Promise((resolve) => {
      store.close(resolve);
      store.closeAllConnections();
    });
    for (const { route, method } of OPERATIONS) {
      const functionDown = await call(atLimited, route, { query: isGeneration(route) ? '?Qty=1' : '' });
      expectConforming(method, route, functionDown, 503);
      expect(JSON.parse(functionDown.body)[0].errors[1].phrase).toMatch(/policy store/);
      const authorizerDown = await call(atLimited, route, {
        headers: [...unseenCredentials(route), ...(isEvaluation(route) ? [JSON_BODY] : [])],
      });
      expectConforming(method, route, authorizerDown, 503);
      expect(JSON.parse(authorizerDown.body)[0].errors[1].phrase).toMatch(/credential store/);
    }
  }, 120_000);
});

describe('coverage', () => {
  it('every declared operation × status was answered and conformed, but for NOT_PROVOKABLE_LOCALLY, none of which was', () => {
    expect(declaredPairs.filter((pair) => !seen.has(pair) && !notProvokable.has(pair))).toEqual([]);
    expect([...notProvokable].filter((pair) => seen.has(pair))).toEqual([]);
    expect([...seen].filter((pair) => !declaredPairs.includes(pair))).toEqual([]);
    console.log(
      `docs/openapi.json against the local gateway: ${seen.size} of ${declaredPairs.length} declared operation x status pairs answered and conforming; ` +
        `${notProvokable.size} not provokable locally (${NOT_PROVOKABLE_LOCALLY.map((n) => `${n.status} on ${n.operations === 'all' ? 'every operation' : 'the /api/ operations'}`).join(', ')})`,
    );
  });
});
