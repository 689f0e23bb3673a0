/**
 * POST /api/passwordstrength/evaluate in process: the route-bound entry point (functions/api/evaluate-password.ts)
 * loaded cold with its DynamoDB client mocked, so every status, limit and content type is asserted on the
 * exact response, and the logs are captured to show that no password ever reaches them.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword, type StrengthEvaluation } from '../../functions/domain/evaluation/strength-evaluator';
import { type ErrorStatus, errorEnvelope, PHRASES, type ProxyHandler } from '../../functions/http';
import { loadEvaluateEntry, proxyEvent } from '../support/entry-points';
import { SEED_STRENGTH_POLICIES } from '../support/seed-reference';
import { capturedOutput } from '../support/captured-output';

const PATH = '/api/passwordstrength/evaluate';
const JSON_TYPE = 'application/json; charset=utf-8';
const SEED = [...SEED_STRENGTH_POLICIES];
const SECRET = 'Quiet-Harbor-Lantern-93!';

function event(
  body: string | null,
  headers: Record<string, string[]> = { 'Content-Type': ['application/json'] },
  extra: { query?: Record<string, string[]>; isBase64Encoded?: boolean } = {},
): APIGatewayProxyEvent {
  return proxyEvent('POST', PATH, { headers, body, ...extra });
}
const post = (value: unknown) => event(JSON.stringify(value));

let loaded: ReturnType<typeof loadEvaluateEntry>;
let handler: ProxyHandler;
const estimate = guessEstimator();

beforeAll(() => {
  loaded = loadEvaluateEntry();
  loaded.dynamo.on(loaded.lib.ScanCommand, { TableName: 'strength-table' }).resolves({ Items: SEED });
  handler = loaded.module.handler;
});

const TOO_LONG =
  'Password must be at most 256 characters, both as sent and after Unicode NFKC normalization (which expands some characters, such as ligatures, into several).';
/** An error answer: the status, the JSON content type and the envelope of the phrase. */
const refusal = (statusCode: ErrorStatus, phrase: string) => ({
  statusCode,
  headers: { 'Content-Type': JSON_TYPE },
  body: errorEnvelope(statusCode, phrase),
});
const badRequest = (phrase: string) => refusal(400, phrase);

describe('the language of the answer', () => {
  const asked = (language: string, body: unknown = { Password: 'Password1!' }) =>
    handler(event(JSON.stringify(body), { 'Content-Type': ['application/json'], 'Accept-Language': [language] }));

  it('Accept-Language chooses the Messages and Suggestions, and the answer says so; nothing else changes', async () => {
    const english = await asked('en');
    const german = await asked('de-CH, fr;q=0.5');
    expect(german.headers).toEqual({ ...english.headers, 'Content-Language': 'de' });
    const en = JSON.parse(english.body) as StrengthEvaluation;
    const de = JSON.parse(german.body) as StrengthEvaluation;
    expect(de.Failures.map((f) => f.Message)).toEqual(['Dieses Passwort steht in Listen kompromittierter Passwörter.']);
    expect(de.Suggestions[0]).toBe('Verwenden Sie 12 Zeichen oder mehr.');
    const withoutText = (r: StrengthEvaluation) => ({
      ...r,
      Failures: r.Failures.map(({ Message: _m, ...f }) => f),
      Suggestions: r.Suggestions.length,
    });
    expect(withoutText(de)).toEqual(withoutText(en));
  });

  it('an error is the same whatever the language asked: English phrases, no Content-Language', async () => {
    const policy = { PasswordStrengthPolicyID: 99, Password: SECRET };
    expect(await asked('de', policy)).toEqual(
      refusal(404, 'No password strength policy has PasswordStrengthPolicyID 99.'),
    );
  });
});

