import { ApiError } from './errors';

/** Longest parameter name echoed back in an error phrase. */
const MAX_ECHOED_NAME = 40;

/**
 * design.md §1: `search` at most once, and no other parameter (a mistyped `?serach=` must not silently
 * return the whole collection). Returns the decoded search text, or undefined when there is none.
 */
export function readSearchParameter(parameters: Record<string, string[] | undefined> | null | undefined): string | undefined {
  let search: string | undefined;
  for (const [name, values] of Object.entries(parameters ?? {})) {
    if (name !== 'search') {
      // A key pasted into the URL must not come back in the answer (design.md §1: no part of a key).
      if (looksLikeKey(name)) throw new ApiError(400, 'Unknown query parameter (not shown: it looks like a key); the only parameter is "search".');
      throw new ApiError(400, `Unknown query parameter "${echo(name)}"; the only parameter is "search".`);
    }
    if (!values || values.length === 0) continue;
    if (values.length > 1) throw new ApiError(400, 'The query parameter "search" is given more than once; give it once.');
    search = values[0];
  }
  return search;
}

/** An issued key's prefix (ppg_, pps_, or any future pp?_ kind), or anything too long to be a parameter name. */
function looksLikeKey(name: string): boolean {
  return /^pp[a-z]_/i.test(name) || name.length > MAX_ECHOED_NAME;
}

function echo(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '?');
}
