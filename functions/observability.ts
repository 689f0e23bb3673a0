import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * One logger and one metrics sink per function, configured from the environment
 * (POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL, POWERTOOLS_METRICS_NAMESPACE).
 * Nothing logged here ever carries a header value or a key.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'password-policy-service' });
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'PasswordPolicyService',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'password-policy-service',
});

let metricsPending = false;

/** Counts an event in a metric; it is published when the invocation ends. */
export function countMetric(name: string, value = 1): void {
  metrics.addMetric(name, MetricUnit.Count, value);
  metricsPending = true;
}

/**
 * Flushes the metrics an invocation recorded (EMF to stdout), whatever the outcome; nothing when none were.
 * A flag rather than asking Powertools, which lists its stored metrics to answer: most requests record none.
 */
export function withMetrics<E, R>(handler: (event: E) => Promise<R>): (event: E) => Promise<R> {
  return async (event) => {
    try {
      return await handler(event);
    } finally {
      if (metricsPending) {
        metricsPending = false;
        metrics.publishStoredMetrics();
      }
    }
  };
}
