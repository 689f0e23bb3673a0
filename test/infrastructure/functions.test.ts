import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { FUNCTIONS, type RouteFunction } from '../../functions/routes';
import { DYNAMODB_CONNECTION_TIMEOUT_MS, ENV } from '../../functions/runtime';
import { LAST_USED_WRITE_TIMEOUT_MS } from '../../functions/repositories/credentials';
import { TABLES, type TableKind } from '../../functions/repositories/tables';
import { BUNDLE_ALIASES, BUNDLE_OPTIONS } from '../../bundling/bundling';
import { DEFAULT_MEMORY_MIB, memoryOf, TIME_BUDGET } from '../../lib/deployment';
import { NODEJS_BUNDLING } from '../../lib/lambda-function';
import { referencedIds, resourcesOfType, roleOfFunction, statementsOfRole, synth } from './synth';

/** The statement CDK adds for active tracing (tracing.test.ts checks it). */
const isXrayStatement = (s: { Action: string | string[] }): boolean =>
  [s.Action].flat().every((a) => a.startsWith('xray:'));

const POWERTOOLS_ENV = {
  POWERTOOLS_SERVICE_NAME: 'password-policy-service',
  POWERTOOLS_METRICS_NAMESPACE: 'PasswordPolicyService',
  POWERTOOLS_LOG_LEVEL: 'INFO',
};

