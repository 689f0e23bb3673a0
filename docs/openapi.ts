import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { generatorPolicies } from '../functions/domain/generator-policy';
import { zxcvbnEstimator } from '../functions/domain/guessability';
import { DEFAULT_POLICY_ID, MAX_SEARCH_LENGTH, validatePolicy, type PolicyResource } from '../functions/domain/policy-collection';
import { evaluatePassword, MAX_PASSWORD_LENGTH, type CompositionFailure, type CompositionRule, type StrengthEvaluation } from '../functions/domain/strength-evaluator';
import { COMPLIANCE_LEVELS, strengthPolicies, type StrengthPolicy } from '../functions/domain/strength-policy';
import { CACHE_CONTROL, errorEnvelope, PHRASES, REASON_PHRASES, type ErrorStatus } from '../functions/http';
import { MAX_GENERATED_LENGTH } from '../functions/domain/generator-policy';
import { GENERATION_SETTINGS, LIMITS, resourcePaths, type CredentialScheme, type GenerationSetting, type ResourcePath, type RouteMethod } from '../functions/routes';

/**
 * The OpenAPI 3.1 description of the API, generated from what the code itself uses: the route table, the
 * resource schemas (zod → JSON Schema), the error phrases and the seed data (examples). `npm run openapi`
 * writes it to docs/openapi.json; a test fails when the committed file and this generator disagree.
 */
const ROOT = path.join(__dirname, '..');
export const OPENAPI_FILE = path.join(__dirname, 'openapi.json');

const RESOURCES: Record<'generator' | 'strength', { name: string; resource: PolicyResource<object>; seed: string }> = {
  generator: { name: 'GeneratorPolicy', resource: generatorPolicies as PolicyResource<object>, seed: 'generator-policies.json' },
  strength: { name: 'StrengthPolicy', resource: strengthPolicies as PolicyResource<object>, seed: 'strength-policies.json' },
};

/** Security schemes by credential scheme: /userapi/ needs both of its headers, /api/ one key of its kind. */
const SECURITY: Record<CredentialScheme['name'], Record<string, string[]>[]> = {
  generatorUser: [{ UserID: [], UserAPIKey: [] }],
  generatorKey: [{ PasswordGeneratorAPIKey: [] }],
  strengthKey: [{ PasswordStrengthAPIKey: [] }],
};

/** What each credential scheme needs, for operation descriptions. */
const NEEDS: Record<CredentialScheme['name'], string> = {
  generatorUser: 'Needs a user (UserID and APIKey) holding the Password Generator Policy Security Administrator role.',
  generatorKey: 'Needs a password generator API key (APIKey), as the Passwordstate clients send it.',
  strengthKey: 'Needs a password strength key.',
};

/** Operation ids: one function serves a user's and a generator key's route, so the scheme tells them apart. */
const operationId = (name: string, route: ResourcePath) => (route.credentials.name === 'generatorKey' ? `${name}ByAPIKey` : name);

/** What each generation setting is, for its query parameter's schema and description. */
const SETTING_DOCS: Record<GenerationSetting, { type: 'boolean' | 'integer' | 'string'; about: string }> = {
  IncludeAlphaSpecial: { type: 'boolean', about: 'random characters of the classes switched on' },
  IncludeWordPhrases: { type: 'boolean', about: 'words of the word list' },
  minLength: { type: 'integer', about: 'the shortest password of random characters (4..256)' },
  maxLength: { type: 'integer', about: 'the longest password of random characters (4..256, at least minLength)' },
  lowerCaseChars: { type: 'boolean', about: 'lower-case letters' },
  upperCaseChars: { type: 'boolean', about: 'upper-case letters' },
  numericChars: { type: 'boolean', about: 'digits' },
  higherAlphaRatio: { type: 'boolean', about: 'letters more than half of the random characters' },
  ambiguousChars: { type: 'boolean', about: 'allow 0 O o 1 l I | (false: none of them anywhere in the password, words included)' },
  specialChars: { type: 'boolean', about: 'characters of specialCharsText' },
  specialCharsText: { type: 'string', about: 'the special characters; read only while specialChars is on' },
  bracketChars: { type: 'boolean', about: 'characters of bracketCharsText' },
  bracketCharsText: { type: 'string', about: 'the bracket characters; read only while bracketChars is on' },
  NumberOfWords: { type: 'integer', about: 'words in a phrase (1..20); read only while IncludeWordPhrases is on' },
  MaxWordLength: { type: 'integer', about: 'the longest word (3..20); read only while IncludeWordPhrases or GeneratePattern is on' },
  PrefixAppend: { type: 'string', about: 'P random characters before the words, A after them, I between them; read only while IncludeWordPhrases is on' },
  SeparateWords: { type: 'string', about: 'S a space, D a dash, N nothing; read only while IncludeWordPhrases is on' },
  ExcludeChars: { type: 'string', about: 'characters that never appear anywhere in the password' },
  GeneratePattern: { type: 'boolean', about: 'the pattern alone shapes the password' },
  Pattern: { type: 'string', about: `the pattern (docs/decisions.md#pattern-syntax), at most ${MAX_GENERATED_LENGTH} characters generated; read only while GeneratePattern is on` },
};

