import { Match } from 'aws-cdk-lib/assertions';
import { SERVICE_METRICS } from '../../functions/runtime';
import { POWERTOOLS } from '../../lib/lambda-function';
import { resourcesOfType, synth, type CfnResource, type Synthesized } from './synth';

const ALARM_IDS = [
  'Api5xxRate',
  'ApiLatencyP99',
  'GeneratorPoliciesErrors',
  'StrengthPoliciesErrors',
  'GeneratePasswordErrors',
  'EvaluatePasswordErrors',
  'GeneratorPoliciesThrottles',
  'StrengthPoliciesThrottles',
  'GeneratePasswordThrottles',
  'EvaluatePasswordThrottles',
  'AuthorizerThrottles',
  'AuthorizerErrors',
  'InvalidPolicyRecords',
];

/** Every alarm of the stack by its id (the alarm name is `<stack name>-<id>`). */
function alarmsById(s: Synthesized): Record<string, CfnResource['Properties']> {
  const prefix = `${s.stack.stackName}-`;
  return Object.fromEntries(
    Object.values(resourcesOfType(s.template, 'AWS::CloudWatch::Alarm')).map((a) => [
      String(a.Properties.AlarmName).slice(prefix.length),
      a.Properties,
    ]),
  );
}

/** What every alarm on a service metric holds: Powertools' namespace and dimension, a 5-minute Sum at or over the threshold. */
const serviceMetricAlarm = (MetricName: string, Threshold: number) => ({
  Namespace: 'PasswordPolicyService',
  MetricName,
  Dimensions: [{ Name: 'service', Value: 'password-policy-service' }],
  Statistic: 'Sum',
  Period: 300,
  Threshold,
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  EvaluationPeriods: 1,
});

