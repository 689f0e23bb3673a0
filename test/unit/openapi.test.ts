import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import { strengthPolicies, type StrengthPolicy } from '../../functions/domain/strength-policy';
import { errorEnvelope, PHRASES, REASON_PHRASES, type ErrorStatus } from '../../functions/http';
import { ROUTES } from '../../functions/routes';
import {
  buildOpenApiDocument,
  CLIENT_TYPES_FILE,
  OPENAPI_TYPESCRIPT,
  EVALUATION_EXAMPLE_PASSWORD,
  IN_CONTEXT_EXAMPLE,
  OPENAPI_FILE,
  PASSWORD_PATTERN,
  renderOpenApiDocument,
  WEAK_EXAMPLE_PASSWORD,
} from '../../docs/openapi';
import { CONTROL_CHARACTER, UNPAIRED_SURROGATE } from '../../functions/domain/unicode-text';

const ROOT = path.join(__dirname, '..', '..');
type Operation = {
  operationId: string;
  parameters: { name: string; in: string }[];
  security: Record<string, string[]>[];
  // biome-ignore lint/suspicious/noExplicitAny: the document's JSON, walked by path; its schema is what these tests check
  requestBody?: any;
  // biome-ignore lint/suspicious/noExplicitAny: the document's JSON, walked by path; its schema is what these tests check
  responses: Record<string, any>;
};
type Schema = {
  type?: string;
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: boolean;
};
const document = buildOpenApiDocument() as {
  paths: Record<string, { get?: Operation; post?: Operation }>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
};
const EVALUATE = '/api/passwordstrength/evaluate';
const seedPolicy1 = (
  JSON.parse(readFileSync(path.join(ROOT, 'seed', 'strength-policies.json'), 'utf8')) as StrengthPolicy[]
).find((p) => p.PasswordStrengthPolicyID === 1)!;

describe('docs/openapi.json', () => {
  it('is exactly what the generator produces from the code (run `npm run openapi` after changing the API)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderOpenApiDocument());
  });

  it('passes the Redocly recommended rules and Spectral spectral:oas with no error and no warning (npm run openapi -- --lint)', () => {
    const output = execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['docs/openapi.ts', '--lint'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(output.trim().split('\n')).toEqual([
      'docs/openapi.json: no problems (Redocly recommended rules)',
      'docs/openapi.json: no problems (Spectral spectral:oas)',
    ]);
  }, 60_000);

  it('examples/openapi-types.ts is what openapi-typescript makes of it (npm run openapi writes both), and the check can fail', () => {
    const check = (document: string) =>
      spawnSync(OPENAPI_TYPESCRIPT, [document, '--output', CLIENT_TYPES_FILE, '--check'], {
        cwd: ROOT,
        encoding: 'utf8',
      });
    expect(check(OPENAPI_FILE).status).toBe(0);
    const doctored = JSON.parse(renderOpenApiDocument());
    doctored.components.schemas.PasswordEvaluationRequest.required = ['Password', 'PasswordStrengthPolicyID'];
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'doctored.json');
    writeFileSync(file, JSON.stringify(doctored));
    expect(check(file).status).toBe(1);
  }, 60_000);

  it('each linter reports a doctored document: the lint test above can fail', () => {
    const doctored = JSON.parse(renderOpenApiDocument());
    delete doctored.components.schemas.ErrorEnvelope.items.properties.errors.items;
    delete doctored.paths['/api/passwordstrength'].get.responses['200'].description;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'doctored.json');
    writeFileSync(file, JSON.stringify(doctored));
    const lint = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['docs/openapi.ts', '--lint', file], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(lint.status).toBe(1);
    const lines = lint.stdout.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^error struct: .*description.*\/paths\/~1api~1passwordstrength\/get\/responses\/200/),
        expect.stringMatching(/: \d+ problem\(s\) \(Redocly recommended rules\)$/),
        expect.stringMatching(
          /^error array-items: .*\(components\.schemas\.ErrorEnvelope\.items\.properties\.errors\)$/,
        ),
        expect.stringMatching(
          /^error oas3-schema: .*description.*\(paths\.\/api\/passwordstrength\.get\.responses\.200\)$/,
        ),
        expect.stringMatching(/: \d+ problem\(s\) \(Spectral spectral:oas\)$/),
      ]),
    );
  }, 60_000);
});

