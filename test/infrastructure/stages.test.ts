import { Match } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { FUNCTIONS, resourcePaths } from '../../functions/routes';
import { ENV } from '../../functions/runtime';
import { DEFAULT_STAGE, readSettings, readStackName, STAGE_PRESETS } from '../../lib/settings';
import { referencedIds, resourcesOfType, synth, type CfnResource, type Synthesized } from './synth';

const lookup = (context: Record<string, unknown>) => (key: string) => context[key];

/**
 * What a stage is, asserted on the template it synthesizes, not on lib/settings.ts's table: the expected values
 * below are the documented presets (docs/operations.md), written out as literals.
 * Each preset is synthesized once for the whole file.
 */
let prod: Synthesized;
let dev: Synthesized;
beforeAll(() => {
  prod = synth({ stage: 'prod' });
  dev = synth({ stage: 'dev' });
});

const count = (s: Synthesized, type: string) => Object.keys(resourcesOfType(s.template, type)).length;
const stageOf = (s: Synthesized) => Object.values(resourcesOfType(s.template, 'AWS::ApiGateway::Stage'))[0]!.Properties;

/** The function resources of a list of functions, each required to be in the template. */
function functionResources(s: Synthesized, fns: readonly IConstruct[]): CfnResource[] {
  const all = resourcesOfType(s.template, 'AWS::Lambda::Function');
  return fns.map((fn) => {
    const resource = all[s.logicalId(fn)];
    if (!resource) throw new Error(`no function ${s.logicalId(fn)} in the template`);
    return resource;
  });
}
/** The route-bound policy functions (those with a policy cache). */
const policyFunctions = (s: Synthesized) => functionResources(s, Object.values(s.stack.functions));
/** Every function of the service: the policy functions and the authorizer (not the custom resource's provider). */
const serviceFunctions = (s: Synthesized) =>
  functionResources(s, [...Object.values(s.stack.functions), s.stack.authorizer]);

