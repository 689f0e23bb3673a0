import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { searchEntityTag, searchPolicies, type PolicyCatalog } from '../domain/catalog';
import { parseSearch } from '../domain/search';
import { ApiError, PHRASES } from '../http/errors';
import { headerValues } from '../http/headers';
import { readSearchParameter } from '../http/query';
import { conditionalJsonResponse, errorResponse } from '../http/responses';
import { logger } from '../observability';
import { StoreUnavailableError } from '../store/policy-store';

export type ProxyHandler = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

/** Where handlers get a collection from: the cached store in production, anything in tests. */
export interface CatalogSource<T> {
  /** The collection while it is fresh, without a promise; undefined when it must be (re)loaded. */
  peek(): PolicyCatalog<T> | undefined;
  get(): Promise<PolicyCatalog<T>>;
}

/** GET <collection>: every policy. The query may only be empty (design.md §1). */
export function listHandler<T>(source: CatalogSource<T>): ProxyHandler {
  // The unconditional 200 of the current catalog, built once per load and served as it is (frozen).
  let served: { catalog: PolicyCatalog<T>; response: APIGatewayProxyResult } | undefined;
  return answering(async (event) => {
    if (readSearchParameter(event.multiValueQueryStringParameters) !== undefined) {
      throw new ApiError(400, 'This route lists every policy; use the search route for "search".');
    }
    const catalog = source.peek() ?? (await source.get());
    const tags = ifNoneMatch(event);
    if (tags !== undefined) return conditionalJsonResponse(tags, catalog.etag, () => catalog.body);
    if (served?.catalog !== catalog) served = { catalog, response: frozen(conditionalJsonResponse(undefined, catalog.etag, () => catalog.body)) };
    return served.response;
  });
}

/** GET <collection>/?search=text: the policies whose name or description match (design.md §1). */
export function searchHandler<T>(source: CatalogSource<T>): ProxyHandler {
  return answering(async (event) => {
    const query = parseSearch(readSearchParameter(event.multiValueQueryStringParameters) ?? '');
    const catalog = source.peek() ?? (await source.get());
    return conditionalJsonResponse(ifNoneMatch(event), searchEntityTag(catalog, query), () => searchPolicies(catalog, query));
  });
}

/** The route-bound entry point: API Gateway cannot route on a query string, so dispatch on `search` here. */
export function routeBySearch(handlers: { list: ProxyHandler; search: ProxyHandler }): ProxyHandler {
  return (event) => {
    const parameters = event.multiValueQueryStringParameters ?? {};
    return Object.keys(parameters).length === 0 ? handlers.list(event) : handlers.search(event);
  };
}

function frozen(response: APIGatewayProxyResult): APIGatewayProxyResult {
  Object.freeze(response.headers);
  return Object.freeze(response);
}

/** The If-None-Match header, whatever the case of its name; repeated headers are joined as one list. */
function ifNoneMatch(event: APIGatewayProxyEvent): string | undefined {
  const values = headerValues(event, 'If-None-Match');
  return values.length > 0 ? values.join(',') : undefined;
}

/** Turns every outcome into a response in design.md's envelope; nothing thrown escapes as a raw 5xx. */
export function answering(handler: ProxyHandler): ProxyHandler {
  return async (event) => {
    try {
      return await handler(event);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error.status, error.phrase);
      if (error instanceof StoreUnavailableError) return errorResponse(503, PHRASES.unavailable);
      logger.error('Unexpected error', { error: error instanceof Error ? error.name : typeof error });
      return errorResponse(500, PHRASES.internal);
    }
  };
}