describe('200: the evaluation, never to be cached', () => {
  it('evaluates against the default policy (1) when the body names none, with exactly the documented fields', async () => {
    const result = await handler(post({ Password: 'Password1!' }));
    expect({ statusCode: result.statusCode, headers: result.headers }).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': JSON_TYPE,
        'Cache-Control': 'no-store',
        'Content-Language': 'en',
        Vary: 'Accept-Language',
      },
    });
    const body = JSON.parse(result.body) as Record<string, unknown>;
    // 10 of 12 characters: 50*10/12 + 15 + 15 + 20 = 91.67 -> 91, Excellent by score; zxcvbn says 1 (a common
    // password), the rule model 40 guesses (the commonest word, capitalised, `1!` after it), 10^1.60: 0, Very Poor;
    // and it is in the breached-password filter: the BreachedPassword failure. Every field, written in the documented
    // order: the body's keys are held to this literal's.
    const answer = {
      PasswordStrengthPolicyID: 1,
      Score: 91,
      ComplianceLevel: 0,
      ComplianceLevelName: 'Very Poor',
      Compliant: false,
      Mandatory: false,
      Failures: [
        {
          Rule: 'BreachedPassword',
          Required: 0,
          Found: 1,
          Message: 'This password appears in lists of breached passwords.',
        },
      ],
      Suggestions: [
        'Use 12 characters or more.',
        'A common word or sequence with letter substitutions, digits, a year or a few symbols around it is easy to guess.',
        'This is similar to a commonly used password.',
        'Add more words that are less common.',
        'Capitalize more than the first letter.',
      ],
      GuessesLog10: 1.6,
    };
    expect(body).toEqual(answer);
    expect(Object.keys(body)).toEqual(Object.keys(answer));
  });

  it.each(['P@ssw0rd', '1qaz@WSX', '!QAZxsw2', 'J3nn1f3r!'])(
    'a breached password that meets every composition rule (%s) fails BreachedPassword, at most Weak, never quoted',
    async (password) => {
      const result = await handler(post({ PasswordStrengthPolicyID: 2, Password: password }));
      expect(result.statusCode).toBe(200);
      const body = JSON.parse(result.body) as {
        ComplianceLevel: number;
        Compliant: boolean;
        Failures: { Rule: string }[];
      };
      expect(body).toEqual(evaluatePassword(SEED[1]!, password, estimate, true));
      expect(body.Failures.map((f) => f.Rule)).toEqual(['BreachedPassword']);
      expect(body.ComplianceLevel).toBeLessThanOrEqual(1);
      expect(body.Compliant).toBe(false);
      expect(result.body).not.toContain(password);
    },
  );

  it.each(SEED.map((p) => [p.PasswordStrengthPolicyID, p.PolicyName, p] as const))(
    'policy %i (%s): the evaluator’s answer for that policy',
    async (id, _name, policy) => {
      const result = await handler(post({ PasswordStrengthPolicyID: id, Password: SECRET }));
      expect(result.statusCode).toBe(200);
      expect(JSON.parse(result.body)).toEqual(evaluatePassword(policy, SECRET, estimate));
      expect(JSON.parse(result.body)).toMatchObject({
        PasswordStrengthPolicyID: id,
        Mandatory: policy.ComplianceMandatory,
      });
    },
  );

  it('reads only the strength policy table, once within the cache TTL', async () => {
    const fresh = loadEvaluateEntry();
    fresh.dynamo.on(fresh.lib.ScanCommand).resolves({ Items: SEED });
    for (let i = 0; i < 5; i += 1)
      expect((await fresh.module.handler(post({ Password: SECRET }))).statusCode).toBe(200);
    expect(
      fresh.dynamo
        .calls()
        .map((c) => [c.args[0].constructor.name, (c.args[0].input as { TableName: string }).TableName]),
    ).toEqual([['ScanCommand', 'strength-table']]);
  });

  it.each([
    ['application/json; charset=utf-8', {}],
    ['Application/JSON;charset="UTF-8"', {}],
    ['application/json', { base64: true }],
  ])('accepts Content-Type %s %j', async (type, { base64 }: { base64?: boolean }) => {
    const json = JSON.stringify({ Password: SECRET });
    const result = await handler(
      base64
        ? event(Buffer.from(json).toString('base64'), { 'content-type': [type] }, { isBase64Encoded: true })
        : event(json, { 'content-type': [type] }),
    );
    expect(result.statusCode).toBe(200);
  });

  it('accepts 256 characters (emoji count one each), as sent and after NFKC, and a body of exactly 65536 bytes', async () => {
    expect((await handler(post({ Password: '🔑'.repeat(256) }))).statusCode).toBe(200);
    // 64 x U+2A0C is 256 characters after NFKC, 14 x U+FDFA 252; 128 x e + U+0301 is 256 as sent.
    for (const password of ['\u2A0C'.repeat(64), '\uFDFA'.repeat(14), 'e\u0301'.repeat(128)])
      expect((await handler(post({ Password: password }))).statusCode).toBe(200);
    const base = JSON.stringify({ Password: SECRET });
    const padded = `${base.slice(0, -1)}${' '.repeat(65_536 - Buffer.byteLength(base))}}`;
    expect(Buffer.byteLength(padded)).toBe(65_536);
    expect((await handler(event(padded))).statusCode).toBe(200);
  });
});

