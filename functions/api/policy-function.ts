import type { PolicyResource } from '../domain/policy-resource';
import { buildCatalog, type PolicyCatalog } from '../domain/catalog';
import { CachedPolicyStore } from '../store/cached-policy-store';
import { DynamoDbPolicyStore, createDocumentClient, positiveInt } from '../store/dynamodb-policy-store';
import { ENV } from '../routes';

/** design.md §3: warm invocations within this many seconds make no DynamoDB call. */
export const DEFAULT_POLICY_CACHE_TTL_SECONDS = 30;

/** The cached catalog one route-bound function serves, wired from its environment. */
export function catalogFromEnvironment<T extends object>(resource: PolicyResource<T>, env: NodeJS.ProcessEnv = process.env): CachedPolicyStore<T, PolicyCatalog<T>> {
  const tableName = env[ENV.policyTable];
  if (!tableName) throw new Error(`${ENV.policyTable} is not set`);
  const store = new DynamoDbPolicyStore(createDocumentClient(env), tableName, resource);
  const ttlSeconds = positiveInt(env[ENV.policyCacheTtl], DEFAULT_POLICY_CACHE_TTL_SECONDS);
  return new CachedPolicyStore(store, (policies) => buildCatalog(resource, policies), { ttlMs: ttlSeconds * 1000 });
}
