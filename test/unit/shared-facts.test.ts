/**
 * Facts that have one home and are derived everywhere else (docs/architecture.md#one-home-per-fact). The
 * contract tests compare answers with these same constants, so they could not see a derivation that drifts:
 * this file pins the derived values to the bytes clients, operators and dashboards already know.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BENCH_ENV } from '../../bench/bench-variables';
import { PROJECT_ROOT } from '../../bundling/bundling';
import { EVALUATION_REQUEST_FIELDS } from '../../functions/api/evaluation-request';
import { KEY_PREFIX, issueKey, startsLikeKey } from '../../functions/domain/api-key';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import { PWNED_PASSWORDS_USER_AGENT } from '../../functions/repositories/pwned-passwords';
import { CREDENTIAL_SCHEMES, ROUTE_PHRASES, schemeScope, UNAUTHORIZED_ERROR } from '../../functions/routes';
import { SERVICE_METRICS, SERVICE_NAME } from '../../functions/runtime';
import { DEFAULT_STACK } from '../../cli/aws';
import { DEFAULT_STACK_NAME, STACK_OUTPUTS } from '../../lib/deployment';
import { GATEWAY_PHRASES } from '../../lib/gateway-contract';
import { LOCAL_ENV } from '../../local/local-environment';
import { DEFAULT_STAGE, STAGE_PRESETS } from '../../lib/settings';

describe('phrases built from the route table say what they said when written by hand', () => {
  const needed =
    '/userapi/ needs the UserID and APIKey headers of a user, /api/passwordgenerator and /api/generatepassword the APIKey header of a password generator API key, /api/passwordstrength the APIKey header of a password strength key.';

  it('the refusals that name paths, headers and the role', () => {
    expect(ROUTE_PHRASES).toEqual({
      unauthorized: `Credentials are missing or not valid: ${needed}`,
      missingRole: 'This user does not hold the Password Generator Policy Security Administrator role.',
      forbidden: `The request was refused; ${needed}`,
      notFound:
        'No such path; the paths are /userapi/passwordgenerator, /userapi/generatepassword, /api/passwordgenerator, /api/generatepassword, /api/passwordstrength and /api/passwordstrength/evaluate.',
    });
  });

  it("API Gateway's own phrases that name the one route with a body", () => {
    expect(GATEWAY_PHRASES.badRequest).toBe(
      'The request could not be read; check its query parameters and, for /api/passwordstrength/evaluate, its JSON body.',
    );
    expect(GATEWAY_PHRASES.unsupportedMediaType).toBe(
      'The request content type is not supported; send GET requests with no body, and POST /api/passwordstrength/evaluate an application/json body.',
    );
  });

  it('each scheme names its paths: a folder it holds whole, else its paths less those below another', () => {
    expect(Object.values(CREDENTIAL_SCHEMES).map(schemeScope)).toEqual([
      '/userapi/',
      '/api/passwordgenerator and /api/generatepassword',
      '/api/passwordstrength',
    ]);
  });
});

/**
 * The names in the first column (`NAME` or `NAME`, `NAME`) of the table headed `header` in a section of
 * docs/operations.md: the doc is where people read the names, so the code is held to it.
 */
function operationsTableNames(section: string, header: string): string[] {
  const operations = readFileSync(path.join(PROJECT_ROOT, 'docs', 'operations.md'), 'utf8');
  const from = operations.indexOf(header, operations.indexOf(section));
  const table = operations.slice(from, operations.indexOf('\n\n', from));
  return [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) =>
    [...row[1]!.matchAll(/`([A-Za-z_]+)`/g)].map((name) => name[1]!),
  );
}

describe('names other systems hold us to', () => {
  it('the message API Gateway turns into its 401 is exactly "Unauthorized"', () => {
    expect(UNAUTHORIZED_ERROR).toBe('Unauthorized');
  });

  it('the service name: the metrics namespace and dimension, Powertools, the Pwned Passwords user agent, the stack', () => {
    expect(SERVICE_NAME).toBe('PasswordPolicyService');
    expect(SERVICE_METRICS).toMatchObject({
      namespace: 'PasswordPolicyService',
      serviceName: 'password-policy-service',
      dimensions: { service: 'password-policy-service' },
    });
    expect(PWNED_PASSWORDS_USER_AGENT).toBe('password-policy-service');
    expect([DEFAULT_STACK_NAME, STAGE_PRESETS.dev.stackName]).toEqual([
      'PasswordPolicyService',
      'PasswordPolicyService-dev',
    ]);
  });

  it("the operator CLIs' default stack is the one a bare cdk deploy creates", () => {
    expect(DEFAULT_STACK).toBe(STAGE_PRESETS[DEFAULT_STAGE].stackName);
  });

  it('the stack outputs the CLIs read are the ones docs/operations.md lists, in its order', () => {
    const { usagePlans, ...tables } = STACK_OUTPUTS;
    expect(operationsTableNames('## Deploying', '| Output |')).toEqual([
      ...Object.values(tables),
      ...Object.values(usagePlans),
    ]);
  });

  it("the local run's environment variables are the ones docs/operations.md tells people to type", () => {
    expect(operationsTableNames('## Local gateway environment', '| Variable |')).toEqual(
      expect.arrayContaining(Object.values(LOCAL_ENV)),
    );
  });

  it("the bench's environment variables, which docs/performance.md lists", () => {
    expect(Object.values(BENCH_ENV)).toEqual([
      'BENCH_SECTIONS',
      'BENCH_HTTP_SECONDS',
      'BENCH_COLD_RUNS',
      'BENCH_PROFILE_RUNS',
      'BENCH_SEED',
      'SOAK_SECONDS',
      'SOAK_CONNECTIONS',
      'SOAK_OUTAGE',
      'TIMING_PAIRS',
      'ACCURACY_SAMPLE',
      'ACCURACY_FAMILY',
      'VALIDATION_PER_FOLD',
      'LANGUAGES_FAMILY',
    ]);
  });

  it("the evaluation body's fields: the strength policy's identifier, Password and UserInputs", () => {
    expect(EVALUATION_REQUEST_FIELDS).toEqual({
      policyId: 'PasswordStrengthPolicyID',
      password: 'Password',
      userInputs: 'UserInputs',
    });
    expect(EVALUATION_REQUEST_FIELDS.policyId).toBe(strengthPolicies.idField);
  });
});

describe('the key prefix: what parses as a key and what is never echoed share one pattern', () => {
  it('every kind of issued key starts like a key, in any letter case; other names do not', () => {
    for (const kind of ['user', 'generator', 'strength'] as const) {
      const { key } = issueKey(kind);
      expect(key.startsWith(`${KEY_PREFIX[kind]}_`)).toBe(true);
      expect([startsLikeKey(key), startsLikeKey(key.toUpperCase())]).toEqual([true, true]);
    }
    expect(['ppx_future', 'PPG_', 'pps_'].map(startsLikeKey)).toEqual([true, true, true]);
    expect(['search', 'pp_', 'ppgx_', 'xppg_', 'ppg', 'pp1_'].map(startsLikeKey)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
