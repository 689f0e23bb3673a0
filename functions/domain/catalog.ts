import { createHash } from 'node:crypto';
import type { PolicyResource } from './policy-resource';
import { matchesSearch, searchableText, type SearchQuery } from './search';

/**
 * A validated collection in the forms the handlers serve, computed once per load rather than per request:
 * each element's JSON, the whole array's JSON, and the folded text search runs over.
 */
export interface PolicyCatalog<T> {
  readonly policies: readonly T[];
  readonly elements: readonly string[];
  readonly searchText: readonly string[];
  readonly body: string;
  /** A strong entity tag of `body`, computed once per load. */
  readonly etag: string;
}

/** `policies` must already be validated and ordered by identifier. */
export function buildCatalog<T extends object>(resource: PolicyResource<T>, policies: readonly T[]): PolicyCatalog<T> {
  const elements = policies.map((p) => JSON.stringify(p));
  const searchText = policies.map((p) => searchableText(String(p[resource.nameField]), String(p[resource.descriptionField])));
  const body = `[${elements.join(',')}]`;
  return { policies, elements, searchText, body, etag: entityTag(body) };
}

/**
 * The entity tag of a search's response. The body is a function of the catalog and the parsed query, so
 * the tag is derived from those two: strong, and known without running the search or hashing its result.
 */
export function searchEntityTag<T>(catalog: PolicyCatalog<T>, query: SearchQuery): string {
  return query.all ? catalog.etag : entityTag(`${catalog.etag}\n${query.terms.join(' ')}`);
}

/** A quoted strong entity tag: 128 bits of SHA-256, base64url. */
function entityTag(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;
}

/** The JSON array of the policies matching the query, in the catalog's order (`[]` when none match). */
export function searchPolicies<T>(catalog: PolicyCatalog<T>, query: SearchQuery): string {
  if (query.all) return catalog.body;
  const matched: string[] = [];
  for (let i = 0; i < catalog.elements.length; i++) {
    if (matchesSearch(query, catalog.searchText[i]!)) matched.push(catalog.elements[i]!);
  }
  return `[${matched.join(',')}]`;
}
