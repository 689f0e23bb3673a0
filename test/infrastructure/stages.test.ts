import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { FUNCTIONS, resourcePaths } from '../../functions/routes';
import { ENV } from '../../functions/runtime';
import { DEFAULT_STAGE, readSettings, readStackName, STAGE_PRESETS, type StageName } from '../../lib/settings';
import { referencedIds, resourcesOfType, synth } from './synth';

const lookup = (context: Record<string, unknown>) => (key: string) => context[key];

describe('stage presets (context stage)', () => {
  it("defaults to 'prod', so a bare deploy is the production-safe one", () => {
    expect(DEFAULT_STAGE).toBe('prod');
    expect(readSettings(lookup({})).stage).toBe('prod');
    // The template of a bare synth is the template of -c stage=prod.
    expect(synth().template.toJSON()).toEqual(synth({ stage: 'prod' }).template.toJSON());
  });

  it('has exactly these presets', () => {
    expect(STAGE_PRESETS).toEqual({
      prod: {
        stackName: 'PasswordPolicyService',
        dev: false,
        logRetentionDays: RetentionDays.THREE_MONTHS,
        logLevel: 'INFO',
        policyCacheTtlSeconds: 30,
        authorizerCacheTtlSeconds: 300,
        throttlingRateLimit: 50,
        throttlingBurstLimit: 100,
        tracing: true,
        waf: true,
        wafRateLimit: 1000,
        alarms: true,
        dashboard: true,
        apiGatewayCloudWatchRole: true,
      },
      dev: {
        stackName: 'PasswordPolicyService-dev',
        dev: true,
        logRetentionDays: RetentionDays.ONE_WEEK,
        logLevel: 'INFO',
        policyCacheTtlSeconds: 5,
        authorizerCacheTtlSeconds: 60,
        throttlingRateLimit: 10,
        throttlingBurstLimit: 20,
        tracing: false,
        waf: false,
        wafRateLimit: 1000,
        alarms: false,
        dashboard: false,
        apiGatewayCloudWatchRole: true,
      },
    });
  });

  it.each(Object.keys(STAGE_PRESETS) as StageName[])('%s: both caches stay within the 5-minute revocation bound of design.md §2', (stage) => {
    expect(STAGE_PRESETS[stage].policyCacheTtlSeconds).toBeLessThanOrEqual(300);
    expect(STAGE_PRESETS[stage].authorizerCacheTtlSeconds).toBeLessThanOrEqual(300);
  });

  it('names the stack and the API stage after the stage, unless stackName or stageName says otherwise', () => {
    expect(readStackName(lookup({}))).toBe('PasswordPolicyService');
    expect(readStackName(lookup({ stage: 'prod' }))).toBe('PasswordPolicyService');
    expect(readStackName(lookup({ stage: 'dev' }))).toBe('PasswordPolicyService-dev');
    expect(readStackName(lookup({ stage: 'dev', stackName: 'Mine' }))).toBe('Mine');
    expect(readSettings(lookup({ stage: 'dev' })).stageName).toBe('dev');
    expect(readSettings(lookup({ stage: 'dev', stageName: 'v1' })).stageName).toBe('v1');
  });

  it('lets every individual key override its preset value', () => {
    const settings = readSettings(
      lookup({
        stage: 'dev',
        dev: 'false',
        logRetentionDays: '30',
        logLevel: 'debug',
        policyCacheTtlSeconds: '10',
        authorizerCacheTtlSeconds: '120',
        throttlingRateLimit: '5',
        throttlingBurstLimit: '6',
        tracing: 'true',
        waf: 'true',
        wafRateLimit: '500',
        alarms: 'true',
        alarmTopic: 'true',
        apiGatewayCloudWatchRole: 'false',
      }),
    );
    expect(settings).toEqual(
      expect.objectContaining({
        stage: 'dev',
        dev: false,
        logRetentionDays: 30,
        logLevel: 'DEBUG',
        policyCacheTtlSeconds: 10,
        authorizerCacheTtlSeconds: 120,
        throttlingRateLimit: 5,
        throttlingBurstLimit: 6,
        tracing: true,
        waf: true,
        wafRateLimit: 500,
        alarms: true,
        alarmTopic: { kind: 'create' },
        apiGatewayCloudWatchRole: false,
      }),
    );
  });

  it('rejects an unknown stage and values outside their domain with a clear error', () => {
    expect(() => synth({ stage: 'staging' })).toThrow(/Context stage must be one of prod, dev, got "staging"/);
    expect(() => readSettings(lookup({ tracing: 'yes' }))).toThrow(/tracing must be true or false/);
    expect(() => readSettings(lookup({ waf: 'on' }))).toThrow(/waf must be true or false/);
    expect(() => readSettings(lookup({ wafRateLimit: '9' }))).toThrow(/wafRateLimit must be an integer from 10 to 2000000000/);
    expect(() => readSettings(lookup({ alarms: 'maybe' }))).toThrow(/alarms must be true or false/);
    expect(() => readSettings(lookup({ apiGatewayCloudWatchRole: '1' }))).toThrow(/apiGatewayCloudWatchRole must be true or false/);
  });

  describe('what differs between dev and prod in the template', () => {
    const prod = synth({ stage: 'prod' });
    const dev = synth({ stage: 'dev' });
    const fnEnv = (s: typeof prod) =>
      resourcesOfType(s.template, 'AWS::Lambda::Function')[s.logicalId(s.stack.functions.GeneratorPolicies)]?.Properties.Environment.Variables;

    it('stack name', () => {
      expect(prod.stack.stackName).toBe('PasswordPolicyService');
      expect(dev.stack.stackName).toBe('PasswordPolicyService-dev');
    });

    it('removal policies: prod retains tables and log groups (tables deletion-protected), dev destroys them', () => {
      for (const type of ['AWS::DynamoDB::Table', 'AWS::Logs::LogGroup']) {
        prod.template.allResources(type, { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
        dev.template.allResources(type, { DeletionPolicy: 'Delete', UpdateReplacePolicy: 'Delete' });
      }
      prod.template.allResourcesProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
      dev.template.allResourcesProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
    });

    it('log retention of every log group (functions, API access and execution logs, custom resource): 90 days in prod, 7 in dev', () => {
      // Each function and the authorizer, the API's access and execution logs, the custom resource.
      expect(Object.keys(resourcesOfType(prod.template, 'AWS::Logs::LogGroup'))).toHaveLength(Object.keys(FUNCTIONS).length + 4);
      prod.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
      dev.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 7 });
    });

    it('TTLs: the policy cache 30 s in prod, 5 s in dev; the authorizer cache 300 s in prod, 60 s in dev', () => {
      expect(fnEnv(prod)[ENV.policyCacheTtl]).toBe('30');
      expect(fnEnv(dev)[ENV.policyCacheTtl]).toBe('5');
      prod.template.allResourcesProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 300 });
      dev.template.allResourcesProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 60 });
    });

    it('stage name and throttling: prod 50 r/s burst 100, dev 10 r/s burst 20', () => {
      const stageOf = (s: typeof prod) => Object.values(resourcesOfType(s.template, 'AWS::ApiGateway::Stage'))[0]!.Properties;
      expect(stageOf(prod)).toEqual(expect.objectContaining({ StageName: 'prod' }));
      expect(stageOf(prod).MethodSettings[0]).toEqual(expect.objectContaining({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }));
      expect(stageOf(dev)).toEqual(expect.objectContaining({ StageName: 'dev' }));
      expect(stageOf(dev).MethodSettings[0]).toEqual(expect.objectContaining({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 }));
    });

    it('tracing, WAF and alarms: on in prod, off in dev', () => {
      const count = (s: typeof prod, type: string) => Object.keys(resourcesOfType(s.template, type)).length;
      expect(count(prod, 'AWS::WAFv2::WebACL')).toBe(1);
      expect(count(dev, 'AWS::WAFv2::WebACL')).toBe(0);
      expect(count(prod, 'AWS::CloudWatch::Alarm')).toBeGreaterThan(0);
      expect(count(dev, 'AWS::CloudWatch::Alarm')).toBe(0);
      prod.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
      dev.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: false });
    });

    it('the same API and the same account logging role in both', () => {
      for (const s of [prod, dev]) {
        s.template.resourceCountIs('AWS::ApiGateway::Account', 1);
        // Each path's route methods and its ANY 405 mock.
        s.template.resourceCountIs('AWS::ApiGateway::Method', resourcePaths().reduce((n, r) => n + r.methods.length + 1, 0));
        s.template.resourceCountIs('AWS::ApiGateway::Method', 8);
        s.template.resourceCountIs('AWS::ApiGateway::RequestValidator', 1);
        const stage = Object.values(resourcesOfType(s.template, 'AWS::ApiGateway::Stage'))[0]!;
        expect(referencedIds(stage.Properties.AccessLogSetting.DestinationArn).size).toBe(1);
      }
    });
  });
});
