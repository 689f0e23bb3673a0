/** What only the local gateway offers (the main e2e suite can also target a deployed API), and how it reads request names. */
import { readFileSync } from 'node:fs';
import { docsPageFiles } from '../../docs/docs-page';
import { OPENAPI_FILE } from '../../docs/openapi';
import { errorEnvelope, methodNotAllowedPhrase } from '../../functions/http';
import { GENERATION_QUERY, resourcePaths, ROUTE_PHRASES, type CredentialScheme } from '../../functions/routes';
import { rawRequest, type RawResponse } from '../support/http-client';
import { spawnLocalService, type SpawnedService } from '../support/local-service';
import { PROTOTYPE_NAMES } from '../support/prototype-names';
import { LOCAL_CREDENTIALS } from '../support/seed-reference';
import { LOCAL_ENV } from '../../local/local-environment';

let service: SpawnedService;
beforeAll(async () => {
  // Request lines on (QUIET off): the log test below reads them.
  service = await spawnLocalService({ env: { [LOCAL_ENV.quiet]: '', [LOCAL_ENV.authorizerCacheTtl]: '0' } });
}, 90_000);
afterAll(async () => {
  expect(await service?.stop()).toEqual({ code: 0, signal: null });
});

describe('the local gateway serves the API description', () => {
  it('GET /openapi.json answers the committed document, with no credentials needed', async () => {
    const response = await rawRequest(service.url, 'GET', '/openapi.json');
    expect({ status: response.status, type: response.headers['content-type'], body: response.body }).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: readFileSync(OPENAPI_FILE, 'utf8'),
    });
  });
});

describe('the local gateway serves the docs page (docs/docs-page.md)', () => {
  const files = [...docsPageFiles(readFileSync(OPENAPI_FILE, 'utf8'))].map(
    ([name, file]) => [name === 'index.html' ? '/docs/' : `/docs/${name}`, file] as const,
  );

  it('GET /docs redirects to /docs/, keeping the query, so that the page’s relative links resolve', async () => {
    for (const [target, location] of [
      ['/docs', '/docs/'],
      ['/docs?a=1', '/docs/?a=1'],
    ]) {
      const response = await rawRequest(service.url, 'GET', target!);
      expect({ status: response.status, location: response.headers.location, body: response.body }).toEqual({
        status: 301,
        location,
        body: '',
      });
    }
  });

  it.each(files.map(([target, file]) => [target, file] as const))(
    'GET %s answers the file as it is, with no credentials needed',
    async (target, file) => {
      const response = await fetch(`${service.url}${target}`);
      expect({
        status: response.status,
        type: response.headers.get('content-type'),
        cache: response.headers.get('cache-control'),
        sniff: response.headers.get('x-content-type-options'),
        same: Buffer.from(await response.arrayBuffer()).equals(file.body),
      }).toEqual({ status: 200, type: file.contentType, cache: 'no-cache', sniff: 'nosniff', same: true });
    },
  );

  it('a file answers with one trailing slash too, as a resource does', async () => {
    for (const target of ['/docs/swagger-init.js', '/openapi.json']) {
      const [plain, slashed] = [
        await rawRequest(service.url, 'GET', target),
        await rawRequest(service.url, 'GET', `${target}/`),
      ];
      expect({ status: slashed.status, type: slashed.headers['content-type'], body: slashed.body }).toEqual({
        status: 200,
        type: plain.headers['content-type'],
        body: plain.body,
      });
    }
  });

  it('the page’s document is the one at /openapi.json', async () => {
    expect((await rawRequest(service.url, 'GET', '/docs/openapi.json')).body).toBe(
      (await rawRequest(service.url, 'GET', '/openapi.json')).body,
    );
  });

  it.each([
    ['POST', '/docs/'],
    ['HEAD', '/docs/'],
    ['PUT', '/docs/swagger-ui.css'],
    ['DELETE', '/docs'],
    ['POST', '/openapi.json'],
  ])('%s %s: 405 with Allow: GET, as on a resource', async (method, target) => {
    const response = await rawRequest(service.url, method, target);
    expect({ status: response.status, allow: response.headers.allow }).toEqual({ status: 405, allow: 'GET' });
    if (method !== 'HEAD') expectAnswer(response, 405, errorEnvelope(405, methodNotAllowedPhrase(['GET'])));
  });

  it.each(['/docs/missing.js', '/docs/swagger-ui.js', '/docs/index.html/x', '/swagger-ui.css', '/doc'])(
    'GET %s: 404 in the envelope',
    async (target) => {
      expectAnswer(await rawRequest(service.url, 'GET', target), 404, errorEnvelope(404, ROUTE_PHRASES.notFound));
    },
  );
});

