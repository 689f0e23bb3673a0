import { Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { SERVICE_METRICS, type ServiceMetricName } from '../functions/runtime';
import type { AlarmTopicSetting } from './settings';

/** Thresholds of the alarms (docs/operations.md explains each). */
const ALARM_THRESHOLDS = {
  period: Duration.minutes(5),
  /** API 5XXError Average: the fraction of requests answered 5xx. */
  apiServerErrorRate: 0.01,
  /** API Latency p99, in milliseconds, breached in every one of latencyPeriods periods. */
  apiLatencyP99Ms: 1000,
  latencyPeriods: 3,
  /**
   * Pwned Passwords lookups that failed open in one period. One timeout of a third-party API is noise; this
   * many means evaluations are going out without the online check.
   */
  pwnedPasswordsUnavailable: 5,
} as const;

/** A count alarm: one occurrence in a 5-minute period. */
const atLeastOne = {
  threshold: 1,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  evaluationPeriods: 1,
} as const;

export interface ServiceAlarmsProps {
  readonly stage: Stage;
  /** The functions that serve routes, by id. */
  readonly functions: Record<string, IFunction>;
  readonly authorizer: IFunction;
  readonly topic: AlarmTopicSetting;
  /** The Pwned Passwords check is on (its failures get an alarm). */
  readonly pwnedPasswordsCheck: boolean;
}

/** A custom metric of the functions (Powertools EMF), with the one dimension set Powertools writes. */
export function serviceMetric(name: ServiceMetricName, statistic = cloudwatch.Stats.SUM): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: SERVICE_METRICS.namespace,
    metricName: name,
    dimensionsMap: { ...SERVICE_METRICS.dimensions },
    statistic,
    period: ALARM_THRESHOLDS.period,
  });
}

/**
 * The stack's alarms: API 5xx rate and p99 latency, errors and throttles of every function, the
 * invalid-record metric, authorizer errors, and (with the check on) failed Pwned Passwords lookups.
 * Missing data (no traffic) is never a breach.
 */
export class ServiceAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  /** The topic the alarms notify, when there is one. */
  readonly topic?: sns.ITopic;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const { period } = ALARM_THRESHOLDS;
    const sum = { statistic: cloudwatch.Stats.SUM, period };

    this.add('Api5xxRate', {
      metric: props.stage.metricServerError({ statistic: cloudwatch.Stats.AVERAGE, period }),
      threshold: ALARM_THRESHOLDS.apiServerErrorRate,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      alarmDescription:
        'More than 1% of API requests answered 5xx in 5 minutes (handler faults, DynamoDB unavailable, authorizer failures).',
    });
    this.add('ApiLatencyP99', {
      metric: props.stage.metricLatency({ statistic: cloudwatch.Stats.p(99), period }),
      threshold: ALARM_THRESHOLDS.apiLatencyP99Ms,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: ALARM_THRESHOLDS.latencyPeriods,
      datapointsToAlarm: ALARM_THRESHOLDS.latencyPeriods,
      alarmDescription: `API p99 latency above ${ALARM_THRESHOLDS.apiLatencyP99Ms} ms for ${ALARM_THRESHOLDS.latencyPeriods * 5} minutes.`,
    });

    for (const [name, fn] of Object.entries(props.functions)) {
      this.add(`${name}Errors`, {
        metric: fn.metricErrors(sum),
        ...atLeastOne,
        alarmDescription: `The ${name} function failed (timeout, out of memory or a fault outside its handler); handled errors are answered, not thrown.`,
      });
    }
    for (const [name, fn] of Object.entries({ ...props.functions, Authorizer: props.authorizer })) {
      this.add(`${name}Throttles`, {
        metric: fn.metricThrottles(sum),
        ...atLeastOne,
        alarmDescription: `The ${name} function was throttled: the account's or region's Lambda concurrency is exhausted.`,
      });
    }
    // Not Lambda's Errors: the authorizer answers every 401 by throwing 'Unauthorized' (API Gateway's
    // contract), so it counts its real failures itself.
    this.add('AuthorizerErrors', {
      metric: serviceMetric(SERVICE_METRICS.names.authorizerFailure),
      ...atLeastOne,
      alarmDescription:
        'The authorizer failed other than by rejecting credentials (API Gateway answers these 500 AUTHORIZER_FAILURE).',
    });
    this.add('InvalidPolicyRecords', {
      metric: serviceMetric(SERVICE_METRICS.names.invalidPolicyRecords),
      ...atLeastOne,
      alarmDescription:
        'A policy record failed validation and was left out of responses; its identifier is in the function log at ERROR.',
    });
    if (props.pwnedPasswordsCheck) {
      this.add('PwnedPasswordsUnavailable', {
        metric: serviceMetric(SERVICE_METRICS.names.pwnedPasswordsUnavailable),
        threshold: ALARM_THRESHOLDS.pwnedPasswordsUnavailable,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        alarmDescription: `${ALARM_THRESHOLDS.pwnedPasswordsUnavailable} or more Pwned Passwords lookups timed out or failed in 5 minutes; those passwords were evaluated without the online check (fail open).`,
      });
    }

    if (props.topic.kind !== 'none') {
      this.topic =
        props.topic.kind === 'create'
          ? new sns.Topic(this, 'Topic', { displayName: `${Stack.of(this).stackName} alarms`, enforceSSL: true })
          : sns.Topic.fromTopicArn(this, 'Topic', props.topic.arn);
      const action = new SnsAction(this.topic);
      for (const alarm of this.alarms) {
        alarm.addAlarmAction(action);
        // The recovery is news too: whoever was paged learns that it is over.
        alarm.addOkAction(action);
      }
    }
  }

  private add(id: string, props: cloudwatch.AlarmProps): void {
    this.alarms.push(
      new cloudwatch.Alarm(this, id, {
        alarmName: `${Stack.of(this).stackName}-${id}`,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...props,
      }),
    );
  }
}
