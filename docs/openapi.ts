import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import * as z from 'zod/mini';
import {
  EVALUATION_BODY_BYTES,
  EVALUATION_PHRASES,
  EVALUATION_REQUEST_FIELDS,
} from '../functions/api/evaluation-request';
import { KEY_PREFIX } from '../functions/domain/api-key';
import {
  COMPOSITION_RULES,
  evaluatePassword,
  LANGUAGES,
  MAX_PASSWORD_LENGTH,
  USER_INPUTS,
  userInputsProblem,
  type CompositionFailure,
  type Language,
  type StrengthEvaluation,
} from '../functions/domain/evaluation';
import { ACCEPT_LANGUAGE_MAX_LENGTH, ACCEPT_LANGUAGE_MAX_RANGES } from '../functions/api/answer-language';
import { BREACHED_PASSWORDS, guessEstimator } from '../functions/domain/evaluation/estimator';
import { generatorPolicies, MAX_GENERATED_LENGTH } from '../functions/domain/generator-policy';
import { READ_ONLY_WHEN } from '../functions/domain/generator-settings';
import { MAX_PASSWORDS_PER_GENERATION } from '../functions/domain/password-generator';
import {
  DEFAULT_POLICY_ID,
  MAX_POLICY_ID,
  MAX_SEARCH_LENGTH,
  SEARCH_TOO_LONG,
  validatePolicy,
  type PolicyResource,
} from '../functions/domain/policy-collection';
import {
  COMPLIANCE_LEVELS,
  GUESS_THRESHOLDS_LOG10,
  guessThresholdLog10,
  scoreBandRange,
  WEAK,
} from '../functions/domain/compliance-levels';
import { strengthPolicies, type StrengthPolicy } from '../functions/domain/strength-policy';
import {
  allowHeader,
  CACHE_CONTROL,
  errorEnvelope,
  methodNotAllowedPhrase,
  PHRASES,
  REASON_PHRASES,
  type ErrorStatus,
} from '../functions/http';
import {
  CREDENTIAL_SCHEMES,
  GENERATION_SETTINGS,
  GENERATOR_ADMIN_ROLE,
  resourcePaths,
  ROUTE_PHRASES,
  schemeScope,
  type CredentialScheme,
  type GenerationSetting,
  type ResourcePath,
  type RouteMethod,
} from '../functions/routes';
import { GATEWAY_PHRASES, MAX_PAYLOAD_SIZE } from '../lib/gateway-contract';
import { SEED_FILES } from '../store/seed-files';
import { OPENAPI_FILE } from './docs-page';

/**
 * The OpenAPI 3.1 description of the API, generated from what the code itself uses: the route table, the
 * resource schemas (zod → JSON Schema), the error phrases and the seed data (examples). `npm run openapi`
 * writes it to docs/openapi.json; a test fails when the committed file and this generator disagree.
 */
const ROOT = path.join(__dirname, '..');
export { OPENAPI_FILE };
/** The TypeScript types openapi-typescript generates from the document, for the typed client in examples/. */
export const CLIENT_TYPES_FILE = path.join(ROOT, 'examples', 'openapi-types.ts');
/** openapi-typescript's own command: its output, byte for byte, is what a test checks the committed types against (`--check`). */
export const OPENAPI_TYPESCRIPT = path.join(ROOT, 'node_modules', '.bin', 'openapi-typescript');

const RESOURCES: Record<'generator' | 'strength', { name: string; resource: PolicyResource<object>; seed: string }> = {
  generator: {
    name: 'GeneratorPolicy',
    resource: generatorPolicies as PolicyResource<object>,
    seed: SEED_FILES.generator,
  },
  strength: { name: 'StrengthPolicy', resource: strengthPolicies as PolicyResource<object>, seed: SEED_FILES.strength },
};

/** The evaluation body's two fields (functions/api/evaluation-request.ts). */
const { policyId: POLICY_ID, password: PASSWORD } = EVALUATION_REQUEST_FIELDS;

/** Security schemes by credential scheme: /userapi/ needs both of its headers, /api/ one key of its kind. */
const SECURITY: Record<CredentialScheme['name'], Record<string, string[]>[]> = {
  generatorUser: [{ UserID: [], UserAPIKey: [] }],
  generatorKey: [{ PasswordGeneratorAPIKey: [] }],
  strengthKey: [{ PasswordStrengthAPIKey: [] }],
};

/** What each credential scheme needs, for operation descriptions. */
const NEEDS: Record<CredentialScheme['name'], string> = {
  generatorUser: `Needs a user (UserID and APIKey) holding the ${GENERATOR_ADMIN_ROLE} role.`,
  generatorKey: 'Needs a password generator API key (APIKey), as the Passwordstate clients send it.',
  strengthKey: 'Needs a password strength key.',
};

