import * as z from 'zod/mini';

/**
 * What the service needs to know about one of its two collections: the schema that is at once the
 * TypeScript type, the validation and the exact field list (in spec.md's order), and which fields are the
 * identifier and the searchable text.
 */
export interface PolicyResource<T extends object> {
  /** Singular, for log lines and error phrases ("generator policy"). */
  readonly title: string;
  readonly schema: z.ZodMiniType<T>;
  /** Every field of the response object, in spec.md's order. */
  readonly fields: readonly (keyof T & string)[];
  readonly idField: keyof T & string;
  readonly nameField: keyof T & string;
  readonly descriptionField: keyof T & string;
}

export type PolicyValidation<T> = { ok: true; policy: T } | { ok: false; problems: string[] };

/** Validates one record; problems name the field ("MaxLength: must be at most 256"). */
export function validatePolicy<T extends object>(resource: PolicyResource<T>, record: unknown): PolicyValidation<T> {
  const result = resource.schema.safeParse(record);
  if (result.success) return { ok: true, policy: project(resource, result.data) };
  return { ok: false, problems: result.error.issues.map((issue) => describeIssue(issue, record)) };
}

/** A copy holding exactly the resource's fields in spec.md's order, so JSON.stringify emits that order. */
function project<T extends object>(resource: PolicyResource<T>, value: T): T {
  const out: Record<string, unknown> = {};
  for (const field of resource.fields) out[field] = value[field];
  return out as T;
}

function describeIssue(issue: z.core.$ZodIssue, record: unknown): string {
  const field = issue.path.length > 0 ? issue.path.join('.') : '(record)';
  const present = typeof record === 'object' && record !== null && issue.path.length > 0 && (record as Record<PropertyKey, unknown>)[issue.path[0]!] !== undefined;
  return `${field}: ${issue.path.length > 0 && !present ? 'is missing' : issueText(issue)}`;
}

function issueText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      // Every number of both resources is an integer, so a wrong type on one says so.
      return `must be ${issue.expected === 'int' || issue.expected === 'number' ? 'an integer' : `a ${issue.expected}`}`;
    case 'too_small':
      return issue.origin === 'string' ? `must have at least ${issue.minimum} characters` : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' ? `must have at most ${issue.maximum} characters` : `must be at most ${issue.maximum}`;
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
