/**
 * UserInputs in POST /api/passwordstrength/evaluate, in process (functions/api/evaluate-password.ts loaded cold,
 * DynamoDB mocked): the evaluation in context, every 400 of the field (none quoting a value), the largest
 * valid body, and the logs captured to show that no UserInput reaches them, whatever the log level.
 *
 * Run: npx jest test/unit/evaluate-in-context
 */
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import { errorEnvelope, type ProxyHandler } from '../../functions/http';
import { redactSecrets } from '../../functions/runtime';
import { loadEvaluateEntry, proxyEvent } from '../support/entry-points';
import { SEED_STRENGTH_POLICIES } from '../support/seed-reference';
import { capturedOutput } from '../support/captured-output';

const PATH = '/api/passwordstrength/evaluate';
const JSON_TYPE = 'application/json; charset=utf-8';
const SEED = [...SEED_STRENGTH_POLICIES];
/** Private words about a user: none may reach an answer other than the evaluation, an error, or a log line. */
const USER = ['Quentin Zebulon', 'qzebulon@wolfram-hollow.example', 'Employee 5581923'];
const SECRETS = ['Quentin', 'Zebulon', 'qzebulon', 'wolfram', 'hollow', '5581923'];

const event = (body: string) => proxyEvent('POST', PATH, { headers: { 'Content-Type': ['application/json'] }, body });
const post = (value: unknown) => event(JSON.stringify(value));
const entry = (env: Record<string, string> = {}) => {
  const loaded = loadEvaluateEntry({
    ...env,
  });
  loaded.dynamo.on(loaded.lib.ScanCommand).resolves({ Items: SEED });
  return loaded.module.handler;
};

let handler: ProxyHandler;
const estimate = guessEstimator();
beforeAll(() => {
  handler = entry();
});

describe('200: the evaluation in context', () => {
  it.each([
    [1, 'Zebulon$Rocks26', 'UserInput'],
    [2, 'Qu3nt1nZ!99', 'UserInput'],
    [2, 'Wolfram-Hollow-7', 'UserInput'],
    [2, 'Amber-Lighthouse-Sparrow-71!', undefined],
  ])('policy %i, %s: the evaluator’s answer with the UserInputs (%s)', async (id, password, rule) => {
    const result = await handler(post({ PasswordStrengthPolicyID: id, Password: password, UserInputs: USER }));
    expect({ statusCode: result.statusCode, headers: result.headers }).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': JSON_TYPE,
        'Cache-Control': 'no-store',
        'Content-Language': 'en',
        Vary: 'Accept-Language',
      },
    });
    const body = JSON.parse(result.body) as { Failures: { Rule: string }[]; Compliant: boolean };
    expect(body).toEqual(evaluatePassword(SEED[id - 1]!, password, estimate, false, USER));
    expect(body.Failures.some((f) => f.Rule === 'UserInput')).toBe(rule === 'UserInput');
    for (const secret of SECRETS) expect(result.body.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('without UserInputs, the answer is the one without context', async () => {
    const result = await handler(post({ PasswordStrengthPolicyID: 2, Password: 'Zebulon$Rocks26' }));
    expect(JSON.parse(result.body)).toEqual(evaluatePassword(SEED[1]!, 'Zebulon$Rocks26', estimate));
    expect(JSON.parse(result.body)).toMatchObject({ Compliant: true });
  });

  it('takes the largest valid body however it is escaped: 20 UserInputs and a Password of 256 emoji each, as \\u escapes', async () => {
    const escaped = '\\ud83d\\udd11'.repeat(256);
    const body = `{"PasswordStrengthPolicyID":2,"Password":"${escaped}","UserInputs":[${Array.from({ length: 20 }, () => `"${escaped}"`).join(',')}]}`;
    expect(Buffer.byteLength(body)).toBeGreaterThan(64_512);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(65_536);
    expect((await handler(event(body))).statusCode).toBe(200);
  });
});

