import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';

/**
 * What every function of the service shares at run time: its settings from the environment, the logger,
 * the metrics and the DynamoDB client. The stack and the local gateway set the same variables, from ENV.
 */
export const ENV = {
  /** The one policy table a function reads. */
  policyTable: 'POLICY_TABLE_NAME',
  /** The credentials table the authorizer reads. */
  credentialsTable: 'CREDENTIALS_TABLE_NAME',
  policyCacheTtl: 'POLICY_CACHE_TTL_SECONDS',
  dynamodbMaxAttempts: 'DYNAMODB_MAX_ATTEMPTS',
  dynamodbRequestTimeout: 'DYNAMODB_REQUEST_TIMEOUT_MS',
  /** Another DynamoDB endpoint than AWS's (the local run's embedded store). */
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  /** `true` turns the evaluation's online breached-password check on (functions/repositories/pwned-passwords.ts). */
  pwnedPasswordsCheck: 'PWNED_PASSWORDS_CHECK',
  /** Another base URL than Have I Been Pwned's range API (a local stub in tests). */
  pwnedPasswordsUrl: 'PWNED_PASSWORDS_URL',
  /** The whole lookup's bound: connect, TLS, answer and body. */
  pwnedPasswordsTimeout: 'PWNED_PASSWORDS_TIMEOUT_MS',
} as const;

/** Warm invocations within this many seconds of a load make no DynamoDB call. */
export const DEFAULT_POLICY_CACHE_TTL_SECONDS = 30;
/**
 * A DynamoDB call costs at most attempts × (connection timeout + request timeout) and the backoff between
 * attempts: 3 × 2 s when DynamoDB accepts connections but never answers. The authorizer is given less
 * through its environment (the deployment's time budget, lib/deployment.ts).
 */
export const DEFAULT_DYNAMODB_MAX_ATTEMPTS = 3;
export const DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS = 2000;
export const DYNAMODB_CONNECTION_TIMEOUT_MS = 1000;
/** The bound on one Pwned Passwords lookup, from the connection to the body's last byte (the deployment's time budget). */
export const DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS = 1000;

/** A setting that is a whole number (0 included), or the fallback when it is unset or anything else. */
export function wholeNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** A setting the function cannot run without (a table name). */
export function requiredSetting(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/**
 * The service's name: the metrics namespace, and in kebab case Powertools' service name (the `service`
 * dimension, and the user agent of the Pwned Passwords lookup); the stack is named after it too.
 */
export const SERVICE_NAME = 'PasswordPolicyService';
/** password-policy-service */
const SERVICE_ID = SERVICE_NAME.replace(/(?<=[a-z])(?=[A-Z])/g, '-').toLowerCase();

/**
 * The one home of the service's metric names: the namespace and `service` dimension Powertools writes (EMF),
 * and each metric. The functions count them; the stack sets the environment from them and alarms on them.
 */
export const SERVICE_METRICS = {
  /** POWERTOOLS_METRICS_NAMESPACE */
  namespace: SERVICE_NAME,
  /** POWERTOOLS_SERVICE_NAME; Powertools adds it to every metric as the `service` dimension. */
  serviceName: SERVICE_ID,
  /** The exact dimension set of every custom metric: an alarm matches a metric only on all of its dimensions. */
  dimensions: { service: SERVICE_ID },
  names: {
    /** Records left out of a response because they failed validation. */
    invalidPolicyRecords: 'InvalidPolicyRecords',
    /** Credential records the authorizer treated as absent because they are malformed. */
    invalidCredentialRecords: 'InvalidCredentialRecords',
    /** The authorizer's outcomes, one count per decision. */
    authorizerAllow: 'AuthorizerAllow',
    authorizerDeny: 'AuthorizerDeny',
    authorizerUnauthorized: 'AuthorizerUnauthorized',
    /** The authorizer failed other than by rejecting credentials (API Gateway answers 503). */
    authorizerFailure: 'AuthorizerFailure',
    /** The policy cache of the functions that read a policy table. */
    policyCacheHit: 'PolicyCacheHit',
    policyCacheMiss: 'PolicyCacheMiss',
    staleCollectionServed: 'StaleCollectionServed',
    /** The evaluation's Pwned Passwords lookup timed out, failed or got an answer it could not read; it evaluated without it. */
    pwnedPasswordsUnavailable: 'PwnedPasswordsUnavailable',
  },
} as const;

export type ServiceMetricName = (typeof SERVICE_METRICS.names)[keyof typeof SERVICE_METRICS.names];

/**
 * Keys (matched case-insensitively) whose values are never written to a log, at any depth, whatever logs
 * them (the event, when an operator sets POWERTOOLS_LOGGER_LOG_EVENT=true, or a future log call): request
 * bodies (a password to evaluate), header maps (UserID and APIKey), query maps (a key pasted into a URL is
 * a parameter name or value), and the password, UserInputs and key fields themselves.
 */
export const REDACTED_KEYS: ReadonlySet<string> = new Set(
  [
    'body',
    'headers',
    'multiValueHeaders',
    'queryStringParameters',
    'multiValueQueryStringParameters',
    'Password',
    'UserInputs',
    'APIKey',
  ].map((k) => k.toLowerCase()),
);
export const REDACTED = '[redacted]';

/** The logger's JSON replacer: redacts the values of REDACTED_KEYS (absent and null values stay as they are). */
export function redactSecrets(key: string, value: unknown): unknown {
  return value !== undefined && value !== null && REDACTED_KEYS.has(key.toLowerCase()) ? REDACTED : value;
}

/** One logger and one metrics sink per function (POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL, POWERTOOLS_METRICS_NAMESPACE). */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_METRICS.serviceName,
  jsonReplacerFn: redactSecrets,
});
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
 * Every function's handler runs inside this: the Lambda context goes into each log line (request id, cold
 * start), the event is logged only with POWERTOOLS_LOGGER_LOG_EVENT=true (and then redacted), and the
 * metrics the invocation recorded are published whatever its outcome.
 */
