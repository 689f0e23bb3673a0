import { Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { SERVICE_METRICS } from '../functions/runtime';
import { serviceMetric } from './alarms';

export interface ServiceDashboardProps {
  readonly stage: Stage;
  /** The functions that serve routes, by id. */
  readonly functions: Record<string, IFunction>;
  readonly authorizer: IFunction;
  readonly alarms: readonly cloudwatch.IAlarm[];
}

const PERIOD = Duration.minutes(5);
const WIDTH = 8;

/**
 * The one dashboard an operator opens first (named after the stack): traffic, errors and latency of the
 * API; invocations, errors, throttles and duration of each function; the policy cache; the authorizer's
 * outcomes; and the state of every alarm.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const { stage } = props;
    const sum = { statistic: cloudwatch.Stats.SUM, period: PERIOD };
    const allFunctions = { ...props.functions, Authorizer: props.authorizer };
    const names = SERVICE_METRICS.names;
    const graph = (title: string, left: cloudwatch.IMetric[], leftYAxis?: cloudwatch.YAxisProps) =>
      new cloudwatch.GraphWidget({ title, left, width: WIDTH, height: 6, ...(leftYAxis ? { leftYAxis } : {}) });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: Stack.of(this).stackName,
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(
      graph('API requests and errors', [
        stage.metricCount(sum),
        stage.metricClientError(sum),
        stage.metricServerError(sum),
      ]),
      graph('API latency (p50, p99)', [
        stage.metricLatency({ statistic: cloudwatch.Stats.p(50), period: PERIOD }),
        stage.metricLatency({ statistic: cloudwatch.Stats.p(99), period: PERIOD }),
        stage.metricIntegrationLatency({ statistic: cloudwatch.Stats.p(99), period: PERIOD }),
      ]),
      graph(
        'Authorizer outcomes',
        [names.authorizerAllow, names.authorizerDeny, names.authorizerUnauthorized, names.authorizerFailure].map((n) =>
          serviceMetric(n),
        ),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Function invocations',
        Object.values(allFunctions).map((fn) => fn.metricInvocations(sum)),
      ),
      graph(
        'Function errors and throttles',
        Object.values(allFunctions).flatMap((fn) => [fn.metricErrors(sum), fn.metricThrottles(sum)]),
      ),
      graph(
        'Function duration (p99, ms)',
        Object.values(allFunctions).map((fn) =>
          fn.metricDuration({ statistic: cloudwatch.Stats.p(99), period: PERIOD }),
        ),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Policy cache',
        [names.policyCacheHit, names.policyCacheMiss, names.staleCollectionServed].map((n) => serviceMetric(n)),
      ),
      graph('Invalid records left out (policies, credentials)', [
        serviceMetric(names.invalidPolicyRecords),
        serviceMetric(names.invalidCredentialRecords),
      ]),
      ...(props.alarms.length > 0
        ? [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: WIDTH, height: 6 })]
        : []),
    );
    // Empty unless the Pwned Passwords check is on (context pwnedPasswordsCheck).
    this.dashboard.addWidgets(
      graph('Pwned Passwords lookups failed open', [serviceMetric(names.pwnedPasswordsUnavailable)]),
    );
  }
}
