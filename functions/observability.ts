import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { SERVICE_METRICS, type ServiceMetricName } from './metrics';

/**
 * Keys (matched case-insensitively) whose values are never written to a log, at any depth, whatever logs
 * them (the event, when an operator sets POWERTOOLS_LOGGER_LOG_EVENT=true, or a future log call): request
 * bodies (a password to evaluate), header maps (UserID and APIKey), query maps (a key pasted into a URL is
 * a parameter name or value), and the password and key fields themselves.
 */
export const REDACTED_KEYS: ReadonlySet<string> = new Set(
  ['body', 'headers', 'multiValueHeaders', 'queryStringParameters', 'multiValueQueryStringParameters', 'Password', 'APIKey'].map((k) => k.toLowerCase()),
);
export const REDACTED = '[redacted]';

/** The logger's JSON replacer: redacts the values of REDACTED_KEYS (absent and null values stay as they are). */
export function redactSecrets(key: string, value: unknown): unknown {
  return value !== undefined && value !== null && REDACTED_KEYS.has(key.toLowerCase()) ? REDACTED : value;
}

/**
 * One logger and one metrics sink per function, configured from the environment
 * (POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL, POWERTOOLS_METRICS_NAMESPACE).
 * Nothing logged here ever carries a header value or a key.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_METRICS.serviceName, jsonReplacerFn: redactSecrets });
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? SERVICE_METRICS.namespace,
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_METRICS.serviceName,
});

let metricsPending = false;
/** Per-request counts (cache hits) kept in memory and published at most once per interval, not per request. */
const tallies = new Map<string, number>();
let lastTallyFlush = Date.now();
export const TALLY_FLUSH_INTERVAL_MS = 60_000;

/** Counts an event in a metric; it is published when the invocation ends. */
export function countMetric(name: ServiceMetricName, value = 1): void {
  metrics.addMetric(name, MetricUnit.Count, value);
  metricsPending = true;
}

/**
 * Counts a per-request event (a cache hit) without an EMF line per request: the tally is published with the
 * next invocation that publishes anyway, or once TALLY_FLUSH_INTERVAL_MS has passed. A tally not yet
 * published when Lambda recycles the environment is lost; that is under a minute of hits.
 */
export function tallyMetric(name: ServiceMetricName): void {
  tallies.set(name, (tallies.get(name) ?? 0) + 1);
}

function publishMetrics(now: number): void {
  if (tallies.size > 0 && (metricsPending || now - lastTallyFlush >= TALLY_FLUSH_INTERVAL_MS)) {
    for (const [name, count] of tallies) metrics.addMetric(name, MetricUnit.Count, count);
    tallies.clear();
    lastTallyFlush = now;
    metricsPending = true;
  }
  if (metricsPending) {
    metricsPending = false;
    metrics.publishStoredMetrics();
  }
}

/**
 * Every entry point's wrapper: the Lambda context goes into each log line (request id, cold start), and the
 * metrics the invocation recorded are published (EMF to stdout) whatever its outcome; nothing when none were.
 * A flag rather than asking Powertools, which lists its stored metrics to answer: most requests record none.
 */
export function instrumented<E, R>(handler: (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return async (event, context) => {
    if (context) logger.addContext(context);
    // Off unless POWERTOOLS_LOGGER_LOG_EVENT=true; then written through redactSecrets, like every line.
    logger.logEventIfEnabled(event);
    try {
      return await handler(event);
    } finally {
      publishMetrics(Date.now());
    }
  };
}