describe('the start banner', () => {
  /** The banner's curl commands, as arguments: they quote with single quotes only. */
  function curlCommands(output: string): string[][] {
    return output
      .split('\n')
      .filter((line) => line.trimStart().startsWith('curl '))
      .map((line) => [...line.trim().matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!));
  }

  it('prints four curl commands, one per key kind and the evaluation, and each one answers 200', async () => {
    const commands = curlCommands(service.output());
    expect(commands.map((args) => args[args.length - 1]!.replace(service.url, ''))).toEqual([
      '/userapi/passwordgenerator/?search=default',
      '/api/generatepassword/?PasswordGeneratorID=3&Qty=2',
      '/api/passwordstrength',
      '/api/passwordstrength/evaluate',
    ]);
    for (const args of commands) {
      const headers: [string, string][] = [];
      let method = 'GET';
      let body: string | undefined;
      for (let i = 1; i < args.length - 1; i += 1) {
        if (args[i] === '-H') {
          const header = args[++i]!;
          headers.push([header.slice(0, header.indexOf(':')), header.slice(header.indexOf(':') + 1).trim()]);
        } else if (args[i] === '-X') method = args[++i]!;
        else if (args[i] === '-d') body = args[++i]!;
        else expect(args[i]).toBe('-s');
      }
      const response = await rawRequest(
        service.url,
        method,
        args[args.length - 1]!.replace(service.url, ''),
        headers,
        20_000,
        body,
      );
      expect({ command: args.join(' '), status: response.status }).toEqual({ command: args.join(' '), status: 200 });
    }
  });
});

/** The demo credentials of each scheme, as request headers. */
const CREDENTIALS: Record<CredentialScheme['name'], [string, string][]> = {
  generatorUser: [
    ['UserID', LOCAL_CREDENTIALS.generatorAdmin.UserID],
    ['APIKey', LOCAL_CREDENTIALS.generatorAdmin.APIKey],
  ],
  generatorKey: [['APIKey', LOCAL_CREDENTIALS.passwordGeneratorAPIKey]],
  strengthKey: [['APIKey', LOCAL_CREDENTIALS.passwordStrengthAPIKey]],
};
const EVALUATION_BODY = JSON.stringify({ Password: 'Correct-Horse-7' });

/** Every resource path with the one request that succeeds on it, and what an unknown query parameter gets there. */
const ROUTE_CASES = resourcePaths().map((route) => {
  const post = route.methods[0] === 'POST';
  return {
    path: route.path,
    method: route.methods[0]!,
    credentials: CREDENTIALS[route.credentials.name],
    extra: post ? ([['Content-Type', 'application/json']] as [string, string][]) : [],
    body: post ? EVALUATION_BODY : undefined,
    unknownParameter: (name: string) =>
      post
        ? 'This route takes no query parameters: send the password in the JSON body, never in the URL.'
        : route.path.endsWith('generatepassword')
          ? `Unknown query parameter "${name}"; the parameters are ${GENERATION_QUERY.map((q) => `"${q}"`).join(', ')}.`
          : `Unknown query parameter "${name}"; the only parameter is "search".`,
  };
});

const expectAnswer = (response: RawResponse, status: number, body: string) =>
  expect({ status: response.status, type: response.headers['content-type'], body: response.body }).toEqual({
    status,
    type: 'application/json; charset=utf-8',
    body,
  });

/** A 200 of the route: the same body as without the extra name, except generation, whose passwords are random. */
async function expectSuccess(response: RawResponse, path: string, reference: () => Promise<RawResponse>) {
  expect({ status: response.status, type: response.headers['content-type'] }).toEqual({
    status: 200,
    type: 'application/json; charset=utf-8',
  });
  if (path.endsWith('generatepassword'))
    expect(Object.keys((JSON.parse(response.body) as object[])[0]!)).toEqual(['Password']);
  else expect(response.body).toBe((await reference()).body);
}

