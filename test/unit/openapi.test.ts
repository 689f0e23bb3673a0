import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { zxcvbnEstimator } from '../../functions/domain/guessability';
import { evaluatePassword } from '../../functions/domain/strength-evaluator';
import { strengthPolicies, type StrengthPolicy } from '../../functions/domain/strength-policy';
import { errorEnvelope } from '../../functions/http';
import { ROUTES } from '../../functions/routes';
import { buildOpenApiDocument, EVALUATION_EXAMPLE_PASSWORD, OPENAPI_FILE, renderOpenApiDocument, WEAK_EXAMPLE_PASSWORD } from '../../docs/openapi';

const ROOT = path.join(__dirname, '..', '..');
type Operation = {
  operationId: string;
  parameters: { name: string; in: string }[];
  security: Record<string, string[]>[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  requestBody?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  responses: Record<string, any>;
};
type Schema = { type?: string; properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: boolean };
const document = buildOpenApiDocument() as {
  paths: Record<string, { get?: Operation; post?: Operation }>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
};
const EVALUATE = '/api/passwordstrength/evaluate';
const seedPolicy1 = (JSON.parse(readFileSync(path.join(ROOT, 'seed', 'strength-policies.json'), 'utf8')) as StrengthPolicy[]).find((p) => p.PasswordStrengthPolicyID === 1)!;

describe('docs/openapi.json', () => {
  it('is exactly what the generator produces from the code (run `npm run openapi` after changing the API)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderOpenApiDocument());
  });

  it('passes the Redocly recommended rules with no error and no warning', () => {
    const output = execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['docs/openapi.ts', '--lint'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(output.trim().split('\n')).toEqual(['docs/openapi.json: no problems (Redocly recommended rules)']);
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
        expect(declared).toEqual(ROUTES.filter((r) => r.path === path && r.method.toLowerCase() === method).flatMap((r) => r.query));
      }
    }
    expect(get('/api/passwordstrength').parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['query:search', 'header:If-None-Match']);
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
    expect(Object.keys(get('/userapi/passwordgenerator').responses)).toEqual(['200', '304', '400', '401', '403', '429', '500', '503']);
    expect(Object.keys(get('/api/passwordstrength').responses)).toEqual(['200', '304', '400', '401', '429', '500', '503']);
    expect(Object.keys(get('/userapi/generatepassword').responses)).toEqual(['200', '400', '401', '403', '404', '422', '429', '500', '503']);
    expect(Object.keys(get('/api/passwordgenerator').responses)).toEqual(['200', '304', '400', '401', '429', '500', '503']);
    expect(Object.keys(get('/api/generatepassword').responses)).toEqual(['200', '400', '401', '404', '422', '429', '500', '503']);
    expect(Object.keys(evaluate().responses)).toEqual(['200', '400', '401', '404', '415', '429', '500', '503']);
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
    it('takes a required JSON body: Password (1 to 256 characters) and an optional PasswordStrengthPolicyID (integer >= 1, default 1), nothing else', () => {
      const body = evaluate().requestBody;
      expect(body.required).toBe(true);
      expect(Object.keys(body.content)).toEqual(['application/json']);
      expect(body.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PasswordEvaluationRequest' });
      const schema = document.components.schemas.PasswordEvaluationRequest!;
      expect(schema).toEqual(
        expect.objectContaining({
          type: 'object',
          required: ['Password'],
          additionalProperties: false,
          properties: {
            PasswordStrengthPolicyID: expect.objectContaining({ type: 'integer', minimum: 1, default: 1 }),
            Password: expect.objectContaining({ type: 'string', minLength: 1, maxLength: 256 }),
          },
        }),
      );
      expect(body.content['application/json'].examples.compliant.value).toEqual({ PasswordStrengthPolicyID: 1, Password: EVALUATION_EXAMPLE_PASSWORD });
    });

    it('answers 200 with a StrengthEvaluation of exactly its fields, Cache-Control: no-store', () => {
      const ok = evaluate().responses['200'];
      expect(ok.headers['Cache-Control'].schema).toEqual({ type: 'string', const: 'no-store' });
      expect(ok.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StrengthEvaluation' });
      const schema = document.components.schemas.StrengthEvaluation!;
      const fields = ['PasswordStrengthPolicyID', 'Score', 'ComplianceLevel', 'ComplianceLevelName', 'Compliant', 'Mandatory', 'Failures', 'Suggestions'];
      expect(Object.keys(schema.properties)).toEqual(fields);
      expect(schema.required).toEqual(fields);
      expect(schema.additionalProperties).toBe(false);
      expect(schema.properties.Score).toEqual(expect.objectContaining({ type: 'integer', minimum: 0, maximum: 100 }));
      expect(schema.properties.ComplianceLevel).toEqual(expect.objectContaining({ type: 'integer', minimum: 0, maximum: 4 }));
      expect(schema.properties.ComplianceLevelName).toEqual(expect.objectContaining({ enum: ['Very Poor', 'Weak', 'Average', 'Strong', 'Excellent'] }));
      expect(schema.properties.Failures).toEqual(expect.objectContaining({ type: 'array', items: { $ref: '#/components/schemas/CompositionFailure' } }));
      const failure = document.components.schemas.CompositionFailure!;
      expect(Object.keys(failure.properties)).toEqual(['Rule', 'Required', 'Found', 'Message']);
      expect(failure.required).toEqual(['Rule', 'Required', 'Found', 'Message']);
      expect(failure.additionalProperties).toBe(false);
      expect(failure.properties.Rule!.enum).toEqual([
        'MinimumLowerCaseCharacters',
        'MinimumNumericCharacters',
        'MinimumSymbolCharacters',
        'MinimumUpperCaseCharacters',
        'RequiresUpperAndLowerCase',
        'BreachedPassword',
      ]);
    });

    it("its 200 examples are the evaluator's own answers for seed policy 1, with exactly the schema's fields", () => {
      const examples = evaluate().responses['200'].content['application/json'].examples;
      const estimate = zxcvbnEstimator();
      expect(examples.compliant.value).toEqual(JSON.parse(JSON.stringify(evaluatePassword(seedPolicy1, 'Correct-Horse-7', estimate))));
      expect(examples.weak.value).toEqual(JSON.parse(JSON.stringify(evaluatePassword(seedPolicy1, WEAK_EXAMPLE_PASSWORD, estimate))));
      expect(Object.keys(examples.compliant.value)).toEqual(document.components.schemas.StrengthEvaluation!.required);
      // The weak example shows failures, so their item schema is checked by the lint test too.
      expect(examples.weak.value.Failures.length).toBeGreaterThan(0);
      for (const failure of examples.weak.value.Failures) expect(Object.keys(failure)).toEqual(document.components.schemas.CompositionFailure!.required);
    });

    it('documents its errors in the shared envelope, with the handler phrases', () => {
      const responses = evaluate().responses;
      for (const status of ['400', '401', '404', '415', '429', '500', '503']) {
        expect(responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
      }
      expect(responses['415'].content['application/json'].example).toEqual(JSON.parse(errorEnvelope(415, 'The body must be JSON: send Content-Type: application/json (UTF-8).')));
      expect(responses['404'].content['application/json'].example).toEqual(JSON.parse(errorEnvelope(404, 'No password strength policy has PasswordStrengthPolicyID 99.')));
    });
  });
});
