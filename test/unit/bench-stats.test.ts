/**
 * The statistics `npm run bench` reads its targets from (bench/stats.ts): paired ratios, their bootstrap
 * intervals, the verdict read off an interval, and the seeded orders; and the targets of the hostile section
 * (bench/hostile-report.ts) read off known figures; the Markdown files of docs/measured/ that `npm run bench`
 * (bench/report.ts) and `npm run bench:accuracy` (bench/accuracy.ts) write. Known inputs, known answers.
 */
import {
  describeVerdict,
  median,
  pairedBootstrap,
  pairedMedianRatio,
  pairedPercentileRatio,
  pairedRatios,
  seededRandom,
  shuffled,
  verdict,
  type Estimate,
} from '../../bench/stats';
import { accuracyMarkdown } from '../../bench/accuracy';
import { BENCH_ENV } from '../../bench/bench-variables';
import type { LoadFigures } from '../../bench/http-bench';
import { MEASURED_BENCH_FILES, measuredFiles, type BenchResults } from '../../bench/report';
import {
  HOSTILE_LIMITS,
  hostileMarkdown,
  hostileTargets,
  type HostileBenchResult,
  type HostileBodyFigures,
} from '../../bench/hostile-report';

const interval = (low: number, high: number, value = (low + high) / 2): Estimate => ({ value, low, high, level: 0.95 });

describe('paired ratios', () => {
  it('divide each candidate by the baseline of its own pair', () => {
    expect(pairedRatios([2, 4, 9], [1, 2, 3])).toEqual([2, 2, 3]);
  });

  it('refuse samples that are not pairs', () => {
    expect(() => pairedRatios([1, 2], [1])).toThrow('Paired samples differ in length: 2 and 1');
  });

  it('the paired median is the median of the per-pair ratios, not a median over a median', () => {
    // Ratios 1, 5 and 0.3: their median is 1; the medians of the sides (10 over 2) would say 5.
    const candidate = [1, 10, 30];
    const baseline = [1, 2, 100];
    expect(pairedMedianRatio(candidate, baseline, { random: seededRandom(1) }).value).toBe(1);
    expect(median(candidate) / median(baseline)).toBe(5);
  });

  it('a drift shared by both sides of each pair cancels: a constant 1.05x has the interval [1.05, 1.05]', () => {
    // The machine's speed swings tenfold between rounds; within a round the candidate is always 5% slower.
    const drift = Array.from({ length: 25 }, (_, i) => 50 + ((i * 37) % 450));
    const estimate = pairedMedianRatio(
      drift.map((d) => d * 1.05),
      drift,
      { random: seededRandom(7), resamples: 2000 },
    );
    expect(estimate.value).toBeCloseTo(1.05, 12);
    expect(estimate.low).toBeCloseTo(1.05, 12);
    expect(estimate.high).toBeCloseTo(1.05, 12);
  });

  it('p99 over p99 on pairs resampled together: a candidate twice its baseline in every pair is 2x, interval [2, 2]', () => {
    const baseline = Array.from({ length: 200 }, (_, i) => 1 + ((i * 7919) % 200));
    const estimate = pairedPercentileRatio(
      baseline.map((b) => 2 * b),
      baseline,
      99,
      { random: seededRandom(3), resamples: 500 },
    );
    expect(estimate).toEqual({ value: 2, low: 2, high: 2, level: 0.95 });
  });
});

