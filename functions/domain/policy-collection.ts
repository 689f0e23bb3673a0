import { createHash } from 'node:crypto';
import * as z from 'zod/mini';

/**
 * A collection of policies of one kind (generator policies, strength policies), common to both: what the
 * service needs to know of a resource, the validation of a record, the collection in the form it is served
 * (JSON, entity tag) and search on name and description.
 */

/** Policy 1 of each collection is the default, for password lists without a specific policy. */
export const DEFAULT_POLICY_ID = 1;
/** The largest identifier: JSON numbers are exact integers only up to 2^53 - 1 (z.int() holds stored ones to it too). */
export const MAX_POLICY_ID = Number.MAX_SAFE_INTEGER;

/** Why a policy breaks the default policy's rule (its description must say it is the default), or undefined. */
export function defaultPolicyProblem<T extends object>(resource: PolicyResource<T>, policy: T): string | undefined {
  if (policy[resource.idField] !== DEFAULT_POLICY_ID || /default/i.test(String(policy[resource.descriptionField])))
    return undefined;
  return `${resource.descriptionField}: must say that ${resource.title} ${DEFAULT_POLICY_ID} is the default (for password lists without a specific policy)`;
}

/**
 * One of the two resources: the schema that is at once the TypeScript type, the validation and the exact
 * field list (in the specification's order), and which fields are the identifier and the searchable text.
 */
export interface PolicyResource<T extends object> {
  /** Singular, for log lines and error phrases ("generator policy"). */
  readonly title: string;
  /** The schema every write is checked against (the policy CLI, the seed loader, the defaults put on deploy). */
  readonly schema: z.ZodMiniType<T>;
  /**
   * The schema a record read from a table is validated with: `schema` less the rules added after records were
   * stored under the older ones (a strength policy's BannedWords), so that a stricter write never takes a
   * stored policy out of service; `schema` itself where no rule was added that way.
   */
  readonly storedSchema: z.ZodMiniType<T>;
  /** Every field of the response object, in the specification's order. */
  readonly fields: readonly (keyof T & string)[];
  /** Optional fields stored with a record after the specification's and never served (a strength policy's BannedWords). */
  readonly storedFields: readonly (keyof T & string)[];
  readonly idField: keyof T & string;
  readonly nameField: keyof T & string;
  readonly descriptionField: keyof T & string;
}

// ---------------------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------------------

export type PolicyValidation<T> = { ok: true; policy: T } | { ok: false; problems: string[] };

/** Validates one record as every write is checked; problems name the field ("MaxLength: must be at most 256"). */
export function validatePolicy<T extends object>(resource: PolicyResource<T>, record: unknown): PolicyValidation<T> {
  return validateWith(resource, resource.schema, record);
}

/** Validates one record read from a table, with the rules it may have been written under (storedSchema). */
export function validateStoredPolicy<T extends object>(
  resource: PolicyResource<T>,
  record: unknown,
): PolicyValidation<T> {
  return validateWith(resource, resource.storedSchema, record);
}

function validateWith<T extends object>(
  resource: PolicyResource<T>,
  schema: z.ZodMiniType<T>,
  record: unknown,
): PolicyValidation<T> {
  const result = schema.safeParse(record);
  if (result.success) return { ok: true, policy: project(resource, result.data) };
  return { ok: false, problems: result.error.issues.map((issue) => describeIssue(issue, record)) };
}

/** A copy holding exactly the resource's fields in the specification's order, then the stored fields it has. */
function project<T extends object>(resource: PolicyResource<T>, value: T): T {
  const out: Record<string, unknown> = {};
  for (const field of resource.fields) out[field] = value[field];
  for (const field of resource.storedFields) if (value[field] !== undefined) out[field] = value[field];
  return out as T;
}

