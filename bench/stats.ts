import { seeded } from '../testkit/seeded-random';

/** Small statistics and formatting helpers shared by the measurements and the report. */

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Distribution {
  readonly p50: number;
  readonly p99: number;
  readonly samples: number;
}

export function distribution(samples: readonly number[]): Distribution {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

/** Times one awaited call in microseconds. */
export async function timeMicros(call: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await call();
  return Number(process.hrtime.bigint() - start) / 1000;
}

/**
 * A seeded pseudo-random source in [0, 1), from the seeded generator the tests use too (testkit/seeded-random.ts,
 * xoshiro128**): the bench's orders and resamples replay from the seed it prints (BENCH_SEED).
 */
export function seededRandom(seed: number): () => number {
  const source = seeded(seed);
  return () => source.next() / 2 ** 32;
}

/** A copy of `items` in a random order (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The confidence of every interval the bench prints. */
export const CONFIDENCE = 0.95;

/** A statistic with its confidence interval. */
export interface Estimate {
  readonly value: number;
  readonly low: number;
  readonly high: number;
  /** The interval's confidence, 0.95 for 95%. */
  readonly level: number;
}

export interface BootstrapOptions {
  readonly random: () => number;
  /** Resamples drawn (default 10,000). */
  readonly resamples?: number;
  /** Confidence of the interval (default 0.95). */
  readonly level?: number;
}

/**
 * The percentile-bootstrap interval of a statistic of `n` paired observations: `statistic` is given the
 * indices of one resample (n indices drawn with replacement), so both sides of a pair always travel together.
 */
export function pairedBootstrap(
  n: number,
  statistic: (indices: readonly number[]) => number,
  options: BootstrapOptions,
): Estimate {
  const level = options.level ?? 0.95;
  const resamples = options.resamples ?? 10_000;
  if (n === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN, level };
  const all = Array.from({ length: n }, (_, i) => i);
  const values = Array.from({ length: resamples }, () =>
    statistic(all.map(() => Math.floor(options.random() * n))),
  ).sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return {
    value: statistic(all),
    low: values[Math.floor(tail * resamples)]!,
    high: values[Math.min(resamples - 1, Math.ceil((1 - tail) * resamples) - 1)]!,
    level,
  };
}

/**
 * Candidate over baseline, pair by pair (the same round, or the same turn of an interleaved loop): each pair's
 * own ratio, so what slowed the machine during a pair slows both of its sides and cancels.
 */
export function pairedRatios(candidate: readonly number[], baseline: readonly number[]): number[] {
  if (candidate.length !== baseline.length)
    throw new Error(`Paired samples differ in length: ${candidate.length} and ${baseline.length}`);
  return candidate.map((c, i) => ratio(c, baseline[i]!));
}

/** The median of the paired ratios, with its bootstrap interval over the pairs. */
export function pairedMedianRatio(
  candidate: readonly number[],
  baseline: readonly number[],
  options: BootstrapOptions,
): Estimate {
  const ratios = pairedRatios(candidate, baseline);
  return pairedBootstrap(ratios.length, (indices) => median(indices.map((i) => ratios[i]!)), options);
}

/** A percentile of the candidate over the same percentile of the baseline, with its bootstrap interval over the pairs. */
export function pairedPercentileRatio(
  candidate: readonly number[],
  baseline: readonly number[],
  p: number,
  options: BootstrapOptions,
): Estimate {
  if (candidate.length !== baseline.length)
    throw new Error(`Paired samples differ in length: ${candidate.length} and ${baseline.length}`);
  const of = (xs: readonly number[], indices: readonly number[]) =>
    percentile(
      indices.map((i) => xs[i]!),
      p,
    );
  return pairedBootstrap(candidate.length, (indices) => ratio(of(candidate, indices), of(baseline, indices)), options);
}

/**
 * A target read off an interval: PASS when the whole interval is inside the limit, MISS when the whole interval
 * is outside it, UNDECIDED when it straddles the limit (this run cannot tell; more rounds narrow it).
 */
/** The machine a figure was measured on. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly platform: string;
}

/** A figure held to its target. */
export interface TargetResult {
  readonly target: string;
  /** The section whose figures it reads ('bundles' for the sizes every run measures). */
  readonly section?: string;
  readonly measured: number;
  readonly comparison: '<=' | '>=' | '=';
  readonly limit: number;
  readonly unit: 'x' | 'KB' | 'MB' | 'calls' | 'ms';
  /** How far inside the limit (positive) or outside it (negative), in the unit. */
  readonly margin: number;
  /** For a measured ratio: its confidence interval, which the result is read from. */
  readonly interval?: Estimate;
  readonly result: Verdict;
}

export type Verdict = 'PASS' | 'MISS' | 'UNDECIDED';

export function verdict(estimate: Estimate, comparison: '<=' | '>=', limit: number): Verdict {
  const { low, high } = estimate;
  if (!Number.isFinite(low) || !Number.isFinite(high)) return 'UNDECIDED';
  const inside = (x: number) => (comparison === '<=' ? x <= limit : x >= limit);
  if (inside(low) && inside(high)) return 'PASS';
  if (!inside(low) && !inside(high)) return 'MISS';
  return 'UNDECIDED';
}

/** `[1.04, 1.13]`, two decimals. */
export function formatInterval(estimate: Estimate): string {
  return `[${estimate.low.toFixed(2)}, ${estimate.high.toFixed(2)}]`;
}

/** What a report prints for a verdict: PASS, or why not, naming the interval and the line. */
export function describeVerdict(estimate: Estimate, comparison: '<=' | '>=', limit: number): string {
  const v = verdict(estimate, comparison, limit);
  const ci = `CI ${formatInterval(estimate)}`;
  if (v === 'PASS') return 'PASS';
  if (v === 'MISS') return `MISS: ${ci} is past ${limit.toFixed(2)}`;
  return `UNDECIDED: ${ci} straddles ${limit.toFixed(2)}`;
}

export function ratio(value: number, baseline: number): number {
  return baseline > 0 ? value / baseline : Number.NaN;
}

/** Rounds to a number of decimals. */
export function round(value: number, decimals = 3): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** A duration given in microseconds, in a readable unit. */
export function formatMicros(us: number): string {
  if (us < 1000) return `${us.toFixed(us < 10 ? 2 : 1)} us`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(2)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a';
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** Left-aligns the first column and right-aligns the others, two spaces apart. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