describe('alarms', () => {
  const prod = synth({ stage: 'prod' });
  const alarms = alarmsById(prod);
  const fnRef = (fn: keyof typeof prod.stack.functions | 'Authorizer') => ({
    Ref: prod.logicalId(fn === 'Authorizer' ? prod.stack.authorizer : prod.stack.functions[fn]),
  });
  const stageDimensions = [
    { Name: 'ApiName', Value: 'PasswordPolicyService' },
    { Name: 'Stage', Value: { Ref: prod.logicalId(prod.stack.api.api.deploymentStage) } },
  ];

  it('has exactly these alarms in prod, each named after the stack, none breaching on missing data', () => {
    expect(Object.keys(alarms).sort()).toEqual([...ALARM_IDS].sort());
    for (const alarm of Object.values(alarms)) {
      expect(alarm.TreatMissingData).toBe('notBreaching');
      expect(alarm.AlarmDescription).toEqual(expect.any(String));
    }
  });

  // The stage's two alarms: what they watch, and when they fire.
  it.each([
    [
      'Api5xxRate',
      'API 5xx rate: 5XXError Average over 5 minutes above 1% of the stage',
      { MetricName: '5XXError', Statistic: 'Average', Threshold: 0.01, EvaluationPeriods: 1 },
    ],
    [
      'ApiLatencyP99',
      'API p99 latency: above 1000 ms in 3 of 3 five-minute periods',
      { MetricName: 'Latency', ExtendedStatistic: 'p99', Threshold: 1000, EvaluationPeriods: 3, DatapointsToAlarm: 3 },
    ],
  ] as const)('%s (%s)', (id, _, watched) => {
    expect(alarms[id]).toEqual(
      expect.objectContaining({
        Namespace: 'AWS/ApiGateway',
        Dimensions: stageDimensions,
        Period: 300,
        ComparisonOperator: 'GreaterThanThreshold',
        ...watched,
      }),
    );
  });

  it.each([
    ['GeneratorPoliciesErrors', 'Errors', 'GeneratorPolicies'],
    ['StrengthPoliciesErrors', 'Errors', 'StrengthPolicies'],
    ['GeneratePasswordErrors', 'Errors', 'GeneratePassword'],
    ['EvaluatePasswordErrors', 'Errors', 'EvaluatePassword'],
    ['GeneratorPoliciesThrottles', 'Throttles', 'GeneratorPolicies'],
    ['StrengthPoliciesThrottles', 'Throttles', 'StrengthPolicies'],
    ['GeneratePasswordThrottles', 'Throttles', 'GeneratePassword'],
    ['EvaluatePasswordThrottles', 'Throttles', 'EvaluatePassword'],
    ['AuthorizerThrottles', 'Throttles', 'Authorizer'],
  ] as const)('%s: Lambda %s Sum of its function >= 1 in 5 minutes', (id, metric, fn) => {
    expect(alarms[id]).toEqual(
      expect.objectContaining({
        Namespace: 'AWS/Lambda',
        MetricName: metric,
        Dimensions: [{ Name: 'FunctionName', Value: fnRef(fn) }],
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
      }),
    );
  });

  it('authorizer errors: its own AuthorizerFailure count (not Lambda Errors, which counts every 401), >= 1 in 5 minutes', () => {
    expect(alarms.AuthorizerErrors).toEqual(expect.objectContaining(serviceMetricAlarm('AuthorizerFailure', 1)));
  });

  it('invalid records: InvalidPolicyRecords Sum >= 1 in 5 minutes, in the namespace and dimension Powertools writes', () => {
    expect(alarms.InvalidPolicyRecords).toEqual(expect.objectContaining(serviceMetricAlarm('InvalidPolicyRecords', 1)));
  });

  it('with the Pwned Passwords check on (pwnedPasswordsCheck=true), one more: 5 or more lookups that failed open in 5 minutes', () => {
    const on = alarmsById(synth({ stage: 'prod', pwnedPasswordsCheck: 'true' }));
    expect(Object.keys(on).sort()).toEqual([...ALARM_IDS, 'PwnedPasswordsUnavailable'].sort());
    expect(on.PwnedPasswordsUnavailable).toEqual(
      expect.objectContaining({
        ...serviceMetricAlarm('PwnedPasswordsUnavailable', 5),
        TreatMissingData: 'notBreaching',
      }),
    );
  });

  it('takes metric names, namespace and dimension from functions/runtime.ts, the values the functions are configured with', () => {
    expect(POWERTOOLS).toEqual({
      serviceName: SERVICE_METRICS.serviceName,
      metricsNamespace: SERVICE_METRICS.namespace,
    });
    expect(SERVICE_METRICS.dimensions).toEqual({ service: SERVICE_METRICS.serviceName });
    const env = resourcesOfType(prod.template, 'AWS::Lambda::Function')[prod.logicalId(prod.stack.authorizer)]!
      .Properties.Environment.Variables;
    expect(env).toEqual(
      expect.objectContaining({
        POWERTOOLS_METRICS_NAMESPACE: SERVICE_METRICS.namespace,
        POWERTOOLS_SERVICE_NAME: SERVICE_METRICS.serviceName,
      }),
    );
  });

  describe('notification topic (context alarmTopic)', () => {
    it('none by default: no topic, no actions, no output', () => {
      prod.template.resourceCountIs('AWS::SNS::Topic', 0);
      for (const alarm of Object.values(alarms)) {
        expect(alarm.AlarmActions).toBeUndefined();
        expect(alarm.OKActions).toBeUndefined();
      }
      expect(prod.template.findOutputs('AlarmTopicArn')).toEqual({});
    });

    it('alarmTopic=true: a topic of this stack that only accepts TLS, notified on alarm and on recovery, its ARN an output', () => {
      const s = synth({ stage: 'prod', alarmTopic: 'true' });
      const topics = resourcesOfType(s.template, 'AWS::SNS::Topic');
      expect(Object.keys(topics)).toHaveLength(1);
      const topicRef = { Ref: Object.keys(topics)[0]! };
      s.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
        Topics: [topicRef],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              Resource: topicRef,
            }),
          ]),
        },
      });
      const withTopic = alarmsById(s);
      expect(Object.keys(withTopic)).toHaveLength(ALARM_IDS.length);
      for (const alarm of Object.values(withTopic)) {
        expect(alarm.AlarmActions).toEqual([topicRef]);
        expect(alarm.OKActions).toEqual([topicRef]);
      }
      s.template.hasOutput('AlarmTopicArn', { Value: topicRef });
    });

    it('alarmTopic=<ARN>: notifies that existing topic and creates none', () => {
      const arn = 'arn:aws:sns:eu-west-1:123456789012:operations';
      const s = synth({ stage: 'prod', alarmTopic: arn });
      s.template.resourceCountIs('AWS::SNS::Topic', 0);
      for (const alarm of Object.values(alarmsById(s))) {
        expect(alarm.AlarmActions).toEqual([arn]);
        expect(alarm.OKActions).toEqual([arn]);
      }
      s.template.hasOutput('AlarmTopicArn', { Value: arn });
    });

    it('rejects a value that is neither a boolean nor a standard topic ARN, and a topic without alarms', () => {
      expect(() => synth({ alarmTopic: 'ops@example.com' })).toThrow(
        /alarmTopic must be true, false or the ARN of a standard SNS topic/,
      );
      expect(() => synth({ alarmTopic: 'arn:aws:sns:eu-west-1:123456789012:ops.fifo' })).toThrow(/standard SNS topic/);
      expect(() => synth({ stage: 'dev', alarmTopic: 'true' })).toThrow(/alarmTopic needs alarms/);
    });
  });

  describe('dev', () => {
    it('has no alarms unless alarms=true, which gives the same set', () => {
      synth({ stage: 'dev' }).template.resourceCountIs('AWS::CloudWatch::Alarm', 0);
      const on = synth({ stage: 'dev', alarms: 'true' });
      expect(Object.keys(alarmsById(on)).sort()).toEqual([...ALARM_IDS].sort());
      expect(
        on.template.toJSON().Resources[Object.keys(resourcesOfType(on.template, 'AWS::CloudWatch::Alarm'))[0]!]
          .Properties.AlarmName,
      ).toMatch(/^PasswordPolicyService-dev-/);
    });

    it('prod with alarms=false has none', () => {
      const off = synth({ stage: 'prod', alarms: 'false' });
      off.template.resourceCountIs('AWS::CloudWatch::Alarm', 0);
    });
  });
});
