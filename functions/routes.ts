import type { KeyKind } from './domain/api-key';
import type { SettingField } from './domain/generator-settings';
import type { TableKind } from './repositories/tables';

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
 * The message a REQUEST authorizer throws for API Gateway to answer 401 (its UNAUTHORIZED gateway response);
 * anything else it throws is an authorizer error (503). The local gateway reads it the same way.
 */
export const UNAUTHORIZED_ERROR = 'Unauthorized';

/**
 * The per-credential usage plans a key can be on: API Gateway meters each issued key against one (their
 * limits are the deployment's, lib/deployment.ts), and the authorizer names the key's plan in its context.
 */
export const USAGE_PLAN_NAMES = ['standard', 'high'] as const;
export type UsagePlanName = (typeof USAGE_PLAN_NAMES)[number];
/** The plan of a key no operator has moved (npm run credentials -- usage-plan set). */
export const DEFAULT_USAGE_PLAN: UsagePlanName = 'standard';

/** Whether a name (from a record or the command line) is one of USAGE_PLAN_NAMES, and no inherited name. */
export function isUsagePlanName(name: unknown): name is UsagePlanName {
  return typeof name === 'string' && (USAGE_PLAN_NAMES as readonly string[]).includes(name);
}

/** A known plan name, or the default for anything else (a record written by hand). */
export function usagePlanOf(name: unknown): UsagePlanName {
  return isUsagePlanName(name) ? name : DEFAULT_USAGE_PLAN;
}

/** A Lambda function of the service: its entry file (exporting `handler`) and what it needs (its memory and timeout: lib/deployment.ts). */
export interface FunctionDefinition {
  readonly id: 'GeneratorPolicies' | 'StrengthPolicies' | 'GeneratePassword' | 'EvaluatePassword' | 'Authorizer';
  /** What it does, for its Lambda description. */
  readonly description: string;
  /** Path of the entry file from the project root. */
  readonly entry: string;
  /** The one table it reads. */
  readonly table: TableKind;
}

export type FunctionId = FunctionDefinition['id'];

/** The functions that serve routes; each reads only its own table. */
export const FUNCTIONS = {
  generatorPolicies: {
    id: 'GeneratorPolicies',
    description: 'List and search of password generator policies',
    entry: 'functions/api/generator-policies.ts',
    table: 'generator',
  },
  strengthPolicies: {
    id: 'StrengthPolicies',
    description: 'List and search of password strength policies',
    entry: 'functions/api/strength-policies.ts',
    table: 'strength',
  },
  generatePassword: {
    id: 'GeneratePassword',
    description: 'Passwords generated from a password generator policy',
    entry: 'functions/api/generate-password.ts',
    table: 'generator',
  },
  evaluatePassword: {
    id: 'EvaluatePassword',
    description: 'Passwords evaluated against a password strength policy',
    entry: 'functions/api/evaluate-password.ts',
    table: 'strength',
  },
} as const satisfies Record<string, FunctionDefinition>;

/** A function that serves routes, as FUNCTIONS defines it. */
export type RouteFunction = FunctionDefinition & {
  readonly id: (typeof FUNCTIONS)[keyof typeof FUNCTIONS]['id'];
  readonly table: 'generator' | 'strength';
};

/** The one authorizer function behind the three API Gateway authorizer definitions. */
export const AUTHORIZER = {
  id: 'Authorizer',
  description:
    'REQUEST authorizer of the three credentials: UserID+APIKey for /userapi/, a generator or a strength APIKey for /api/',
  entry: 'functions/api/authorizer.ts',
  table: 'credentials',
} as const satisfies FunctionDefinition;

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
export const GENERATION_QUERY: readonly ('PasswordGeneratorID' | 'Qty' | GenerationSetting)[] = [
  'PasswordGeneratorID',
  'Qty',
  ...(Object.keys(GENERATION_SETTINGS) as GenerationSetting[]),
];

