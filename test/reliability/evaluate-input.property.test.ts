/**
 * Bad input to POST /api/passwordstrength/evaluate, property-based (fast-check), over real HTTP through the
 * local gateway (`tsx local/start.ts`, spawned once, authorizer cache off).
 *
 * Random bodies (JSON objects with the right, wrong, missing, misspelt and extra fields; passwords of any
 * code point, lone surrogates and controls included, up to past 256 characters as sent or after NFKC; policy IDs of every JSON
 * type; UserInputs valid and not, of every JSON type, up to past 20 items and 256 characters; bodies that
 * are not JSON, not UTF-8, empty, or past 65,536 bytes), random Content-Type headers
 * (missing, repeated, other types and charsets) and random credentials. A reference model of the contract
 * (docs/api.md's table, written out again here) says what each request must get. For every response:
 *   - no 5xx; exactly the status the model expects;
 *   - a 200 only for a valid request (a body naming a field twice in one object is not), and then exactly
 *     evaluatePassword(seed policy, password, estimate, breached, UserInputs) computed here;
 *   - every error in the error envelope (docs/api.md#errors), and no error body holding any part of the submitted password,
 *     UserInputs or key;
 *   - afterwards the gateway still answers a valid evaluation correctly.
 *
 * Seed: FC_SEED=<n> replays a run (printed on failure); FC_NUM_RUNS overrides the case count.
 * Run: npx jest test/reliability/evaluate-input
 */
import fc from 'fast-check';
import { BREACHED_PASSWORDS } from '../../functions/domain/evaluation/estimate/breached-password-list';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import { envelopeProblems, sharedPart } from '../support/error-envelope';
import { useLocalService } from '../support/local-service';
import { assertProperty, clip, codePointOf, scaledTimeout, shown } from '../support/property';
import { LOCAL_CREDENTIALS, SEED_STRENGTH_POLICIES } from '../support/seed-reference';
import { LOCAL_ENV } from '../../local/local-environment';

jest.setTimeout(scaledTimeout(240_000));

/**
 * 800 cases, each two requests through the gateway and, for a valid one, this file's own evaluation. Fewer
 * would miss what the suite is for (docs/testing.md#property-run-counts):
 *   - every run must reach every status of the contract, and 404 (a valid request naming a policy the seed
 *     lacks) comes about once in 80 cases: 800 cases miss it in about 1 run of 20,000; 400 would in 1 of 150;
 *   - defect 9 of docs/testing.md (a `null` PasswordStrengthPolicyID taken as the default), put back, was found
 *     after 48 to 1,528 cases in 10 seeds, within 800 in 5 of them: this is the count's floor, not a margin;
 *   - defect 16 (a body holding U+FFFD rated), put back, was found after 5 to 128 cases in 10 seeds.
 * What made the suite slow was per case, not the count: STILL_WANTED was computed afresh after every case.
 */
const CASES = 800;
const PATH = '/api/passwordstrength/evaluate';
const STRENGTH_KEY = LOCAL_CREDENTIALS.passwordStrengthAPIKey;
const ADMIN = LOCAL_CREDENTIALS.generatorAdmin;
const estimate = guessEstimator();

const local = useLocalService({ env: { [LOCAL_ENV.authorizerCacheTtl]: '0' } });
const statusesSeen = new Map<number, number>();

afterAll(() => {
  console.log(
    `evaluate input: statuses seen ${JSON.stringify(Object.fromEntries([...statusesSeen].sort(([a], [b]) => a - b)))}`,
  );
});

// ---------------------------------------------------------------------------------------------------------
// The reference model: what the contract (docs/api.md, evaluating a password) says each request gets.

interface Case {
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
  /** The key and the password submitted, if any: no error body may hold any part of them. */
  readonly secrets: readonly string[];
  readonly authorized: boolean;
}

type Expectation = { status: 200; evaluation: string } | { status: 400 | 401 | 404 | 415 };

