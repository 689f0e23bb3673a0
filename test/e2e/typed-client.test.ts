/**
 * The typed client of examples/typed-client.ts (openapi-fetch on the types openapi-typescript generates from
 * docs/openapi.json), run as an integrator runs it, against `npm start`'s gateway. `npm test`'s tsc
 * type-checks it under strict, @ts-expect-error lines included; the unit test of docs/openapi.json checks
 * that the committed types are what openapi-typescript makes of the committed document.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { evaluationExample, IN_CONTEXT_EXAMPLE, WEAK_EXAMPLE_PASSWORD } from '../../docs/openapi';
import { PROJECT_ROOT, useLocalService } from '../support/local-service';
import { LOCAL_ENV } from '../../local/local-environment';

const CREDENTIALS = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'seed', 'local-credentials.json'), 'utf8')) as {
  generatorAdmin: { UserID: string; APIKey: string };
  passwordGeneratorAPIKey: string;
  passwordStrengthAPIKey: string;
};
const seed = (file: string) =>
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'seed', file), 'utf8')) as Record<string, unknown>[];
const GENERATORS = seed('generator-policies.json');
const STRENGTHS = seed('strength-policies.json');
// What the service's own evaluator answers for the document's example, against the default policy.
const WEAK = evaluationExample(WEAK_EXAMPLE_PASSWORD);
// The client sends the document's in-context example, a password built on its user's name, asking for German.
const IN_CONTEXT = evaluationExample(IN_CONTEXT_EXAMPLE.Password, IN_CONTEXT_EXAMPLE.UserInputs, 'de');
const local = useLocalService({ env: { [LOCAL_ENV.authorizerCacheTtl]: '0' } });

it('calls every operation through openapi-fetch and gets the answers the types describe', () => {
  expect(IN_CONTEXT).toMatchObject({
    ComplianceLevelName: 'Weak',
    Compliant: false,
    Failures: [{ Rule: 'UserInput' }],
  });
  const run = spawnSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['examples/typed-client.ts'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      PP_BASE_URL: local.service.url,
      PP_USER_ID: CREDENTIALS.generatorAdmin.UserID,
      PP_USER_KEY: CREDENTIALS.generatorAdmin.APIKey,
      PP_GENERATOR_KEY: CREDENTIALS.passwordGeneratorAPIKey,
      PP_STRENGTH_KEY: CREDENTIALS.passwordStrengthAPIKey,
    },
  });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout.trim().split('\n')).toEqual([
    // In the seed only policy 1 matches "default": the default policy, whose description must say it is.
    `GET /userapi/passwordgenerator?search=default: 200, 1 ${String(GENERATORS.find((p) => p.PasswordGeneratorID === 1)!.GeneratorName)}`,
    'GET /userapi/passwordgenerator?search=default with If-None-Match: 304',
    `GET /api/passwordgenerator: 200, ${GENERATORS.length} generator policies`,
    `GET /api/passwordstrength: 200, ${STRENGTHS.length} strength policies, the first "${String(STRENGTHS.find((p) => p.PasswordStrengthPolicyID === 1)!.PolicyName)}"`,
    'GET /userapi/generatepassword?PasswordGeneratorID=1&Qty=2: 200, 2 passwords',
    'GET /api/generatepassword (20 characters, no symbols): 200, lengths 20, 20, 20',
    `POST /api/passwordstrength/evaluate {"Password":"${WEAK_EXAMPLE_PASSWORD}"}: 200, ${WEAK.ComplianceLevelName}, compliant ${WEAK.Compliant}, failures ${WEAK.Failures.map((f) => f.Rule).join(', ') || 'none'}`,
    `POST /api/passwordstrength/evaluate {"Password":"${IN_CONTEXT_EXAMPLE.Password}","UserInputs":[3 strings]}: 200, ${IN_CONTEXT.ComplianceLevelName}, compliant ${IN_CONTEXT.Compliant}, built on the user's name ${IN_CONTEXT.Failures.some((f) => f.Rule === 'UserInput')}`,
    '  Content-Language de: Das Passwort beruht auf dem Namen des Benutzers oder anderen persönlichen Angaben.',
    'POST /api/passwordstrength/evaluate (policy 999): 404, "No password strength policy has PasswordStrengthPolicyID 999."',
  ]);
}, 90_000);