describe('400 for UserInputs that are not 1 to 20 strings of 1 to 256 characters without control characters, naming no value', () => {
  const secret = 'Zebulon-5581923';
  const TOO_LONG =
    'must be at most 256 characters, both as sent and after Unicode NFKC normalization (which expands some characters, such as ligatures, into several).';
  it.each([
    [
      'a string',
      secret,
      'UserInputs must be a JSON array of 1 to 20 strings (the user name, display name, email address and the like); leave it out when there are none.',
    ],
    [
      'null',
      null,
      'UserInputs must be a JSON array of 1 to 20 strings (the user name, display name, email address and the like); leave it out when there are none.',
    ],
    [
      'an object',
      { name: secret },
      'UserInputs must be a JSON array of 1 to 20 strings (the user name, display name, email address and the like); leave it out when there are none.',
    ],
    [
      'an empty array',
      [],
      'UserInputs must be a JSON array of 1 to 20 strings (the user name, display name, email address and the like); leave it out when there are none.',
    ],
    [
      '21 items',
      Array.from({ length: 21 }, (_, i) => `${secret}${i}`),
      'UserInputs must hold at most 20 strings; this one holds 21.',
    ],
    ['a number item', [secret, 5581923], 'UserInputs[1] must be a JSON string.'],
    ['a null item', [secret, null], 'UserInputs[1] must be a JSON string.'],
    ['an array item', [[secret]], 'UserInputs[0] must be a JSON string.'],
    ['an empty string', [secret, ''], 'UserInputs[1] must not be empty.'],
    ['257 characters', [secret, 'Z'.repeat(257)], `UserInputs[1] ${TOO_LONG}`],
    // The matcher reads the NFKC form: U+2A0C is four characters there, U+FDFA eighteen.
    ['65 x U+2A0C: 65 characters as sent, 260 after NFKC', [secret, '\u2A0C'.repeat(65)], `UserInputs[1] ${TOO_LONG}`],
    ['15 x U+FDFA: 15 characters as sent, 270 after NFKC', ['\uFDFA'.repeat(15)], `UserInputs[0] ${TOO_LONG}`],
    ['129 x e + U+0301: 258 characters as sent, 129 after NFKC', ['e\u0301'.repeat(129)], `UserInputs[0] ${TOO_LONG}`],
    ['a control character', [`${secret}\n`], 'UserInputs[0] must not contain control characters.'],
    [
      'an unpaired surrogate',
      [`${secret}\ud800`],
      'UserInputs[0] must be valid Unicode text (it has an unpaired surrogate escape).',
    ],
  ])('%s', async (_what, userInputs, phrase) => {
    const result = await handler(post({ Password: 'Correct-Horse-7', UserInputs: userInputs }));
    expect(result).toEqual({
      statusCode: 400,
      headers: { 'Content-Type': JSON_TYPE },
      body: errorEnvelope(400, phrase),
    });
    expect(result.body).not.toContain('Zebulon');
    expect(result.body).not.toContain('5581923');
  });

  it('accepts 256 characters (emoji count one each), as sent and after NFKC, and 20 items', async () => {
    expect(
      (
        await handler(
          post({ Password: 'Correct-Horse-7', UserInputs: Array.from({ length: 20 }, () => '🔑'.repeat(256)) }),
        )
      ).statusCode,
    ).toBe(200);
    // 64 x U+2A0C is 256 characters after NFKC, 14 x U+FDFA 252; 128 x e + U+0301 is 256 as sent.
    expect(
      (
        await handler(
          post({
            Password: 'Correct-Horse-7',
            UserInputs: ['\u2A0C'.repeat(64), '\uFDFA'.repeat(14), 'e\u0301'.repeat(128)],
          }),
        )
      ).statusCode,
    ).toBe(200);
  });

  it('a field name in another case is an unknown field, not named', async () => {
    const result = await handler(post({ Password: 'Correct-Horse-7', userInputs: [secret] }));
    expect(result.body).toBe(
      errorEnvelope(
        400,
        'The body has an unknown field; the fields are "PasswordStrengthPolicyID" (optional), "Password" and "UserInputs" (optional; names are case-sensitive).',
      ),
    );
  });
});

describe('no UserInput reaches a log line', () => {
  it('the logger redacts a field named UserInputs at any depth, as it does Password', () => {
    expect(JSON.stringify({ request: { Password: 'x', userinputs: USER } }, redactSecrets)).toBe(
      '{"request":{"Password":"[redacted]","userinputs":"[redacted]"}}',
    );
  });

  it('with event logging and DEBUG on: 200, 400 and 404, the event logged with its body redacted, no UserInput anywhere', async () => {
    const logged = entry({ POWERTOOLS_LOGGER_LOG_EVENT: 'true', POWERTOOLS_LOG_LEVEL: 'DEBUG' });
    try {
      const logs = await capturedOutput(async () => {
        for (const body of [
          { Password: 'Zebulon#2026', UserInputs: USER },
          { PasswordStrengthPolicyID: 2, Password: 'Amber-Lighthouse-Sparrow-71!', UserInputs: USER },
          { PasswordStrengthPolicyID: 99, Password: 'Zebulon#2026', UserInputs: USER },
          { Password: 'Zebulon#2026', UserInputs: [...USER, ''] },
          { Password: 'Zebulon#2026', UserInputs: USER.join(' ') },
        ]) {
          await logged(post(body));
        }
      });
      const lines = logs.split('\n').filter((line) => line.trim() !== '');
      // The event itself was logged (five times), so the redaction is what keeps the UserInputs out.
      expect(lines.filter((line) => line.includes('"httpMethod":"POST"'))).toHaveLength(5);
      for (const secret of SECRETS) expect(logs.toLowerCase()).not.toContain(secret.toLowerCase());
    } finally {
      delete process.env.POWERTOOLS_LOGGER_LOG_EVENT;
      delete process.env.POWERTOOLS_LOG_LEVEL;
    }
  });
});