/** Operation ids: one function serves a user's and a generator key's route, so the scheme tells them apart. */
const operationId = (name: string, route: ResourcePath) =>
  route.credentials.name === 'generatorKey' ? `${name}ByAPIKey` : name;

/** What each generation setting is, for its query parameter's description (its type is the policy field's). */
const SETTING_DOCS: Record<GenerationSetting, string> = {
  IncludeAlphaSpecial: 'random characters of the classes switched on',
  IncludeWordPhrases: 'words of the word list',
  minLength: 'the shortest password of random characters (4..256)',
  maxLength: 'the longest password of random characters (4..256, at least minLength)',
  lowerCaseChars: 'lower-case letters',
  upperCaseChars: 'upper-case letters',
  numericChars: 'digits',
  higherAlphaRatio: 'letters more than half of the random characters',
  ambiguousChars: 'allow 0 O o 1 l I | (false: none of them anywhere in the password, words included)',
  specialChars: 'characters of specialCharsText',
  specialCharsText: 'the special characters; read only while specialChars is on',
  bracketChars: 'characters of bracketCharsText',
  bracketCharsText: 'the bracket characters; read only while bracketChars is on',
  NumberOfWords: 'words in a phrase (1..20); read only while IncludeWordPhrases is on',
  MaxWordLength: 'the longest word (3..20); read only while IncludeWordPhrases or GeneratePattern is on',
  PrefixAppend:
    'P random characters before the words, A after them, I between them; read only while IncludeWordPhrases is on',
  SeparateWords: 'S a space, D a dash, N nothing; read only while IncludeWordPhrases is on',
  ExcludeChars: 'characters that never appear anywhere in the password',
  GeneratePattern: 'the pattern alone shapes the password',
  Pattern: `the pattern (docs/decisions.md#pattern-syntax), at most ${MAX_GENERATED_LENGTH} characters generated; read only while GeneratePattern is on`,
};

/**
 * A generation setting's query parameter. Its bounds are the policy field's own (from the policy schema), but
 * only for a setting that is always read: one read only while a feature is on (READ_ONLY_WHEN) takes any value
 * while it is off, as the Passwordstate clients send `NumberOfWords=0` with word phrases off.
 */
function settingParameter(setting: GenerationSetting, policySchema: JsonSchemaObject): Record<string, unknown> {
  const field = GENERATION_SETTINGS[setting];
  const property = policySchema.properties[field]!;
  const type = property.type;
  const { minimum, maximum, maxLength, pattern } = READ_ONLY_WHEN[field] === undefined ? property : {};
  const bounds = Object.fromEntries(
    Object.entries({ minimum, maximum, maxLength, pattern }).filter(([, value]) => value !== undefined),
  );
  const values =
    type === 'boolean'
      ? ' `true` or `false`, in any letter case.'
      : type === 'integer'
        ? ' A whole number.'
        : maxLength !== undefined
          ? ` At most ${String(maxLength)} characters (UTF-16 code units, as the policy field counts them).`
          : '';
  return {
    name: setting,
    in: 'query',
    required: false,
    description: `Sets the policy field ${field}: ${SETTING_DOCS[setting]}.${values} Empty or absent: the policy's own value.`,
    schema: { type, ...bounds },
  };
}

type JsonSchemaObject = { properties: Record<string, Record<string, unknown>> };

/** One error status an operation answers: when, its example phrases by name, and headers beyond Content-Type. */
interface ErrorDoc {
  readonly status: ErrorStatus;
  readonly when: string;
  readonly examples: Readonly<Record<string, string>>;
  readonly headers?: Record<string, unknown>;
}

