import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DEFAULT_POLICY_CACHE_TTL_SECONDS } from '../functions/runtime';
import { DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS, DEFAULT_STACK_NAME } from './deployment';

/**
 * The deploy-time settings of the stack, each read from CDK context (`cdk deploy -c key=value` or cdk.json).
 * Context `stage` picks a preset (STAGE_PRESETS); every other key overrides one value of that preset.
 * Values from the command line arrive as strings, so every reader accepts a string or a JSON value.
 */
export interface StackSettings {
  /** The preset the other values start from. */
  readonly stage: StageName;
  /** A development stack: tables and log groups are destroyed with the stack. */
  readonly dev: boolean;
  readonly stageName: string;
  readonly logRetentionDays: RetentionDays;
  readonly logLevel: string;
  readonly policyCacheTtlSeconds: number;
  readonly authorizerCacheTtlSeconds: number;
  readonly throttlingRateLimit: number;
  readonly throttlingBurstLimit: number;
  /** X-Ray active tracing on every function and on the API stage. */
  readonly tracing: boolean;
  /** A WAF web ACL with a per-source-IP rate-based rule in front of the stage. */
  readonly waf: boolean;
  /** Requests one source IP may send in 5 minutes before WAF blocks it (429). */
  readonly wafRateLimit: number;
  readonly alarms: boolean;
  /** A CloudWatch dashboard of the API, the functions, the cache and the authorizer. */
  readonly dashboard: boolean;
  /** Where the alarms notify: nowhere, a topic this stack creates, or an existing topic. */
  readonly alarmTopic: AlarmTopicSetting;
  /** Create the account-wide (per region) CloudWatch Logs role API Gateway logs through. */
  readonly apiGatewayCloudWatchRole: boolean;
  /**
   * EvaluatePassword also asks Have I Been Pwned's range API, and so has internet egress; off, it runs in
   * an isolated VPC with no route out (docs/operations.md#egress).
   */
  readonly pwnedPasswordsCheck: boolean;
  /** Changes on every synth so the default-policies custom resource runs on every deploy. */
  readonly deployNonce: string;
}

export type AlarmTopicSetting =
  | { readonly kind: 'none' }
  | { readonly kind: 'create' }
  | { readonly kind: 'import'; readonly arn: string };

export type StageName = 'dev' | 'prod';

/** What a `stage` sets: every setting but those given per deploy; an individual context key overrides any. */
export type StagePreset = Omit<StackSettings, 'stage' | 'stageName' | 'alarmTopic' | 'deployNonce'> & {
  readonly stackName: string;
};

/** The stage of a bare `cdk deploy`: production, so a deploy without flags is the production-safe one. */
export const DEFAULT_STAGE: StageName = 'prod';

/** The stage presets (docs/operations.md documents these). */
export const STAGE_PRESETS: Record<StageName, StagePreset> = {
  prod: {
    stackName: DEFAULT_STACK_NAME,
    dev: false,
    logRetentionDays: RetentionDays.THREE_MONTHS,
    logLevel: 'INFO',
    policyCacheTtlSeconds: DEFAULT_POLICY_CACHE_TTL_SECONDS,
    // The revocation bound: at most 5 minutes by default.
    authorizerCacheTtlSeconds: DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS,
    throttlingRateLimit: 50,
    throttlingBurstLimit: 100,
    tracing: true,
    waf: true,
    wafRateLimit: 1000,
    alarms: true,
    dashboard: true,
    apiGatewayCloudWatchRole: true,
    // Off unless asked for: it sends a hash prefix of every evaluated password to a third party.
    pwnedPasswordsCheck: false,
  },
  dev: {
    stackName: `${DEFAULT_STACK_NAME}-dev`,
    dev: true,
    logRetentionDays: RetentionDays.ONE_WEEK,
    logLevel: 'INFO',
    // Short caches so an edited policy or a revoked key shows at once while developing.
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
    pwnedPasswordsCheck: false,
  },
};

const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];
// API Gateway caches authorizer results for at most one hour.
const MAX_AUTHORIZER_CACHE_TTL_SECONDS = 3600;
// WAF rate-based rules accept limits from 10 to 2,000,000,000 requests per evaluation window.
const WAF_RATE_LIMIT_RANGE = [10, 2_000_000_000] as const;

/** Looks a context key up; `undefined` when it is not set. */
export type ContextLookup = (key: string) => unknown;

