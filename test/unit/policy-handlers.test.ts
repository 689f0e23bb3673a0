import type { APIGatewayProxyEvent } from 'aws-lambda';
import { errorEnvelope, PHRASES, type ProxyHandler } from '../../functions/http';
import { ENV, logger } from '../../functions/runtime';
import { getEvent, loadEntry } from '../support/entry-points';
import { generatorPolicy } from '../../testkit/policy-fixtures';
import { namedGeneratorPolicy, namedStrengthPolicy } from '../support/policy-examples';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };
const OK_HEADERS = {
  ...JSON_HEADERS,
  ETag: expect.stringMatching(/^"[A-Za-z0-9_-]{22}"$/),
  'Cache-Control': 'private, no-cache',
};

const generator = [
  namedGeneratorPolicy(3, 'Network Devices', 'Switches and routers'),
  namedGeneratorPolicy(1, 'Default Policy', 'For password lists without a specific policy'),
  namedGeneratorPolicy(2, 'Service Accounts', 'Windows services'),
];
const strength = [
  namedStrengthPolicy(2, 'Privileged Accounts', 'Domain admins'),
  namedStrengthPolicy(1, 'Default Strength Policy', 'For password lists without a specific policy'),
];

function entry(kind: 'generator' | 'strength', ttlSeconds = '30') {
  const file =
    kind === 'generator' ? '../../functions/api/generator-policies' : '../../functions/api/strength-policies';
  const loaded = loadEntry<{ handler: ProxyHandler }>(file, {
    POLICY_TABLE_NAME: `${kind}-table`,
    [ENV.policyCacheTtl]: ttlSeconds,
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  loaded.dynamo
    .on(loaded.lib.ScanCommand, { TableName: `${kind}-table` })
    .resolves({ Items: kind === 'generator' ? generator : strength });
  return loaded;
}

const byId = <T>(items: T[], id: keyof T) => [...items].sort((a, b) => (a[id] as number) - (b[id] as number));

beforeEach(() => {
  jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  jest.spyOn(logger, 'error').mockImplementation(() => undefined);
});

describe('list handlers: the whole collection, ordered by identifier', () => {
  it.each([
    ['/userapi/passwordgenerator', 'generator', byId(generator, 'PasswordGeneratorID')],
    ['/api/passwordstrength', 'strength', byId(strength, 'PasswordStrengthPolicyID')],
  ] as const)('GET %s answers 200 with every %s policy', async (path, kind, ordered) => {
    const { module } = entry(kind);
    expect(await module.handler(getEvent(path))).toEqual({
      statusCode: 200,
      headers: OK_HEADERS,
      body: JSON.stringify(ordered),
    });
  });
});

describe('search handlers: dispatched on the search parameter', () => {
  it('answers the matching generator policies', async () => {
    const { module } = entry('generator');
    const result = await module.handler(getEvent('/userapi/passwordgenerator', { search: ['ROUTERS'] }));
    expect(result).toEqual({ statusCode: 200, headers: OK_HEADERS, body: JSON.stringify([generator[0]]) });
  });

  it('answers the matching strength policies', async () => {
    const { module } = entry('strength');
    const result = await module.handler(getEvent('/api/passwordstrength', { search: ['default lists'] }));
    expect(result).toEqual({ statusCode: 200, headers: OK_HEADERS, body: JSON.stringify([strength[1]]) });
  });

  it('answers [] when nothing matches', async () => {
    const { module } = entry('strength');
    expect(await module.handler(getEvent('/api/passwordstrength', { search: ['nomatch'] }))).toEqual({
      statusCode: 200,
      headers: OK_HEADERS,
      body: '[]',
    });
  });

  it('answers the whole collection for an empty search', async () => {
    const { module } = entry('generator');
    const result = await module.handler(getEvent('/userapi/passwordgenerator', { search: [''] }));
    expect(result.body).toBe(JSON.stringify(byId(generator, 'PasswordGeneratorID')));
  });
});

describe('conditional requests: ETag and If-None-Match', () => {
  const withHeaders = (event: APIGatewayProxyEvent, headers: Record<string, string>) => ({
    ...event,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
  });

  it('answers 304 with no body when If-None-Match names the current tag, in any header case', async () => {
    const { module } = entry('generator');
    const first = await module.handler(getEvent('/userapi/passwordgenerator'));
    const etag = first.headers!.ETag as string;
    for (const name of ['If-None-Match', 'if-none-match']) {
      expect(await module.handler(withHeaders(getEvent('/userapi/passwordgenerator'), { [name]: etag }))).toEqual({
        statusCode: 304,
        headers: { ETag: etag, 'Cache-Control': 'private, no-cache' },
        body: '',
      });
    }
  });

  it.each([
    ['a weak form of the tag', (tag: string) => `W/${tag}`],
    ['a list holding the tag', (tag: string) => `"old", ${tag}`],
    ['*', () => '*'],
  ])('matches %s', async (_, header) => {
    const { module } = entry('strength');
    const etag = (await module.handler(getEvent('/api/passwordstrength'))).headers!.ETag as string;
    expect(
      (await module.handler(withHeaders(getEvent('/api/passwordstrength'), { 'If-None-Match': header(etag) })))
        .statusCode,
    ).toBe(304);
  });

  it('answers 200 with the body for another tag', async () => {
    const { module } = entry('strength');
    const result = await module.handler(withHeaders(getEvent('/api/passwordstrength'), { 'If-None-Match': '"stale"' }));
    expect(result).toEqual({
      statusCode: 200,
      headers: OK_HEADERS,
      body: JSON.stringify(byId(strength, 'PasswordStrengthPolicyID')),
    });
  });

  it('tags a search by its result: the same for equivalent queries, the list tag for "*", another for other terms', async () => {
    const { module } = entry('generator');
    const tag = async (search?: string) =>
      (
        await module.handler(
          getEvent('/userapi/passwordgenerator', search === undefined ? undefined : { search: [search] }),
        )
      ).headers!.ETag;
    expect(await tag('SERVICE  windows')).toBe(await tag(' service windows '));
    expect(await tag('*')).toBe(await tag());
    expect(await tag('service')).not.toBe(await tag('routers'));
    expect(await tag('service')).not.toBe(await tag());
  });

  it('changes the tag when the collection changes', async () => {
    const { module, dynamo, lib } = entry('generator', '0');
    const before = (await module.handler(getEvent('/userapi/passwordgenerator'))).headers!.ETag;
    dynamo.on(lib.ScanCommand).resolves({ Items: [...generator, generatorPolicy({ PasswordGeneratorID: 9 })] });
    const after = (await module.handler(getEvent('/userapi/passwordgenerator'))).headers!.ETag;
    expect(after).not.toBe(before);
  });
});

describe('bad queries: 400 in the envelope, naming the parameter', () => {
  it.each([
    [{ serach: ['x'] }, 'Unknown query parameter "serach"; the only parameter is "search".'],
    [{ search: ['a'], page: ['2'] }, 'Unknown query parameter "page"; the only parameter is "search".'],
    [{ search: ['a', 'b'] }, 'The query parameter "search" is given more than once; give it once.'],
    [
      { ppg_9656851f760c_YDHTOJwiEKJpIpSCIpOWXV42: [''] },
      'Unknown query parameter (not shown: it looks like a key); the only parameter is "search".',
    ],
    [
      { ['x'.repeat(41)]: ['1'] },
      'Unknown query parameter (not shown: it looks like a key); the only parameter is "search".',
    ],
    // A truncated key is short, yet its prefix alone keeps it out of the answer, in any letter case.
    [
      { ppg_9656851f760c_YDHT: [''] },
      'Unknown query parameter (not shown: it looks like a key); the only parameter is "search".',
    ],
    [
      { PPS_6708f698ada1: ['1'] },
      'Unknown query parameter (not shown: it looks like a key); the only parameter is "search".',
    ],
    [{ ppx_: ['1'] }, 'Unknown query parameter (not shown: it looks like a key); the only parameter is "search".'],
    // Not key-like: echoed up to 40 characters, anything outside printable ASCII as "?".
    [{ ['x'.repeat(40)]: ['1'] }, `Unknown query parameter "${'x'.repeat(40)}"; the only parameter is "search".`],
    [{ app_1: ['1'] }, 'Unknown query parameter "app_1"; the only parameter is "search".'],
    [{ ppg: ['1'] }, 'Unknown query parameter "ppg"; the only parameter is "search".'],
    [{ 'né\u0001': ['1'] }, 'Unknown query parameter "n??"; the only parameter is "search".'],
    [{ search: ['x'.repeat(257)] }, 'The search parameter is longer than 256 characters; shorten it.'],
  ])('%j', async (query, phrase) => {
    const { module, dynamo, lib } = entry('generator');
    expect(await module.handler(getEvent('/userapi/passwordgenerator', query))).toEqual({
      statusCode: 400,
      headers: JSON_HEADERS,
      body: errorEnvelope(400, phrase),
    });
    expect(dynamo).toHaveReceivedCommandTimes(lib.ScanCommand, 0);
  });
});

describe('warm invocations within the TTL make no DynamoDB call', () => {
  it('scans once for 1,000 invocations of list and search', async () => {
    const { module, dynamo, lib } = entry('generator');
    for (let i = 0; i < 500; i++) {
      await module.handler(getEvent('/userapi/passwordgenerator'));
      await module.handler(getEvent('/userapi/passwordgenerator', { search: ['service'] }));
    }
    expect(dynamo).toHaveReceivedCommandTimes(lib.ScanCommand, 1);
  });
});

describe('DynamoDB unavailable', () => {
  it('answers 503 in the envelope when nothing is cached', async () => {
    const { module, dynamo, lib } = entry('strength');
    dynamo.on(lib.ScanCommand).rejects(
      Object.assign(new Error('connect ECONNREFUSED arn:aws:dynamodb:table/strength-table'), {
        name: 'TimeoutError',
      }),
    );
    const result = await module.handler(getEvent('/api/passwordstrength'));
    expect(result).toEqual({ statusCode: 503, headers: JSON_HEADERS, body: errorEnvelope(503, PHRASES.unavailable) });
    expect(result.body).not.toContain('strength-table');
  });

  it('serves the cached collection when a reload fails', async () => {
    const { module, dynamo, lib } = entry('strength', '0');
    const first = await module.handler(getEvent('/api/passwordstrength'));
    dynamo.on(lib.ScanCommand).rejects(new Error('throttled'));
    expect(await module.handler(getEvent('/api/passwordstrength'))).toEqual(first);
    expect(dynamo).toHaveReceivedCommandTimes(lib.ScanCommand, 2);
  });
});