function describeIssue(issue: z.core.$ZodIssue, record: unknown): string {
  // An entry of a list is named by its index: BannedWords[3].
  const field =
    issue.path.length > 0
      ? issue.path
          .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${String(key)}`))
          .join('')
      : '(record)';
  const present =
    typeof record === 'object' &&
    record !== null &&
    issue.path.length > 0 &&
    (record as Record<PropertyKey, unknown>)[issue.path[0]!] !== undefined;
  return `${field}: ${issue.path.length > 0 && !present ? 'is missing' : issueText(issue)}`;
}

function issueText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      // Every number of both resources is an integer, so a wrong type on one says so.
      return `must be ${issue.expected === 'int' || issue.expected === 'number' ? 'an integer' : `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must have at least ${issue.minimum} characters`
        : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must have at most ${issue.maximum} characters`
        : `must be at most ${issue.maximum}`;
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return issue.message && issue.message !== 'Invalid input' ? issue.message : `has an invalid format`;
    default:
      return issue.message;
  }
}

/** Builders that keep the two schemas short and their messages uniform. */
export const field = {
  id: () => z.int().check(z.minimum(1)),
  int: (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max)),
  text: (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max)),
  bool: () => z.boolean(),
};

/** Adds a custom problem on one field from inside a cross-field check. */
export function problem(ctx: { issues: unknown[] }, path: string, message: string, input: unknown): void {
  (ctx.issues as z.core.$ZodRawIssue[]).push({ code: 'custom', path: [path], message, input });
}

/**
 * A resource descriptor from its schema's shape, its three named fields, the fields it stores but never
 * serves, and the schema stored records are read with (the write schema unless a rule was added since).
 */
export function policyResource<T extends object>(
  title: string,
  shape: { readonly shape: object },
  schema: z.ZodMiniType<T>,
  names: { idField: keyof T & string; nameField: keyof T & string; descriptionField: keyof T & string },
  storedFields: readonly (keyof T & string)[] = [],
  storedSchema: z.ZodMiniType<T> = schema,
): PolicyResource<T> {
  const fields = (Object.keys(shape.shape) as (keyof T & string)[]).filter((field) => !storedFields.includes(field));
  return { title, schema, storedSchema, fields, storedFields, ...names };
}

// ---------------------------------------------------------------------------------------------------------
// The collection as served
// ---------------------------------------------------------------------------------------------------------

/**
 * A validated collection in the forms a request needs, computed once per load rather than per request:
 * each element's JSON, the whole array's JSON and its entity tag, and the folded text search runs over.
 */
export interface PolicyCollection<T> {
  readonly policies: readonly T[];
  readonly elements: readonly string[];
  readonly searchText: readonly string[];
  readonly body: string;
  /** A strong entity tag of `body`. */
  readonly etag: string;
}

/** `policies` must already be validated and ordered by identifier. */
export function buildCollection<T extends object>(
  resource: PolicyResource<T>,
  policies: readonly T[],
): PolicyCollection<T> {
  // Exactly the specification's fields, in its order: a stored field never reaches a body or its entity tag.
  const elements = policies.map((p) => JSON.stringify(p, [...resource.fields]));
  const searchText = policies.map((p) =>
    searchableText(String(p[resource.nameField]), String(p[resource.descriptionField])),
  );
  const body = `[${elements.join(',')}]`;
  return { policies, elements, searchText, body, etag: entityTag(body) };
}

/** A quoted strong entity tag: 128 bits of SHA-256, base64url. */
function entityTag(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;
}

// ---------------------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------------------

/** Longer than this (in characters, after normalising and trimming), a search is refused. */
export const MAX_SEARCH_LENGTH = 256;
/** Why a longer search is refused (a 400). */
export const SEARCH_TOO_LONG = `The search parameter is longer than ${MAX_SEARCH_LENGTH} characters; shorten it.`;

/** A parsed search: everything, or terms that must each occur in the name or the description. */
export type SearchQuery = { readonly all: true } | { readonly all: false; readonly terms: readonly string[] };

/**
 * The comparison form of any text, for queries and policy text alike: NFKC, lower case, then the two
 * folds lower-casing misses (ß and ẞ match "ss"; final ς matches σ), and NFKC again because lower-casing
 * can decompose (Greek ΐ). So "STRASSE" finds "Straße" and "ΔΟΣ" finds "οδοσα".
 */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/ß/g, 'ss').replace(/ς/g, 'σ').normalize('NFKC');
}

/**
 * URL-decoded text in, NFKC + lower case + trim; empty, whitespace or "*" mean everything. Undefined when
 * the text is longer than MAX_SEARCH_LENGTH.
 */
export function parseSearch(decoded: string): SearchQuery | undefined {
  const text = fold(decoded).trim();
  if ([...text].length > MAX_SEARCH_LENGTH) return undefined;
  if (text === '' || text === '*') return { all: true };
  return { all: false, terms: text.split(/\s+/u) };
}

/**
 * The folded text a search runs over: name and description joined by a line feed. A term never contains
 * white space, so it can never match across the join.
 */
function searchableText(name: string, description: string): string {
  return `${fold(name)}\n${fold(description)}`;
}

function matchesSearch(query: SearchQuery, text: string): boolean {
  return query.all || query.terms.every((term) => text.includes(term));
}

/** The JSON array of the policies matching the query, in the collection's order (`[]` when none match). */
export function searchPolicies<T>(collection: PolicyCollection<T>, query: SearchQuery): string {
  if (query.all) return collection.body;
  const matched: string[] = [];
  for (let i = 0; i < collection.elements.length; i++) {
    if (matchesSearch(query, collection.searchText[i]!)) matched.push(collection.elements[i]!);
  }
  return `[${matched.join(',')}]`;
}

/**
 * The entity tag of a search's answer. The body is a function of the collection and the parsed query, so
 * the tag is derived from those two: strong, and known without running the search or hashing its result.
 */
function searchEntityTag<T>(collection: PolicyCollection<T>, query: SearchQuery): string {
  return query.all ? collection.etag : entityTag(`${collection.etag}\n${query.terms.join(' ')}`);
}

/** What a list or search request selects: its entity tag, and its body (built only when it is sent). */
export interface Selection {
  readonly etag: string;
  readonly body: () => string;
}

/** What a list or search request selects of the collection: the whole of it for an empty query, else its matches. */
export function selectPolicies<T>(collection: PolicyCollection<T>, query: SearchQuery): Selection {
  return { etag: searchEntityTag(collection, query), body: () => searchPolicies(collection, query) };
}