describe('stage presets (context stage)', () => {
  it("defaults to 'prod', so a bare deploy is the production-safe one", () => {
    expect(DEFAULT_STAGE).toBe('prod');
    expect(readSettings(lookup({})).stage).toBe('prod');
    // The template of a bare synth is the template of -c stage=prod.
    expect(synth().template.toJSON()).toEqual(prod.template.toJSON());
  });

  it('has exactly the presets prod and dev (what each sets: the template assertions below)', () => {
    expect(Object.keys(STAGE_PRESETS).sort()).toEqual(['dev', 'prod']);
  });

  it.each(['prod', 'dev'] as const)(
    '%s: every cache stays within the 5-minute revocation bound (docs/credentials.md)',
    (stage) => {
      const s = stage === 'prod' ? prod : dev;
      for (const fn of policyFunctions(s))
        expect(Number(fn.Properties.Environment.Variables[ENV.policyCacheTtl])).toBeLessThanOrEqual(300);
      const authorizers = Object.values(resourcesOfType(s.template, 'AWS::ApiGateway::Authorizer'));
      expect(authorizers).toHaveLength(3);
      for (const authorizer of authorizers)
        expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBeLessThanOrEqual(300);
    },
  );

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
        pwnedPasswordsCheck: 'true',
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
        pwnedPasswordsCheck: true,
      }),
    );
  });

  it('rejects an unknown stage and values outside their domain with a clear error', () => {
    expect(() => synth({ stage: 'staging' })).toThrow(/Context stage must be one of prod, dev, got "staging"/);
    expect(() => readSettings(lookup({ tracing: 'yes' }))).toThrow(/tracing must be true or false/);
    expect(() => readSettings(lookup({ waf: 'on' }))).toThrow(/waf must be true or false/);
    expect(() => readSettings(lookup({ wafRateLimit: '9' }))).toThrow(
      /wafRateLimit must be an integer from 10 to 2000000000/,
    );
    expect(() => readSettings(lookup({ alarms: 'maybe' }))).toThrow(/alarms must be true or false/);
    expect(() => readSettings(lookup({ apiGatewayCloudWatchRole: '1' }))).toThrow(
      /apiGatewayCloudWatchRole must be true or false/,
    );
    expect(() => readSettings(lookup({ pwnedPasswordsCheck: 'on' }))).toThrow(
      /pwnedPasswordsCheck must be true or false/,
    );
  });

  describe('what each stage synthesizes', () => {
    it('stack name: PasswordPolicyService in prod, PasswordPolicyService-dev in dev', () => {
      expect(prod.stack.stackName).toBe('PasswordPolicyService');
      expect(dev.stack.stackName).toBe('PasswordPolicyService-dev');
    });

    it('removal policies: prod retains tables and log groups (tables deletion-protected), dev destroys them', () => {
      for (const s of [prod, dev]) s.template.resourceCountIs('AWS::DynamoDB::Table', 4);
      for (const type of ['AWS::DynamoDB::Table', 'AWS::Logs::LogGroup']) {
        prod.template.allResources(type, { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
        dev.template.allResources(type, { DeletionPolicy: 'Delete', UpdateReplacePolicy: 'Delete' });
      }
      prod.template.allResourcesProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
      dev.template.allResourcesProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
    });

    it('log retention of every log group (functions, API access and execution logs, custom resource): 90 days in prod, 7 in dev', () => {
      // Each function and the authorizer, the API's access and execution logs, the custom resource, the isolated network's flow log.
      for (const s of [prod, dev]) expect(count(s, 'AWS::Logs::LogGroup')).toBe(Object.keys(FUNCTIONS).length + 5);
      prod.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
      dev.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 7 });
    });

    it('log level: POWERTOOLS_LOG_LEVEL INFO on every function in both', () => {
      for (const s of [prod, dev]) {
        expect(serviceFunctions(s)).toHaveLength(Object.keys(FUNCTIONS).length + 1);
        for (const fn of serviceFunctions(s))
          expect(fn.Properties.Environment.Variables.POWERTOOLS_LOG_LEVEL).toBe('INFO');
      }
    });

    it('TTLs: the policy cache 30 s in prod, 5 s in dev (every policy function); the authorizer cache 300 s in prod, 60 s in dev', () => {
      for (const s of [prod, dev]) expect(policyFunctions(s)).toHaveLength(Object.keys(FUNCTIONS).length);
      for (const fn of policyFunctions(prod))
        expect(fn.Properties.Environment.Variables[ENV.policyCacheTtl]).toBe('30');
      for (const fn of policyFunctions(dev)) expect(fn.Properties.Environment.Variables[ENV.policyCacheTtl]).toBe('5');
      for (const s of [prod, dev]) s.template.resourceCountIs('AWS::ApiGateway::Authorizer', 3);
      prod.template.allResourcesProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 300 });
      dev.template.allResourcesProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 60 });
    });

    it('stage name and throttling: prod 50 r/s burst 100, dev 10 r/s burst 20', () => {
      expect(stageOf(prod)).toEqual(expect.objectContaining({ StageName: 'prod' }));
      expect(stageOf(prod).MethodSettings[0]).toEqual(
        expect.objectContaining({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }),
      );
      expect(stageOf(dev)).toEqual(expect.objectContaining({ StageName: 'dev' }));
      expect(stageOf(dev).MethodSettings[0]).toEqual(
        expect.objectContaining({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 }),
      );
    });

    it('tracing: active on the stage and every function in prod, off in dev', () => {
      prod.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
      dev.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: false });
      for (const fn of serviceFunctions(prod)) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      for (const fn of serviceFunctions(dev)) expect(fn.Properties.TracingConfig).toBeUndefined();
    });

    it('WAF: a web ACL limiting each source IP to 1000 requests in prod; none in dev (whose preset limit, for waf=true, is 1000 too)', () => {
      expect(count(prod, 'AWS::WAFv2::WebACL')).toBe(1);
      expect(count(prod, 'AWS::WAFv2::WebACLAssociation')).toBe(1);
      prod.template.hasResourceProperties('AWS::WAFv2::WebACL', {
        Rules: [Match.objectLike({ Statement: { RateBasedStatement: Match.objectLike({ Limit: 1000 }) } })],
      });
      expect(count(dev, 'AWS::WAFv2::WebACL')).toBe(0);
      expect(count(dev, 'AWS::WAFv2::WebACLAssociation')).toBe(0);
      expect(readSettings(lookup({ stage: 'dev' })).wafRateLimit).toBe(1000);
    });

    it('alarms and dashboard: 13 alarms and a dashboard in prod, neither in dev', () => {
      expect(count(prod, 'AWS::CloudWatch::Alarm')).toBe(13);
      expect(count(dev, 'AWS::CloudWatch::Alarm')).toBe(0);
      expect(count(prod, 'AWS::CloudWatch::Dashboard')).toBe(1);
      expect(count(dev, 'AWS::CloudWatch::Dashboard')).toBe(0);
    });

    it('the same API and the same account logging role in both', () => {
      for (const s of [prod, dev]) {
        s.template.resourceCountIs('AWS::ApiGateway::Account', 1);
        s.template.hasResourceProperties('AWS::ApiGateway::Account', { CloudWatchRoleArn: Match.anyValue() });
        // Each path's route methods and its ANY 405 mock.
        s.template.resourceCountIs(
          'AWS::ApiGateway::Method',
          resourcePaths().reduce((n, r) => n + r.methods.length + 1, 0),
        );
        s.template.resourceCountIs('AWS::ApiGateway::Method', 12);
        s.template.resourceCountIs('AWS::ApiGateway::RequestValidator', 1);
        const stage = Object.values(resourcesOfType(s.template, 'AWS::ApiGateway::Stage'))[0]!;
        expect(referencedIds(stage.Properties.AccessLogSetting.DestinationArn).size).toBe(1);
      }
    });
  });
});