describe('Lambda functions', () => {
  const { stack, template, logicalId } = synth();
  const tableId = (kind: TableKind): string => logicalId(stack.tables[kind]);
  const fnId = (fn: IFunction): string => logicalId(fn);

  /** Our five functions (the default-policies provider function is CDK's own). */
  const ours: { name: string; fn: IFunction; table: TableKind; timeout: number; memory: number }[] = [
    ...(Object.values(FUNCTIONS) as RouteFunction[]).map((spec) => ({
      name: spec.id,
      fn: stack.functions[spec.id],
      table: spec.table as TableKind,
      timeout: 12,
      memory: memoryOf(spec.id),
    })),
    { name: 'Authorizer', fn: stack.authorizer, table: 'credentials', timeout: 5, memory: DEFAULT_MEMORY_MIB },
  ];
  const propsOf = (fn: IFunction) => resourcesOfType(template, 'AWS::Lambda::Function')[fnId(fn)]?.Properties;

  it('has one function per FUNCTIONS entry plus the authorizer', () => {
    expect(Object.keys(stack.functions).sort()).toEqual(
      Object.values(FUNCTIONS)
        .map((f) => f.id)
        .sort(),
    );
    expect(Object.keys(stack.functions).sort()).toEqual([
      'EvaluatePassword',
      'GeneratePassword',
      'GeneratorPolicies',
      'StrengthPolicies',
    ]);
    expect(ours).toHaveLength(5);
  });

  it.each(ours)('$name: Node.js 22 on arm64, $memory MB, $timeout s, ESM bundle handler', ({ fn, timeout, memory }) => {
    expect(propsOf(fn)).toEqual(
      expect.objectContaining({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: memory,
        Timeout: timeout,
        Handler: 'index.handler',
      }),
    );
  });

  it('memory: EvaluatePassword 1024 MB (CPU for zxcvbn-ts), every other function the default 256 MB', () => {
    expect(DEFAULT_MEMORY_MIB).toBe(256);
    const memory = Object.fromEntries(ours.map(({ name, fn }) => [name, propsOf(fn).MemorySize]));
    expect(memory).toEqual({
      GeneratorPolicies: 256,
      StrengthPolicies: 256,
      GeneratePassword: 256,
      EvaluatePassword: 1024,
      Authorizer: 256,
    });
  });

  it('descriptions name the method and path each function serves', () => {
    expect(propsOf(stack.functions.EvaluatePassword).Description).toBe(
      'Passwords evaluated against a password strength policy: POST /api/passwordstrength/evaluate',
    );
    expect(propsOf(stack.functions.StrengthPolicies).Description).toBe(
      'List and search of password strength policies: GET /api/passwordstrength',
    );
  });

  it('bundles with BUNDLE_OPTIONS, the configuration the local gateway builds with, by the local esbuild', () => {
    expect(NODEJS_BUNDLING).toEqual({
      format: OutputFormat.ESM,
      target: BUNDLE_OPTIONS.target,
      minify: true,
      sourceMap: false,
      mainFields: ['module', 'main'],
      banner: BUNDLE_OPTIONS.banner,
      esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
      externalModules: [],
      forceDockerBundling: false,
    });
    expect(BUNDLE_OPTIONS.target).toBe('node22');
  });

  it.each(ours)('$name: logs to its own log group, kept 90 days (prod preset) and retained by default', ({ fn }) => {
    const props = resourcesOfType(template, 'AWS::Lambda::Function')[fnId(fn)]?.Properties;
    const [logGroupId] = [...referencedIds(props.LoggingConfig.LogGroup)];
    const logGroup = resourcesOfType(template, 'AWS::Logs::LogGroup')[logGroupId!];
    expect(logGroup?.Properties.RetentionInDays).toBe(90);
    expect(logGroup?.DeletionPolicy).toBe('Retain');
  });

  it('gives every function a log group of its own', () => {
    const logGroups = ours.map(({ fn }) =>
      JSON.stringify(resourcesOfType(template, 'AWS::Lambda::Function')[fnId(fn)]?.Properties.LoggingConfig),
    );
    expect(new Set(logGroups).size).toBe(ours.length);
  });

  it.each(Object.values(FUNCTIONS))('$id: environment names its own table and the policy cache TTL', (spec) => {
    const vars = resourcesOfType(template, 'AWS::Lambda::Function')[fnId(stack.functions[spec.id])]?.Properties
      .Environment.Variables;
    expect(vars).toEqual({
      ...POWERTOOLS_ENV,
      [ENV.policyTable]: { Ref: tableId(spec.table) },
      [ENV.policyCacheTtl]: '30',
      [ENV.dynamodbMaxAttempts]: '3',
      [ENV.dynamodbRequestTimeout]: '2000',
    });
  });

  it('authorizer: environment names the credentials table and its shorter DynamoDB budget only', () => {
    const vars = resourcesOfType(template, 'AWS::Lambda::Function')[fnId(stack.authorizer)]?.Properties.Environment
      .Variables;
    expect(vars).toEqual({
      ...POWERTOOLS_ENV,
      [ENV.credentialsTable]: { Ref: tableId('credentials') },
      [ENV.dynamodbMaxAttempts]: '2',
      [ENV.dynamodbRequestTimeout]: '1000',
    });
  });

  it("the time budget: each worst case below its Lambda timeout, both timeouts below API Gateway's 29 s (docs/operations.md#timeout-budget)", () => {
    // The SDK's standard retry waits at most 100 ms × 2^attempt between attempts.
    const worstMs = (b: { dynamodbMaxAttempts: number; dynamodbRequestTimeoutMs: number }) =>
      b.dynamodbMaxAttempts * (DYNAMODB_CONNECTION_TIMEOUT_MS + b.dynamodbRequestTimeoutMs) +
      Array.from({ length: b.dynamodbMaxAttempts - 1 }, (_, i) => 100 * 2 ** (i + 1)).reduce((a, n) => a + n, 0);
    expect(worstMs(TIME_BUDGET.authorizer) + LAST_USED_WRITE_TIMEOUT_MS).toBe(4500);
    expect(worstMs(TIME_BUDGET.authorizer) + LAST_USED_WRITE_TIMEOUT_MS).toBeLessThan(
      TIME_BUDGET.authorizer.lambdaTimeoutSeconds * 1000,
    );
    expect(worstMs(TIME_BUDGET.functions)).toBe(9600);
    // EvaluatePassword with the Pwned Passwords check on: the Scan, then one lookup, bounded as a whole.
    expect(worstMs(TIME_BUDGET.functions) + TIME_BUDGET.functions.pwnedPasswordsTimeoutMs).toBe(10_600);
    expect(worstMs(TIME_BUDGET.functions) + TIME_BUDGET.functions.pwnedPasswordsTimeoutMs).toBeLessThan(
      TIME_BUDGET.functions.lambdaTimeoutSeconds * 1000,
    );
    expect(TIME_BUDGET.authorizer.lambdaTimeoutSeconds + TIME_BUDGET.functions.lambdaTimeoutSeconds).toBeLessThan(
      TIME_BUDGET.apiGatewaySeconds,
    );
  });

  it('takes log retention, log level and policy cache TTL from context', () => {
    const s = synth({ logRetentionDays: '7', logLevel: 'debug', policyCacheTtlSeconds: '5' });
    const fns = resourcesOfType(s.template, 'AWS::Lambda::Function');
    const generator = fns[s.logicalId(s.stack.functions.GeneratorPolicies)]?.Properties;
    expect(generator.Environment.Variables).toEqual(
      expect.objectContaining({ POWERTOOLS_LOG_LEVEL: 'DEBUG', [ENV.policyCacheTtl]: '5' }),
    );
    s.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 7 });
  });

  it('rejects context values outside their domain with a clear error', () => {
    expect(() => synth({ logRetentionDays: '8' })).toThrow(/logRetentionDays must be one of/);
    expect(() => synth({ logLevel: 'LOUD' })).toThrow(/logLevel must be one of/);
    expect(() => synth({ policyCacheTtlSeconds: '-1' })).toThrow(/policyCacheTtlSeconds must be an integer/);
  });

  it('destroys the log groups with the stack when dev=true', () => {
    synth({ dev: 'true' }).template.allResources('AWS::Logs::LogGroup', { DeletionPolicy: 'Delete' });
  });

  describe('least privilege', () => {
    const tableIds = new Set((Object.keys(TABLES) as TableKind[]).map(tableId));
    const tablesReadBy = (fn: IFunction): string[] =>
      [...referencedIds(statementsOfRole(template, roleOfFunction(template, fnId(fn))))]
        .filter((id) => tableIds.has(id))
        .sort();

    it.each(ours)('$name reaches its own table and no other', ({ fn, table }) => {
      expect(tablesReadBy(fn)).toEqual([tableId(table)]);
    });

    it.each(Object.values(FUNCTIONS))('$id may only Scan its own table: the one call its repository makes', (spec) => {
      const statements = statementsOfRole(template, roleOfFunction(template, fnId(stack.functions[spec.id]))).filter(
        (s) => !isXrayStatement(s),
      );
      expect(statements.map((s) => ({ ...s, Resource: [s.Resource].flat() }))).toEqual([
        { Action: 'dynamodb:Scan', Effect: 'Allow', Resource: [{ 'Fn::GetAtt': [tableId(spec.table), 'Arn'] }] },
      ]);
    });

    it('EvaluatePassword reads the strength table only: its DynamoDB statements name that table and its indexes, nothing else', () => {
      const statements = statementsOfRole(
        template,
        roleOfFunction(template, fnId(stack.functions.EvaluatePassword)),
      ).filter((s) => !isXrayStatement(s));
      expect(statements.length).toBeGreaterThan(0);
      const strengthArn = { 'Fn::GetAtt': [tableId('strength'), 'Arn'] };
      for (const statement of statements) {
        expect(statement.Effect).toBe('Allow');
        expect([statement.Action].flat().every((a: string) => a.startsWith('dynamodb:'))).toBe(true);
        expect([statement.Action].flat().some((a: string) => /Put|Update|Delete|Write/.test(a))).toBe(false);
        const resources = [statement.Resource].flat();
        expect(resources).toContainEqual(strengthArn);
        for (const resource of resources) expect([...referencedIds(resource)]).toEqual([tableId('strength')]);
      }
      expect(tablesReadBy(stack.functions.EvaluatePassword)).toEqual([tableId('strength')]);
      expect(tablesReadBy(stack.functions.EvaluatePassword)).not.toContain(tableId('credentials'));
    });

    it('the authorizer may only GetItem on the credentials table, and update only its LastUsed attribute', () => {
      const statements = statementsOfRole(template, roleOfFunction(template, fnId(stack.authorizer))).filter(
        (s) => !isXrayStatement(s),
      );
      const credentialsArn = { 'Fn::GetAtt': [tableId('credentials'), 'Arn'] };
      expect(statements.map((s) => ({ ...s, Resource: [s.Resource].flat() }))).toEqual([
        { Action: 'dynamodb:GetItem', Effect: 'Allow', Resource: [credentialsArn] },
        {
          Action: 'dynamodb:UpdateItem',
          Effect: 'Allow',
          Resource: [credentialsArn],
          Condition: {
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['CredentialID', 'LastUsed'] },
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        },
      ]);
    });

    it('no statement of any policy grants DynamoDB on every resource', () => {
      for (const policy of Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))) {
        for (const statement of policy.Properties.PolicyDocument.Statement) {
          const actions = [statement.Action].flat() as string[];
          if (actions.some((a) => a.startsWith('dynamodb:'))) expect([statement.Resource].flat()).not.toContain('*');
        }
      }
    });

    it('each function role has only the basic execution managed policy besides its own policy (EvaluatePassword, in its isolated network, the VPC access one too)', () => {
      for (const { name, fn } of ours) {
        const role = resourcesOfType(template, 'AWS::IAM::Role')[roleOfFunction(template, fnId(fn))];
        const managed = (role!.Properties.ManagedPolicyArns as unknown[]).map(
          (arn) => JSON.stringify(arn).match(/service-role\/(\w+)/)?.[1],
        );
        expect(managed).toEqual(
          name === 'EvaluatePassword'
            ? ['AWSLambdaBasicExecutionRole', 'AWSLambdaVPCAccessExecutionRole']
            : ['AWSLambdaBasicExecutionRole'],
        );
      }
    });
  });
});