function reference(c: Case): Expectation {
  if (!c.authorized) return { status: 401 };
  const types = c.headers.filter(([name]) => name.toLowerCase() === 'content-type').map(([, value]) => value);
  if (types.length !== 1 || !referenceJsonType(types[0]!)) return { status: 415 };
  if (c.body.length > 65_536 || c.body.length === 0) return { status: 400 };
  let text: string;
  try {
    // A leading byte order mark is dropped.
    text = new TextDecoder('utf-8', { fatal: true }).decode(c.body);
  } catch {
    return { status: 400 };
  }
  // The gateway hands the function text with bytes that are not UTF-8 replaced by U+FFFD (as API Gateway
  // does with a text body): a body holding U+FFFD is refused, so a replaced password is never rated.
  if (text.includes('\uFFFD')) return { status: 400 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { status: 400 };
  }
  // JSON.parse keeps the last of two values under one name: a name given twice in any object is a 400.
  if (namesAMemberTwice(text)) return { status: 400 };
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { status: 400 };
  const body = parsed as Record<string, unknown>;
  if (Object.keys(body).some((k) => k !== 'PasswordStrengthPolicyID' && k !== 'Password' && k !== 'UserInputs'))
    return { status: 400 };
  const id = 'PasswordStrengthPolicyID' in body ? body.PasswordStrengthPolicyID : 1;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > Number.MAX_SAFE_INTEGER) return { status: 400 };
  const password = body.Password;
  if (typeof password !== 'string' || password === '' || referenceLength(password) > 256) return { status: 400 };
  if (!referenceText(password)) return { status: 400 };
  const userInputs = body.UserInputs ?? [];
  if (!Array.isArray(userInputs) || ('UserInputs' in body && (userInputs.length < 1 || userInputs.length > 20)))
    return { status: 400 };
  if (
    userInputs.some(
      (input) => typeof input !== 'string' || input === '' || referenceLength(input) > 256 || !referenceText(input),
    )
  )
    return { status: 400 };
  const policy = SEED_STRENGTH_POLICIES.find((p) => p.PasswordStrengthPolicyID === id);
  if (!policy) return { status: 404 };
  return {
    status: 200,
    evaluation: JSON.stringify(
      evaluatePassword(policy, password, estimate, BREACHED_PASSWORDS.has(password), userInputs as string[]),
    ),
  };
}

/** Code points as sent and after NFKC (the form the evaluation matches), whichever is more. */
function referenceLength(text: string): number {
  return Math.max(Array.from(text).length, Array.from(text.normalize('NFKC')).length);
}

/** No control character (C0, DEL, C1) and no unpaired surrogate (code points of a string are either a pair or lone). */
function referenceText(text: string): boolean {
  return ![...text].some((ch) => {
    const cp = ch.codePointAt(0)!;
    return cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff);
  });
}

/** Whether an object of a valid JSON text names a member twice, at any depth: a recursive-descent reading of the text. */
function namesAMemberTwice(text: string): boolean {
  let i = 0;
  const space = () => {
    while (' \t\n\r'.includes(text[i] ?? 'x')) i += 1;
  };
  const string = (): string => {
    const start = i;
    for (i += 1; text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
    i += 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): boolean => {
    space();
    if (text[i] === '"') return (void string(), false);
    if (text[i] === '{' || text[i] === '[') {
      const object = text[i] === '{';
      const names = new Set<string>();
      i += 1;
      for (space(); text[i] !== (object ? '}' : ']'); space()) {
        if (text[i] === ',') i += 1;
        if (object) {
          space();
          const name = string();
          if (names.has(name)) return true;
          names.add(name);
          space();
          i += 1; // the colon
        }
        if (value()) return true;
      }
      i += 1;
      return false;
    }
    while (i < text.length && !',]} \t\n\r'.includes(text[i]!)) i += 1;
    return false;
  };
  return value();
}

function referenceJsonType(value: string): boolean {
  const [type, ...parameters] = value.split(';').map((p) => p.trim().toLowerCase());
  return (
    type === 'application/json' && parameters.every((p) => p === '' || p === 'charset=utf-8' || p === 'charset="utf-8"')
  );
}

// ---------------------------------------------------------------------------------------------------------
// Arbitraries.

const anyCodePoint = codePointOf({
  printableAscii: 60,
  c0Controls: 1,
  delAndC1Controls: 1,
  bmpPastControls: 8,
  loneSurrogates: 1,
  astral: 4,
});

const password: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.constantFrom(...'abcXYZ019!@# '.split('')), minLength: 1, maxLength: 24 }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Password1!',
      'P@ssw0rd',
      '123456',
      'correct horse battery staple',
      '🔑🔒',
      'Passwort-Straße-7',
      'p4$$w0rd'.repeat(8),
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 250, max: 262 }).map((n) => 'aB3$'.repeat(70).slice(0, n)) },
  { weight: 1, arbitrary: fc.integer({ min: 250, max: 262 }).map((n) => '🔑'.repeat(n)) },
  // Around the bound after NFKC, which the evaluation matches: U+2A0C is four characters there, U+FDFA eighteen; e + U+0301 composes to one.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 60, max: 66 }), fc.integer({ min: 0, max: 8 }))
      .map(([n, m]) => '\u2A0C'.repeat(n) + 'x'.repeat(m)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 12, max: 16 }).map((n) => '\uFDFA'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 126, max: 130 }).map((n) => 'e\u0301'.repeat(n)) },
  { weight: 1, arbitrary: fc.constant('') },
);

const policyId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }) },
  { weight: 1, arbitrary: fc.integer({ min: -3, max: 0 }) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, 2 ** 53, 1e21, -0, null, '1', '2', true, [1], { id: 1 }) },
);

