/**
 * The single source of the API's routes: the CDK stack and the local gateway are both built from this
 * table, so they cannot drift. API Gateway cannot route on a query string, so the list and search routes
 * of one path share one route-bound function, whose entry point dispatches on `search`.
 */

export const GENERATOR_ADMIN_ROLE = 'Password Generator Policy Security Administrator';

/** How a route group authenticates (design.md §2). Header names are matched case-insensitively. */
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

/** One route-bound Lambda function: its entry file, the policy table it alone reads, its handlers. */
export interface PolicyFunction {
  readonly id: 'GeneratorPolicies' | 'StrengthPolicies' | 'GeneratePassword' | 'EvaluatePassword';
  /** What it does, for its Lambda description. */
  readonly description: string;
  /** Path of the entry file from the project root. */
  readonly entry: string;
  readonly table: 'generator' | 'strength'; // a key of TABLES
  /** Lambda memory in MiB, for a function that needs more CPU (Lambda's CPU share grows with memory); 256 when absent. */
  readonly memoryMiB?: number;
}

export const POLICY_FUNCTIONS = {
  generatorPolicies: { id: 'GeneratorPolicies', description: 'List and search of password generator policies', entry: 'functions/api/generator-policies.ts', table: 'generator' },
  strengthPolicies: { id: 'StrengthPolicies', description: 'List and search of password strength policies', entry: 'functions/api/strength-policies.ts', table: 'strength' },
  generatePassword: { id: 'GeneratePassword', description: 'Passwords generated from a password generator policy', entry: 'functions/api/generate-password.ts', table: 'generator' },
  // 1024 MB: Lambda gives CPU in proportion to memory, and zxcvbn-ts is CPU-bound twice over, ranking its
  // dictionaries at init (about 0.2 s of CPU) and matching each password per request; at 256 MB both run at
  // a quarter of a vCPU. The listing functions mostly wait on DynamoDB or their cache and keep the default.
  evaluatePassword: {
    id: 'EvaluatePassword',
    description: 'Passwords evaluated against a password strength policy',
    entry: 'functions/api/evaluate-password.ts',
    table: 'strength',
    memoryMiB: 1024,
  },
} as const satisfies Record<string, PolicyFunction>;

export type RouteMethod = 'GET' | 'POST';

export interface Route {
  readonly method: RouteMethod;
  /** The API Gateway resource path (a trailing slash on the request is accepted). */
  readonly path: string;
  /** The query parameters this route accepts (all optional); any other is a 400. */
  readonly query: readonly string[];
  readonly credentials: CredentialScheme;
  readonly function: PolicyFunction;
  /** The exported handler of the entry file that serves this route. */
  readonly handler: string;
}

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/userapi/passwordgenerator', query: [], credentials: CREDENTIAL_SCHEMES.generatorUser, function: POLICY_FUNCTIONS.generatorPolicies, handler: 'listGeneratorPolicies' },
  { method: 'GET', path: '/userapi/passwordgenerator', query: ['search'], credentials: CREDENTIAL_SCHEMES.generatorUser, function: POLICY_FUNCTIONS.generatorPolicies, handler: 'searchGeneratorPolicies' },
  { method: 'GET', path: '/api/passwordstrength', query: [], credentials: CREDENTIAL_SCHEMES.strengthKey, function: POLICY_FUNCTIONS.strengthPolicies, handler: 'listStrengthPolicies' },
  { method: 'GET', path: '/api/passwordstrength', query: ['search'], credentials: CREDENTIAL_SCHEMES.strengthKey, function: POLICY_FUNCTIONS.strengthPolicies, handler: 'searchStrengthPolicies' },
  {
    method: 'GET',
    path: '/userapi/generatepassword',
    query: ['PasswordGeneratorID', 'Qty'],
    credentials: CREDENTIAL_SCHEMES.generatorUser,
    function: POLICY_FUNCTIONS.generatePassword,
    handler: 'generatePasswords',
  },
  {
    method: 'POST',
    path: '/api/passwordstrength/evaluate',
    query: [],
    credentials: CREDENTIAL_SCHEMES.strengthKey,
    function: POLICY_FUNCTIONS.evaluatePassword,
    handler: 'evaluatePassword',
  },
];

/** The authorizer function's entry file (one function, two API Gateway authorizer definitions). */
export const AUTHORIZER_ENTRY = 'functions/authorizer/handler.ts';

export interface ResourcePath {
  readonly path: string;
  /** The methods its routes answer (each path has one); any other method is a 405 naming these in Allow. */
  readonly methods: readonly RouteMethod[];
  readonly function: PolicyFunction;
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

/**
 * Environment variables the functions read. The stack sets them; the local gateway sets the same ones.
 */
export const ENV = {
  policyTable: 'POLICY_TABLE_NAME',
  credentialsTable: 'CREDENTIALS_TABLE_NAME',
  policyCacheTtl: 'POLICY_CACHE_TTL_SECONDS',
} as const;
