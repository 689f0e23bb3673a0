/**
 * ResponseConformance, the check behind test/e2e/openapi-responses.test.ts, on answers made up to break the
 * document one way at a time: each must be reported, so the e2e test can fail when the service departs from
 * docs/openapi.json. The conforming answers are built from the document's own examples and the code's phrases.
 */
import { readFileSync } from 'node:fs';
import { errorEnvelope, JSON_CONTENT_TYPE, methodNotAllowedPhrase, PHRASES } from '../../functions/http';
import { ROUTE_PHRASES } from '../../functions/routes';
import { OPENAPI_FILE } from '../../docs/openapi';
import { ResponseConformance, type ObservedResponse, type OpenApiDocument } from '../support/openapi-conformance';

const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDocument & {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          { content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> }
        >;
      }
    >
  >;
};
const conformance = new ResponseConformance(document);
const LIST = '/api/passwordstrength';
const EVALUATE = '/api/passwordstrength/evaluate';
/** The headers of every evaluation: never cached, and in the language Accept-Language chose. */
const EVALUATION_HEADERS = { 'cache-control': 'no-store', 'content-language': 'en', vary: 'Accept-Language' };
const policies = document.paths[LIST]!.get!.responses['200']!.content['application/json']!.example as Record<
  string,
  unknown
>[];
const evaluation = document.paths[EVALUATE]!.post!.responses['200']!.content['application/json']!.examples!.weak!
  .value as Record<string, unknown>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ObservedResponse => ({
  status,
  headers: { 'content-type': JSON_CONTENT_TYPE, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const listed = (
  body: unknown,
  headers: Record<string, string> = { etag: '"abc"', 'cache-control': 'private, no-cache' },
) => json(200, body, headers);
const unauthorized = json(401, errorEnvelope(401, ROUTE_PHRASES.unauthorized));

describe('answers that conform', () => {
  it.each([
    ['a policy list with its ETag and Cache-Control', 'GET', LIST, listed(policies)],
    [
      'a 304 with its headers and no body',
      'GET',
      LIST,
      { status: 304, headers: { etag: '"abc"', 'cache-control': 'private, no-cache' }, body: '' },
    ],
    ['a 401 in the envelope', 'GET', LIST, unauthorized],
    [
      'a 405 of another method, with Allow',
      'DELETE',
      LIST,
      json(405, errorEnvelope(405, methodNotAllowedPhrase(['GET'])), { allow: 'GET' }),
    ],
    ['an evaluation with no-store, in English', 'POST', EVALUATE, json(200, evaluation, EVALUATION_HEADERS)],
    [
      'the firewall’s 429, application/json without a charset',
      'POST',
      EVALUATE,
      { status: 429, headers: { 'content-type': 'application/json' }, body: errorEnvelope(429, PHRASES.throttled) },
    ],
  ])('%s: no problem', (_name, method, path, response) => {
    expect(conformance.problems(method, path, response)).toEqual([]);
  });
});

describe('answers that do not: each departure is reported', () => {
  it.each([
    [
      'a status the operation does not declare (418)',
      'GET',
      LIST,
      json(418, errorEnvelope(405, 'x')),
      /status 418 is not declared/,
    ],
    [
      'a status declared elsewhere but not on this operation (422 on a policy list)',
      'GET',
      LIST,
      json(422, errorEnvelope(422, 'x')),
      /status 422 is not declared/,
    ],
    [
      'a 200 to a method the path does not answer',
      'DELETE',
      LIST,
      listed(policies),
      /DELETE is no operation of the path/,
    ],
    ['a path the document does not have', 'GET', '/api/passwords', unauthorized, /not a path of the document/],
    ['a 405 without Allow', 'PUT', LIST, json(405, errorEnvelope(405, 'x')), /required header Allow is missing/],
    [
      'a 405 whose Allow names another method',
      'PUT',
      LIST,
      json(405, errorEnvelope(405, 'x'), { allow: 'POST' }),
      /header Allow: "POST" .*constant/,
    ],
    [
      'a 200 without its ETag',
      'GET',
      LIST,
      listed(policies, { 'cache-control': 'private, no-cache' }),
      /required header ETag is missing/,
    ],
    [
      'a 304 with a body',
      'GET',
      LIST,
      { status: 304, headers: { etag: '"abc"', 'cache-control': 'private, no-cache' }, body: '[]' },
      /a body where none is declared/,
    ],
    [
      'a policy with a field too many',
      'GET',
      LIST,
      listed([{ ...policies[0], Extra: 1 }]),
      /must NOT have additional properties/,
    ],
    [
      'a policy without one of its fields',
      'GET',
      LIST,
      listed([{ ...policies[0], PolicyName: undefined }]),
      /must have required property 'PolicyName'/,
    ],
    [
      'an error envelope with a third item',
      'GET',
      LIST,
      json(401, [{ errors: [{ message: 'Unauthorized' }, { phrase: 'x' }, { phrase: 'y' }] }]),
      /must NOT have more than 2 items/,
    ],
    [
      'an error whose message is another status’s reason phrase',
      'GET',
      LIST,
      json(401, errorEnvelope(403, ROUTE_PHRASES.unauthorized)),
      /must be equal to constant/,
    ],
    ['an error body that is not JSON', 'GET', LIST, json(401, 'Unauthorized'), /the body is not JSON/],
    [
      'an error as text/html',
      'GET',
      LIST,
      { ...unauthorized, headers: { 'content-type': 'text/html' } },
      /Content-Type text\/html is not one of application\/json/,
    ],
    [
      'an evaluation with a Rule the document does not list',
      'POST',
      EVALUATE,
      json(
        200,
        { ...evaluation, Failures: [{ Rule: 'Unknown', Required: 1, Found: 0, Message: 'x' }] },
        EVALUATION_HEADERS,
      ),
      /must be equal to one of the allowed values/,
    ],
    [
      'an evaluation in a language the document does not list',
      'POST',
      EVALUATE,
      json(200, evaluation, { ...EVALUATION_HEADERS, 'content-language': 'ja' }),
      /header Content-Language: "ja" .*one of the allowed values/,
    ],
    [
      'an evaluation without Vary',
      'POST',
      EVALUATE,
      json(200, evaluation, { 'cache-control': 'no-store', 'content-language': 'en' }),
      /the required header Vary is missing/,
    ],
    [
      'an evaluation that may be cached',
      'POST',
      EVALUATE,
      json(200, evaluation, { ...EVALUATION_HEADERS, 'cache-control': 'private' }),
      /header Cache-Control: "private" .*constant/,
    ],
  ])('%s', (_name, method, path, response, problem) => {
    const problems = conformance.problems(method, path, response);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
  });
});