describe.each(PROTOTYPE_NAMES)('a request name that Object.prototype holds: %s', (name) => {
  it.each(ROUTE_CASES.map((c) => [c.method, c.path, c] as const))(
    '%s %s: as a query parameter name, 401 without credentials and the route’s 400 with them',
    async (method, path, c) => {
      const target = `${path}?${name}=1`;
      expectAnswer(
        await rawRequest(service.url, method, target, c.extra, 20_000, c.body),
        401,
        errorEnvelope(401, ROUTE_PHRASES.unauthorized),
      );
      expectAnswer(
        await rawRequest(service.url, method, target, [...c.credentials, ...c.extra], 20_000, c.body),
        400,
        errorEnvelope(400, c.unknownParameter(name)),
      );
    },
  );

  it.each(ROUTE_CASES.map((c) => [c.method, c.path, c] as const))(
    '%s %s: as a header name, 401 without credentials and a 200 with them',
    async (method, path, c) => {
      const header: [string, string] = [name, 'x'];
      expectAnswer(
        await rawRequest(service.url, method, path, [header, ...c.extra], 20_000, c.body),
        401,
        errorEnvelope(401, ROUTE_PHRASES.unauthorized),
      );
      const response = await rawRequest(
        service.url,
        method,
        path,
        [header, ...c.credentials, ...c.extra],
        20_000,
        c.body,
      );
      await expectSuccess(response, path, () =>
        rawRequest(service.url, method, path, [...c.credentials, ...c.extra], 20_000, c.body),
      );
    },
  );
});

describe('the request log line', () => {
  /** The one request log line that starts so, waited for: it is written after the response, and others may still arrive. */
  async function theLogLine(start: string): Promise<string> {
    const lines = () =>
      service
        .output()
        .split('\n')
        .filter((line) => line.startsWith(start));
    for (let i = 0; i < 100 && lines().length === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(lines()).toHaveLength(1);
    return lines()[0]!;
  }

  it('names the path and the query parameter names the route takes, never a value and no other name', async () => {
    const key = 'pps_0123456789ab_Hq3vN8xLr2TzWc5YpK7eJd9SfG4uBm6AoXi1VnE0tQs';
    const password = 'Quartz-Lantern-Orbit-93';
    const target = `/api/passwordstrength/?search=${encodeURIComponent(key)}&${encodeURIComponent(password)}&APIKey=${key}&search=two`;
    const response = await rawRequest(service.url, 'GET', target, CREDENTIALS.strengthKey);
    expect(response.status).toBe(400);
    expect(await theLogLine('GET /api/passwordstrength/?')).toMatch(
      /^GET \/api\/passwordstrength\/\?search&\[other\]&\[other\]&search -> 400 \(\d+\.\d ms\)$/,
    );
    for (const secret of [key, encodeURIComponent(key), key.slice(0, 16), key.slice(-16), password, 'two'])
      expect(service.output()).not.toContain(secret);
  });

  it('shows a path segment that holds a key as [redacted], never the key', async () => {
    const key = 'pps_445566778899_Eq4vN8xLr2TzWc5YpK7eJd9SfG4uBm6AoXi1VnE0tQs';
    const response = await rawRequest(service.url, 'GET', `/api/passwordstrength/${key}`, CREDENTIALS.strengthKey);
    expect(response.status).toBe(404);
    expect(await theLogLine('GET /api/passwordstrength/[')).toMatch(
      /^GET \/api\/passwordstrength\/\[redacted\] -> 404 \(\d+\.\d ms\)$/,
    );
    expect(service.output()).not.toContain(key);
  });

  it('names no query parameter of a docs page request, which takes none', async () => {
    const key = 'pps_00112233aabb_Wq4vN8xLr2TzWc5YpK7eJd9SfG4uBm6AoXi1VnE0tQs';
    expect((await rawRequest(service.url, 'GET', `/docs/?APIKey=${key}&${key}`)).status).toBe(200);
    expect(await theLogLine('GET /docs/?')).toMatch(/^GET \/docs\/\?\[other\]&\[other\] -> 200 \(\d+\.\d ms\)$/);
    expect(service.output()).not.toContain(key);
  });
});