/** The errors every operation answers, whatever its function: credentials, methods, sizes, throttling, faults. */
function commonErrors(route: ResourcePath): ErrorDoc[] {
  const withRole = route.credentials.role !== undefined;
  return [
    {
      status: 401,
      when: 'Credentials missing, malformed, unknown, revoked, disabled, or of the other route group.',
      examples: { unauthorized: ROUTE_PHRASES.unauthorized },
    },
    {
      status: 403,
      when:
        (withRole
          ? `A valid user without the ${GENERATOR_ADMIN_ROLE} role (the authorizer's Deny); and on AWS, a`
          : 'On AWS: a') +
        ' valid credential that has no API Gateway API key on a usage plan of the stage (the credentials CLI attaches one to every key it issues).',
      examples: {
        ...(withRole ? { missingRole: ROUTE_PHRASES.missingRole } : {}),
        noUsagePlanKey: ROUTE_PHRASES.forbidden,
      },
    },
    {
      status: 405,
      when:
        `Any other method than ${route.methods.join(' and ')} on this path, HEAD and OPTIONS included; answered before credentials are checked. ` +
        "On AWS such a request with a body of a media type other than JSON, text, form data or XML gets API Gateway's 415 instead.",
      examples: { methodNotAllowed: methodNotAllowedPhrase(route.methods) },
      headers: {
        Allow: {
          required: true,
          description: 'The methods this path answers.',
          schema: { type: 'string', const: allowHeader(route.methods) },
        },
      },
    },
    {
      status: 413,
      when: `A request body over API Gateway's ${MAX_PAYLOAD_SIZE} payload limit.`,
      examples: { tooLarge: GATEWAY_PHRASES.tooLarge },
    },
    {
      status: 417,
      when: 'At the local gateway only: an Expect header other than 100-continue.',
      examples: { expectation: PHRASES.expectation },
    },
    {
      status: 429,
      when: "Throttled by the key's own usage plan (rate, burst, daily quota), the stage's rate or burst limit, or the firewall's limit per source IP.",
      examples: { throttled: PHRASES.throttled },
    },
    { status: 500, when: 'An unexpected fault behind the API.', examples: { internal: PHRASES.internal } },
    {
      status: 503,
      when: 'The policy store unavailable and nothing cached, or the function failed or timed out; or the credentials store unavailable, so the authorizer could not decide (never an allow).',
      examples: { policyStore: PHRASES.unavailable, credentialsStore: PHRASES.credentialsUnavailable },
    },
  ];
}

/** The envelope of one status: ErrorEnvelope, its `message` the status's reason phrase. */
function errorSchemaOf(status: ErrorStatus): Record<string, unknown> {
  const message = { properties: { message: { const: REASON_PHRASES[status] } } };
  return {
    allOf: [
      { $ref: '#/components/schemas/ErrorEnvelope' },
      { items: { properties: { errors: { prefixItems: [message] } } } },
    ],
  };
}

/** An operation's responses: its 200 (and 304), then every error status in numeric order, each in the envelope. */
function responsesOf(
  route: ResourcePath,
  success: Record<string, unknown>,
  errors: ErrorDoc[],
): Record<string, unknown> {
  const all = [...errors, ...commonErrors(route)].sort((a, b) => a.status - b.status);
  return {
    ...success,
    ...Object.fromEntries(
      all.map((e) => [
        e.status,
        {
          description: `${REASON_PHRASES[e.status]}. ${e.when}`,
          ...(e.headers ? { headers: e.headers } : {}),
          content: {
            'application/json': {
              schema: errorSchemaOf(e.status),
              examples: Object.fromEntries(
                Object.entries(e.examples).map(([name, phrase]) => [
                  name,
                  { value: JSON.parse(errorEnvelope(e.status, phrase)) },
                ]),
              ),
            },
          },
        },
      ]),
    ),
  };
}

/**
 * What Password may hold: no control character (CONTROL_CHARACTER, \p{Cc}) and no unpaired surrogate (UNPAIRED_SURROGATE,
 * \p{Cs}), as ranges rather than property escapes, and right with or without the Unicode flag: validators differ
 * (Ajv sets it, Spectral's does not), and without it a pair is two units, matched by the second branch. A unit
 * test checks it against the two expressions the function uses, code point by code point.
 */
export const PASSWORD_PATTERN =
  '^(?:[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$';

/** The passwords of the evaluation examples; their answers are computed from them (evaluationExample). */
export const EVALUATION_EXAMPLE_PASSWORD = 'Correct-Horse-7';
export const WEAK_EXAMPLE_PASSWORD = 'password1';
/** The example of an evaluation in context: a password built on its user's name, and what the client knows of the user. */
export const IN_CONTEXT_EXAMPLE = {
  Password: 'Jsmith2026!x',
  UserInputs: ['jsmith', 'John Smith', 'jsmith@acme.example'],
} as const;

/** The fields of StrengthEvaluation and CompositionFailure, in their order; the compiler checks that none is missing. */
export const EVALUATION_FIELDS = [
  'PasswordStrengthPolicyID',
  'Score',
  'ComplianceLevel',
  'ComplianceLevelName',
  'Compliant',
  'Mandatory',
  'Failures',
  'Suggestions',
  'GuessesLog10',
] as const;
export const FAILURE_FIELDS = ['Rule', 'Required', 'Found', 'Message'] as const;
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const exhaustive: [
  Exactly<(typeof EVALUATION_FIELDS)[number], keyof StrengthEvaluation>,
  Exactly<(typeof FAILURE_FIELDS)[number], keyof CompositionFailure>,
  Exactly<(typeof COMPOSITION_RULES)[number], CompositionFailure['Rule']>,
] = [true, true, true];
void exhaustive;

/**
 * What POST /api/passwordstrength/evaluate answers for EVALUATION_EXAMPLE_PASSWORD against seed strength
 * policy 1, computed by the service's own evaluator and estimator, so the example cannot drift from the code.
 */