describe('the bootstrap interval', () => {
  // The ratios 1, 2, ..., 101: median 51. The distribution-free 95% interval of a median of 101 values runs
  // from the 41st to the 61st (51 -/+ 1.96 * sqrt(101) / 2); the percentile bootstrap lands near it.
  const ratios = Array.from({ length: 101 }, (_, i) => i + 1);
  const ones = ratios.map(() => 1);

  it('of the median of 101 known ratios is about [41, 61] at 95%', () => {
    const estimate = pairedMedianRatio(ratios, ones, { random: seededRandom(2026), resamples: 4000 });
    expect(estimate.value).toBe(51);
    expect(estimate.low).toBeGreaterThanOrEqual(40);
    expect(estimate.low).toBeLessThanOrEqual(42);
    expect(estimate.high).toBeGreaterThanOrEqual(60);
    expect(estimate.high).toBeLessThanOrEqual(62);
    expect(estimate.level).toBe(0.95);
  });

  it('is wider at a higher confidence and narrower at a lower one', () => {
    const at = (level: number) => pairedMedianRatio(ratios, ones, { random: seededRandom(11), resamples: 2000, level });
    const [narrow, usual, wide] = [at(0.5), at(0.95), at(0.999)];
    expect(narrow.low).toBeGreaterThan(usual.low);
    expect(narrow.high).toBeLessThan(usual.high);
    expect(wide.low).toBeLessThan(usual.low);
    expect(wide.high).toBeGreaterThan(usual.high);
  });

  it('replays exactly from its seed', () => {
    const run = (seed: number) => pairedMedianRatio(ratios, ones, { random: seededRandom(seed), resamples: 1000 });
    expect(run(42)).toEqual(run(42));
  });

  it('takes its bounds at the 2.5th and 97.5th percentiles of the resampled statistic', () => {
    // A statistic that ignores the data and counts its calls: the resamples see 1..1000 in turn, then the whole sample.
    let calls = 0;
    const estimate = pairedBootstrap(5, () => ++calls, { random: seededRandom(1), resamples: 1000 });
    expect(estimate).toEqual({ value: 1001, low: 26, high: 975, level: 0.95 });
  });

  it('of no pairs is NaN, which no target can pass', () => {
    const estimate = pairedMedianRatio([], [], { random: seededRandom(1) });
    expect(estimate.value).toBeNaN();
    expect(verdict(estimate, '<=', 1.1)).toBe('UNDECIDED');
  });
});

describe('the verdict read off an interval', () => {
  it('is PASS only when the whole interval is inside the limit', () => {
    expect(verdict(interval(1.02, 1.08), '<=', 1.1)).toBe('PASS');
    expect(verdict(interval(1.02, 1.1), '<=', 1.1)).toBe('PASS');
    expect(verdict(interval(2.1, 3), '>=', 2)).toBe('PASS');
  });

  it('is MISS when the whole interval is past the limit', () => {
    expect(verdict(interval(1.12, 1.2), '<=', 1.1)).toBe('MISS');
    expect(verdict(interval(1.5, 1.9), '>=', 2)).toBe('MISS');
  });

  it('is UNDECIDED when the interval straddles the limit, whatever the point estimate', () => {
    expect(verdict(interval(1.04, 1.13, 1.06), '<=', 1.1)).toBe('UNDECIDED');
    expect(verdict(interval(1.04, 1.13, 1.12), '<=', 1.1)).toBe('UNDECIDED');
    expect(verdict(interval(Number.NaN, Number.NaN), '<=', 1.1)).toBe('UNDECIDED');
  });

  it('is printed with the interval and the line it straddles or passes', () => {
    expect(describeVerdict(interval(1.04, 1.13), '<=', 1.1)).toBe('UNDECIDED: CI [1.04, 1.13] straddles 1.10');
    expect(describeVerdict(interval(1.12, 1.2), '<=', 1.1)).toBe('MISS: CI [1.12, 1.20] is past 1.10');
    expect(describeVerdict(interval(0.98, 1.07), '<=', 1.1)).toBe('PASS');
  });
});

describe('the seeded order', () => {
  it('draws in [0, 1) and replays from its seed', () => {
    const a = seededRandom(99);
    const b = seededRandom(99);
    const drawn = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(drawn);
    expect(drawn.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Array.from({ length: 1000 }, seededRandom(100))).not.toEqual(drawn);
  });

  it('shuffles into a permutation, leaving its input as it was', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    const order = shuffled(items, seededRandom(5));
    expect([...order].sort()).toEqual(items);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  });

  it('puts every item in every place about equally often', () => {
    const random = seededRandom(8);
    const items = [0, 1, 2, 3];
    const counts = items.map(() => items.map(() => 0));
    const rounds = 8000;
    for (let i = 0; i < rounds; i++) shuffled(items, random).forEach((item, place) => counts[item]![place]!++);
    // 2,000 expected in each cell; 6 standard deviations (about 230) apart would be a biased shuffle.
    for (const row of counts) for (const n of row) expect(Math.abs(n - rounds / items.length)).toBeLessThan(230);
  });
});

