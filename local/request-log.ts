import { holdsKey } from '../functions/domain/api-key';
import { ROUTES } from '../functions/routes';
import { REDACTED } from '../functions/runtime';
import { decodeLeniently, resourcePath } from './api-gateway-events';

/** Shown in place of a query parameter name that the route does not take. */
const UNSHOWN_NAME = '[other]';

/** Each resource path's query parameter names, lower-cased: the names a request line may show. */
const LOGGABLE_QUERY_NAMES: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const byPath = new Map<string, Set<string>>();
  for (const route of ROUTES) {
    const names = byPath.get(route.path) ?? new Set<string>();
    for (const name of route.query) names.add(name.toLowerCase());
    byPath.set(route.path, names);
  }
  return byPath;
})();

/**
 * What a request line shows of the request target, never a key or a password: the path, each segment that
 * holds a key (`/api/passwordstrength/<key>`) shown as REDACTED, and the names of the query parameters,
 * never a value. A name is shown as sent only when the route takes it (in any letter case); any other as
 * UNSHOWN_NAME, since a name can be a key or password too (`?<password>`).
 */
export function loggedTarget(url: string): string {
  const queryStart = url.indexOf('?');
  const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
  const path = rawPath
    .split('/')
    .map((segment) => (holdsKey(decodeLeniently(segment)) ? REDACTED : segment))
    .join('/');
  if (queryStart < 0) return path;
  const known = LOGGABLE_QUERY_NAMES.get(resourcePath(rawPath));
  const names = url
    .slice(queryStart + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const name = pair.split('=', 1)[0]!;
      return known?.has(decodeLeniently(name).toLowerCase()) ? name : UNSHOWN_NAME;
    });
  return `${path}?${names.join('&')}`;
}