/** Generator policies and generation are served twice: to a user on /userapi/ and to the generator API key on /api/. */
export const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: '/userapi/passwordgenerator',
    query: [],
    credentials: generatorUser,
    function: generatorPolicies,
  },
  {
    method: 'GET',
    path: '/userapi/passwordgenerator',
    query: ['search'],
    credentials: generatorUser,
    function: generatorPolicies,
  },
  { method: 'GET', path: '/api/passwordstrength', query: [], credentials: strengthKey, function: strengthPolicies },
  {
    method: 'GET',
    path: '/api/passwordstrength',
    query: ['search'],
    credentials: strengthKey,
    function: strengthPolicies,
  },
  {
    method: 'GET',
    path: '/userapi/generatepassword',
    query: GENERATION_QUERY,
    credentials: generatorUser,
    function: generatePassword,
    lenientQuery: true,
  },
  {
    method: 'POST',
    path: '/api/passwordstrength/evaluate',
    query: [],
    credentials: strengthKey,
    function: evaluatePassword,
  },
  { method: 'GET', path: '/api/passwordgenerator', query: [], credentials: generatorKey, function: generatorPolicies },
  {
    method: 'GET',
    path: '/api/passwordgenerator',
    query: ['search'],
    credentials: generatorKey,
    function: generatorPolicies,
  },
  {
    method: 'GET',
    path: '/api/generatepassword',
    query: GENERATION_QUERY,
    credentials: generatorKey,
    function: generatePassword,
    lenientQuery: true,
  },
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
    byPath.set(r.path, {
      path: r.path,
      methods,
      function: r.function,
      credentials: r.credentials,
      ...(r.lenientQuery ? { lenientQuery: true } : {}),
    });
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

/**
 * How a sentence names the paths a credential scheme opens: their folder when the scheme opens every path
 * in it ("/userapi/"), else its paths less those below another of them ("/api/passwordstrength" covers
 * /api/passwordstrength/evaluate).
 */
export function schemeScope(scheme: CredentialScheme): string {
  const paths = schemePaths(scheme);
  const [folder, ...others] = new Set(paths.map(folderOf));
  if (others.length === 0 && ROUTES.every((r) => folderOf(r.path) !== folder || r.credentials.name === scheme.name))
    return folder!;
  return listed(paths.filter((path) => !paths.some((other) => path.startsWith(`${other}/`))));
}

/** A path's first segment, with its slashes: /userapi/passwordgenerator → /userapi/. */
function folderOf(path: string): string {
  return path.slice(0, path.indexOf('/', 1) + 1);
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "the APIKey header", "the UserID and APIKey headers". */
function headersOf(scheme: CredentialScheme): string {
  return `the ${listed(scheme.headers)} header${scheme.headers.length > 1 ? 's' : ''}`;
}

/** Which credentials open which paths, in the words of the refusals below. */
const CREDENTIALS_NEEDED =
  `${schemeScope(generatorUser)} needs ${headersOf(generatorUser)} of a user, ` +
  `${schemeScope(generatorKey)} ${headersOf(generatorKey)} of a password generator API key, ` +
  `${schemeScope(strengthKey)} ${headersOf(strengthKey)} of a password strength key.`;

/**
 * The phrases that name the route table's paths, headers and role, built from it: the authorizer's Deny, and
 * the refusals API Gateway and the local gateway answer before any function runs (docs/api.md#errors).
 */
export const ROUTE_PHRASES = {
  unauthorized: `Credentials are missing or not valid: ${CREDENTIALS_NEEDED}`,
  missingRole: `This user does not hold the ${GENERATOR_ADMIN_ROLE} role.`,
  // API Gateway's own 403s (its API key, signature and token checks), which the API description declares too.
  forbidden: `The request was refused; ${CREDENTIALS_NEEDED}`,
  notFound: `No such path; the paths are ${listed(Object.values(CREDENTIAL_SCHEMES).flatMap(schemePaths))}.`,
} as const;