describe('the hostile targets', () => {
  const body = (
    family: HostileBodyFigures['family'],
    name: string,
    cpuMs: number,
    heapPeakMB: number,
    more: Partial<HostileBodyFigures> = {},
  ): HostileBodyFigures => ({
    family,
    name,
    validAfterNfkc: true,
    cpuMs,
    runs: 3,
    heapPeakMB,
    heapAfterGcMB: Number.NaN,
    ...more,
  });
  const result = (bodies: HostileBodyFigures[]): HostileBenchResult => ({
    seed: 7,
    perFamily: 2,
    repeats: 3,
    noRepeatMs: 1000,
    httpBodiesPerFamily: 1,
    bodies,
    loadAverage: [1.5, 2.25],
    commit: 'abc1234',
    seconds: 12,
    markdownFile: 'docs/measured/hostile.md',
  });
  const read = (r: HostileBenchResult) => hostileTargets(r).map((t) => [t.unit, t.measured, t.limit, t.result]);

  it('read the worst body of any family against 100 ms of CPU, 32 MB of heap and 300 ms over HTTP: at the limit, PASS', () => {
    const bodies = [
      body('nfkc-expanding', '#1 a', HOSTILE_LIMITS.cpuMs, 3, { http: { ms: 120, status: 200, posts: 3 } }),
      body('l33t-runs', '#1 b', 20, HOSTILE_LIMITS.heapMB, {
        http: { ms: HOSTILE_LIMITS.httpMs, status: 200, posts: 3 },
      }),
    ];
    expect(read(result(bodies))).toEqual([
      ['ms', 100, 100, 'PASS'],
      ['MB', 32, 32, 'PASS'],
      ['ms', 300, 300, 'PASS'],
    ]);
  });

  it('past a limit, MISS; a refused body counts for nothing; without HTTP, no HTTP target', () => {
    const bodies = [
      body('nfkc-expanding', '#1 a', 983.2, 141.7),
      body('nfkc-expanding', '#2 b', Number.NaN, Number.NaN, {
        refused: '400: Password must be at most 256 characters.',
        runs: 0,
      }),
      body('dense-userinputs', '#1 c', 100.5, 28.9),
    ];
    expect(read(result(bodies))).toEqual([
      ['ms', 983.2, 100, 'MISS'],
      ['MB', 141.7, 32, 'MISS'],
    ]);
  });

  it('nothing evaluated is no PASS', () => {
    const refused = body('repeated-characters', '#1 a', Number.NaN, Number.NaN, { refused: '400: too long', runs: 0 });
    expect(hostileTargets(result([refused])).map((t) => t.result)).toEqual(['MISS', 'MISS']);
  });

  it('the Markdown says when, with what seed, on which machine and code, a row per family, names as code', () => {
    const bodies = [
      body('nfkc-expanding', '#1 <letter>+U+2A0C | 4$$', 983.2, 141.7, { heapAfterGcMB: 116.1, validAfterNfkc: false }),
      body('l33t-runs', '#1 run', 20, 3),
    ];
    const markdown = hostileMarkdown(result(bodies), '2026-11-27T11:38:50.304Z', {
      cpu: 'AMD EPYC',
      cores: 2,
      node: 'v20.20.2',
      platform: 'linux x64',
    });
    expect(markdown).toContain(
      `- Date: 2026-11-27T11:38:50.304Z\n- Seed: 7 (\`${BENCH_ENV.seed}=7\` makes the same bodies)\n- Code: commit abc1234\n- Machine: AMD EPYC, 2 cores, Node v20.20.2, linux x64\n- Load average (1 minute) at the start and the end of the section: 1.50, 2.25`,
    );
    expect(markdown).toContain('| nfkc-expanding | 1 | 983.2 ms MISS (#1) | 141.7 MB MISS (#1) | 116.1 MB | - | - |');
    expect(markdown).toContain('| l33t-runs | 1 | 20.0 ms PASS (#1) | 3.0 MB PASS (#1) | no GC | - | - |');
    expect(markdown).toContain('- nfkc-expanding: `#1 <letter>+U+2A0C | 4$$` (valid as sent only)');
    expect(markdown).toContain(
      '| nfkc-expanding | `#1 <letter>+U+2A0C \\| 4$$` | no | 983.2 ms | 3 | 141.7 MB | 116.1 MB | - | - |',
    );
  });
});

