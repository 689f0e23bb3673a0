import type { KeyKind } from './domain/api-key';
import type { SettingField } from './domain/generator-settings';
import type { TableKind } from './repositories/tables';
import { DEFAULT_DYNAMODB_MAX_ATTEMPTS, DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS, DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS, ENV } from './runtime';

/**
 * The single source of the API's routes and functions: the CDK stack and the local gateway are both built
 * from this file, so they cannot drift. API Gateway cannot route on a query string, so the list and the
 * search of one collection are two routes of one path, served by one function that reads `search`.
 */

export const GENERATOR_ADMIN_ROLE = 'Password Generator Policy Security Administrator';

/**
 * How a route group authenticates: Passwordstate's three credentials, each opening only its own paths (the
 * routes below that name it). Header names are matched case-insensitively.
 */
export interface CredentialScheme {
  readonly name: 'generatorUser' | 'generatorKey' | 'strengthKey';
  /** The identity sources of this scheme's API Gateway authorizer. */
  readonly headers: readonly string[];
  /** The kind of key the APIKey header must hold (functions/domain/api-key.ts). */
  readonly keyKind: KeyKind;
  /** The role a user must hold, for schemes that have users. */
  readonly role?: string;
}

export const CREDENTIAL_SCHEMES = {
  generatorUser: { name: 'generatorUser', headers: ['UserID', 'APIKey'], keyKind: 'user', role: GENERATOR_ADMIN_ROLE },
  generatorKey: { name: 'generatorKey', headers: ['APIKey'], keyKind: 'generator' },
  strengthKey: { name: 'strengthKey', headers: ['APIKey'], keyKind: 'strength' },
} as const satisfies Record<string, CredentialScheme>;

/**
 * Per-credential rate limits: API Gateway usage plans, one API key per issued key (the authorizer names it),
 * so one client cannot starve the others (docs/operations.md#rate-limits-per-credential). A key is on the
 * default plan until an operator moves it (npm run credentials -- usage-plan set). The stage's own
 * throttling stays the ceiling of all of them together.
 */
export const USAGE_PLANS = {
  standard: { rateLimit: 10, burstLimit: 20, quotaPerDay: 100_000 },
  high: { rateLimit: 50, burstLimit: 100, quotaPerDay: 1_000_000 },
} as const satisfies Record<string, { rateLimit: number; burstLimit: number; quotaPerDay: number }>;

export type UsagePlanName = keyof typeof USAGE_PLANS;
export const DEFAULT_USAGE_PLAN: UsagePlanName = 'standard';

/** The stack output holding a usage plan's id, which the credentials CLI reads (UsagePlanStandardId). */
export function usagePlanOutput(name: string): string {
  return `UsagePlan${name.charAt(0).toUpperCase()}${name.slice(1)}Id`;
}

/** Whether a name (from a record or the command line) is one of USAGE_PLANS, and no inherited name. */
export function isUsagePlanName(name: unknown): name is UsagePlanName {
  return typeof name === 'string' && Object.hasOwn(USAGE_PLANS, name);
}

/** A known plan name, or the default for anything else (a record written by hand). */
export function usagePlanOf(name: unknown): UsagePlanName {
  return isUsagePlanName(name) ? name : DEFAULT_USAGE_PLAN;
}

/**
 * How long API Gateway keeps an authorizer's answer per identity: the bound on how long a revoked key, a
 * disabled user or a removed role keeps working (the authorizer itself caches nothing).
 */
export const DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS = 300;

/** A Lambda function of the service: its entry file (exporting `handler`) and what it needs. */
export interface FunctionDefinition {
  readonly id: 'GeneratorPolicies' | 'StrengthPolicies' | 'GeneratePassword' | 'EvaluatePassword' | 'Authorizer';
  /** What it does, for its Lambda description. */
  readonly description: string;
  /** Path of the entry file from the project root. */
  readonly entry: string;
  /** The one table it reads. */
  readonly table: TableKind;
  /** Lambda memory in MiB, for a function that needs more CPU (Lambda's CPU share grows with memory); 256 when absent. */
  readonly memoryMiB?: number;
}