export function evaluationExample(
  password = EVALUATION_EXAMPLE_PASSWORD,
  userInputs: readonly string[] = [],
  language: Language = 'en',
): StrengthEvaluation {
  const seed = (JSON.parse(readFileSync(RESOURCES.strength.seed, 'utf8')) as unknown[]).find(
    (p) => (p as StrengthPolicy).PasswordStrengthPolicyID === DEFAULT_POLICY_ID,
  );
  const validated = validatePolicy(strengthPolicies, seed);
  if (!validated.ok)
    throw new Error(`seed strength policy ${DEFAULT_POLICY_ID} is not valid: ${validated.problems.join('; ')}`);
  return evaluatePassword(
    validated.policy,
    password,
    guessEstimator(),
    BREACHED_PASSWORDS.has(password),
    userInputs,
    language,
  );
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
      {
        name: 'Generator policies',
        description:
          'Password generator policies and generation, for generator policy administrators (/userapi/) and the password generator API key (/api/).',
      },
      {
        name: 'Strength policies',
        description: 'Password strength policies, for password strength keys (/api/passwordstrength).',
      },
    ],
    paths: Object.fromEntries(
      resourcePaths().map((route) => [
        route.path,
        Object.fromEntries(route.methods.map((method) => [method.toLowerCase(), operationOf(route, method)])),
      ]),
    ),
    components: {
      schemas: {
        ...Object.fromEntries(Object.values(RESOURCES).map(({ name, resource }) => [name, resourceSchema(resource)])),
        ErrorEnvelope: errorEnvelopeSchema(),
        GeneratedPassword: {
          type: 'object',
          required: ['Password'],
          additionalProperties: false,
          properties: {
            Password: {
              type: 'string',
              description: 'A password generated from the policy; shown once, never stored or cached.',
            },
          },
        },
        ...evaluationSchemas(),
      },
      securitySchemes: {
        UserID: {
          type: 'apiKey',
          in: 'header',
          name: 'UserID',
          description: 'The user id of a generator policy administrator.',
        },
        UserAPIKey: {
          type: 'apiKey',
          in: 'header',
          name: 'APIKey',
          description: `That user's key (\`${KEY_PREFIX.user}_…\`).`,
        },
        PasswordGeneratorAPIKey: {
          type: 'apiKey',
          in: 'header',
          name: 'APIKey',
          description: `A password generator API key (\`${KEY_PREFIX.generator}_…\`), for ${schemeScope(CREDENTIAL_SCHEMES.generatorKey)}.`,
        },
        PasswordStrengthAPIKey: {
          type: 'apiKey',
          in: 'header',
          name: 'APIKey',
          description: `A password strength key (\`${KEY_PREFIX.strength}_…\`), for ${schemeScope(CREDENTIAL_SCHEMES.strengthKey)}.`,
        },
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
  const examples = (JSON.parse(readFileSync(seed, 'utf8')) as object[]).slice(0, 2);
  const cacheControl = {
    required: true,
    description: 'Always `' + CACHE_CONTROL + '`.',
    schema: { type: 'string', const: CACHE_CONTROL },
  };
  const etag = (about: string) => ({
    required: true,
    description: about,
    schema: { type: 'string', pattern: '^"[^"]*"$' },
  });
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
          'URL-decoded, NFKC-normalised, case-folded and trimmed; empty, blank or `*` means everything. Split on white space into terms; a policy ' +
          `matches when every term is a substring of its name or its description. At most ${MAX_SEARCH_LENGTH} characters (Unicode code points), counted after ` +
          'that normalisation and trimming, so a value whose raw form is longer may still be accepted and one that NFKC expands may not. No other parameter is accepted.',
        schema: { type: 'string', maxLength: MAX_SEARCH_LENGTH },
        example: 'default',
      },
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'An ETag from an earlier answer: 304 when it is still current.',
        schema: { type: 'string' },
      },
    ],
    security: SECURITY[route.credentials.name],
    responses: responsesOf(
      route,
      {
        200: {
          description: 'The policies, ordered by identifier; `[]` when nothing matches.',
          headers: { ETag: etag('A strong entity tag of the body.'), 'Cache-Control': cacheControl },
          content: {
            'application/json': {
              schema: { type: 'array', items: { $ref: `#/components/schemas/${name}` } },
              example: examples,
            },
          },
        },
        304: {
          description: 'Not modified: If-None-Match named the current ETag (or `*`). No body.',
          headers: {
            ETag: etag('The current entity tag, the one If-None-Match named.'),
            'Cache-Control': cacheControl,
          },
        },
      },
      [
        {
          status: 400,
          when: `A bad query: an unknown parameter, \`search\` given twice or over ${MAX_SEARCH_LENGTH} characters, invalid percent-encoding.`,
          examples: {
            unknownParameter: 'Unknown query parameter "serach"; the only parameter is "search".',
            searchTooLong: SEARCH_TOO_LONG,
          },
        },
      ],
    ),
  };
}

