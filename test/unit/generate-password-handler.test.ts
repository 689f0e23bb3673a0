import type { APIGatewayProxyResult } from 'aws-lambda';
import { errorEnvelope, type ProxyHandler } from '../../functions/http';
import { GENERATION_QUERY } from '../../functions/routes';
import { getEvent, loadEntry } from '../support/entry-points';
import { generatorPolicy } from '../../testkit/policy-fixtures';

const PATH = '/userapi/generatepassword';
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

const pin = generatorPolicy({
  PasswordGeneratorID: 1,
  MinLength: 6,
  MaxLength: 6,
  LowerCaseChars: false,
  UpperCaseChars: false,
  NumericChars: true,
  SpecialChars: false,
  HigherAlphaRatio: false,
  AmbiguousChars: true,
});
// Valid for the schema (MinLength >= 4), yet five classes cannot each appear once in four characters.
const impossible = generatorPolicy({
  PasswordGeneratorID: 9,
  MinLength: 4,
  MaxLength: 4,
  BracketChars: true,
  HigherAlphaRatio: false,
});

function entry() {
  const loaded = loadEntry<{ handler: ProxyHandler }>('../../functions/api/generate-password', {
    POLICY_TABLE_NAME: 'generator-table',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  loaded.dynamo.on(loaded.lib.ScanCommand, { TableName: 'generator-table' }).resolves({ Items: [pin, impossible] });
  return loaded.module.handler;
}
const passwordsOf = (result: APIGatewayProxyResult) =>
  (JSON.parse(result.body) as { Password: string }[]).map((p) => p.Password);

describe('GET /userapi/generatepassword', () => {
  it('answers one password of the default policy (1), as [{"Password": ...}], never to be cached', async () => {
    const result = await entry()(getEvent(PATH));
    expect({ statusCode: result.statusCode, headers: result.headers }).toEqual({
      statusCode: 200,
      headers: { ...JSON_HEADERS, 'Cache-Control': 'no-store' },
    });
    expect(Object.keys(JSON.parse(result.body)[0])).toEqual(['Password']);
    expect(passwordsOf(result)).toEqual([expect.stringMatching(/^\d{6}$/)]);
  });

  it.each([1, 37, 100])('answers Qty=%i passwords of the named policy', async (qty) => {
    const result = await entry()(getEvent(PATH, { PasswordGeneratorID: ['1'], Qty: [String(qty)] }));
    expect(passwordsOf(result)).toHaveLength(qty);
    for (const password of passwordsOf(result)) expect(password).toMatch(/^\d{6}$/);
  });

  it.each([
    [{ Qty: ['0'] }, 'Qty must be a whole number from 1 to 100.'],
    [{ Qty: ['101'] }, 'Qty must be a whole number from 1 to 100.'],
    [{ Qty: ['2.5'] }, 'Qty must be a whole number from 1 to 100.'],
    [{ Qty: ['-1'] }, 'Qty must be a whole number from 1 to 100.'],
    [{ Qty: [''] }, 'Qty must be a whole number from 1 to 100.'],
    [{ PasswordGeneratorID: ['x'] }, 'PasswordGeneratorID must be a whole number from 1 to 9007199254740991.'],
    [{ PasswordGeneratorID: ['0'] }, 'PasswordGeneratorID must be a whole number from 1 to 9007199254740991.'],
    [
      { PasswordGeneratorID: ['9007199254740992'] },
      'PasswordGeneratorID must be a whole number from 1 to 9007199254740991.',
    ],
    [{ Qty: ['1', '2'] }, 'The query parameter "Qty" is given more than once; give it once.'],
    [{ qty: ['1'], Qty: ['2'] }, 'The query parameter "Qty" is given more than once; give it once.'],
    [
      { Quantity: ['1'] },
      `Unknown query parameter "Quantity"; the parameters are ${GENERATION_QUERY.map((name) => `"${name}"`).join(', ')}.`,
    ],
  ])('%j: 400 in the envelope', async (query, phrase) => {
    expect(await entry()(getEvent(PATH, query))).toEqual({
      statusCode: 400,
      headers: JSON_HEADERS,
      body: errorEnvelope(400, phrase),
    });
  });

  it('answers 404 for an unknown policy', async () => {
    expect(await entry()(getEvent(PATH, { PasswordGeneratorID: ['42'] }))).toEqual({
      statusCode: 404,
      headers: JSON_HEADERS,
      body: errorEnvelope(404, 'No password generator policy has PasswordGeneratorID 42.'),
    });
  });

  it('answers 422 with the reason for a policy that cannot be satisfied, rather than fail', async () => {
    const result = await entry()(getEvent(PATH, { PasswordGeneratorID: ['9'] }));
    expect(result.statusCode).toBe(422);
    expect(JSON.parse(result.body)).toEqual([
      {
        errors: [
          { message: 'Unprocessable Entity' },
          { phrase: expect.stringMatching(/^Policy 9 cannot be satisfied: .*MinLength/) },
        ],
      },
    ]);
  });

  it.each<Record<string, string[]>>([{ qty: ['3'] }, { QTY: ['3'] }, { passwordgeneratorid: ['1'], qTy: ['3'] }])(
    'matches parameter names in any letter case: %j',
    async (query) => {
      const result = await entry()(getEvent(PATH, query));
      expect(passwordsOf(result)).toEqual([
        expect.stringMatching(/^\d{6}$/),
        expect.stringMatching(/^\d{6}$/),
        expect.stringMatching(/^\d{6}$/),
      ]);
    },
  );
});

describe('generation by settings (docs/api.md#generation-by-settings)', () => {
  const generate = async (query: Record<string, string[]>) => {
    const result = await entry()(getEvent(PATH, query));
    return { status: result.statusCode, body: JSON.parse(result.body) as unknown };
  };
  /** The passwords generated with the settings: the answer is a 200. */
  const passwordsFor = async (query: Record<string, string[]>) => {
    const { status, body } = await generate(query);
    expect(status).toBe(200);
    return (body as { Password: string }[]).map((p) => p.Password);
  };
  /** Settings for a word phrase alone, no random characters. */
  const WORDS_ONLY = { IncludeWordPhrases: ['true'], IncludeAlphaSpecial: ['false'] };
  const phraseOf = (body: unknown) => (body as { errors: { phrase?: string }[] }[])[0]!.errors[1]!.phrase;

  it("replaces the default policy's fields with the settings given, the rest kept", async () => {
    // The default policy here is 6 digits; 10 to 10 lower-case letters and digits, letters over half.
    const passwords = await passwordsFor({
      minLength: ['10'],
      maxLength: ['10'],
      lowerCaseChars: ['True'],
      higherAlphaRatio: ['true'],
      Qty: ['50'],
    });
    expect(passwords).toHaveLength(50);
    for (const pw of passwords) {
      expect(pw).toMatch(/^[a-z0-9]{10}$/);
      expect(pw.replace(/[0-9]/g, '').length).toBeGreaterThan(5);
      expect(pw).toMatch(/[0-9]/);
    }
  });

  it('applies settings on top of the policy PasswordGeneratorID names', async () => {
    // Policy 9 is infeasible in 4 characters; at 8 it is fine.
    const [password] = await passwordsFor({ PasswordGeneratorID: ['9'], minLength: ['8'], maxLength: ['8'] });
    expect(password).toHaveLength(8);
  });

  it("takes an empty value as not given, and reads a feature's settings only while it is on", async () => {
    const { status, body } = await generate({
      maxLength: [''],
      specialCharsText: [''],
      IncludeWordPhrases: ['false'],
      NumberOfWords: ['0'],
      MaxWordLength: ['0'],
      PrefixAppend: ['x'],
      GeneratePattern: ['False'],
      Pattern: ['null'],
      specialChars: ['false'],
      bracketChars: ['false'],
      bracketCharsText: ['not symbols'],
    });
    expect({ status, body }).toEqual({ status: 200, body: [{ Password: expect.stringMatching(/^\d{6}$/) }] });
  });

  it('names each bad setting as the request did (400)', async () => {
    expect(await generate({ lowerCaseChars: ['yes'], minLength: ['eight'] })).toEqual({
      status: 400,
      body: JSON.parse(
        errorEnvelope(
          400,
          'The settings do not make a valid policy: lowerCaseChars must be true or false; minLength must be a whole number.',
        ),
      ),
    });
    const outOfDomain = await generate({
      minLength: ['3'],
      MaxWordLength: ['2'],
      IncludeWordPhrases: ['true'],
      NumberOfWords: ['2'],
    });
    expect(outOfDomain.status).toBe(400);
    expect(phraseOf(outOfDomain.body)).toBe(
      'The settings do not make a valid policy: minLength must be at least 4; MaxWordLength must be at least 3.',
    );
  });

  it.each([
    [
      'a pattern that could generate more than 1024 characters',
      { GeneratePattern: ['true'], Pattern: ['w{256}w{256}'] },
      400,
      'The settings do not make a valid policy: Pattern generates up to 4096 characters; a generated password has at most 1024.',
    ],
    [
      'settings that cannot be satisfied',
      { ...WORDS_ONLY, NumberOfWords: ['3'], MaxWordLength: ['4'] },
      422,
      'The settings on policy 1 cannot be satisfied: A word phrase draws from at least 1296 words, but the word list has 549 of 3 to 4 letters (MaximumWordLength is 4).',
    ],
  ])('refuses %s: %i, with the reason', async (_what, query, status, phrase) => {
    const answer = await generate(query);
    expect({ status: answer.status, phrase: phraseOf(answer.body) }).toEqual({ status, phrase });
  });

  it('keeps ExcludeChars everywhere, words included', async () => {
    const passwords = await passwordsFor({ ...WORDS_ONLY, NumberOfWords: ['4'], ExcludeChars: ['e'], Qty: ['100'] });
    for (const password of passwords) expect(password).toMatch(/^[a-df-z]+(-[a-df-z]+){3}$/);
  });
});