/** The functions that serve routes; each reads only its own table. */
export const FUNCTIONS = {
  generatorPolicies: { id: 'GeneratorPolicies', description: 'List and search of password generator policies', entry: 'functions/api/generator-policies.ts', table: 'generator' },
  strengthPolicies: { id: 'StrengthPolicies', description: 'List and search of password strength policies', entry: 'functions/api/strength-policies.ts', table: 'strength' },
  generatePassword: { id: 'GeneratePassword', description: 'Passwords generated from a password generator policy', entry: 'functions/api/generate-password.ts', table: 'generator' },
  // 1024 MB: Lambda gives CPU in proportion to memory, and zxcvbn-ts is CPU-bound twice over, ranking its
  // dictionaries at init and matching each password per request; at 256 MB both would run at a quarter of a
  // vCPU. The other functions mostly wait on DynamoDB or their cache and keep the default.
  evaluatePassword: {
    id: 'EvaluatePassword',
    description: 'Passwords evaluated against a password strength policy',
    entry: 'functions/api/evaluate-password.ts',
    table: 'strength',
    memoryMiB: 1024,
  },
} as const satisfies Record<string, FunctionDefinition>;

/** A function that serves routes, as FUNCTIONS defines it. */
export type RouteFunction = FunctionDefinition & { readonly id: (typeof FUNCTIONS)[keyof typeof FUNCTIONS]['id']; readonly table: 'generator' | 'strength' };

/** The one authorizer function behind the three API Gateway authorizer definitions. */
export const AUTHORIZER = {
  id: 'Authorizer',
  description: 'REQUEST authorizer of the three credentials: UserID+APIKey for /userapi/, a generator or a strength APIKey for /api/',
  entry: 'functions/api/authorizer.ts',
  table: 'credentials',
} as const satisfies FunctionDefinition;

/**
 * The time budget of one request, end to end (docs/operations.md#timeout-budget). The authorizer runs, then
 * the function; each bounds its DynamoDB calls below its Lambda timeout, and the two timeouts together stay
 * below API Gateway's 29 s integration timeout, so a slow or hung DynamoDB ends in an answer of ours (503),
 * never a Lambda timeout. A DynamoDB call costs at most attempts × (1 s to connect + the request timeout),
 * plus the SDK's backoff between attempts; the authorizer adds at most LAST_USED_WRITE_TIMEOUT_MS, and
 * EvaluatePassword, with its Pwned Passwords check on, at most pwnedPasswordsTimeoutMs (then it fails open).
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
export function dynamodbBudget(budget: { readonly dynamodbMaxAttempts: number; readonly dynamodbRequestTimeoutMs: number }): Record<string, string> {
  return { [ENV.dynamodbMaxAttempts]: String(budget.dynamodbMaxAttempts), [ENV.dynamodbRequestTimeout]: String(budget.dynamodbRequestTimeoutMs) };
}

/**
 * The environment that turns EvaluatePassword's Pwned Passwords check on, bounded by its share of TIME_BUDGET:
 * the stack sets it where the stage setting pwnedPasswordsCheck is true, the local run where PWNED_PASSWORDS_CHECK=true.
 */
export function pwnedPasswordsEnvironment(): Record<string, string> {
  return { [ENV.pwnedPasswordsCheck]: 'true', [ENV.pwnedPasswordsTimeout]: String(TIME_BUDGET.functions.pwnedPasswordsTimeoutMs) };
}

/** Request limits the functions enforce and the API description states. */
export const LIMITS = {
  /** Passwords per generation request. */
  generatedPasswords: 100,
  /** Bytes of an evaluation's JSON body (API Gateway itself accepts up to 10 MB, and cannot be told less). */
  evaluationBodyBytes: 4096,
} as const;

export type RouteMethod = 'GET' | 'POST';

export interface Route {
  readonly method: RouteMethod;
  /** The API Gateway resource path (a trailing slash on the request is accepted). */
  readonly path: string;
  /** The query parameters this route accepts (all optional); any other is a 400. */
  readonly query: readonly string[];
  readonly credentials: CredentialScheme;
  readonly function: RouteFunction;
  /**
   * The query is read as Passwordstate's server reads it: a `%` that does not start a valid escape is taken
   * literally (a client sends `specialCharsText=!$%+-_=^` unencoded). Elsewhere it is a 400.
   */
  readonly lenientQuery?: true;
}

const { generatorUser, generatorKey, strengthKey } = CREDENTIAL_SCHEMES;
const { generatorPolicies, strengthPolicies, generatePassword, evaluatePassword } = FUNCTIONS;