/** GET /userapi/generatepassword and /api/generatepassword: passwords from a generator policy, in Passwordstate's shape. */
function generateOperation(route: ResourcePath): Record<string, unknown> {
  const policySchema = resourceSchema(generatorPolicies as PolicyResource<object>) as JsonSchemaObject;
  return {
    operationId: operationId('generatePasswords', route),
    tags: ['Generator policies'],
    summary: 'Generate passwords from a password generator policy, or from settings',
    description:
      'Every class the policy switches on appears at least once, by construction; ExcludeChars and (unless allowed) the ambiguous characters appear nowhere, words included; ' +
      `a password has at most ${MAX_GENERATED_LENGTH} characters. Randomness comes only from node:crypto. Settings given replace the fields of the policy PasswordGeneratorID names ` +
      '(the default policy when absent), making a one-off policy that is validated and checked like a stored one. Parameter names match in any letter case. ' +
      (route.lenientQuery
        ? 'A `%` that starts no valid escape is read literally, as Passwordstate reads it (clients send `specialCharsText=!$%+-_=^` unencoded). '
        : '') +
      NEEDS[route.credentials.name],
    parameters: [
      {
        name: 'PasswordGeneratorID',
        in: 'query',
        required: false,
        description: `The policy; the default policy (${DEFAULT_POLICY_ID}) when absent.`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_POLICY_ID },
      },
      {
        name: 'Qty',
        in: 'query',
        required: false,
        description: 'How many passwords; 1 when absent.',
        schema: { type: 'integer', minimum: 1, maximum: MAX_PASSWORDS_PER_GENERATION },
      },
      ...(Object.keys(GENERATION_SETTINGS) as GenerationSetting[]).map((setting) =>
        settingParameter(setting, policySchema),
      ),
    ],
    security: SECURITY[route.credentials.name],
    responses: responsesOf(
      route,
      {
        200: {
          description: 'The passwords.',
          headers: {
            'Cache-Control': {
              required: true,
              description: 'Always `no-store`.',
              schema: { type: 'string', const: 'no-store' },
            },
          },
          content: {
            'application/json': {
              schema: { type: 'array', items: { $ref: '#/components/schemas/GeneratedPassword' } },
              example: [{ Password: 'k7#Rv!Qm2p@Zx9' }],
            },
          },
        },
      },
      [
        {
          status: 400,
          when: `A bad parameter: not a whole number, PasswordGeneratorID outside 1..${MAX_POLICY_ID}, Qty outside 1..${MAX_PASSWORDS_PER_GENERATION}, an unknown or repeated parameter, or settings that do not make a valid policy (each bad setting named).`,
          examples: { quantity: `Qty must be a whole number from 1 to ${MAX_PASSWORDS_PER_GENERATION}.` },
        },
        {
          status: 404,
          when: 'No generator policy has that identifier.',
          examples: { noSuchPolicy: 'No password generator policy has PasswordGeneratorID 99.' },
        },
        {
          status: 422,
          when: 'The policy, or the settings on it, cannot be satisfied (decided by calculation).',
          examples: {
            infeasible: 'Policy 99 cannot be satisfied: 4 character classes must each appear once, but MinLength is 3',
          },
        },
      ],
    ),
  };
}