describe('400, 404 and 415 in the envelope', () => {
  it('404 for an unknown policy', async () => {
    expect(await handler(post({ PasswordStrengthPolicyID: 4242, Password: SECRET }))).toEqual(
      refusal(404, 'No password strength policy has PasswordStrengthPolicyID 4242.'),
    );
  });

  it.each([
    ['a missing password', {}, 'Password is required: the password to evaluate, as a JSON string.'],
    ['a null password', { Password: null }, 'Password must be a JSON string.'],
    ['a numeric password', { Password: 123456 }, 'Password must be a JSON string.'],
    ['an array password', { Password: ['a'] }, 'Password must be a JSON string.'],
    ['an object password', { Password: { value: 'a' } }, 'Password must be a JSON string.'],
    ['a boolean password', { Password: true }, 'Password must be a JSON string.'],
    ['an empty password', { Password: '' }, 'Password must not be empty.'],
    ['257 characters', { Password: 'a'.repeat(257) }, TOO_LONG],
    // The matcher reads the NFKC form: U+2A0C (a quadruple integral) is four characters there, U+FDFA eighteen.
    ['65 x U+2A0C: 65 characters as sent, 260 after NFKC', { Password: '\u2A0C'.repeat(65) }, TOO_LONG],
    ['15 x U+FDFA: 15 characters as sent, 270 after NFKC', { Password: '\uFDFA'.repeat(15) }, TOO_LONG],
    // NFKC can shrink a text too (e + U+0301 is é): the larger count is the one bounded.
    ['129 x e + U+0301: 258 characters as sent, 129 after NFKC', { Password: 'e\u0301'.repeat(129) }, TOO_LONG],
    [
      'a trailing newline',
      { Password: `${SECRET}\n` },
      'Password must not contain control characters (a trailing newline, perhaps).',
    ],
    [
      'a NUL',
      { Password: 'ab\u0000cd' },
      'Password must not contain control characters (a trailing newline, perhaps).',
    ],
    [
      'an unpaired surrogate',
      { Password: 'ab\ud800cd' },
      'Password must be valid Unicode text (it has an unpaired surrogate escape).',
    ],
    [
      'an unknown field',
      { Password: SECRET, Pasword: SECRET },
      'The body has an unknown field; the fields are "PasswordStrengthPolicyID" (optional), "Password" and "UserInputs" (optional; names are case-sensitive).',
    ],
    [
      'a field in another case',
      { password: SECRET },
      'The body has an unknown field; the fields are "PasswordStrengthPolicyID" (optional), "Password" and "UserInputs" (optional; names are case-sensitive).',
    ],
    [
      'policy 0',
      { PasswordStrengthPolicyID: 0, Password: SECRET },
      'PasswordStrengthPolicyID must be a whole number from 1 to 9007199254740991.',
    ],
    [
      'policy 1.5',
      { PasswordStrengthPolicyID: 1.5, Password: SECRET },
      'PasswordStrengthPolicyID must be a whole number from 1 to 9007199254740991.',
    ],
    [
      'policy "2"',
      { PasswordStrengthPolicyID: '2', Password: SECRET },
      'PasswordStrengthPolicyID must be a whole number from 1 to 9007199254740991.',
    ],
    [
      'policy null',
      { PasswordStrengthPolicyID: null, Password: SECRET },
      'PasswordStrengthPolicyID must be a whole number from 1 to 9007199254740991.',
    ],
    [
      'a policy beyond safe integers',
      { PasswordStrengthPolicyID: 2 ** 53, Password: SECRET },
      'PasswordStrengthPolicyID must be a whole number from 1 to 9007199254740991.',
    ],
  ])('%s', async (_what, body, phrase) => {
    const result = await handler(post(body));
    expect(result).toEqual(badRequest(phrase));
    expect(result.body).not.toContain(SECRET);
  });

  it.each([
    ['not JSON', SECRET, 'The body is not valid JSON (UTF-8); send a JSON object.'],
    ['JSON cut short', `{"Password":"${SECRET}"`, 'The body is not valid JSON (UTF-8); send a JSON object.'],
    ['a JSON array', JSON.stringify([{ Password: SECRET }]), 'The body must be a JSON object.'],
    ['a JSON string', JSON.stringify(SECRET), 'The body must be a JSON object.'],
    ['JSON null', 'null', 'The body must be a JSON object.'],
    ['an empty body', '', 'The body is empty; send a JSON object.'],
    ['no body', null, 'The body is empty; send a JSON object.'],
    [
      '65537 bytes',
      JSON.stringify({ Password: SECRET }).padEnd(65_537, ' '),
      'The body must be at most 65536 bytes; this one has 65537.',
    ],
    [
      '1 MB',
      JSON.stringify({ Password: 'x'.repeat(1_048_576) }),
      `The body must be at most 65536 bytes; this one has ${1_048_576 + 15}.`,
    ],
    // JSON.parse would keep the last value: the client meant one of the two, and only it knows which.
    [
      'a password given twice',
      `{"Password":"${SECRET}","Password":"${SECRET}2"}`,
      'The body gives a field twice in one object; send each field once.',
    ],
    [
      'a policy given twice, once escaped',
      `{"PasswordStrengthPolicyID":1,"Password\\u0053trengthPolicyID":2,"Password":"${SECRET}"}`,
      'The body gives a field twice in one object; send each field once.',
    ],
  ])('a body that is %s', async (_what, body, phrase) => {
    const result = await handler(event(body));
    expect(result).toEqual(badRequest(phrase));
    expect(result.body).not.toContain(SECRET);
  });

  it('400 for any query parameter, without echoing its name (it could be the password)', async () => {
    const result = await handler(event(JSON.stringify({ Password: 'x1' }), undefined, { query: { [SECRET]: [''] } }));
    expect(result).toEqual(
      badRequest('This route takes no query parameters: send the password in the JSON body, never in the URL.'),
    );
  });

  it.each([
    ['no Content-Type', {}],
    ['text/plain', { 'Content-Type': ['text/plain'] }],
    ['application/x-www-form-urlencoded', { 'Content-Type': ['application/x-www-form-urlencoded'] }],
    ['application/json in Latin-1', { 'Content-Type': ['application/json; charset=iso-8859-1'] }],
    ['application/jsonp', { 'Content-Type': ['application/jsonp'] }],
    ['two Content-Type headers', { 'Content-Type': ['application/json', 'application/json'] }],
  ])('415 for %s', async (_what, headers) => {
    expect(await handler(event(JSON.stringify({ Password: SECRET }), headers))).toEqual(
      refusal(415, 'The body must be JSON: send Content-Type: application/json (UTF-8).'),
    );
  });
});

