/** The port the handlers read policies through. Implementations return the complete, validated collection. */
export interface PolicyStore<T> {
  /** Every valid policy, ordered by identifier ascending; throws rather than return part of a collection. */
  loadAll(): Promise<readonly T[]>;
}

/** The store could not be read and there is nothing cached to serve instead (a 503 to the client). */
export class StoreUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The policy store is unavailable', options);
    this.name = 'StoreUnavailableError';
  }
}