function settingParameter(setting: GenerationSetting): Record<string, unknown> {
  const { type, about } = SETTING_DOCS[setting];
  const field = GENERATION_SETTINGS[setting];
  const values = type === 'boolean' ? ' `true` or `false`, in any letter case.' : type === 'integer' ? ' A whole number.' : '';
  return {
    name: setting,
    in: 'query',
    required: false,
    description: `Sets the policy field ${field}: ${about}.${values} Empty or absent: the policy's own value.`,
    schema: { type: 'string' },
  };
}

const ERROR_RESPONSES: { status: ErrorStatus; phrase: string; when: string; onlyWithRole?: boolean }[] = [
  { status: 400, phrase: 'Unknown query parameter "serach"; the only parameter is "search".', when: 'A bad query: an unknown parameter, `search` given twice or over 256 characters, invalid percent-encoding.' },
  { status: 401, phrase: PHRASES.unauthorized, when: 'Credentials missing, malformed, unknown, revoked, disabled, or of the other route group.' },
  { status: 403, phrase: PHRASES.missingRole, when: 'A valid user without the Password Generator Policy Security Administrator role.', onlyWithRole: true },
  { status: 429, phrase: PHRASES.throttled, when: "Throttled by the key's own usage plan (rate, burst, daily quota) or the stage's rate or burst limit." },
  { status: 500, phrase: PHRASES.internal, when: 'An unexpected fault behind the API.' },
  { status: 503, phrase: PHRASES.unavailable, when: 'DynamoDB unavailable and nothing cached, or the function timed out.' },
];

/** The passwords of the evaluation examples; their answers are computed from them (evaluationExample). */
export const EVALUATION_EXAMPLE_PASSWORD = 'Correct-Horse-7';
export const WEAK_EXAMPLE_PASSWORD = 'password1';

/** The fields of StrengthEvaluation and CompositionFailure, in their order; the compiler checks that none is missing. */
export const EVALUATION_FIELDS = ['PasswordStrengthPolicyID', 'Score', 'ComplianceLevel', 'ComplianceLevelName', 'Compliant', 'Mandatory', 'Failures', 'Suggestions'] as const;
export const FAILURE_FIELDS = ['Rule', 'Required', 'Found', 'Message'] as const;
/** Every CompositionRule, in the specification's field order (compositionFailures reports them in this order), then BreachedPassword. */
export const COMPOSITION_RULES = ['MinimumLowerCaseCharacters', 'MinimumNumericCharacters', 'MinimumSymbolCharacters', 'MinimumUpperCaseCharacters', 'RequiresUpperAndLowerCase', 'BreachedPassword'] as const;
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const exhaustive: [
  Exactly<(typeof EVALUATION_FIELDS)[number], keyof StrengthEvaluation>,
  Exactly<(typeof FAILURE_FIELDS)[number], keyof CompositionFailure>,
  Exactly<(typeof COMPOSITION_RULES)[number], CompositionRule>,
] = [true, true, true];
void exhaustive;

/**
 * What POST /api/passwordstrength/evaluate answers for EVALUATION_EXAMPLE_PASSWORD against seed strength
 * policy 1, computed by the service's own evaluator and estimator, so the example cannot drift from the code.
 */