/** UserInputs: an array of 1 to 20 strings (names, addresses, any text), or one that breaks a bound, or another JSON type. */
const userInput: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: password },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'jsmith',
      'John Smith',
      'jsmith@acme.example',
      'Acme Corporation',
      'E-104729',
      'Straße 7',
      "O'Brien",
    ),
  },
);
const userInputs: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.array(userInput, { minLength: 1, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.array(userInput, { minLength: 21, maxLength: 23 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom([], null, 'jsmith', 42, { name: 'jsmith' }, [42], ['jsmith', null], [['jsmith']]),
  },
);

/** A body object: the three fields present or not, plus misspelt or extra ones. */
const absent = fc.constant(undefined);
const bodyObject: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    id: fc.oneof({ weight: 1, arbitrary: absent }, { weight: 2, arbitrary: policyId }),
    password: fc.oneof(
      { weight: 1, arbitrary: absent },
      { weight: 12, arbitrary: password },
      { weight: 1, arbitrary: fc.constantFrom(null, 42, true, ['x'], { value: 'x' }) },
    ),
    inputs: fc.oneof({ weight: 3, arbitrary: absent }, { weight: 2, arbitrary: userInputs }),
    extra: fc.oneof(
      { weight: 8, arbitrary: absent },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc.constantFrom('password', 'Pasword', 'PasswordStrengthPolicyId', 'userInputs', 'x', ''),
          fc.jsonValue({ maxDepth: 1 }),
        ),
      },
    ),
  })
  .map(({ id, password: pw, inputs, extra }) => {
    const out: Record<string, unknown> = {};
    if (id !== undefined) out.PasswordStrengthPolicyID = id;
    if (pw !== undefined) out.Password = pw;
    if (inputs !== undefined) out.UserInputs = inputs;
    if (extra) out[extra[0]] = extra[1];
    return out;
  });

/** The strings of a body's UserInputs, if it has an array of them: each is a secret as the password is. */
const inputStrings = (o: Record<string, unknown>): string[] =>
  Array.isArray(o.UserInputs) ? o.UserInputs.filter((x): x is string => typeof x === 'string') : [];

/** The bytes sent, and the password and UserInputs inside them (if any). */
const bodyBytes: fc.Arbitrary<{ bytes: Buffer; label: string; password?: string; inputs?: string[] }> = fc.oneof(
  {
    weight: 10,
    arbitrary: bodyObject.map((o) => ({
      bytes: Buffer.from(JSON.stringify(o), 'utf8'),
      label: clip(JSON.stringify(o)),
      ...(typeof o.Password === 'string' ? { password: o.Password } : {}),
      inputs: inputStrings(o),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(password, fc.integer({ min: 65_400, max: 65_700 })).map(([pw, size]) => {
      const base = JSON.stringify({ Password: pw });
      const bytes = Buffer.from(
        `${base.slice(0, -1)}${' '.repeat(Math.max(0, size - Buffer.byteLength(base)))}}`,
        'utf8',
      );
      return { bytes, label: `padded to ${bytes.length} bytes`, password: pw };
    }),
  },
  {
    weight: 1,
    arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({
      bytes: Buffer.from(JSON.stringify(v) ?? 'null', 'utf8'),
      label: `JSON ${clip(JSON.stringify(v) ?? 'null')}`,
    })),
  },
  {
    weight: 1,
    arbitrary: password.map((pw) => ({
      bytes: Buffer.from(`{"Password":"${pw}`, 'utf8'),
      label: 'JSON cut short',
      password: pw,
    })),
  },
  {
    weight: 1,
    arbitrary: password.map((pw) => ({
      bytes: Buffer.from(`Password=${encodeURIComponent(pw.replace(/[\ud800-\udfff]/g, 'x'))}`, 'utf8'),
      label: 'form-encoded',
      password: pw,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ minLength: 0, maxLength: 64 }).map((a) => ({
      bytes: Buffer.from([
        0x7b,
        0x22,
        0x50,
        0x61,
        0x73,
        0x73,
        0x77,
        0x6f,
        0x72,
        0x64,
        0x22,
        0x3a,
        0x22,
        ...a,
        0x22,
        0x7d,
      ]),
      label: 'raw bytes in a JSON string',
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '',
        ' ',
        'null',
        '[]',
        '{}',
        '\ufeff{"Password":"x1"}',
        '{"Password":"a","Password":"b"}',
        '{"Password":"a","Pass\\u0077ord":"b"}',
        '{"Password":"a","x":{"k":1,"k":2}}',
      )
      .map((t) => ({ bytes: Buffer.from(t, 'utf8'), label: JSON.stringify(t) })),
  },
);

const contentType: fc.Arbitrary<readonly (readonly [string, string])[]> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"')
      .map((t) => [['Content-Type', t] as const]),
  },
  { weight: 1, arbitrary: fc.constant([]) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'application/jsonx',
        'multipart/form-data; boundary=x',
        '*/*',
        '',
      )
      .map((t) => [['Content-Type', t] as const]),
  },
  {
    weight: 1,
    arbitrary: fc.constant([
      ['Content-Type', 'application/json'] as const,
      ['content-type', 'application/json'] as const,
    ]),
  },
);

const credentials: fc.Arbitrary<{
  headers: readonly (readonly [string, string])[];
  authorized: boolean;
  key?: string;
}> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .constantFrom('APIKey', 'apikey', 'APIKEY')
      .map((name) => ({ headers: [[name, STRENGTH_KEY] as const], authorized: true, key: STRENGTH_KEY })),
  },
  { weight: 1, arbitrary: fc.constant({ headers: [], authorized: false }) },
  {
    weight: 1,
    arbitrary: fc.constant({
      headers: [['UserID', ADMIN.UserID] as const, ['APIKey', ADMIN.APIKey] as const],
      authorized: false,
      key: ADMIN.APIKey,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 20, max: 50 }).map((i) => ({
      headers: [
        [
          'APIKey',
          `${STRENGTH_KEY.slice(0, i)}${STRENGTH_KEY[i] === 'A' ? 'B' : 'A'}${STRENGTH_KEY.slice(i + 1)}`,
        ] as const,
      ],
      authorized: false,
      key: STRENGTH_KEY,
    })),
  },
);

