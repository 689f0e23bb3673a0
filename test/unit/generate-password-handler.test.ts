import type { APIGatewayProxyResult } from 'aws-lambda';
import { errorEnvelope, type ProxyHandler } from '../../functions/http';
import { getEvent, loadEntry } from '../support/entry-points';
import { generatorPolicy } from '../support/policies';

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
const impossible = generatorPolicy({ PasswordGeneratorID: 9, MinLength: 4, MaxLength: 4, BracketChars: true, HigherAlphaRatio: false });

function entry() {
  const loaded = loadEntry<{ handler: ProxyHandler }>('../../functions/api/generate-password', { POLICY_TABLE_NAME: 'generator-table', POWERTOOLS_METRICS_DISABLED: 'true' });
  loaded.dynamo.on(loaded.lib.ScanCommand, { TableName: 'generator-table' }).resolves({ Items: [pin, impossible] });
  return loaded.module.handler;
}
const passwordsOf = (result: APIGatewayProxyResult) => (JSON.parse(result.body) as { Password: string }[]).map((p) => p.Password);

describe('GET /userapi/generatepassword', () => {
  it('answers one password of the default policy (1), as [{"Password": ...}], never to be cached', async () => {
    const result = await entry()(getEvent(PATH));
    expect({ statusCode: result.statusCode, headers: result.headers }).toEqual({ statusCode: 200, headers: { ...JSON_HEADERS, 'Cache-Control': 'no-store' } });
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
    [{ PasswordGeneratorID: ['x'] }, 'PasswordGeneratorID must be a whole number of at least 1.'],
    [{ PasswordGeneratorID: ['0'] }, 'PasswordGeneratorID must be a whole number of at least 1.'],
    [{ Qty: ['1', '2'] }, 'The query parameter "Qty" is given more than once; give it once.'],
    [{ qty: ['1'] }, 'Unknown query parameter "qty"; the parameters are "PasswordGeneratorID", "Qty".'],
  ])('%j: 400 in the envelope', async (query, phrase) => {
    expect(await entry()(getEvent(PATH, query))).toEqual({ statusCode: 400, headers: JSON_HEADERS, body: errorEnvelope(400, phrase) });
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
    expect(JSON.parse(result.body)).toEqual([{ errors: [{ message: 'Unprocessable Entity' }, { phrase: expect.stringMatching(/^Policy 9 cannot be satisfied: .*MinLength/) }] }]);
  });
});
