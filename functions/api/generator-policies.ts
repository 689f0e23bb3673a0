import { generatorPolicies } from '../domain/generator-policy';
import { listHandler, routeBySearch, searchHandler } from '../handlers/policy-handlers';
import { instrumented } from '../observability';
import { catalogFromEnvironment } from './policy-function';

/** Route-bound function of /userapi/passwordgenerator (routes.ts): list and search of generator policies. */
const catalog = catalogFromEnvironment(generatorPolicies);

export const listGeneratorPolicies = listHandler(catalog);
export const searchGeneratorPolicies = searchHandler(catalog);
export const handler = instrumented(routeBySearch({ list: listGeneratorPolicies, search: searchGeneratorPolicies }));
