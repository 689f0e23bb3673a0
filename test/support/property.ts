import fc from 'fast-check';

/**
 * Runs a fast-check property with a seed that is always reported on failure: FC_SEED reproduces a run,
 * FC_NUM_RUNS overrides the number of cases. The thrown error starts with the exact command that replays the
 * failing run, followed by fast-check's own report (counterexample, seed and shrink path).
 */
export async function assertProperty<Ts>(name: string, property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>, numRuns: number, extra: Partial<fc.Parameters<Ts>> = {}): Promise<{ seed: number; numRuns: number }> {
  const seed = process.env.FC_SEED !== undefined && process.env.FC_SEED !== '' ? Number(process.env.FC_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const runs = process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : numRuns;
  try {
    await fc.assert(property as fc.IAsyncPropertyWithHooks<Ts>, { numRuns: runs, seed, includeErrorInReport: true, ...extra });
  } catch (error) {
    const report = error instanceof Error ? error.message : String(error);
    const wrapped = new Error(`Property "${name}" failed with seed ${seed}; replay with FC_SEED=${seed} (and FC_NUM_RUNS=${runs}).\n${report}`);
    // eslint-disable-next-line no-console
    console.error(`fast-check seed of the failing property "${name}": ${seed}`);
    throw wrapped;
  }
  return { seed, numRuns: runs };
}

/** Gives a generated value a short printed form in fast-check's counterexample report. */
export function shown<T extends object>(value: T, text: string): T {
  return Object.assign(value, { [fc.toStringMethod]: () => text });
}

/** A string cut to `max` characters, with its length said, for reports. */
export function clip(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}... (${text.length} chars)` : text;
}
