import { ApiError } from '../http/errors';

/** design.md §1: longer than this (in characters, after normalising and trimming) is a 400. */
export const MAX_SEARCH_LENGTH = 256;

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

/** design.md §1: URL-decoded text in, NFKC + lower case + trim; empty, whitespace or "*" mean everything. */
export function parseSearch(decoded: string): SearchQuery {
  const text = fold(decoded).trim();
  if ([...text].length > MAX_SEARCH_LENGTH) {
    throw new ApiError(400, `The search parameter is longer than ${MAX_SEARCH_LENGTH} characters; shorten it.`);
  }
  if (text === '' || text === '*') return { all: true };
  return { all: false, terms: text.split(/\s+/u) };
}

/**
 * The folded text a search runs over: name and description joined by a line feed. A term never contains
 * white space, so it can never match across the join.
 */
export function searchableText(name: string, description: string): string {
  return `${fold(name)}\n${fold(description)}`;
}

export function matchesSearch(query: SearchQuery, text: string): boolean {
  return query.all || query.terms.every((term) => text.includes(term));
}