/** POST /api/passwordstrength/evaluate: a password scored against a password strength policy. */
function evaluateOperation(route: ResourcePath): Record<string, unknown> {
  return {
    operationId: 'evaluatePassword',
    tags: ['Strength policies'],
    summary: 'Evaluate a password against a password strength policy',
    description:
      "The password's score (length, numeric, casing and symbol parts, weighted by the policy's CalculationWeightings), its compliance level " +
      '(the lower of the score band and the zxcvbn-ts guessability score), the composition rules it fails, and suggestions. ' +
      `With ${USER_INPUTS.field} (the user name, display name, email address and the like), a password built on them fails the rule UserInput, and one built on ` +
      "a word of the policy's BannedWords (set by its operators, never served) fails BannedWord: at most Weak, never compliant. " +
      'The password and the UserInputs are sent in the body, never in the URL; they are never logged or kept, and the answer may not be cached. ' +
      'Accept-Language chooses the language of every Message and Suggestion, and nothing else. Needs a password strength key.',
    security: SECURITY[route.credentials.name],
    parameters: [
      {
        name: 'Accept-Language',
        in: 'header',
        required: false,
        description:
          `The language of every Message and Suggestion, negotiated as RFC 9110 §12.5.4 says: one of ${LANGUAGES.join(', ')}. ` +
          'Weights choose (`de;q=0.5, fr` is French), a longer range reaches its language (`de-CH` is German), `*` is any, `q=0` excludes. ' +
          `Absent, no language offered, malformed, over ${ACCEPT_LANGUAGE_MAX_LENGTH} characters or over ${ACCEPT_LANGUAGE_MAX_RANGES} ranges: English, never an error. ` +
          'Rules, numbers, levels and error phrases are the same in every language.',
        schema: { type: 'string' },
        example: 'de-CH, de;q=0.9, en;q=0.5',
      },
    ],
    requestBody: {
      required: true,
      description: `A JSON object of at most ${EVALUATION_BODY_BYTES} bytes (UTF-8).`,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/PasswordEvaluationRequest' },
          examples: {
            compliant: {
              summary: 'A compliant password',
              value: { [POLICY_ID]: DEFAULT_POLICY_ID, [PASSWORD]: EVALUATION_EXAMPLE_PASSWORD },
            },
            weak: {
              summary: 'A weak password, against the default policy',
              value: { [PASSWORD]: WEAK_EXAMPLE_PASSWORD },
            },
            inContext: {
              summary: "A password built on its user's name, against the default policy",
              value: IN_CONTEXT_EXAMPLE,
            },
          },
        },
      },
    },
    responses: responsesOf(
      route,
      {
        200: {
          description: 'The evaluation.',
          headers: {
            'Cache-Control': {
              required: true,
              description: 'Always `no-store`: the answer is about a password.',
              schema: { type: 'string', const: 'no-store' },
            },
            'Content-Language': {
              required: true,
              description:
                'The language of the Messages and Suggestions, as Accept-Language chose it (`en` when it chose none).',
              schema: { type: 'string', enum: [...LANGUAGES] },
            },
            Vary: {
              required: true,
              description: 'Always `Accept-Language`: the sentences depend on it.',
              schema: { type: 'string', const: 'Accept-Language' },
            },
          },
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/StrengthEvaluation' },
              // Computed by the service's evaluator against seed policy 1, for the request examples of the same names.
              examples: {
                compliant: {
                  summary: `${EVALUATION_EXAMPLE_PASSWORD} against the default policy`,
                  value: evaluationExample(EVALUATION_EXAMPLE_PASSWORD),
                },
                weak: {
                  summary: `${WEAK_EXAMPLE_PASSWORD} against the default policy`,
                  value: evaluationExample(WEAK_EXAMPLE_PASSWORD),
                },
                inContext: {
                  summary: `${IN_CONTEXT_EXAMPLE.Password} with its user's UserInputs, against the default policy`,
                  value: evaluationExample(IN_CONTEXT_EXAMPLE.Password, IN_CONTEXT_EXAMPLE.UserInputs),
                },
                inContextInGerman: {
                  summary: 'The same, with Accept-Language: de',
                  value: evaluationExample(IN_CONTEXT_EXAMPLE.Password, IN_CONTEXT_EXAMPLE.UserInputs, 'de'),
                },
              },
            },
          },
        },
      },
      [
        {
          status: 400,
          when:
            `A bad body: not a JSON object, over ${EVALUATION_BODY_BYTES} bytes, not UTF-8 or holding U+FFFD as a character, a field given twice, an unknown field, ${PASSWORD} missing, empty, ` +
            `not a string, over ${MAX_PASSWORD_LENGTH} characters (as sent or after NFKC normalization) or holding control characters or an unpaired surrogate, ${POLICY_ID} not a whole number ` +
            `from 1 to ${MAX_POLICY_ID}, ${USER_INPUTS.field} not an array of 1 to ${USER_INPUTS.maxItems} strings of 1 to ${USER_INPUTS.maxLength} characters (as sent or after NFKC normalization) without control characters ` +
            '(the phrase names the position of a bad one, never its value); or any query parameter.',
          examples: {
            passwordMissing: EVALUATION_PHRASES.passwordMissing,
            passwordTooLong: EVALUATION_PHRASES.passwordTooLong,
            policyId: EVALUATION_PHRASES.policyId,
            userInputs: userInputsProblem([''])!,
          },
        },
        {
          status: 404,
          when: 'No strength policy has that identifier.',
          examples: { noSuchPolicy: 'No password strength policy has PasswordStrengthPolicyID 99.' },
        },
        {
          status: 415,
          when: 'Content-Type is missing, not application/json (with at most a UTF-8 charset), or given twice.',
          examples: { notJson: 'The body must be JSON: send Content-Type: application/json (UTF-8).' },
        },
      ],
    ),
  };
}