/**
 * The generation settings (functions/domain/generator-settings.ts) by the query parameter that carries each,
 * named as Passwordstate's clients send them, and the policy field each sets. On the generation routes query
 * parameter names are matched case-insensitively, as Passwordstate's own server matches them.
 */
export const GENERATION_SETTINGS = {
  IncludeAlphaSpecial: 'IncludeAlphaSpecial',
  IncludeWordPhrases: 'IncludeWordPhrases',
  minLength: 'MinLength',
  maxLength: 'MaxLength',
  lowerCaseChars: 'LowerCaseChars',
  upperCaseChars: 'UpperCaseChars',
  numericChars: 'NumericChars',
  higherAlphaRatio: 'HigherAlphaRatio',
  ambiguousChars: 'AmbiguousChars',
  specialChars: 'SpecialChars',
  specialCharsText: 'SpecialCharsText',
  bracketChars: 'BracketChars',
  bracketCharsText: 'BracketCharsText',
  NumberOfWords: 'NumberOfWords',
  MaxWordLength: 'MaximumWordLength',
  PrefixAppend: 'PrefixAppendWords',
  SeparateWords: 'SeparateWordsWith',
  ExcludeChars: 'ExcludeChars',
  GeneratePattern: 'GeneratePattern',
  Pattern: 'Pattern',
} as const satisfies Record<string, SettingField>;

export type GenerationSetting = keyof typeof GENERATION_SETTINGS;

/** The query parameters of generation: a stored policy and a quantity, and the settings of a one-off policy. */
export const GENERATION_QUERY: readonly ('PasswordGeneratorID' | 'Qty' | GenerationSetting)[] = ['PasswordGeneratorID', 'Qty', ...(Object.keys(GENERATION_SETTINGS) as GenerationSetting[])];

/** Generator policies and generation are served twice: to a user on /userapi/ and to the generator API key on /api/. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/userapi/passwordgenerator', query: [], credentials: generatorUser, function: generatorPolicies },
  { method: 'GET', path: '/userapi/passwordgenerator', query: ['search'], credentials: generatorUser, function: generatorPolicies },
  { method: 'GET', path: '/api/passwordstrength', query: [], credentials: strengthKey, function: strengthPolicies },
  { method: 'GET', path: '/api/passwordstrength', query: ['search'], credentials: strengthKey, function: strengthPolicies },
  { method: 'GET', path: '/userapi/generatepassword', query: GENERATION_QUERY, credentials: generatorUser, function: generatePassword, lenientQuery: true },
  { method: 'POST', path: '/api/passwordstrength/evaluate', query: [], credentials: strengthKey, function: evaluatePassword },
  { method: 'GET', path: '/api/passwordgenerator', query: [], credentials: generatorKey, function: generatorPolicies },
  { method: 'GET', path: '/api/passwordgenerator', query: ['search'], credentials: generatorKey, function: generatorPolicies },
  { method: 'GET', path: '/api/generatepassword', query: GENERATION_QUERY, credentials: generatorKey, function: generatePassword, lenientQuery: true },
];

export interface ResourcePath {
  readonly path: string;
  /** The methods its routes answer (each path has one); any other method is a 405 naming these in Allow. */
  readonly methods: readonly RouteMethod[];
  readonly function: RouteFunction;
  readonly credentials: CredentialScheme;
  readonly lenientQuery?: true;
}

/** The distinct resource paths, each with the one function and credential scheme bound to it. */
export function resourcePaths(): ResourcePath[] {
  const byPath = new Map<string, ResourcePath>();
  for (const r of ROUTES) {
    const methods = [...new Set([...(byPath.get(r.path)?.methods ?? []), r.method])];
    byPath.set(r.path, { path: r.path, methods, function: r.function, credentials: r.credentials, ...(r.lenientQuery ? { lenientQuery: true } : {}) });
  }
  return [...byPath.values()];
}

/** The credential scheme guarding an API Gateway resource path (a route's path, as the authorizer's event names it). */
export function schemeForPath(path: string): CredentialScheme | undefined {
  return ROUTES.find((r) => r.path === path)?.credentials;
}

/** The resource paths a credential scheme opens: exactly those of its routes. */
export function schemePaths(scheme: CredentialScheme): string[] {
  return [...new Set(ROUTES.filter((r) => r.credentials.name === scheme.name).map((r) => r.path))];
}