export function evaluationExample(password = EVALUATION_EXAMPLE_PASSWORD): StrengthEvaluation {
  const seed = (JSON.parse(readFileSync(path.join(ROOT, 'seed', RESOURCES.strength.seed), 'utf8')) as unknown[]).find(
    (p) => (p as StrengthPolicy).PasswordStrengthPolicyID === DEFAULT_POLICY_ID,
  );
  const validated = validatePolicy(strengthPolicies, seed);
  if (!validated.ok) throw new Error(`seed strength policy ${DEFAULT_POLICY_ID} is not valid: ${validated.problems.join('; ')}`);
  return evaluatePassword(validated.policy, password, zxcvbnEstimator());
}

export function buildOpenApiDocument(): Record<string, unknown> {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Password Policy Service',
      version,
      summary: 'Read-only password generator and password strength policies, as the Passwordstate API serves them.',
      description:
        'Every error has the envelope `[{"errors":[{"message":"<reason phrase>"},{"phrase":"<what to do>"}]}]`. ' +
        'A trailing slash on a path is optional. Header names are case-insensitive. Elements are ordered by identifier.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'The local gateway (`npm start`)' },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com/{stage}',
        description: 'A deployed stage (the stack output ApiUrl)',
        variables: { apiId: { default: 'abcdef1234' }, region: { default: 'eu-west-1' }, stage: { default: 'prod' } },
      },
    ],
    tags: [
      { name: 'Generator policies', description: 'Password generator policies and generation, for generator policy administrators (/userapi/) and the password generator API key (/api/).' },
      { name: 'Strength policies', description: 'Password strength policies, for password strength keys (/api/passwordstrength).' },
    ],
    paths: Object.fromEntries(resourcePaths().map((route) => [route.path, Object.fromEntries(route.methods.map((method) => [method.toLowerCase(), operationOf(route, method)]))])),
    components: {
      schemas: {
        ...Object.fromEntries(Object.values(RESOURCES).map(({ name, resource }) => [name, resourceSchema(resource)])),
        ErrorEnvelope: errorEnvelopeSchema(),
        GeneratedPassword: {
          type: 'object',
          required: ['Password'],
          additionalProperties: false,
          properties: { Password: { type: 'string', description: 'A password generated from the policy; shown once, never stored or cached.' } },
        },
        ...evaluationSchemas(),
      },
      securitySchemes: {
        UserID: { type: 'apiKey', in: 'header', name: 'UserID', description: 'The user id of a generator policy administrator.' },
        UserAPIKey: { type: 'apiKey', in: 'header', name: 'APIKey', description: "That user's key (`ppg_…`)." },
        PasswordGeneratorAPIKey: { type: 'apiKey', in: 'header', name: 'APIKey', description: 'A password generator API key (`ppa_…`), for /api/passwordgenerator and /api/generatepassword.' },
        PasswordStrengthAPIKey: { type: 'apiKey', in: 'header', name: 'APIKey', description: 'A password strength key (`pps_…`), for /api/passwordstrength.' },
      },
    },
  };
}

/** The operation of one method of a resource path. */
function operationOf(route: ResourcePath, method: RouteMethod): Record<string, unknown> {
  if (method === 'POST' && route.function.id === 'EvaluatePassword') return evaluateOperation(route);
  if (method === 'GET' && route.function.id === 'GeneratePassword') return generateOperation(route);
  if (method === 'GET') return operation(route);
  throw new Error(`no OpenAPI operation is written for ${method} ${route.path}`);
}