export function readSettings(context: ContextLookup): StackSettings {
  const stage = readStage(context);
  const preset = STAGE_PRESETS[stage];
  const alarms = readBoolean(context, 'alarms', preset.alarms);
  const alarmTopic = readAlarmTopic(context);
  if (alarmTopic.kind !== 'none' && !alarms)
    throw new Error('Context alarmTopic needs alarms: the alarms of this stack are off (alarms=false)');
  return {
    stage,
    dev: readBoolean(context, 'dev', preset.dev),
    stageName: readStageName(context, stage),
    logRetentionDays: readRetention(context, preset.logRetentionDays),
    logLevel: readLogLevel(context, preset.logLevel),
    policyCacheTtlSeconds: readInteger(context, 'policyCacheTtlSeconds', preset.policyCacheTtlSeconds, 0, 86_400),
    authorizerCacheTtlSeconds: readInteger(
      context,
      'authorizerCacheTtlSeconds',
      preset.authorizerCacheTtlSeconds,
      0,
      MAX_AUTHORIZER_CACHE_TTL_SECONDS,
    ),
    throttlingRateLimit: readInteger(context, 'throttlingRateLimit', preset.throttlingRateLimit, 1, 1_000_000),
    throttlingBurstLimit: readInteger(context, 'throttlingBurstLimit', preset.throttlingBurstLimit, 1, 1_000_000),
    tracing: readBoolean(context, 'tracing', preset.tracing),
    waf: readBoolean(context, 'waf', preset.waf),
    wafRateLimit: readInteger(context, 'wafRateLimit', preset.wafRateLimit, ...WAF_RATE_LIMIT_RANGE),
    alarms,
    dashboard: readBoolean(context, 'dashboard', preset.dashboard),
    alarmTopic,
    apiGatewayCloudWatchRole: readBoolean(context, 'apiGatewayCloudWatchRole', preset.apiGatewayCloudWatchRole),
    pwnedPasswordsCheck: readBoolean(context, 'pwnedPasswordsCheck', preset.pwnedPasswordsCheck),
    deployNonce: String(context('deployNonce') ?? new Date().toISOString()),
  };
}

/** The stack name, read before the stack exists (from the app's context): `stackName`, else the stage's. */
export function readStackName(context: ContextLookup): string {
  const value = context('stackName');
  return value === undefined ? STAGE_PRESETS[readStage(context)].stackName : String(value);
}

function readStage(context: ContextLookup): StageName {
  const value = context('stage') ?? DEFAULT_STAGE;
  if (value !== 'dev' && value !== 'prod') {
    throw new Error(
      `Context stage must be one of ${Object.keys(STAGE_PRESETS).join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
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

function readRetention(context: ContextLookup, fallback: RetentionDays): RetentionDays {
  const days = readInteger(context, 'logRetentionDays', fallback, 1, RetentionDays.INFINITE);
  // CloudWatch Logs accepts only these retention periods.
  const allowed = Object.values(RetentionDays).filter((v): v is RetentionDays => typeof v === 'number');
  if (!allowed.includes(days)) {
    throw new Error(`Context logRetentionDays must be one of ${allowed.join(', ')}, got ${days}`);
  }
  return days;
}

function readLogLevel(context: ContextLookup, fallback: string): string {
  const level = String(context('logLevel') ?? fallback).toUpperCase();
  if (!LOG_LEVELS.includes(level))
    throw new Error(`Context logLevel must be one of ${LOG_LEVELS.join(', ')}, got ${level}`);
  return level;
}

function readStageName(context: ContextLookup, stage: StageName): string {
  const name = String(context('stageName') ?? stage);
  // API Gateway stage names: letters, digits, hyphens and underscores.
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(name))
    throw new Error(`Context stageName must hold only letters, digits, '-' and '_', got ${JSON.stringify(name)}`);
  return name;
}

/** `alarmTopic`: unset or false for none, true to create one, or the ARN of an existing SNS topic. */
function readAlarmTopic(context: ContextLookup): AlarmTopicSetting {
  const value = context('alarmTopic');
  if (value === undefined || value === false || value === 'false' || value === '') return { kind: 'none' };
  if (value === true || value === 'true') return { kind: 'create' };
  // A standard topic only: CloudWatch alarms cannot publish to a FIFO topic.
  if (typeof value === 'string' && /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(value))
    return { kind: 'import', arn: value };
  throw new Error(
    `Context alarmTopic must be true, false or the ARN of a standard SNS topic, got ${JSON.stringify(value)}`,
  );
}
