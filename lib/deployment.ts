import { FUNCTIONS, USAGE_PLAN_NAMES, type FunctionId, type UsagePlanName } from '../functions/routes';
import {
  DEFAULT_DYNAMODB_MAX_ATTEMPTS,
  DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS,
  DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS,
  ENV,
  SERVICE_NAME,
} from '../functions/runtime';

/**
 * What a deployment sets around the functions, and the local run copies: memory, timeouts and the environment
 * that bounds each function's calls, the per-credential usage plans, the authorizer cache, the stack's name
 * and outputs. Plain data, no aws-cdk-lib: the stack reads it, and so may local/ and the operator CLIs
 * (admin/); the functions never do, they read what it sets from their environment (functions/runtime.ts).
 */

/** The stack a bare `cdk deploy` creates (the production stage; the dev stage adds `-dev`), and the CLIs' default --stack. */
export const DEFAULT_STACK_NAME = SERVICE_NAME;

/** The stack's outputs, by what they hold: the operator CLIs find their tables and usage plans by these names. */
export const STACK_OUTPUTS = {
  apiUrl: 'ApiUrl',
  generatorPolicyTable: 'GeneratorPolicyTableName',
  strengthPolicyTable: 'StrengthPolicyTableName',
  credentialsTable: 'CredentialsTableName',
  policyHistoryTable: 'PolicyHistoryTableName',
  alarmTopic: 'AlarmTopicArn',
  /** Each usage plan's id (UsagePlanStandardId), which the credentials CLI reads. */
  usagePlans: Object.fromEntries(
    USAGE_PLAN_NAMES.map((name) => [name, `UsagePlan${name.charAt(0).toUpperCase()}${name.slice(1)}Id`]),
  ) as Readonly<Record<UsagePlanName, string>>,
} as const;

/** Lambda memory in MiB of a function that needs no more: the CPU share that keeps a minified bundle's cold start short, at little cost. */
export const DEFAULT_MEMORY_MIB = 256;

/** Lambda memory in MiB of the functions that need more CPU than the default buys (Lambda's CPU share grows with memory). */
const MEMORY_MIB: Readonly<Partial<Record<FunctionId, number>>> = {
  // 1024 MB: zxcvbn-ts is CPU-bound twice over, ranking its dictionaries at init and matching each password per
  // request; at the default both would run at a quarter of a vCPU. The other functions mostly wait on
  // DynamoDB or their cache.
  [FUNCTIONS.evaluatePassword.id]: 1024,
};

/** A function's Lambda memory in MiB. */
export function memoryOf(id: FunctionId): number {
  return MEMORY_MIB[id] ?? DEFAULT_MEMORY_MIB;
}

/**
 * The time budget of one request, end to end (docs/operations.md#timeout-budget). The authorizer runs, then
 * the function; each bounds its DynamoDB calls below its Lambda timeout, and the two timeouts together stay
 * below API Gateway's 29 s integration timeout, so a slow or hung DynamoDB ends in an answer of ours (503),
 * never a Lambda timeout. A DynamoDB call costs at most attempts × (1 s to connect + the request timeout),
 * plus the SDK's backoff between attempts; the authorizer adds at most LAST_USED_WRITE_TIMEOUT_MS, and
 * EvaluatePassword, with its Pwned Passwords check on, at most pwnedPasswordsTimeoutMs (then it fails open).
 * The functions run on their own defaults (functions/runtime.ts); the authorizer is given less.
 */
export const TIME_BUDGET = {
  apiGatewaySeconds: 29,
  authorizer: { lambdaTimeoutSeconds: 5, dynamodbMaxAttempts: 2, dynamodbRequestTimeoutMs: 1000 },
  functions: {
    lambdaTimeoutSeconds: 12,
    dynamodbMaxAttempts: DEFAULT_DYNAMODB_MAX_ATTEMPTS,
    dynamodbRequestTimeoutMs: DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS,
    pwnedPasswordsTimeoutMs: DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS,
  },
} as const;

/** The environment that holds a function to its DynamoDB share of TIME_BUDGET, in the stack and the local run alike. */
export function dynamodbBudget(budget: {
  readonly dynamodbMaxAttempts: number;
  readonly dynamodbRequestTimeoutMs: number;
}): Record<string, string> {
  return {
    [ENV.dynamodbMaxAttempts]: String(budget.dynamodbMaxAttempts),
    [ENV.dynamodbRequestTimeout]: String(budget.dynamodbRequestTimeoutMs),
  };
}

/**
 * The environment that turns EvaluatePassword's Pwned Passwords check on, bounded by its share of TIME_BUDGET:
 * the stack sets it where the stage setting pwnedPasswordsCheck is true, the local run where PWNED_PASSWORDS_CHECK=true.
 */
export function pwnedPasswordsEnvironment(): Record<string, string> {
  return {
    [ENV.pwnedPasswordsCheck]: 'true',
    [ENV.pwnedPasswordsTimeout]: String(TIME_BUDGET.functions.pwnedPasswordsTimeoutMs),
  };
}

/**
 * How long API Gateway keeps an authorizer's answer per identity: the bound on how long a revoked key, a
 * disabled user or a removed role keeps working (the authorizer itself caches nothing).
 */
export const DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS = 300;

export interface UsagePlanLimits {
  readonly rateLimit: number;
  readonly burstLimit: number;
  readonly quotaPerDay: number;
}

/**
 * Per-credential rate limits: API Gateway usage plans, one API key per issued key (the authorizer names it),
 * so one client cannot starve the others (docs/operations.md#rate-limits-per-credential). A key is on the
 * default plan (functions/routes.ts) until an operator moves it (npm run credentials -- usage-plan set). The
 * stage's own throttling stays the ceiling of all of them together.
 */
export const USAGE_PLANS = {
  standard: { rateLimit: 10, burstLimit: 20, quotaPerDay: 100_000 },
  high: { rateLimit: 50, burstLimit: 100, quotaPerDay: 1_000_000 },
} as const satisfies Record<UsagePlanName, UsagePlanLimits>;
