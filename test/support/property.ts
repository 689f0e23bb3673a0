import fc from 'fast-check';

/**
 * How much deeper than its default each property runs: FC_RUNS_FACTOR=10 runs every property 10 times its
 * default count (rounded up), for a run before a release or after a change to what a property guards
 * (docs/testing.md#property-run-counts). Unset, 1: the defaults, sized for CI.
 */
const RUNS_FACTOR = runsFactor(process.env.FC_RUNS_FACTOR);

function runsFactor(text: string | undefined): number {
  if (text === undefined || text === '') return 1;
  const factor = Number(text);
  if (!Number.isFinite(factor) || factor <= 0)
    throw new Error(`FC_RUNS_FACTOR must be a positive number, not ${JSON.stringify(text)}`);
  return factor;
}

/** A test's time limit, scaled as its properties are by FC_RUNS_FACTOR (for files that set their own). */
export const scaledTimeout = (ms: number): number => Math.ceil(ms * Math.max(1, RUNS_FACTOR));

/**
 * Runs a fast-check property with a seed that is always reported on failure: FC_SEED reproduces a run,
 * FC_NUM_RUNS sets the number of cases of every property (it wins over FC_RUNS_FACTOR), FC_RUNS_FACTOR
 * multiplies each property's default. A fresh seed is drawn per run unless FC_SEED is set. The thrown error
 * starts with the exact command that replays the failing run, followed by fast-check's own report
 * (counterexample, seed and shrink path).
 */
export async function assertProperty<Ts>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  numRuns: number,
  extra: Partial<fc.Parameters<Ts>> = {},
): Promise<{ seed: number; numRuns: number }> {
  const seed =
    process.env.FC_SEED !== undefined && process.env.FC_SEED !== ''
      ? Number(process.env.FC_SEED)
      : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const runs = process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : Math.ceil(numRuns * RUNS_FACTOR);
  try {
    await fc.assert(property as fc.IAsyncPropertyWithHooks<Ts>, {
      numRuns: runs,
      seed,
      includeErrorInReport: true,
      ...extra,
    });
  } catch (error) {
    const report = error instanceof Error ? error.message : String(error);
    const wrapped = new Error(
      `Property "${name}" failed with seed ${seed}; replay with FC_SEED=${seed} (and FC_NUM_RUNS=${runs}).\n${report}`,
    );
    console.error(`fast-check seed of the failing property "${name}": ${seed}`);
    throw wrapped;
  }
  return { seed, numRuns: runs };
}

/** The ranges of code points a string property draws from, by what they hold (first and last). */
const CODE_POINTS = {
  /** Space to tilde. */
  printableAscii: [0x20, 0x7e],
  /** NUL to US. */
  c0Controls: [0, 0x1f],
  /** DEL and the C1 controls. */
  delAndC1Controls: [0x7f, 0x9f],
  /** All of the BMP above ASCII: C1 controls and surrogates too. */
  bmpAboveAscii: [0x80, 0xffff],
  /** The BMP past the C1 controls, surrogates too. */
  bmpPastControls: [0xa0, 0xffff],
  /** High and low surrogates, each drawn alone. */
  loneSurrogates: [0xd800, 0xdfff],
  /** The planes above the BMP. */
  astral: [0x10000, 0x10ffff],
} as const;

/**
 * One code point as a string, from the ranges named, each drawn as often as its weight says, in the order given;
 * a lone surrogate is drawn like any other code point (fast-check's own string units avoid them).
 */
export const codePointOf = (weights: Partial<Record<keyof typeof CODE_POINTS, number>>): fc.Arbitrary<string> =>
  fc
    .oneof(
      ...Object.entries(weights).map(([range, weight]) => {
        const [min, max] = CODE_POINTS[range as keyof typeof CODE_POINTS];
        return { weight, arbitrary: fc.integer({ min, max }) };
      }),
    )
    .map((cp) => String.fromCodePoint(cp));

/** Gives a generated value a short printed form in fast-check's counterexample report. */
export function shown<T extends object>(value: T, text: string): T {
  return Object.assign(value, { [fc.toStringMethod]: () => text });
}

/** A string cut to `max` characters, with its length said, for reports. */
export function clip(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}... (${text.length} chars)` : text;
}