const caseOf: fc.Arbitrary<Case & { label: string }> = fc
  .tuple(bodyBytes, contentType, credentials)
  .map(([body, types, creds]) =>
    shown(
      {
        headers: [...creds.headers, ...types],
        body: body.bytes,
        secrets: [
          ...(creds.key ? [creds.key] : []),
          ...(body.password !== undefined ? [body.password] : []),
          ...(body.inputs ?? []),
        ],
        authorized: creds.authorized,
        label: body.label,
      },
      `${creds.authorized ? 'strength key' : 'bad credentials'}, ${JSON.stringify(types)}, body ${body.label}`,
    ),
  );

// ---------------------------------------------------------------------------------------------------------

/** The evaluation of the valid request sent after every case: computed once, as the evaluation is deterministic. */
const STILL_WANTED = JSON.stringify(evaluatePassword(SEED_STRENGTH_POLICIES[0]!, 'Password1!', estimate, true));

async function stillEvaluates(): Promise<string[]> {
  const response = await local.client.request(
    'POST',
    PATH,
    [
      ['APIKey', STRENGTH_KEY],
      ['Content-Type', 'application/json'],
    ],
    JSON.stringify({ Password: 'Password1!' }),
  );
  const wanted = STILL_WANTED;
  return response.status === 200 && response.body === wanted
    ? []
    : [`the next valid evaluation answered ${response.status}: ${response.body.slice(0, 200)}`];
}

test(`${CASES} random evaluation requests: the status of the contract, the exact evaluation, the envelope, no secret back`, async () => {
  const { seed, numRuns } = await assertProperty(
    'evaluate input',
    fc.asyncProperty(caseOf, async (c) => {
      const want = reference(c);
      const response = await local.client.request('POST', PATH, c.headers, c.body);
      statusesSeen.set(response.status, (statusesSeen.get(response.status) ?? 0) + 1);
      const problems: string[] = [];
      if (response.status >= 500) problems.push(`a ${response.status}`);
      if (response.status !== want.status)
        problems.push(`status ${response.status}, expected ${want.status}: ${response.body.slice(0, 200)}`);
      if (want.status === 200 && response.status === 200) {
        if (response.body !== want.evaluation)
          problems.push(`the evaluation differs from evaluatePassword's: ${response.body.slice(0, 300)}`);
        if (response.headers['cache-control'] !== 'no-store')
          problems.push(`Cache-Control ${JSON.stringify(response.headers['cache-control'])}`);
      }
      if (response.status >= 400) {
        problems.push(...envelopeProblems(response.status, response.headers['content-type'], response.body, []));
        for (const secret of c.secrets) {
          const part = sharedPart(response.body, secret);
          if (part) problems.push(`the error body holds part of a submitted secret: ${JSON.stringify(part)}`);
        }
      }
      problems.push(...(await stillEvaluates()));
      if (problems.length > 0) throw new Error(problems.join('\n'));
    }),
    CASES,
  );
  console.log(`evaluate input: ${numRuns} cases, seed ${seed}`);
  // The generators reach every answer of the contract, so none of them is tested by accident only.
  for (const status of [200, 400, 401, 404, 415]) expect(statusesSeen.get(status) ?? 0).toBeGreaterThan(0);
});