function operation(route: ResourcePath): Record<string, unknown> {
  const { name, seed } = RESOURCES[route.function.table];
  const generator = route.function.table === 'generator';
  const examples = (JSON.parse(readFileSync(path.join(ROOT, 'seed', seed), 'utf8')) as object[]).slice(0, 2);
  const withRole = route.credentials.role !== undefined;
  return {
    operationId: operationId(`get${route.function.id}`, route),
    tags: [generator ? 'Generator policies' : 'Strength policies'],
    summary: `List or search ${generator ? 'password generator' : 'password strength'} policies`,
    description:
      `Without \`search\`: every policy. With it: the policies whose ${generator ? 'GeneratorName or GeneratorDescription' : 'PolicyName or PolicyDescription'} match. ` +
      NEEDS[route.credentials.name],
    parameters: [
      {
        name: 'search',
        in: 'query',
        required: false,
        description:
          'URL-decoded, NFKC-normalised, lower-cased and trimmed; empty, blank or `*` means everything. Split on white space into terms; a policy ' +
          `matches when every term is a substring of its name or its description. At most ${MAX_SEARCH_LENGTH} characters. No other parameter is accepted.`,
        schema: { type: 'string' },
        example: 'default',
      },
      { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag from an earlier answer: 304 when it is still current.', schema: { type: 'string' } },
    ],
    security: SECURITY[route.credentials.name],
    responses: {
      200: {
        description: 'The policies, ordered by identifier; `[]` when nothing matches.',
        headers: {
          ETag: { description: 'A strong entity tag of the body.', schema: { type: 'string' } },
          'Cache-Control': { description: 'Always `' + CACHE_CONTROL + '`.', schema: { type: 'string', const: CACHE_CONTROL } },
        },
        content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${name}` } }, example: examples } },
      },
      304: { description: 'Not modified: If-None-Match named the current ETag. No body.' },
      ...Object.fromEntries(
        ERROR_RESPONSES.filter((e) => withRole || !e.onlyWithRole).map((e) => [
          e.status,
          {
            description: `${REASON_PHRASES[e.status]}. ${e.when}`,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example: JSON.parse(errorEnvelope(e.status, e.phrase)) } },
          },
        ]),
      ),
    },
  };
}

/** GET /userapi/generatepassword and /api/generatepassword: passwords from a generator policy, in Passwordstate's shape. */
function generateOperation(route: ResourcePath): Record<string, unknown> {
  const withRole = route.credentials.role !== undefined;
  const errors: { status: ErrorStatus; phrase: string; when: string }[] = [
    {
      status: 400,
      phrase: `Qty must be a whole number from 1 to ${LIMITS.generatedPasswords}.`,
      when: `A bad parameter: not a whole number, Qty outside 1..${LIMITS.generatedPasswords}, an unknown or repeated parameter, or settings that do not make a valid policy (each bad setting named).`,
    },
    ...ERROR_RESPONSES.filter((e) => e.status === 401 || (withRole && e.status === 403)),
    { status: 404, phrase: 'No password generator policy has PasswordGeneratorID 99.', when: 'No generator policy has that identifier.' },
    { status: 422, phrase: 'Policy 99 cannot be satisfied: 4 character classes must each appear once, but MinLength is 3', when: 'The policy, or the settings on it, cannot be satisfied (decided by calculation).' },
    ...ERROR_RESPONSES.filter((e) => e.status >= 429),
  ];
  return {
    operationId: operationId('generatePasswords', route),
    tags: ['Generator policies'],
    summary: 'Generate passwords from a password generator policy, or from settings',
    description:
      'Every class the policy switches on appears at least once, by construction; ExcludeChars and (unless allowed) the ambiguous characters appear nowhere, words included; ' +
      `a password has at most ${MAX_GENERATED_LENGTH} characters. Randomness comes only from node:crypto. Settings given replace the fields of the policy PasswordGeneratorID names ` +
      '(the default policy when absent), making a one-off policy that is validated and checked like a stored one. Parameter names match in any letter case. ' +
      NEEDS[route.credentials.name],
    parameters: [
      { name: 'PasswordGeneratorID', in: 'query', required: false, description: 'The policy; the default policy (1) when absent.', schema: { type: 'integer', minimum: 1, default: 1 } },
      { name: 'Qty', in: 'query', required: false, description: 'How many passwords.', schema: { type: 'integer', minimum: 1, maximum: LIMITS.generatedPasswords, default: 1 } },
      ...(Object.keys(GENERATION_SETTINGS) as GenerationSetting[]).map(settingParameter),
    ],
    security: SECURITY[route.credentials.name],
    responses: {
      200: {
        description: 'The passwords.',
        headers: { 'Cache-Control': { description: 'Always `no-store`.', schema: { type: 'string', const: 'no-store' } } },
        content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/GeneratedPassword' } }, example: [{ Password: 'k7#Rv!Qm2p@Zx9' }] } },
      },
      ...Object.fromEntries(
        errors.map((e) => [
          e.status,
          { description: `${REASON_PHRASES[e.status]}. ${e.when}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example: JSON.parse(errorEnvelope(e.status, e.phrase)) } } },
        ]),
      ),
    },
  };
}

