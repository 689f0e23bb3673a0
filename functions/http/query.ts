import { ApiError } from './errors';

/** Longest parameter name echoed back in an error phrase. */
const MAX_ECHOED_NAME = 40;

/**
 * The query parameters a route accepts, each at most once, and no other (design.md §1: a mistyped
 * `?serach=` must not silently be ignored). Returns the decoded value of each parameter given.
 */
export function readQueryParameters<N extends string>(parameters: Record<string, string[] | undefined> | null | undefined, allowed: readonly N[]): Partial<Record<N, string>> {
  const read: Partial<Record<N, string>> = {};
  const only = allowed.length === 1 ? `the only parameter is "${allowed[0]}"` : `the parameters are ${allowed.map((a) => `"${a}"`).join(', ')}`;
  for (const [name, values] of Object.entries(parameters ?? {})) {
    if (!(allowed as readonly string[]).includes(name)) {
      // A key pasted into the URL must not come back in the answer (design.md §1: no part of a key).
      if (looksLikeKey(name)) throw new ApiError(400, `Unknown query parameter (not shown: it looks like a key); ${only}.`);
      throw new ApiError(400, `Unknown query parameter "${echo(name)}"; ${only}.`);
    }
    if (!values || values.length === 0) continue;
    if (values.length > 1) throw new ApiError(400, `The query parameter "${name}" is given more than once; give it once.`);
    read[name as N] = values[0];
  }
  return read;
}

/** The list and search routes: `search` at most once and nothing else; its decoded text, if given. */
export function readSearchParameter(parameters: Record<string, string[] | undefined> | null | undefined): string | undefined {
  return readQueryParameters(parameters, ['search']).search;
}

/** An issued key's prefix (ppg_, pps_, or any future pp?_ kind), or anything too long to be a parameter name. */
function looksLikeKey(name: string): boolean {
  return /^pp[a-z]_/i.test(name) || name.length > MAX_ECHOED_NAME;
}

function echo(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '?');
}
