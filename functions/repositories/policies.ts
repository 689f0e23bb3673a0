import { paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  buildCollection,
  validateStoredPolicy,
  type PolicyCollection,
  type PolicyResource,
} from '../domain/policy-collection';
import {
  countMetric,
  createDocumentClient,
  DEFAULT_POLICY_CACHE_TTL_SECONDS,
  ENV,
  errorName,
  logger,
  requiredSetting,
  SERVICE_METRICS,
  tallyMetric,
  UnavailableError,
  wholeNumber,
} from '../runtime';

/**
 * The attribute the policy CLI keeps on each stored policy beside the specification's fields: its version,
 * for optimistic concurrency (docs/administration.md). It is bookkeeping, never part of a response.
 */
export const VERSION_ATTRIBUTE = 'Version';

/** A stored record without its bookkeeping: what is validated (strictly) and served. */
export function specificationFields(record: Record<string, unknown>): Record<string, unknown> {
  const { [VERSION_ATTRIBUTE]: _version, ...fields } = record;
  return fields;
}

export interface PolicyRepositoryOptions {
  /** How long a loaded collection is served without reading the table again. */
  readonly ttlMs: number;
  /** The clock, replaceable in tests. */
  readonly now?: () => number;
}

/**
 * One policy table: scanned to the last page, validated, and held in memory for a TTL, so warm invocations
 * inside it make no DynamoDB call. When a reload fails, the last good collection is served for one more
 * TTL and the failure logged; with nothing cached the failure becomes an UnavailableError (503). Concurrent
 * callers share one reload. A collection is never served in part.
 */
export class PolicyRepository<T extends object> {
  private cached: { collection: PolicyCollection<T>; loadedAt: number } | undefined;
  private reloading: Promise<PolicyCollection<T>> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly resource: PolicyResource<T>,
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: PolicyRepositoryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The repository of a function's one policy table, from its environment (POLICY_TABLE_NAME, the TTL, DynamoDB). */
  static fromEnvironment<T extends object>(
    resource: PolicyResource<T>,
    env: NodeJS.ProcessEnv = process.env,
  ): PolicyRepository<T> {
    const ttlSeconds = wholeNumber(env[ENV.policyCacheTtl], DEFAULT_POLICY_CACHE_TTL_SECONDS);
    return new PolicyRepository(resource, createDocumentClient(env), requiredSetting(ENV.policyTable, env), {
      ttlMs: ttlSeconds * 1000,
    });
  }

  /** The collection, from memory while it is fresh. */
  async get(): Promise<PolicyCollection<T>> {
    if (this.cached && this.now() - this.cached.loadedAt < this.options.ttlMs) {
      tallyMetric(SERVICE_METRICS.names.policyCacheHit);
      return this.cached.collection;
    }
    this.reloading ??= this.reload().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  /**
   * Every valid policy of the table, ordered by identifier: a Scan followed through every LastEvaluatedKey
   * (DynamoDB pages at 1 MB), each validated as a stored record (validateStoredPolicy: a rule added to
   * writes since it was written does not take it out of service). An invalid record is left out, logged with its identifier at ERROR and counted
   * in InvalidPolicyRecords, so one bad record never breaks the collection.
   */
  async scan(): Promise<T[]> {
    const policies: T[] = [];
    let invalid = 0;
    for await (const page of paginateScan(
      { client: this.client },
      { TableName: this.tableName, ConsistentRead: true },
    )) {
      for (const record of page.Items ?? []) {
        const result = validateStoredPolicy(this.resource, specificationFields(record));
        if (result.ok) {
          policies.push(result.policy);
        } else {
          invalid += 1;
          logger.error(`Invalid ${this.resource.title} record left out`, {
            policyId: record[this.resource.idField],
            problems: result.problems,
          });
        }
      }
    }
    if (invalid > 0) countMetric(SERVICE_METRICS.names.invalidPolicyRecords, invalid);
    const id = this.resource.idField;
    return policies.sort((a, b) => (a[id] as number) - (b[id] as number));
  }

  private async reload(): Promise<PolicyCollection<T>> {
    countMetric(SERVICE_METRICS.names.policyCacheMiss);
    try {
      const collection = buildCollection(this.resource, await this.scan());
      this.cached = { collection, loadedAt: this.now() };
      return collection;
    } catch (error) {
      if (this.cached) {
        // Serve the last good collection for one more TTL rather than retry DynamoDB on every request.
        logger.warn('Policy store unavailable; serving the cached collection for another TTL', {
          ageMs: this.now() - this.cached.loadedAt,
          error: errorName(error),
        });
        this.cached = { collection: this.cached.collection, loadedAt: this.now() };
        countMetric(SERVICE_METRICS.names.staleCollectionServed);
        return this.cached.collection;
      }
      logger.error('Policy store unavailable and nothing cached', { error: errorName(error) });
      throw new UnavailableError({ cause: error });
    }
  }
}