export function lambdaHandler<E, R>(handle: (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return async (event, context) => {
    if (context) logger.addContext(context);
    logger.logEventIfEnabled(event);
    try {
      return await handle(event);
    } finally {
      publishMetrics(Date.now());
    }
  };
}

/** A table could not be read and there is nothing cached to serve instead: a retry may succeed (503). */
export class UnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The policy table is unavailable', options);
    this.name = 'UnavailableError';
  }
}

/**
 * The error's name only: an SDK message can carry a table name or an ARN. Read from the object, not by
 * `instanceof Error`, which fails for an error of another realm (fetch's TypeError and the timeout's
 * DOMException come from Node's own, outside a test runner's VM context).
 */
export function errorName(error: unknown): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : typeof error;
}

/**
 * A client of a local DynamoDB-compatible store (dynalite, DynamoDB Local): it takes any region and any
 * credentials, so these stand in. Every client pointed at an endpoint (the functions, the local run, the
 * CLIs, the bench) is configured here.
 */
export function localDynamoDbClientConfig(endpoint: string, region = 'local') {
  return { endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
}

/**
 * The document client of a function, built once per process. Retries and timeouts are explicit so a
 * DynamoDB outage costs a bounded time; DYNAMODB_ENDPOINT points the local run at its embedded store.
 */
export function createDocumentClient(env: NodeJS.ProcessEnv = process.env): DynamoDBDocumentClient {
  const endpoint = env[ENV.dynamodbEndpoint] || undefined;
  const client = new DynamoDBClient({
    ...(endpoint ? localDynamoDbClientConfig(endpoint, env.AWS_REGION) : {}),
    maxAttempts: wholeNumber(env[ENV.dynamodbMaxAttempts], DEFAULT_DYNAMODB_MAX_ATTEMPTS),
    // Without throwOnRequestTimeout the SDK only logs a warning at requestTimeout and keeps waiting.
    requestHandler: {
      connectionTimeout: DYNAMODB_CONNECTION_TIMEOUT_MS,
      requestTimeout: wholeNumber(env[ENV.dynamodbRequestTimeout], DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS),
      throwOnRequestTimeout: true,
    },
  });
  return DynamoDBDocumentClient.from(client, { unmarshallOptions: { wrapNumbers: safeNumber } });
}

/**
 * Every number of both policy resources is an integer. One the SDK cannot convert (beyond JavaScript's safe
 * integers) would make it throw for the whole Scan; kept as a string, it fails validation ("must be an
 * integer") and only its record is left out. Other non-integers go the same way.
 */
function safeNumber(value: string): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}