describe('the measured files of docs/measured/', () => {
  const load = (requestsPerSecond: number, p99Ms: number): LoadFigures => ({
    requestsPerSecond,
    p50Ms: 1,
    p99Ms,
    requests: 1000,
    non2xx: 0,
    errors: 0,
  });
  const results: BenchResults = {
    timestamp: '2026-11-27T15:00:00.000Z',
    machine: { cpu: 'AMD EPYC', cores: 2, node: 'v20.20.2', platform: 'linux x64' },
    config: {
      handlerSizes: [],
      policyCacheTtlSeconds: 30,
      coldStartRuns: 60,
      seed: 7,
      deployedStage: 'prod',
      profileRuns: 5,
      httpConnections: 32,
      httpSeconds: 10,
    },
    sections: ['http'],
    loadAverage: [1.5, 2.25],
    seconds: 95,
    bundles: { GeneratorPolicies: { bytes: 271_872 }, HelloWorld: { bytes: 206 } },
    http: {
      connections: 32,
      seconds: 10,
      endpoints: [
        {
          name: 'generator list',
          path: '/userapi/passwordgenerator',
          list: true,
          responseBytes: 5000,
          gateway: load(18000, 4),
          bare: load(36000, 2),
          throughputRatio: 0.5,
          p99Ratio: 2,
        },
      ],
    },
    targets: [
      {
        target: 'GeneratorPolicies bundle size (minified, SDK included)',
        section: 'bundles',
        measured: 265.5,
        comparison: '<=',
        limit: 300,
        unit: 'KB',
        margin: 34.5,
        result: 'PASS',
      },
    ],
  };

  it('npm run bench writes bundles.md and a file per section it ran, each saying which command, when, on what code and machine', () => {
    const files = measuredFiles(results, 'abc1234');
    expect(files.map((f) => f.file)).toEqual(['docs/measured/bundles.md', 'docs/measured/http.md']);
    expect(MEASURED_BENCH_FILES).toEqual(expect.arrayContaining(files.map((f) => f.file)));
    const [bundles, http] = files.map((f) => f.text) as [string, string];
    expect(bundles).toContain(
      'Written by `npm run bench` (`bench/bundles.ts`) and overwritten by each run: not edited by hand.',
    );
    expect(http).toContain(
      'Written by `BENCH_SECTIONS=http npm run bench` (`bench/http-bench.ts`) and overwritten by each run: not edited by hand.',
    );
    expect(http).toContain(
      '- Date: 2026-11-27T15:00:00.000Z\n- Code: commit abc1234\n- Machine: AMD EPYC, 2 cores, Node v20.20.2, linux x64\n- Seed: 7',
    );
    expect(http).toContain('- Load average (1 minute) at the start and the end of the run: 1.50, 2.25');
    expect(http).toContain('| generator list | 5000 | 18000 | 36000 | 0.50x | 4 ms | 2 ms | 2.00x | 0/0 |');
    expect(http).not.toContain('## Targets');
    expect(bundles).toContain('| GeneratorPolicies | 265.5 KB | - | 300 KB |');
    expect(bundles).toContain('## Targets\n\n| target | measured | interval | limit | margin | result |');
    expect(bundles).toContain(
      '| GeneratorPolicies bundle size (minified, SDK included) | 265.5 KB | - | <= 300.0 KB | +34.5 KB | PASS |',
    );
  });

  it('npm run bench:accuracy writes its tables under the same header', () => {
    const markdown = accuracyMarkdown(
      {
        intro: ['Held-out sample: 2 passwords.'],
        tables: [
          {
            title: 'Rule families',
            header: ['family', 'example', 'share'],
            rows: [['word | year', '`Hahaha1992?`', '0.0%']],
          },
        ],
        outro: 'Families: PASS.',
      },
      {
        timestamp: '2026-11-27T15:00:00.000Z',
        commit: 'abc1234',
        machine: 'AMD EPYC, 2 cores, Node v20.20.2, linux x64',
        loadAverage: [1.5, 2.25],
        seconds: 400,
      },
    );
    expect(markdown).toContain(
      'Written by `npm run bench:accuracy` (`bench/accuracy.ts`) and overwritten by each run: not edited by hand.',
    );
    expect(markdown).toContain(
      '- Date: 2026-11-27T15:00:00.000Z\n- Code: commit abc1234\n- Machine: AMD EPYC, 2 cores, Node v20.20.2, linux x64',
    );
    expect(markdown).toContain(
      'Held-out sample: 2 passwords.\n\nRule families\n\n| family | example | share |\n|---|---:|---:|\n| word \\| year | `Hahaha1992?` | 0.0% |\n\nFamilies: PASS.',
    );
  });
});
