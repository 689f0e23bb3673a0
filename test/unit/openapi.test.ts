import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import { ROUTES } from '../../functions/routes';
import { buildOpenApiDocument, OPENAPI_FILE, renderOpenApiDocument } from '../../lib/openapi';

const ROOT = path.join(__dirname, '..', '..');
type Operation = { operationId: string; parameters: { name: string; in: string }[]; security: Record<string, string[]>[]; responses: Record<string, unknown> };
const document = buildOpenApiDocument() as {
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean }>; securitySchemes: Record<string, unknown> };
};

describe('docs/openapi.json', () => {
  it('is exactly what the generator produces from the code (run `npm run openapi` after changing the API)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderOpenApiDocument());
  });

  it('passes the Redocly recommended rules with no error and no warning', () => {
    const output = execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['lib/openapi.ts', '--lint'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(output.trim().split('\n')).toEqual(['docs/openapi.json: no problems (Redocly recommended rules)']);
  }, 60_000);
});

describe('what the document describes', () => {
  it('has one GET per path of the route table, declaring exactly the query parameters of its routes', () => {
    const paths = [...new Set(ROUTES.map((r) => r.path))].sort();
    expect(Object.keys(document.paths).sort()).toEqual(paths);
    for (const path of paths) {
      const declared = document.paths[path]!.get.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      expect(declared).toEqual(ROUTES.filter((r) => r.path === path).flatMap((r) => r.query));
    }
    expect(document.paths['/api/passwordstrength']!.get.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['query:search', 'header:If-None-Match']);
  });

  it('requires UserID and the user key on /userapi/, and a password strength key on /api/', () => {
    expect(document.paths['/userapi/passwordgenerator']!.get.security).toEqual([{ UserID: [], UserAPIKey: [] }]);
    expect(document.paths['/api/passwordstrength']!.get.security).toEqual([{ PasswordStrengthAPIKey: [] }]);
    expect(document.components.securitySchemes).toEqual({
      UserID: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'UserID' }),
      UserAPIKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'APIKey' }),
      PasswordStrengthAPIKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'APIKey' }),
    });
  });

  it('lists every status of design.md §1 that an operation can answer', () => {
    expect(Object.keys(document.paths['/userapi/passwordgenerator']!.get.responses)).toEqual(['200', '304', '400', '401', '403', '429', '500', '503']);
    expect(Object.keys(document.paths['/api/passwordstrength']!.get.responses)).toEqual(['200', '304', '400', '401', '429', '500', '503']);
    expect(Object.keys(document.paths['/userapi/generatepassword']!.get.responses)).toEqual(['200', '400', '401', '403', '404', '422', '429', '500', '503']);
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
});