/** POST /api/passwordstrength/evaluate: a password scored against a password strength policy. */
function evaluateOperation(route: ResourcePath): Record<string, unknown> {
  const errors: { status: ErrorStatus; phrase: string; when: string }[] = [
    {
      status: 400,
      phrase: 'Password is required: the password to evaluate, as a JSON string.',
      when:
        `A bad body: not a JSON object, over ${LIMITS.evaluationBodyBytes} bytes, an unknown field, Password missing, empty, not a string, over ${MAX_PASSWORD_LENGTH} ` +
        'characters or holding control characters, PasswordStrengthPolicyID not a whole number of at least 1; or any query parameter.',
    },
    ...ERROR_RESPONSES.filter((e) => e.status === 401),
    { status: 404, phrase: 'No password strength policy has PasswordStrengthPolicyID 99.', when: 'No strength policy has that identifier.' },
    { status: 415, phrase: 'The body must be JSON: send Content-Type: application/json (UTF-8).', when: 'Content-Type is not application/json (with at most a UTF-8 charset).' },
    ...ERROR_RESPONSES.filter((e) => e.status >= 429),
  ];
  return {
    operationId: 'evaluatePassword',
    tags: ['Strength policies'],
    summary: 'Evaluate a password against a password strength policy',
    description:
      "The password's score (length, numeric, casing and symbol parts, weighted by the policy's CalculationWeightings), its compliance level " +
      '(the lower of the score band and the zxcvbn-ts guessability score), the composition rules it fails, and suggestions. ' +
      'The password is sent in the body, never in the URL; it is never logged or kept, and the answer may not be cached. Needs a password strength key.',
    security: SECURITY[route.credentials.name],
    requestBody: {
      required: true,
      description: `A JSON object of at most ${LIMITS.evaluationBodyBytes} bytes (UTF-8).`,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/PasswordEvaluationRequest' },
          examples: {
            compliant: { summary: 'A compliant password', value: { PasswordStrengthPolicyID: DEFAULT_POLICY_ID, Password: EVALUATION_EXAMPLE_PASSWORD } },
            weak: { summary: 'A weak password, against the default policy', value: { Password: WEAK_EXAMPLE_PASSWORD } },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The evaluation.',
        headers: { 'Cache-Control': { description: 'Always `no-store`: the answer is about a password.', schema: { type: 'string', const: 'no-store' } } },
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/StrengthEvaluation' },
            // Computed by the service's evaluator against seed policy 1, for the request examples of the same names.
            examples: {
              compliant: { summary: `${EVALUATION_EXAMPLE_PASSWORD} against the default policy`, value: evaluationExample(EVALUATION_EXAMPLE_PASSWORD) },
              weak: { summary: `${WEAK_EXAMPLE_PASSWORD} against the default policy`, value: evaluationExample(WEAK_EXAMPLE_PASSWORD) },
            },
          },
        },
      },
      ...Object.fromEntries(
        errors.map((e) => [
          e.status,
          { description: `${REASON_PHRASES[e.status]}. ${e.when}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example: JSON.parse(errorEnvelope(e.status, e.phrase)) } } },
        ]),
      ),
    },
  };
}

/** The request and response schemas of the evaluation (functions/api/evaluate-password.ts, functions/domain/strength-evaluator.ts). */
function evaluationSchemas(): Record<string, Record<string, unknown>> {
  return {
    PasswordEvaluationRequest: {
      type: 'object',
      required: ['Password'],
      additionalProperties: false,
      properties: {
        PasswordStrengthPolicyID: {
          type: 'integer',
          minimum: 1,
          default: DEFAULT_POLICY_ID,
          description: `The strength policy to evaluate against; the default policy (${DEFAULT_POLICY_ID}) when absent.`,
        },
        Password: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_PASSWORD_LENGTH,
          description: 'The password to evaluate, in Unicode characters (code points); no control characters. Never logged, echoed or stored.',
        },
      },
    },
    StrengthEvaluation: {
      type: 'object',
      required: [...EVALUATION_FIELDS],
      additionalProperties: false,
      description: 'Exactly these fields, in this order.',
      properties: {
        PasswordStrengthPolicyID: { type: 'integer', minimum: 1, description: 'The policy the password was evaluated against.' },
        Score: { type: 'integer', minimum: 0, maximum: 100, description: "The weighted score of the password's length, digits, letter cases and symbols against the policy's targets." },
        ComplianceLevel: {
          type: 'integer',
          minimum: 0,
          maximum: COMPLIANCE_LEVELS.length - 1,
          description: 'The lower of the score band (0-19 → 0, 20-39 → 1, 40-59 → 2, 60-79 → 3, 80-100 → 4) and the guessability score (0..4).',
        },
        ComplianceLevelName: { type: 'string', enum: [...COMPLIANCE_LEVELS], description: 'The name of ComplianceLevel.' },
        Compliant: { type: 'boolean', description: "No composition rule fails and ComplianceLevel reaches the policy's PasswordStrengthCompliance." },
        Mandatory: { type: 'boolean', description: "The policy's ComplianceMandatory: whether a non-compliant password must be refused." },
        Failures: { type: 'array', items: { $ref: '#/components/schemas/CompositionFailure' }, description: "Each composition rule the password fails, in the specification's field order, then BreachedPassword for a password in a list of breached passwords; empty when none." },
        Suggestions: { type: 'array', items: { type: 'string' }, description: 'How to strengthen the password; none of them quotes it.' },
      },
    },
    CompositionFailure: {
      type: 'object',
      required: [...FAILURE_FIELDS],
      additionalProperties: false,
      properties: {
        Rule: { type: 'string', enum: [...COMPOSITION_RULES], description: 'The policy field of the rule.' },
        Required: { type: 'integer', minimum: 0, description: 'What the rule requires (for RequiresUpperAndLowerCase: 2 letter cases).' },
        Found: { type: 'integer', minimum: 0, description: 'What the password has.' },
        Message: { type: 'string', description: 'The shortfall, in one sentence.' },
      },
    },
  };
}

/** The resource's JSON Schema, with the specification's field order and every field required. */
function resourceSchema(resource: PolicyResource<object>): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(resource.schema as z.ZodMiniType, { unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, description: `Exactly these fields, in this order. Value domains beyond these bounds are checked on every read; invalid records are left out.` };
}

function errorEnvelopeSchema(): Record<string, unknown> {
  return {
    type: 'array',
    minItems: 1,
    maxItems: 1,
    items: {
      type: 'object',
      required: ['errors'],
      additionalProperties: false,
      properties: {
        errors: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          prefixItems: [
            { type: 'object', required: ['message'], additionalProperties: false, properties: { message: { type: 'string', description: 'The HTTP reason phrase of the status.' } } },
            { type: 'object', required: ['phrase'], additionalProperties: false, properties: { phrase: { type: 'string', description: 'What is wrong and what to do, in one sentence.' } } },
          ],
        },
      },
    },
    example: JSON.parse(errorEnvelope(401, PHRASES.unauthorized)),
  };
}

export const renderOpenApiDocument = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

/** Lints a document with Redocly's recommended rules; returns one line per problem (errors and warnings). */
export async function lintOpenApi(file = OPENAPI_FILE): Promise<string[]> {
  // Redocly ships ESM only; a dynamic import keeps this CommonJS module loadable.
  const { createConfig, lint } = await import('@redocly/openapi-core');
  const problems = await lint({ ref: file, config: await createConfig({ extends: ['recommended'] }) });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location.map((l) => l.pointer).join(', ')})`);
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--lint')) {
    const problems = await lintOpenApi();
    for (const line of problems) console.log(line);
    console.log(problems.length === 0 ? 'docs/openapi.json: no problems (Redocly recommended rules)' : `${problems.length} problem(s)`);
    return problems.length === 0 ? 0 : 1;
  }
  writeFileSync(OPENAPI_FILE, renderOpenApiDocument());
  console.log(`Wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
