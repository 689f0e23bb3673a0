import { parseSearch, SEARCH_TOO_LONG, selectPolicies, type PolicyResource } from '../domain/policy-collection';
import { apiHandler, ApiError, conditionalJsonResponse, readQueryParameters, type ProxyHandler } from '../http';
import { PolicyRepository } from '../repositories/policies';

/**
 * The function of a collection's list and search (GET /userapi/passwordgenerator[?search=text], GET
 * /api/passwordstrength[?search=text], ...): every policy of the resource, or those matching. Each
 * collection's entry file is this for its resource, so that each function bundles only its own schema.
 */
export function policyListHandler<T extends object>(resource: PolicyResource<T>): ProxyHandler {
  const repository = PolicyRepository.fromEnvironment(resource);
  return apiHandler(async (event) => {
    // The query is checked before the table is read: a bad request costs no DynamoDB call.
    const query = parseSearch(readQueryParameters(event, ['search']).search ?? '');
    if (!query) throw new ApiError(400, SEARCH_TOO_LONG);
    const selection = selectPolicies(await repository.get(), query);
    return conditionalJsonResponse(event, selection.etag, selection.body);
  });
}
