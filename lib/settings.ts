import { RetentionDays } from 'aws-cdk-lib/aws-logs';

/**
 * The deploy-time settings of the stack, each read from CDK context (`cdk deploy -c key=value` or cdk.json).
 * Values from the command line arrive as strings, so every reader accepts a string or a JSON value.
 */
export interface StackSettings {
  /** A development stack: tables and log groups are destroyed with the stack. */
  readonly dev: boolean;
  readonly stageName: string;
  readonly logRetentionDays: RetentionDays;
  readonly logLevel: string;
  readonly policyCacheTtlSeconds: number;
  readonly authorizerCacheTtlSeconds: number;
  readonly throttlingRateLimit: number;
  readonly throttlingBurstLimit: number;
  /** Changes on every synth so the default-policies custom resource runs on every deploy. */
  readonly deployNonce: string;
}

/** The context keys and their defaults (the README documents these). */
export const CONTEXT_DEFAULTS = {
  stackName: 'PasswordPolicyService',
  dev: false,
  stageName: 'prod',
  logRetentionDays: 30,
  logLevel: 'INFO',
  policyCacheTtlSeconds: 30,
  // design.md §2: revocation must take effect within 5 minutes by default.
  authorizerCacheTtlSeconds: 300,
  throttlingRateLimit: 50,
  throttlingBurstLimit: 100,
} as const;

const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];
// API Gateway caches authorizer results for at most one hour.
const MAX_AUTHORIZER_CACHE_TTL_SECONDS = 3600;

/** Looks a context key up; `undefined` when it is not set. */
export type ContextLookup = (key: string) => unknown;

export function readSettings(context: ContextLookup): StackSettings {
  return {
    dev: readBoolean(context, 'dev', CONTEXT_DEFAULTS.dev),
    stageName: readStageName(context),
    logRetentionDays: readRetention(context),
    logLevel: readLogLevel(context),
    policyCacheTtlSeconds: readInteger(context, 'policyCacheTtlSeconds', CONTEXT_DEFAULTS.policyCacheTtlSeconds, 0, 86_400),
    authorizerCacheTtlSeconds: readInteger(context, 'authorizerCacheTtlSeconds', CONTEXT_DEFAULTS.authorizerCacheTtlSeconds, 0, MAX_AUTHORIZER_CACHE_TTL_SECONDS),
    throttlingRateLimit: readInteger(context, 'throttlingRateLimit', CONTEXT_DEFAULTS.throttlingRateLimit, 1, 1_000_000),
    throttlingBurstLimit: readInteger(context, 'throttlingBurstLimit', CONTEXT_DEFAULTS.throttlingBurstLimit, 1, 1_000_000),
    deployNonce: String(context('deployNonce') ?? new Date().toISOString()),
  };
}

/** The stack name, read before the stack exists (from the app's context). */
export function readStackName(context: ContextLookup): string {
  const value = context('stackName');
  return value === undefined ? CONTEXT_DEFAULTS.stackName : String(value);
}

function readBoolean(context: ContextLookup, key: string, fallback: boolean): boolean {
  const value = context(key);
  if (value === undefined) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`Context ${key} must be true or false, got ${JSON.stringify(value)}`);
}

function readInteger(context: ContextLookup, key: string, fallback: number, min: number, max: number): number {
  const value = context(key);
  if (value === undefined) return fallback;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`Context ${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function readRetention(context: ContextLookup): RetentionDays {
  const days = readInteger(context, 'logRetentionDays', CONTEXT_DEFAULTS.logRetentionDays, 1, RetentionDays.INFINITE);
  // CloudWatch Logs accepts only these retention periods.
  const allowed = Object.values(RetentionDays).filter((v): v is RetentionDays => typeof v === 'number');
  if (!allowed.includes(days)) {
    throw new Error(`Context logRetentionDays must be one of ${allowed.join(', ')}, got ${days}`);
  }
  return days;
}

function readLogLevel(context: ContextLookup): string {
  const level = String(context('logLevel') ?? CONTEXT_DEFAULTS.logLevel).toUpperCase();
  if (!LOG_LEVELS.includes(level)) throw new Error(`Context logLevel must be one of ${LOG_LEVELS.join(', ')}, got ${level}`);
  return level;
}

function readStageName(context: ContextLookup): string {
  const name = String(context('stageName') ?? CONTEXT_DEFAULTS.stageName);
  // API Gateway stage names: letters, digits, hyphens and underscores.
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(name)) throw new Error(`Context stageName must hold only letters, digits, '-' and '_', got ${JSON.stringify(name)}`);
  return name;
}
