import { strengthPolicies } from '../domain/strength-policy';
import { listHandler, routeBySearch, searchHandler } from '../handlers/policy-handlers';
import { instrumented } from '../observability';
import { catalogFromEnvironment } from './policy-function';

/** Route-bound function of /api/passwordstrength (routes.ts): list and search of strength policies. */
const catalog = catalogFromEnvironment(strengthPolicies);

export const listStrengthPolicies = listHandler(catalog);
export const searchStrengthPolicies = searchHandler(catalog);
export const handler = instrumented(routeBySearch({ list: listStrengthPolicies, search: searchStrengthPolicies }));
