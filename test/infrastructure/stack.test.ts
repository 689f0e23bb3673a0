import { synth } from './synth';

describe('stack', () => {
  const { stack, template, logicalId } = synth();

  it("is named 'PasswordPolicyService' unless context stackName says otherwise", () => {
    expect(stack.stackName).toBe('PasswordPolicyService');
    expect(synth({ stackName: 'PasswordPolicyService-dev' }).stack.stackName).toBe('PasswordPolicyService-dev');
  });

  it('outputs the API URL (the stage URL of the REST API)', () => {
    const output = template.findOutputs('ApiUrl')['ApiUrl'];
    const joined = JSON.stringify(output?.Value);
    expect(joined).toContain(logicalId(stack.api.api));
    expect(joined).toContain('.execute-api.');
    expect(joined).toContain(logicalId(stack.api.api.deploymentStage));
  });

  it.each([
    ['GeneratorPolicyTableName', 'generator'],
    ['StrengthPolicyTableName', 'strength'],
    ['CredentialsTableName', 'credentials'],
    ['PolicyHistoryTableName', 'history'],
  ] as const)('outputs %s', (name, kind) => {
    template.hasOutput(name, { Value: { Ref: logicalId(stack.tables[kind]) } });
  });

  it('has no other outputs', () => {
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual([
      'ApiUrl',
      'CredentialsTableName',
      'GeneratorPolicyTableName',
      'PolicyHistoryTableName',
      'StrengthPolicyTableName',
      'UsagePlanHighId',
      'UsagePlanStandardId',
    ]);
  });

  it('is environment-agnostic: it deploys to the account and region of the CLI', () => {
    expect(stack.environment).toBe('aws://unknown-account/unknown-region');
  });
});