describe('what the document describes', () => {
  const get = (path: string): Operation => document.paths[path]!.get!;
  const evaluate = (): Operation => document.paths[EVALUATE]!.post!;

  it('has one operation per method of each path of the route table, declaring exactly the query parameters of its routes', () => {
    const paths = [...new Set(ROUTES.map((r) => r.path))].sort();
    expect(Object.keys(document.paths).sort()).toEqual(paths);
    for (const path of paths) {
      const methods = [...new Set(ROUTES.filter((r) => r.path === path).map((r) => r.method.toLowerCase()))].sort();
      expect(Object.keys(document.paths[path]!).sort()).toEqual(methods);
      for (const method of methods) {
        const operation = document.paths[path]![method as 'get' | 'post']!;
        const declared = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        expect(declared).toEqual(
          ROUTES.filter((r) => r.path === path && r.method.toLowerCase() === method).flatMap((r) => r.query),
        );
      }
    }
    expect(get('/api/passwordstrength').parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:search',
      'header:If-None-Match',
    ]);
    expect(Object.keys(document.paths[EVALUATE]!)).toEqual(['post']);
  });

  it('requires UserID and the user key on /userapi/, a generator key on the generator API, a strength key on /api/passwordstrength', () => {
    expect(get('/userapi/passwordgenerator').security).toEqual([{ UserID: [], UserAPIKey: [] }]);
    expect(get('/userapi/generatepassword').security).toEqual([{ UserID: [], UserAPIKey: [] }]);
    expect(get('/api/passwordgenerator').security).toEqual([{ PasswordGeneratorAPIKey: [] }]);
    expect(get('/api/generatepassword').security).toEqual([{ PasswordGeneratorAPIKey: [] }]);
    expect(get('/api/passwordstrength').security).toEqual([{ PasswordStrengthAPIKey: [] }]);
    expect(evaluate().security).toEqual([{ PasswordStrengthAPIKey: [] }]);
    expect(document.components.securitySchemes).toEqual({
      UserID: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'UserID' }),
      UserAPIKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'APIKey' }),
      PasswordGeneratorAPIKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'APIKey' }),
      PasswordStrengthAPIKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'APIKey' }),
    });
  });

  it('lists every status of docs/api.md#errors that an operation can answer', () => {
    const list = ['200', '304', '400', '401', '403', '405', '413', '417', '429', '500', '503'];
    expect(Object.keys(get('/userapi/passwordgenerator').responses)).toEqual(list);
    expect(Object.keys(get('/api/passwordstrength').responses)).toEqual(list);
    expect(Object.keys(get('/api/passwordgenerator').responses)).toEqual(list);
    const generation = ['200', '400', '401', '403', '404', '405', '413', '417', '422', '429', '500', '503'];
    expect(Object.keys(get('/userapi/generatepassword').responses)).toEqual(generation);
    expect(Object.keys(get('/api/generatepassword').responses)).toEqual(generation);
    expect(Object.keys(evaluate().responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '405',
      '413',
      '415',
      '417',
      '429',
      '500',
      '503',
    ]);
  });

  it('declares Allow on every 405, naming the methods of the path, and ETag and Cache-Control on every 200 and 304 of a policy list', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item) as Operation[]) {
        expect(operation.responses['405'].headers).toEqual({
          Allow: expect.objectContaining({
            required: true,
            schema: { type: 'string', const: path === EVALUATE ? 'POST' : 'GET' },
          }),
        });
      }
    }
    for (const path of ['/userapi/passwordgenerator', '/api/passwordgenerator', '/api/passwordstrength']) {
      for (const status of ['200', '304']) {
        const { headers } = get(path).responses[status];
        expect(Object.keys(headers)).toEqual(['ETag', 'Cache-Control']);
        expect(headers['Cache-Control'].schema).toEqual({ type: 'string', const: 'private, no-cache' });
        expect(headers.ETag.required).toBe(true);
      }
      expect(get(path).responses['304'].content).toBeUndefined();
    }
  });

  it('bounds search (256, after normalisation), PasswordGeneratorID (2^53 - 1) and Qty (100) in their schemas', () => {
    const search = get('/api/passwordstrength').parameters.find((p) => p.name === 'search') as unknown as {
      schema: object;
      description: string;
    };
    expect(search.schema).toEqual({ type: 'string', maxLength: 256 });
    expect(search.description).toMatch(/after that normalisation/);
    const generation = get('/api/generatepassword').parameters as unknown as { name: string; schema: object }[];
    expect(generation.find((p) => p.name === 'PasswordGeneratorID')!.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
    });
    expect(generation.find((p) => p.name === 'Qty')!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    // Always-read settings carry the policy field's bounds; one read only while its feature is on carries none.
    expect(generation.find((p) => p.name === 'minLength')!.schema).toEqual({
      type: 'integer',
      minimum: 4,
      maximum: 256,
    });
    expect(generation.find((p) => p.name === 'NumberOfWords')!.schema).toEqual({ type: 'integer' });
    expect(generation.find((p) => p.name === 'lowerCaseChars')!.schema).toEqual({ type: 'boolean' });
  });

  it('its Password pattern refuses exactly what the function refuses: control characters and unpaired surrogates, code point by code point', () => {
    const withUnicodeFlag = new RegExp(PASSWORD_PATTERN, 'u');
    const withoutIt = new RegExp(PASSWORD_PATTERN);
    const refused = (text: string) => CONTROL_CHARACTER.test(text) || UNPAIRED_SURROGATE.test(text);
    const samples: string[] = [];
    for (let code = 0; code <= 0xffff; code++) samples.push(String.fromCharCode(code));
    for (const code of [0x10000, 0x1f600, 0x10ffff])
      samples.push(String.fromCodePoint(code), `a${String.fromCodePoint(code)}b`);
    samples.push('\ud800\ud800', '\udc00\ud800', 'a\ud83d', '\ude00a');
    const disagreements = samples.filter(
      (text) => withUnicodeFlag.test(text) === refused(text) || withoutIt.test(text) === refused(text),
    );
    expect(disagreements).toEqual([]);
    expect(samples.filter(refused).length).toBe(65 + 2048 + 4);
  });

  it.each([
    ['GeneratorPolicy', generatorPolicies.fields],
    ['StrengthPolicy', strengthPolicies.fields],
  ])('describes %s with exactly the resource fields, in spec order, all required', (name, fields) => {
    const schema = document.components.schemas[name]!;
    expect(Object.keys(schema.properties)).toEqual(fields);
    expect(schema.required).toEqual(fields);
    expect(schema.additionalProperties).toBe(false);
  });

  describe(`POST ${EVALUATE}`, () => {
    it('takes a required JSON body: Password (1 to 256 characters), an optional PasswordStrengthPolicyID (1 to 2^53 - 1, no `default`) and optional UserInputs (1 to 20 strings of 1 to 256 characters), nothing else', () => {
      const body = evaluate().requestBody;
      expect(body.required).toBe(true);
      expect(Object.keys(body.content)).toEqual(['application/json']);
      expect(body.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/PasswordEvaluationRequest',
      });
      const schema = document.components.schemas.PasswordEvaluationRequest!;
      expect(schema).toEqual(
        expect.objectContaining({
          type: 'object',
          required: ['Password'],
          additionalProperties: false,
          properties: {
            PasswordStrengthPolicyID: expect.objectContaining({
              type: 'integer',
              minimum: 1,
              maximum: Number.MAX_SAFE_INTEGER,
            }),
            Password: expect.objectContaining({
              type: 'string',
              minLength: 1,
              maxLength: 256,
              pattern: PASSWORD_PATTERN,
            }),
            UserInputs: expect.objectContaining({
              type: 'array',
              minItems: 1,
              maxItems: 20,
              items: { type: 'string', minLength: 1, maxLength: 256, pattern: PASSWORD_PATTERN },
            }),
          },
        }),
      );
      expect(schema.properties.PasswordStrengthPolicyID).not.toHaveProperty('default');
      expect(body.content['application/json'].examples.compliant.value).toEqual({
        PasswordStrengthPolicyID: 1,
        Password: EVALUATION_EXAMPLE_PASSWORD,
      });
    });

    it('answers 200 with a StrengthEvaluation of exactly its fields, Cache-Control: no-store', () => {
      const ok = evaluate().responses['200'];
      expect(ok.headers['Cache-Control'].schema).toEqual({ type: 'string', const: 'no-store' });
      expect(ok.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StrengthEvaluation' });
      const schema = document.components.schemas.StrengthEvaluation!;
      // Exactly the fields the evaluator answers with, in its order (strength-evaluator.test.ts pins that order).
      const fields = Object.keys(evaluatePassword(seedPolicy1, EVALUATION_EXAMPLE_PASSWORD, guessEstimator()));
      expect(Object.keys(schema.properties)).toEqual(fields);
      expect(schema.required).toEqual(fields);
      expect(schema.additionalProperties).toBe(false);
      expect(schema.properties.Score).toEqual(expect.objectContaining({ type: 'integer', minimum: 0, maximum: 100 }));
      expect(schema.properties.ComplianceLevel).toEqual(
        expect.objectContaining({ type: 'integer', minimum: 0, maximum: 4 }),
      );
      expect(schema.properties.ComplianceLevelName).toEqual(
        expect.objectContaining({ enum: ['Very Poor', 'Weak', 'Average', 'Strong', 'Excellent'] }),
      );
      expect(schema.properties.Failures).toEqual(
        expect.objectContaining({ type: 'array', items: { $ref: '#/components/schemas/CompositionFailure' } }),
      );
      expect(schema.properties.GuessesLog10).toEqual(expect.objectContaining({ type: 'number', minimum: 0 }));
      const failure = document.components.schemas.CompositionFailure!;
      expect(Object.keys(failure.properties)).toEqual(['Rule', 'Required', 'Found', 'Message']);
      expect(failure.required).toEqual(['Rule', 'Required', 'Found', 'Message']);
      expect(failure.additionalProperties).toBe(false);
      // A composition rule is named for the policy field it checks, in the specification's field order
      // (policy-schemas.test.ts pins that order); then the breach check's rule and the context terms' two.
      const compositionRules = strengthPolicies.fields.filter(
        (field) => field.startsWith('Minimum') || field === 'RequiresUpperAndLowerCase',
      );
      expect(failure.properties.Rule!.enum).toEqual([
        ...compositionRules,
        'BreachedPassword',
        'UserInput',
        'BannedWord',
      ]);
    });

    it("its 200 examples are the evaluator's own answers for seed policy 1, with exactly the schema's fields", () => {
      const examples = evaluate().responses['200'].content['application/json'].examples;
      const estimate = guessEstimator();
      expect(examples.compliant.value).toEqual(
        JSON.parse(JSON.stringify(evaluatePassword(seedPolicy1, 'Correct-Horse-7', estimate))),
      );
      expect(examples.weak.value).toEqual(
        JSON.parse(JSON.stringify(evaluatePassword(seedPolicy1, WEAK_EXAMPLE_PASSWORD, estimate, true))),
      );
      // The request example of the same name, with its UserInputs: the UserInput failure.
      expect(evaluate().requestBody.content['application/json'].examples.inContext.value).toEqual(IN_CONTEXT_EXAMPLE);
      expect(examples.inContext.value).toEqual(
        JSON.parse(
          JSON.stringify(
            evaluatePassword(seedPolicy1, IN_CONTEXT_EXAMPLE.Password, estimate, false, IN_CONTEXT_EXAMPLE.UserInputs),
          ),
        ),
      );
      expect(examples.inContext.value.Failures.map((f: { Rule: string }) => f.Rule)).toEqual(['UserInput']);
      expect(Object.keys(examples.compliant.value)).toEqual(document.components.schemas.StrengthEvaluation!.required);
      // The weak example shows failures, so their item schema is checked by the lint test too.
      expect(examples.weak.value.Failures.length).toBeGreaterThan(0);
      for (const failure of examples.weak.value.Failures)
        expect(Object.keys(failure)).toEqual(document.components.schemas.CompositionFailure!.required);
    });

    it('documents its errors in the shared envelope, with the handler phrases', () => {
      const responses = evaluate().responses;
      for (const status of Object.keys(responses).filter((s) => s !== '200')) {
        // The envelope, its message the reason phrase of that status.
        expect(responses[status].content['application/json'].schema).toEqual({
          allOf: [
            { $ref: '#/components/schemas/ErrorEnvelope' },
            {
              items: {
                properties: {
                  errors: {
                    prefixItems: [
                      { properties: { message: { const: REASON_PHRASES[Number(status) as ErrorStatus] } } },
                    ],
                  },
                },
              },
            },
          ],
        });
      }
      expect(responses['415'].content['application/json'].examples.notJson.value).toEqual(
        JSON.parse(errorEnvelope(415, 'The body must be JSON: send Content-Type: application/json (UTF-8).')),
      );
      expect(responses['400'].content['application/json'].examples.userInputs.value).toEqual(
        JSON.parse(errorEnvelope(400, 'UserInputs[0] must not be empty.')),
      );
      expect(responses['400'].content['application/json'].examples.passwordTooLong.value).toEqual(
        JSON.parse(
          errorEnvelope(
            400,
            'Password must be at most 256 characters, both as sent and after Unicode NFKC normalization (which expands some characters, such as ligatures, into several).',
          ),
        ),
      );
      expect(responses['404'].content['application/json'].examples.noSuchPolicy.value).toEqual(
        JSON.parse(errorEnvelope(404, 'No password strength policy has PasswordStrengthPolicyID 99.')),
      );
      expect(responses['503'].content['application/json'].examples).toEqual({
        policyStore: { value: JSON.parse(errorEnvelope(503, PHRASES.unavailable)) },
        credentialsStore: { value: JSON.parse(errorEnvelope(503, PHRASES.credentialsUnavailable)) },
      });
    });
  });
});