/** The request and response schemas of the evaluation (functions/api/evaluate-password.ts, functions/domain/evaluation/strength-evaluator.ts). */
function evaluationSchemas(): Record<string, Record<string, unknown>> {
  return {
    PasswordEvaluationRequest: {
      type: 'object',
      required: [PASSWORD],
      additionalProperties: false,
      properties: {
        [POLICY_ID]: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_POLICY_ID,
          // No `default`: openapi-typescript's defaultNonNullable would make a field with one required in a client's types.
          description: `The strength policy to evaluate against; the default policy (${DEFAULT_POLICY_ID}) when absent. \`null\` is not the default: a 400.`,
        },
        [PASSWORD]: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_PASSWORD_LENGTH,
          pattern: PASSWORD_PATTERN,
          description:
            `The password to evaluate: 1 to ${MAX_PASSWORD_LENGTH} Unicode characters, counted in code points as JSON Schema counts them (an emoji is one, not two UTF-16 units), ` +
            `and at most ${MAX_PASSWORD_LENGTH} after Unicode NFKC normalization too, which a schema cannot state: the evaluation matches the NFKC form, in which some characters are several (U+2A0C is four, U+FDFA eighteen). ` +
            'No control character (the pattern; a stray newline is one) and no unpaired surrogate escape (a lone \\uD800; the pattern, under the Unicode flag JSON Schema implies). ' +
            'Never logged, echoed or stored.',
        },
        [USER_INPUTS.field]: {
          type: 'array',
          minItems: 1,
          maxItems: USER_INPUTS.maxItems,
          items: { type: 'string', minLength: 1, maxLength: USER_INPUTS.maxLength, pattern: PASSWORD_PATTERN },
          description:
            `Optional: 1 to ${USER_INPUTS.maxItems} words specific to the password's owner and organization (user name, display name, email address, employee number, company, service), ` +
            `each 1 to ${USER_INPUTS.maxLength} characters (code points), as sent and after Unicode NFKC normalization (which a schema cannot state), with no control character and no unpaired surrogate (the pattern). ` +
            'They are split into the tokens an attacker derives (at spaces, `.`, `_`, `-`, `@` and digit boundaries; an email address gives its local part and domain labels, not its top-level domain), ' +
            'and a password built on one of them fails the rule UserInput. Never logged, echoed, stored, cached or sent anywhere.',
        },
      },
    },
    StrengthEvaluation: {
      type: 'object',
      required: [...EVALUATION_FIELDS],
      additionalProperties: false,
      description: 'Exactly these fields, in this order.',
      properties: {
        PasswordStrengthPolicyID: {
          type: 'integer',
          minimum: 1,
          description: 'The policy the password was evaluated against.',
        },
        Score: {
          type: 'integer',
          minimum: 0,
          maximum: 100,
          description:
            "The weighted score of the password's length, digits, letter cases and symbols against the policy's targets.",
        },
        ComplianceLevel: {
          type: 'integer',
          minimum: 0,
          maximum: COMPLIANCE_LEVELS.length - 1,
          description: `The lower of the score band (${COMPLIANCE_LEVELS.map((_, level) => `${scoreBandRange(level).join('-')} → ${level}`).join(', ')}) and the guessability score (0..${COMPLIANCE_LEVELS.length - 1}): zxcvbn's thresholds applied to GuessesLog10 (at least ${GUESS_THRESHOLDS_LOG10.map((t) => `10^${t}`).join(', ')} guesses, each plus 5, for 1 to ${GUESS_THRESHOLDS_LOG10.length}).`,
        },
        ComplianceLevelName: {
          type: 'string',
          enum: [...COMPLIANCE_LEVELS],
          description: 'The name of ComplianceLevel.',
        },
        Compliant: {
          type: 'boolean',
          description: "No composition rule fails and ComplianceLevel reaches the policy's PasswordStrengthCompliance.",
        },
        Mandatory: {
          type: 'boolean',
          description: "The policy's ComplianceMandatory: whether a non-compliant password must be refused.",
        },
        Failures: {
          type: 'array',
          items: { $ref: '#/components/schemas/CompositionFailure' },
          description:
            "Each composition rule the password fails, in the specification's field order, then BreachedPassword for a password in a list of breached passwords, " +
            "UserInput for one built on the request's UserInputs and BannedWord for one built on the policy's BannedWords; empty when none.",
        },
        Suggestions: {
          type: 'array',
          items: { type: 'string' },
          description: 'How to strengthen the password; none of them quotes it.',
        },
        GuessesLog10: {
          type: 'number',
          minimum: 0,
          description: `log10 of the guesses an attacker needs: the fewest of the attack models the service runs (zxcvbn-ts, cracking rules, a Markov model of leaked passwords), after the breached-password check (a breached password counts at most 10^${guessThresholdLog10(WEAK + 1)} - 1 guesses), rounded down to 2 decimals. Added to the Passwordstate answer; a client may ignore it.`,
        },
      },
    },
    CompositionFailure: {
      type: 'object',
      required: [...FAILURE_FIELDS],
      additionalProperties: false,
      properties: {
        Rule: {
          type: 'string',
          enum: [...COMPOSITION_RULES],
          description:
            'The policy field of the rule; BreachedPassword, which is no policy field, for a password that appears in lists of breached passwords; ' +
            "UserInput for a password built on the request's UserInputs, BannedWord for one built on the policy's BannedWords.",
        },
        Required: {
          type: 'integer',
          minimum: 0,
          description:
            'What the rule requires (for RequiresUpperAndLowerCase: 2 letter cases; for BreachedPassword: 0 appearances; for UserInput and BannedWord: 0 terms).',
        },
        Found: {
          type: 'integer',
          minimum: 0,
          description:
            'What the password has (for BreachedPassword: 1, it appears; for UserInput and BannedWord: how many distinct terms of that kind it is built on).',
        },
        Message: {
          type: 'string',
          description: 'The shortfall, in one sentence; it never quotes the password or a term.',
        },
      },
    },
  };
}

