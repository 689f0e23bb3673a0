/**
 * POST /api/passwordstrength/evaluate through the local gateway over HTTP (`npm start` in a child process,
 * on dynalite): answers for every seed policy, statuses, body limits, content types, methods, the credential
 * matrix, no-store, and the gateway's and the functions' output scanned for the password.
 */
import * as net from 'node:net';
import { errorEnvelope, methodNotAllowedPhrase } from '../../functions/http';
import { ROUTE_PHRASES } from '../../functions/routes';
import { GATEWAY_PHRASES } from '../../lib/gateway-contract';
import { expectNoStoreJson } from '../support/answers';
import { rawRequest, type RawResponse } from '../support/http-client';
import { spawnLocalService, type SpawnedService } from '../support/local-service';
import { LOCAL_CREDENTIALS, SEED_STRENGTH_POLICIES, seedStrengthPolicy } from '../support/seed-reference';
import { expectedEvaluation } from '../support/expected-evaluation';
import { LOCAL_ENV } from '../../local/local-environment';

const PATH = '/api/passwordstrength/evaluate';
const STRENGTH_KEY: [string, string] = ['APIKey', LOCAL_CREDENTIALS.passwordStrengthAPIKey];
const JSON_BODY: [string, string] = ['Content-Type', 'application/json'];
/** Sent in every request of this file; searched for in everything the service printed. */
const SECRET = 'Velvet-Orchard-Comet-58?';

let service: SpawnedService;
beforeAll(async () => {
  // Request lines on (QUIET off), the functions at DEBUG with event logging: the most the service ever prints.
  service = await spawnLocalService({
    env: {
      [LOCAL_ENV.quiet]: '',
      [LOCAL_ENV.authorizerCacheTtl]: '0',
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
      POWERTOOLS_LOGGER_LOG_EVENT: 'true',
    },
  });
}, 90_000);
afterAll(async () => {
  expect(await service?.stop()).toEqual({ code: 0, signal: null });
});

const post = (
  body: string | Buffer,
  headers: [string, string][] = [STRENGTH_KEY, JSON_BODY],
  target = PATH,
): Promise<RawResponse> => rawRequest(service.url, 'POST', target, headers, 20_000, body);
const expectError = (response: RawResponse, status: number, phrase: string) =>
  expect({ status: response.status, type: response.headers['content-type'], body: response.body }).toEqual({
    status,
    type: 'application/json; charset=utf-8',
    body: errorEnvelope(status as 400, phrase),
  });

describe('answers', () => {
  it.each(SEED_STRENGTH_POLICIES.map((p) => [p.PasswordStrengthPolicyID, p.PolicyName, p] as const))(
    'policy %i (%s): the evaluation, no-store',
    async (id, _name, policy) => {
      const response = await post(JSON.stringify({ PasswordStrengthPolicyID: id, Password: SECRET }));
      expectNoStoreJson(response);
      expect(JSON.parse(response.body)).toEqual(expectedEvaluation(policy, SECRET));
    },
  );

  it('defaults to policy 1, with or without the trailing slash', async () => {
    for (const target of [PATH, `${PATH}/`]) {
      const response = await post(JSON.stringify({ Password: 'Password1!' }), undefined, target);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject({
        PasswordStrengthPolicyID: 1,
        Score: 91,
        ComplianceLevel: 0,
        ComplianceLevelName: 'Very Poor',
        Compliant: false,
        Failures: [{ Rule: 'BreachedPassword', Required: 0, Found: 1 }],
        GuessesLog10: 1.6,
      });
    }
  });

  it('404 for an unknown policy; 400 for a bad password; 415 for a body that is not JSON', async () => {
    expectError(
      await post(JSON.stringify({ PasswordStrengthPolicyID: 77, Password: SECRET })),
      404,
      'No password strength policy has PasswordStrengthPolicyID 77.',
    );
    const tooLong =
      'Password must be at most 256 characters, both as sent and after Unicode NFKC normalization (which expands some characters, such as ligatures, into several).';
    expectError(await post(JSON.stringify({ Password: 'x'.repeat(257) })), 400, tooLong);
    // 65 characters as sent, 260 once NFKC makes each U+2A0C four integrals: the form the evaluation matches.
    expectError(await post(JSON.stringify({ Password: '\u2A0C'.repeat(65) })), 400, tooLong);
    expect((await post(JSON.stringify({ Password: '\u2A0C'.repeat(64) }))).status).toBe(200);
    expectError(await post(JSON.stringify({ Password: '' })), 400, 'Password must not be empty.');
    expectError(
      await post(`Password=${SECRET}`, [STRENGTH_KEY, ['Content-Type', 'application/x-www-form-urlencoded']]),
      415,
      'The body must be JSON: send Content-Type: application/json (UTF-8).',
    );
    expectError(await post(SECRET), 400, 'The body is not valid JSON (UTF-8); send a JSON object.');
  });

  it('400 for a field given twice, at any depth and however it is escaped, quoting none of it', async () => {
    const repeated = 'The body gives a field twice in one object; send each field once.';
    expectError(await post(`{"Password":"${SECRET}","Password":"b"}`), 400, repeated);
    expectError(await post(`{"Password":"${SECRET}","Pass\\u0077ord":"b"}`), 400, repeated);
    expectError(
      await post(`{"PasswordStrengthPolicyID":1,"Password":"${SECRET}","PasswordStrengthPolicyID":2}`),
      400,
      repeated,
    );
    expectError(await post(`{"Password":{"a":"${SECRET}","a":1}}`), 400, repeated);
  });
});

