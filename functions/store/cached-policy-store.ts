import { SERVICE_METRICS } from '../metrics';
import { countMetric, logger, tallyMetric } from '../observability';
import { StoreUnavailableError, type PolicyStore } from './policy-store';

export interface CacheOptions {
  /** How long a loaded collection is served without asking the store again. */
  ttlMs: number;
  /** The clock, replaceable in tests. */
  now?: () => number;
}

/**
 * Holds a collection in memory for a TTL, so warm invocations inside it make no DynamoDB call. `derive`
 * turns the loaded policies into whatever the handlers serve (done once per load, not per request).
 * When a reload fails, the last good value is served for one more TTL and the failure logged; with nothing cached the
 * failure becomes StoreUnavailableError. Concurrent callers share one reload.
 */
export class CachedPolicyStore<T, V> {
  private cached: { value: V; loadedAt: number } | undefined;
  private reloading: Promise<V> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly store: PolicyStore<T>,
    private readonly derive: (policies: readonly T[]) => V,
    private readonly options: CacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The cached value while it is fresh, synchronously: the warm path needs no promise. */
  peek(): V | undefined {
    if (!this.cached || this.now() - this.cached.loadedAt >= this.options.ttlMs) return undefined;
    tallyMetric(SERVICE_METRICS.names.policyCacheHit);
    return this.cached.value;
  }

  async get(): Promise<V> {
    const fresh = this.peek();
    if (fresh !== undefined) return fresh;
    this.reloading ??= this.reload().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private async reload(): Promise<V> {
    countMetric(SERVICE_METRICS.names.policyCacheMiss);
    try {
      const value = this.derive(await this.store.loadAll());
      this.cached = { value, loadedAt: this.now() };
      return value;
    } catch (error) {
      if (this.cached) {
        // Serve the last good collection for one more TTL rather than retry DynamoDB on every request.
        logger.warn('Policy store unavailable; serving the cached collection for another TTL', { ageMs: this.now() - this.cached.loadedAt, error: errorName(error) });
        this.cached = { value: this.cached.value, loadedAt: this.now() };
        countMetric(SERVICE_METRICS.names.staleCollectionServed);
        return this.cached.value;
      }
      logger.error('Policy store unavailable and nothing cached', { error: errorName(error) });
      throw new StoreUnavailableError({ cause: error });
    }
  }
}

/** The error's name only: an SDK message can carry a table name or an ARN. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
