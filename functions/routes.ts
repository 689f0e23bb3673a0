import type { TableKind } from './repositories/tables';

/**
 * The single source of the API's routes and functions: the CDK stack and the local gateway are both built
 * from this file, so they cannot drift. API Gateway cannot route on a query string, so the list and the
 * search of one collection are two routes of one path, served by one function that reads `search`.
 */

export const GENERATOR_ADMIN_ROLE = 'Password Generator Policy Security Administrator';

/** How a route group authenticates. Header names are matched case-insensitively. */
export interface CredentialScheme {
  readonly name: 'generatorUser' | 'strengthKey';
  /** The identity sources of this scheme's API Gateway authorizer. */
  readonly headers: readonly string[];
  /** Every path of the route group starts with this; the authorizer's policy covers all of it. */
  readonly pathPrefix: string;
  /** The role a user must hold, for schemes that have users. */
  readonly role?: string;
}

export const CREDENTIAL_SCHEMES = {
  generatorUser: { name: 'generatorUser', headers: ['UserID', 'APIKey'], pathPrefix: '/userapi/', role: GENERATOR_ADMIN_ROLE },
  strengthKey: { name: 'strengthKey', headers: ['APIKey'], pathPrefix: '/api/' },
} as const satisfies Record<string, CredentialScheme>;

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

/** The one authorizer function behind both API Gateway authorizer definitions. */
export const AUTHORIZER = {
  id: 'Authorizer',
  description: 'REQUEST authorizer of both route groups (UserID+APIKey for /userapi/, APIKey for /api/)',
  entry: 'functions/api/authorizer.ts',
  table: 'credentials',
} as const satisfies FunctionDefinition;

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
}

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/userapi/passwordgenerator', query: [], credentials: CREDENTIAL_SCHEMES.generatorUser, function: FUNCTIONS.generatorPolicies },
  { method: 'GET', path: '/userapi/passwordgenerator', query: ['search'], credentials: CREDENTIAL_SCHEMES.generatorUser, function: FUNCTIONS.generatorPolicies },
  { method: 'GET', path: '/api/passwordstrength', query: [], credentials: CREDENTIAL_SCHEMES.strengthKey, function: FUNCTIONS.strengthPolicies },
  { method: 'GET', path: '/api/passwordstrength', query: ['search'], credentials: CREDENTIAL_SCHEMES.strengthKey, function: FUNCTIONS.strengthPolicies },
  { method: 'GET', path: '/userapi/generatepassword', query: ['PasswordGeneratorID', 'Qty'], credentials: CREDENTIAL_SCHEMES.generatorUser, function: FUNCTIONS.generatePassword },
  { method: 'POST', path: '/api/passwordstrength/evaluate', query: [], credentials: CREDENTIAL_SCHEMES.strengthKey, function: FUNCTIONS.evaluatePassword },
];

export interface ResourcePath {
  readonly path: string;
  /** The methods its routes answer (each path has one); any other method is a 405 naming these in Allow. */
  readonly methods: readonly RouteMethod[];
  readonly function: RouteFunction;
  readonly credentials: CredentialScheme;
}

/** The distinct resource paths, each with the one function and credential scheme bound to it. */
export function resourcePaths(): ResourcePath[] {
  const byPath = new Map<string, ResourcePath>();
  for (const r of ROUTES) {
    const methods = [...new Set([...(byPath.get(r.path)?.methods ?? []), r.method])];
    byPath.set(r.path, { path: r.path, methods, function: r.function, credentials: r.credentials });
  }
  return [...byPath.values()];
}

/** The credential scheme guarding a request path, by its route group prefix. */
export function schemeForPath(path: string): CredentialScheme | undefined {
  return Object.values(CREDENTIAL_SCHEMES).find((s) => path.startsWith(s.pathPrefix));
}
