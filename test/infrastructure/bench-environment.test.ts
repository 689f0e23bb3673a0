/**
 * `npm run bench` runs the functions with the environment the stack gives them (bench/deployed-environment.ts):
 * read off the stack, so it follows what the stack sets rather than a copy of it.
 */
import { deployedFunctions } from '../../bench/deployed-environment';
import { AUTHORIZER, FUNCTIONS } from '../../functions/routes';
import { ENV } from '../../functions/runtime';
import { DEFAULT_STAGE, STAGE_PRESETS } from '../../lib/settings';
import { resourcesOfType, synth } from './synth';

const LOCAL_TABLES = {
  generator: 'LocalGenerator',
  strength: 'LocalStrength',
  credentials: 'LocalCredentials',
  history: 'LocalHistory',
} as const;

describe("the bench's function environment", () => {
  const deployment = deployedFunctions(LOCAL_TABLES);

  it('has every function of the stack, each with the variables of its template resource, table references made local', () => {
    const { template } = synth();
    const ids = [...Object.values(FUNCTIONS).map((f) => f.id), AUTHORIZER.id];
    expect(Object.keys(deployment.functions).sort()).toEqual([...ids].sort());
    const resources = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function'));
    for (const id of ids) {
      const [, resource] = resources.find(([logicalId]) => logicalId.startsWith(`${id}Function`))!;
      const variables = resource.Properties.Environment.Variables as Record<string, unknown>;
      const fn = deployment.functions[id]!;
      expect(Object.keys(fn.environment).sort()).toEqual(Object.keys(variables).sort());
      for (const [name, value] of Object.entries(variables))
        if (typeof value === 'string') expect(fn.environment[name]).toBe(value);
      expect(fn.memoryMiB).toBe(resource.Properties.MemorySize);
    }
    expect(deployment.functions.GeneratorPolicies!.environment[ENV.policyTable]).toBe(LOCAL_TABLES.generator);
    expect(deployment.functions.EvaluatePassword!.environment[ENV.policyTable]).toBe(LOCAL_TABLES.strength);
    expect(deployment.functions.Authorizer!.environment[ENV.credentialsTable]).toBe(LOCAL_TABLES.credentials);
  });

  it("is the default stage's: its log level, and metrics on (nothing disables them)", () => {
    expect(deployment.stage).toBe(DEFAULT_STAGE);
    for (const fn of Object.values(deployment.functions)) {
      expect(fn.environment.POWERTOOLS_LOG_LEVEL).toBe(STAGE_PRESETS[DEFAULT_STAGE].logLevel);
      expect(fn.environment).not.toHaveProperty('POWERTOOLS_METRICS_DISABLED');
      expect(fn.environment).not.toHaveProperty('POWERTOOLS_DEV');
    }
  });

  it('follows the stack: a deploy with another log level gives the bench that level', () => {
    const debug = deployedFunctions(LOCAL_TABLES, { logLevel: 'DEBUG' });
    expect(Object.values(debug.functions).map((f) => f.environment.POWERTOOLS_LOG_LEVEL)).toEqual(
      Object.values(debug.functions).map(() => 'DEBUG'),
    );
  });
});