/** The resource's JSON Schema, with the specification's field order and every field required. */
function resourceSchema(resource: PolicyResource<object>): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(resource.schema as z.ZodMiniType, {
    unrepresentable: 'any',
  }) as { $schema?: string; properties: Record<string, unknown> };
  // A stored field (a strength policy's BannedWords) is never served, so it is not part of the resource.
  const properties = Object.fromEntries(
    Object.entries(schema.properties).filter(([name]) => !(resource.storedFields as readonly string[]).includes(name)),
  );
  return {
    ...schema,
    properties,
    description: `Exactly these fields, in this order. Value domains beyond these bounds are checked on every read; invalid records are left out.`,
  };
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
          // Exactly the two items of prefixItems. `{ not: {} }` is `false` (no further item) spelled as a schema
          // object, since Spectral's array-items rule wants a truthy `items` beside `type: array`.
          items: { not: {} },
          prefixItems: [
            {
              type: 'object',
              required: ['message'],
              additionalProperties: false,
              properties: { message: { type: 'string', description: 'The HTTP reason phrase of the status.' } },
            },
            {
              type: 'object',
              required: ['phrase'],
              additionalProperties: false,
              properties: { phrase: { type: 'string', description: 'What is wrong and what to do, in one sentence.' } },
            },
          ],
        },
      },
    },
    example: JSON.parse(errorEnvelope(401, ROUTE_PHRASES.unauthorized)),
  };
}

export const renderOpenApiDocument = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

/** Lints a document with Redocly's recommended rules; returns one line per problem (errors and warnings). */
export async function lintWithRedocly(file = OPENAPI_FILE): Promise<string[]> {
  // Redocly ships ESM only; a dynamic import keeps this CommonJS module loadable.
  const { createConfig, lint } = await import('@redocly/openapi-core');
  const problems = await lint({ ref: file, config: await createConfig({ extends: ['recommended'] }) });
  return problems.map(
    (p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location.map((l) => l.pointer).join(', ')})`,
  );
}

/**
 * Rules of Spectral's OpenAPI ruleset turned off, each for a reason (docs/testing.md#the-api-description):
 * info-contact wants a contact in `info`, and this service has none to publish: whoever deploys a stack
 * operates it, and the document is the same for every deployment.
 */
export const SPECTRAL_RULES_OFF = ['info-contact'] as const;

/** Lints a document with Spectral's OpenAPI ruleset (spectral:oas, every recommended rule but SPECTRAL_RULES_OFF). */
export async function lintWithSpectral(file = OPENAPI_FILE): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[oas as never, 'recommended']],
    rules: Object.fromEntries(SPECTRAL_RULES_OFF.map((rule) => [rule, 'off'])),
  });
  const results = await spectral.run(new Document(readFileSync(file, 'utf8'), Json, file));
  const severity = ['error', 'warn', 'info', 'hint'];
  return results.map((r) => `${severity[r.severity]} ${String(r.code)}: ${r.message} (${r.path.join('.')})`);
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--lint') {
    // `--lint <file>` lints another document (the tests show each linter failing on a doctored one).
    const file = argv[1] ?? OPENAPI_FILE;
    const name = path.relative(process.cwd(), file);
    let failed = false;
    for (const [linter, lint] of [
      ['Redocly recommended rules', lintWithRedocly],
      ['Spectral spectral:oas', lintWithSpectral],
    ] as const) {
      const problems = await lint(file);
      for (const line of problems) console.log(line);
      console.log(
        problems.length === 0
          ? `${name}: no problems (${linter})`
          : `${name}: ${problems.length} problem(s) (${linter})`,
      );
      failed ||= problems.length > 0;
    }
    return failed ? 1 : 0;
  }
  writeFileSync(OPENAPI_FILE, renderOpenApiDocument());
  console.log(`Wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
  execFileSync(OPENAPI_TYPESCRIPT, [OPENAPI_FILE, '--output', CLIENT_TYPES_FILE], { stdio: 'ignore' });
  console.log(`Wrote ${path.relative(process.cwd(), CLIENT_TYPES_FILE)} (openapi-typescript)`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