describe('a body that is not UTF-8', () => {
  const NOT_UTF8 =
    'The body is not valid UTF-8 (or holds U+FFFD, the replacement character, which stands for bytes that were not); send the JSON as UTF-8.';
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

  it.each([
    ['a lone 0xFF', [0xff]],
    ['a Latin-1 é (0xE9)', [0xe9]],
    ['a UTF-8 sequence cut short', [0xe2, 0x82]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
  ])('with %s in the password is a 400, not an evaluation of what replaced it', async (_label, bad) => {
    expectError(await post(bytes('{"Password":"Corr', bad, 'ect-Horse-7"}')), 400, NOT_UTF8);
  });

  it('with U+FFFD itself is a 400 too (the function cannot tell it from a replaced byte); the escape \\uFFFD is read as written', async () => {
    expectError(await post(bytes('{"Password":"Corr\uFFFDect-Horse-7"}')), 400, NOT_UTF8);
    const escaped = await post('{"Password":"Corr\\uFFFDect-Horse-7"}');
    expect(escaped.status).toBe(200);
    expect(JSON.parse(escaped.body)).toEqual(expectedEvaluation(seedStrengthPolicy(1), 'Corr\uFFFDect-Horse-7'));
  });
});

describe('body limits', () => {
  it('65536 bytes are read; 65537 are a 400', async () => {
    const base = JSON.stringify({ Password: SECRET });
    expect((await post(`${base}${' '.repeat(65_536 - base.length)}`)).status).toBe(200);
    expectError(
      await post(`${base}${' '.repeat(65_537 - base.length)}`),
      400,
      'The body must be at most 65536 bytes; this one has 65537.',
    );
  });

  it('a declared body over API Gateway’s 10 MB is a 413 before anything is read, and the gateway answers the next request', async () => {
    const response = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(service.url).port), '127.0.0.1', () => {
        socket.write(
          `POST ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAPIKey: ${STRENGTH_KEY[1]}\r\nContent-Type: application/json\r\nContent-Length: ${11 * 1024 * 1024}\r\n\r\n{"Password":`,
        );
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    expect(response).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
    expect(response.slice(response.indexOf('\r\n\r\n') + 4)).toBe(errorEnvelope(413, GATEWAY_PHRASES.tooLarge));
    expect((await post(JSON.stringify({ Password: SECRET }))).status).toBe(200);
  });

  it('a chunked body that grows past 10 MB is a 413 once it does, and the connection is closed', async () => {
    const response = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(new URL(service.url).port), '127.0.0.1', () => {
        socket.write(
          `POST ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAPIKey: ${STRENGTH_KEY[1]}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        const megabyte = ' '.repeat(1024 * 1024);
        for (let i = 0; i < 11 && socket.writable; i += 1)
          socket.write(`${megabyte.length.toString(16)}\r\n${megabyte}\r\n`);
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', () => undefined); // the gateway may close while the rest is still being written
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    expect(response).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(response.slice(response.indexOf('\r\n\r\n') + 4)).toBe(errorEnvelope(413, GATEWAY_PHRASES.tooLarge));
  });
});

describe('methods', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('%s on the evaluate path: 405 with Allow: POST', async (method) => {
    const response = await rawRequest(service.url, method, PATH, [STRENGTH_KEY]);
    expectError(response, 405, methodNotAllowedPhrase(['POST']));
    expect(response.headers.allow).toBe('POST');
  });

  it('POST on the list path stays a 405 with Allow: GET', async () => {
    const response = await post(
      JSON.stringify({ Password: SECRET }),
      [STRENGTH_KEY, JSON_BODY],
      '/api/passwordstrength',
    );
    expectError(response, 405, methodNotAllowedPhrase(['GET']));
    expect(response.headers.allow).toBe('GET');
  });
});

describe('credentials: as the strength policies', () => {
  const admin = LOCAL_CREDENTIALS.generatorAdmin;
  it.each([
    ['no key', [JSON_BODY], 401],
    ['a wrong key', [['APIKey', `${STRENGTH_KEY[1].slice(0, -4)}AAAA`], JSON_BODY], 401],
    ['a generator user’s UserID and key', [['UserID', admin.UserID], ['APIKey', admin.APIKey], JSON_BODY], 401],
    ['two APIKey headers', [STRENGTH_KEY, STRENGTH_KEY, JSON_BODY], 401],
    ['the strength key', [STRENGTH_KEY, JSON_BODY], 200],
  ] as [string, [string, string][], number][])('%s', async (_what, headers, status) => {
    const response = await post(JSON.stringify({ Password: SECRET }), headers);
    if (status === 401) expectError(response, 401, ROUTE_PHRASES.unauthorized);
    else expect(response.status).toBe(status);
  });
});

describe('secrecy', () => {
  it('the password and the key appear nowhere in what the gateway and the functions printed (request lines, DEBUG logs, logged events)', async () => {
    await post(JSON.stringify({ Password: SECRET }));
    const output = service.output();
    // The functions did log the events: the redaction, not silence, keeps the password out.
    expect(output).toContain('"body":"[redacted]"');
    expect(output).toContain(`POST ${PATH} -> 200`);
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain(SECRET.slice(0, 10));
    // The authorizer logged its events too (the same switch): the key's secret part is not there either,
    // after the start banner (which prints the demo keys in its curl commands, on purpose).
    const afterBanner = output.slice(output.indexOf('Ctrl-C stops it.'));
    expect(afterBanner).toContain('"type":"REQUEST"');
    expect(afterBanner).not.toContain(STRENGTH_KEY[1].split('_').slice(2).join('_'));
  });
});