/** What a handler answers one request, and everything logged while it answered. */
async function answerAndLogs(handle: ProxyHandler, request: APIGatewayProxyEvent) {
  let result: APIGatewayProxyResult | undefined;
  const logs = await capturedOutput(async () => {
    result = await handle(request);
  });
  return { result, logs };
}

describe('the password never reaches a log line', () => {
  it('with event logging and DEBUG on, the event is logged with its body and headers redacted', async () => {
    const entry = loadEvaluateEntry({
      POWERTOOLS_LOGGER_LOG_EVENT: 'true',
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
    });
    entry.dynamo.on(entry.lib.ScanCommand).resolves({ Items: SEED });
    try {
      const logs = await capturedOutput(async () => {
        for (const body of [
          { Password: SECRET },
          { PasswordStrengthPolicyID: 99, Password: SECRET },
          { Password: SECRET, extra: 1 },
        ])
          await entry.module.handler(post(body));
        await entry.module.handler(event(`{"Password":"${SECRET}"`));
      });
      const lines = logs.split('\n').filter((line) => line.trim() !== '');
      // The event itself was logged (four times), so the redaction is what keeps the password out.
      expect(lines.filter((line) => line.includes('"httpMethod":"POST"'))).toHaveLength(4);
      expect(lines.every((line) => line.includes('"body":"[redacted]"') || !line.includes('"body"'))).toBe(true);
      expect(logs).not.toContain(SECRET);
      expect(logs).not.toContain(SECRET.slice(0, 8));
    } finally {
      delete process.env.POWERTOOLS_LOGGER_LOG_EVENT;
      delete process.env.POWERTOOLS_LOG_LEVEL;
    }
  });

  it('an unexpected failure is a 500 envelope whose log line names the error kind, never its message', async () => {
    const failing = loadEvaluateEntry(
      {},
      {
        modules: {
          '../../functions/domain/evaluation/estimate/guess-estimator': () => ({
            guessEstimator: () => (password: string) => {
              throw new Error(`estimator choked on ${password}`);
            },
          }),
        },
      },
    );
    failing.dynamo.on(failing.lib.ScanCommand).resolves({ Items: SEED });
    const { result, logs } = await answerAndLogs(failing.module.handler, post({ Password: SECRET }));
    expect(result).toEqual(refusal(500, PHRASES.internal));
    expect(logs).toContain('"error":"Error"');
    expect(logs).not.toContain(SECRET);
  });

  it('a DynamoDB failure with nothing cached is a 503, and nothing logged carries the password', async () => {
    const entry = loadEvaluateEntry();
    entry.dynamo
      .on(entry.lib.ScanCommand)
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    const { result, logs } = await answerAndLogs(entry.module.handler, post({ Password: SECRET }));
    expect(result).toEqual(refusal(503, PHRASES.unavailable));
    expect(logs).not.toContain(SECRET);
  }, 30_000);
});
