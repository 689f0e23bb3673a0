import { strengthPolicies } from '../domain/strength-policy';
import { parseSearch, SEARCH_TOO_LONG, selectPolicies } from '../domain/policy-collection';
import { apiHandler, ApiError, conditionalJsonResponse, readQueryParameters } from '../http';
import { PolicyRepository } from '../repositories/policies';

/** The function of GET /api/passwordstrength[?search=text]: every strength policy, or those matching. */
const repository = PolicyRepository.fromEnvironment(strengthPolicies);

export const handler = apiHandler(async (event) => {
  // The query is checked before the table is read: a bad request costs no DynamoDB call.
  const query = parseSearch(readQueryParameters(event, ['search']).search ?? '');
  if (!query) throw new ApiError(400, SEARCH_TOO_LONG);
  const selection = selectPolicies(await repository.get(), query);
  return conditionalJsonResponse(event, selection.etag, selection.body);
});
