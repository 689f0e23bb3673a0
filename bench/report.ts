import { HTTP_ROUNDS } from './http-bench';
import type { ColdStartResult } from './cold-start-bench';
import type { EvaluationBenchResult } from './evaluation-bench';
import { CONTEXT_TYPICAL_P50_LIMIT_MS, contextFigures, renderContext } from './context-bench';
import type { HandlerBenchResult } from './handler-bench';
import { hostileTargets, renderHostile, type HostileBenchResult } from './hostile-report';
import type { HttpBenchResult } from './http-bench';
import { isReference, type BuiltBundles } from './bundles';
import { markdownBody, markdownTable, measuredHeader, MEASURED_DIR, type Tabulate } from './measured';
import {
  CONFIDENCE,
  describeVerdict,
  formatBytes,
  formatInterval,
  formatMicros,
  formatRatio,
  table,
  verdict,
  type Estimate,
  type Machine,
  type TargetResult,
  type Verdict,
} from './stats';
import { BENCH_ENV } from './bench-variables';

/** The targets of the issue, each checked against this run's figures. Nothing enforces them. */

export interface BenchResults {
  readonly timestamp: string;
  readonly machine: Machine;
  readonly config: {
    readonly handlerSizes: readonly { policies: number; iterations: number }[];
    readonly policyCacheTtlSeconds: number;
    readonly coldStartRuns: number;
    /** Seeds the round orders, the coin tosses of the in-process pairs, the resamples and the hostile bodies (BENCH_SEED). */
    readonly seed: number;
    /** The stage whose function environment the functions ran with. */
    readonly deployedStage: string;
    readonly profileRuns: number;
    readonly httpConnections: number;
    readonly httpSeconds: number;
  };
  /** The sections run (BENCH_SECTIONS); the others are absent. */
  readonly sections: readonly string[];
  /** The machine's load average (1 minute) at the start and the end of the run, and the run's seconds. */
  readonly loadAverage: readonly [number, number];
  readonly seconds: number;
  readonly bundles: Record<string, { bytes: number; assetBytes?: number }>;
  readonly inProcess?: HandlerBenchResult[];
  readonly evaluation?: EvaluationBenchResult;
  readonly hostile?: HostileBenchResult;
  readonly coldStart?: ColdStartResult;
  readonly http?: HttpBenchResult;
  readonly targets: TargetResult[];
}

function target(
  name: string,
  measured: number,
  comparison: TargetResult['comparison'],
  limit: number,
  unit: TargetResult['unit'],
  extraCondition = true,
): TargetResult {
  const margin = comparison === '>=' ? measured - limit : limit - measured;
  const inside = comparison === '=' ? measured === limit : margin >= 0;
  return {
    target: name,
    measured,
    comparison,
    limit,
    unit,
    margin,
    result: inside && extraCondition && Number.isFinite(measured) ? 'PASS' : 'MISS',
  };
}

/** A ratio target read off its interval: PASS only when the whole interval is inside the limit. */
function ratioTarget(name: string, estimate: Estimate, limit: number): TargetResult {
  return {
    target: name,
    measured: estimate.value,
    comparison: '<=',
    limit,
    unit: 'x',
    margin: limit - estimate.value,
    interval: estimate,
    result: verdict(estimate, '<=', limit),
  };
}

/** The most one evaluation may cost, whatever the password (256 characters at most): a bound, not a goal. */
export const EVALUATION_LIMIT_MS = 100;

/** Bundle size limits (KB = 1,024 bytes): the spec functions and the authorizer, the generation with its word list, the evaluation with its data. */
export const BUNDLE_LIMITS_KB: Readonly<Record<string, number>> = {
  GeneratorPolicies: 300,
  StrengthPolicies: 300,
  Authorizer: 300,
  GeneratePassword: 450,
  // zxcvbn-ts's dictionaries, the breached-password filter and the attack models' data (docs/performance.md#bundles).
  EvaluatePassword: 4096,
};

export function evaluateTargets(
  bundles: BuiltBundles,
  inProcess: HandlerBenchResult[] | undefined,
  evaluation: EvaluationBenchResult | undefined,
  coldStart: ColdStartResult | undefined,
  hostile: HostileBenchResult | undefined,
): TargetResult[] {
  const targets: TargetResult[] = [];
  const add = (section: string, ...found: TargetResult[]) => targets.push(...found.map((t) => ({ ...t, section })));
  if (inProcess) {
    const maxCalls = Math.max(...inProcess.map((r) => r.dynamodb.callsPer1000Warm));
    const allWithinTtl = inProcess.every((r) => r.dynamodb.countedWithinTtl);
    add(
      'handler',
      target(
        'DynamoDB calls per 1,000 warm invocations within the TTL (every size)',
        maxCalls,
        '=',
        0,
        'calls',
        allWithinTtl,
      ),
    );
    const search10000 = inProcess.find((r) => r.policies === 10_000);
    if (search10000)
      add(
        'handler',
        ratioTarget('Search handler at 10,000 policies: p99 over linear-scan baseline', search10000.search.p99Ratio, 3),
      );
  }
  for (const [name, limit] of Object.entries(BUNDLE_LIMITS_KB)) {
    add(
      'bundles',
      target(`${name} bundle size (minified, SDK included)`, bundles[name]!.bytes / 1024, '<=', limit, 'KB'),
    );
  }
  for (const c of coldStart?.comparisons ?? []) {
    if (c.limit !== undefined)
      add(
        'cold',
        ratioTarget(
          `${c.candidate} cold start over ${c.baseline} (paired median, to the first answer)`,
          c.ratio,
          c.limit,
        ),
      );
  }
  if (evaluation) {
    const worst = Math.max(...evaluation.cases.map((c) => c.shipped.p99));
    add(
      'evaluation',
      target(
        'Strength evaluation, worst p99 of any case (in process, adversarial 256-character passwords included)',
        worst,
        '<=',
        EVALUATION_LIMIT_MS,
        'ms',
      ),
    );
    const context = contextFigures(evaluation.context);
    add(
      'evaluation',
      target(
        "Evaluation in context: a typical evaluation's p50 rise with 20 UserInputs and 1,000 BannedWords",
        context.typicalP50RiseMs,
        '<=',
        CONTEXT_TYPICAL_P50_LIMIT_MS,
        'ms',
      ),
    );
    add(
      'evaluation',
      target(
        'Evaluation in context: worst p99 of any case (adversarial UserInputs and 256-character passwords included)',
        context.worstP99Ms,
        '<=',
        EVALUATION_LIMIT_MS,
        'ms',
      ),
    );
  }
  if (hostile) add('hostile', ...hostileTargets(hostile));
  return targets;
}

const fmtUnit = (value: number, unit: TargetResult['unit']) =>
  unit === 'x'
    ? formatRatio(value)
    : unit === 'KB' || unit === 'MB'
      ? `${value.toFixed(1)} ${unit}`
      : unit === 'ms'
        ? `${value.toFixed(1)} ms`
        : `${value}`;
const signed = (value: number, unit: TargetResult['unit']) =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : '-'}${fmtUnit(Math.abs(value), unit)}` : 'n/a';
const resultOf = (t: TargetResult) => (t.interval ? describeVerdict(t.interval, '<=', t.limit) : t.result);
/** A ratio and its interval: `1.07x [1.02, 1.12]`. */
const estimated = (e: Estimate) => `${formatRatio(e.value)} ${formatInterval(e)}`;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const signedMs = (value: number) => `${value >= 0 ? '+' : '-'}${ms(Math.abs(value))}`;

export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const { machine } = results;
  out.push(`Password policy service benchmark, ${results.timestamp}`);
  out.push(`Machine: ${machineLine(machine)}`);
  out.push(
    `Sections: ${results.sections.join(', ')}; seed ${results.config.seed} (${BENCH_ENV.seed}=${results.config.seed} replays the orders, the resamples and the hostile bodies)`,
  );
  out.push(conditions(results));

  renderBundles(out, results, table);
  if (results.inProcess) renderInProcess(out, results.inProcess, table);
  if (results.evaluation) renderEvaluation(out, results.evaluation, table);
  if (results.hostile) renderHostile(out, results.hostile);
  if (results.coldStart) renderColdStart(out, results.coldStart, table);
  if (results.http) renderHttp(out, results.http, table);

  out.push('', 'Targets');
  renderTargets(out, results.targets, table);
  const count = (v: Verdict) => results.targets.filter((t) => t.result === v).length;
  out.push(
    `${count('PASS')} of ${results.targets.length} targets met, ${count('MISS')} missed, ${count('UNDECIDED')} undecided (the interval straddles the limit).`,
  );
  out.push(
    `Written as Markdown to ${measuredFiles(results)
      .map((f) => f.file)
      .join(', ')}.`,
  );
  return out.join('\n');
}

const machineLine = (machine: Machine) =>
  `${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.platform}`;

const conditions = (results: BenchResults) =>
  `Functions run with the environment the stack gives them (stage ${results.config.deployedStage}: its log level, metrics on; stdout counted and dropped). Intervals: ${Math.round(CONFIDENCE * 100)}% bootstrap over the pairs.`;

function renderBundles(out: string[], results: BenchResults, tabulate: Tabulate): void {
  out.push(
    '',
    'Bundles (buildBundles: minified ESM, SDK included; beside it: the files it reads at run time, deployed with it; KB = 1,024 bytes)',
  );
  out.push(
    tabulate(
      ['bundle', 'size', 'beside it', 'limit'],
      Object.entries(results.bundles).map(([name, b]) => [
        name,
        formatBytes(b.bytes),
        b.assetBytes ? formatBytes(b.assetBytes) : '-',
        BUNDLE_LIMITS_KB[name] ? `${BUNDLE_LIMITS_KB[name]} KB` : isReference(name) ? '(reference)' : '-',
      ]),
    ),
  );
}

function renderTargets(out: string[], targets: readonly TargetResult[], tabulate: Tabulate): void {
  out.push(
    tabulate(
      ['target', 'measured', 'interval', 'limit', 'margin', 'result'],
      targets.map((t) => [
        t.target,
        fmtUnit(t.measured, t.unit),
        t.interval ? formatInterval(t.interval) : '-',
        `${t.comparison} ${fmtUnit(t.limit, t.unit)}`,
        signed(t.margin, t.unit),
        resultOf(t),
      ]),
    ),
  );
}

/**
 * The files of docs/measured/ a run writes, one per section it ran (the hostile section writes hostile.md
 * itself) and bundles.md, which every run measures: a section's file is overwritten only by a run of that
 * section, so sections run apart (BENCH_SECTIONS) keep each other's files.
 */
const MEASURED_SECTIONS = [
  {
    section: 'bundles',
    file: 'bundles.md',
    title: 'Bundle sizes, as measured',
    source: 'bench/bundles.ts',
    anchor: 'bundles',
    render: (out: string[], r: BenchResults) => renderBundles(out, r, markdownTable),
  },
  {
    section: 'handler',
    file: 'handler.md',
    title: 'The in-process handler, as measured',
    source: 'bench/handler-bench.ts',
    anchor: 'in-process-handler',
    render: (out: string[], r: BenchResults) => r.inProcess && renderInProcess(out, r.inProcess, markdownTable),
  },
  {
    section: 'evaluation',
    file: 'evaluation.md',
    title: 'The strength evaluation, as measured',
    source: 'bench/evaluation-bench.ts',
    anchor: 'strength-evaluation',
    render: (out: string[], r: BenchResults) => r.evaluation && renderEvaluation(out, r.evaluation, markdownTable),
  },
  {
    section: 'cold',
    file: 'cold-start.md',
    title: 'Cold starts, as measured',
    source: 'bench/cold-start-bench.ts',
    anchor: 'cold-start',
    render: (out: string[], r: BenchResults) => r.coldStart && renderColdStart(out, r.coldStart, markdownTable),
  },
  {
    section: 'http',
    file: 'http.md',
    title: 'HTTP through the local gateway, as measured',
    source: 'bench/http-bench.ts',
    anchor: 'http-through-the-local-gateway',
    render: (out: string[], r: BenchResults) => r.http && renderHttp(out, r.http, markdownTable),
  },
] as const;

/** Every file of docs/measured/ the sections of this report may write, relative to the project. */
export const MEASURED_BENCH_FILES = MEASURED_SECTIONS.map(({ file }) => `${MEASURED_DIR}/${file}`);

/** The Markdown files of a run, relative to the project, each with its header, its tables and its targets. */
export function measuredFiles(results: BenchResults, commit = 'unknown'): { file: string; text: string }[] {
  return MEASURED_SECTIONS.filter(({ section }) => section === 'bundles' || results.sections.includes(section)).map(
    ({ section, file, title, source, anchor, render }) => {
      const body: string[] = [conditions(results)];
      render(body, results);
      const targets = results.targets.filter((t) => t.section === section);
      const header = measuredHeader({
        title,
        command: section === 'bundles' ? 'npm run bench' : `BENCH_SECTIONS=${section} npm run bench`,
        source,
        about: `[performance.md](../performance.md#${anchor})`,
        timestamp: results.timestamp,
        commit,
        machine: machineLine(results.machine),
        more: [
          `Seed: ${results.config.seed} (\`BENCH_SEED=${results.config.seed}\` replays the orders and resamples)`,
          `Sections of the run: ${results.sections.join(', ')}`,
          `Load average (1 minute) at the start and the end of the run: ${results.loadAverage.map((l) => l.toFixed(2)).join(', ')}`,
          `Run time: ${results.seconds.toFixed(0)} s`,
        ],
      });
      const targetLines: string[] = [];
      if (targets.length > 0) renderTargets(targetLines, targets, markdownTable);
      return {
        file: `${MEASURED_DIR}/${file}`,
        text: [
          header,
          '',
          markdownBody(body),
          ...(targets.length > 0 ? ['', '## Targets', '', markdownBody(targetLines)] : []),
          '',
        ].join('\n'),
      };
    },
  );
}

function renderInProcess(out: string[], inProcess: HandlerBenchResult[], tabulate: Tabulate): void {
  out.push(
    '',
    'In-process handler (functions/api/generator-policies.ts, DynamoDB mocked; per invocation, handler and baseline in pairs, random order; ratios: median of the per-pair ratios, p99 over p99, with intervals)',
  );
  out.push(
    tabulate(
      [
        'policies',
        'route',
        'body',
        'matches',
        'iterations',
        'p50',
        'p99',
        'base p50',
        'base p99',
        'paired ratio',
        'p99 ratio',
        'DDB calls/1k warm',
      ],
      inProcess.flatMap((r) =>
        (['list', 'search'] as const).map((route) => {
          const c = r[route];
          return [
            r.policies.toLocaleString('en-US'),
            route,
            formatBytes(route === 'list' ? r.listBodyBytes : r.searchBodyBytes),
            route === 'list' ? '-' : `${r.searchMatches} (${((100 * r.searchMatches) / r.policies).toFixed(1)}%)`,
            String(r.iterations),
            formatMicros(c.handler.p50),
            formatMicros(c.handler.p99),
            formatMicros(c.baseline.p50),
            formatMicros(c.baseline.p99),
            estimated(c.p50Ratio),
            estimated(c.p99Ratio),
            route === 'list'
              ? `${r.dynamodb.callsPer1000Warm}${r.dynamodb.countedWithinTtl ? '' : ' (TTL passed!)'}`
              : '',
          ];
        }),
      ),
    ),
  );
  const first = inProcess[0];
  if (first) {
    out.push(
      `Baselines: list = async return of a prebuilt response, body of the same size; search = one includes() pass over the folded strings for "${first.searchTerm}", matches joined.`,
      `DynamoDB: ${inProcess.map((r) => `${r.policies}: ${r.dynamodb.initialLoadCalls} Scan call(s) on the first load, ${r.dynamodb.callsDuringTiming} during timing`).join('; ')}.`,
      `Stdout (counted, dropped): ${inProcess.map((r) => `${r.policies}: ${r.stdout.emfDocuments} EMF document(s), ${r.stdout.lines - r.stdout.emfDocuments} other line(s)`).join('; ')}.`,
    );
  }
}

function renderEvaluation(out: string[], ev: EvaluationBenchResult, tabulate: Tabulate): void {
  out.push(
    '',
    `Strength evaluation in process (policy 1), alternated: shipped (zxcvbn-ts bounded to the first ${ev.bounds.maxLength} characters and ${ev.bounds.l33tMaxSubstitutions} l33t substitutions, the pattern checks, the attack models and the breached-password filter; also in CPU time), without the models (the same without the attack models; models: the median of the paired differences), before (zxcvbn-ts bounded alone), l33t 24 (zxcvbn-ts alone with 24 l33t substitutions) and the library defaults (256, 100)`,
  );
  const ms = (d: { p50: number; p99: number }) => `${formatMicros(d.p50 * 1000)} / ${formatMicros(d.p99 * 1000)}`;
  out.push(
    tabulate(
      [
        'password',
        'chars',
        'shipped p50 / p99',
        'shipped CPU p50 / p99',
        'without models p50 / p99',
        'models',
        'before p50 / p99',
        'l33t 24 p50 / p99',
        'defaults p50 / p99',
        'defaults / shipped (p50)',
      ],
      ev.cases.map((c) => [
        c.name,
        String(c.characters),
        ms(c.shipped),
        ms(c.shippedCpu),
        ms(c.withoutModels),
        `${c.modelsMs < 0 ? '-' : '+'}${formatMicros(Math.abs(c.modelsMs) * 1000)}`,
        ms(c.before),
        ms(c.l33t24),
        ms(c.unbounded),
        formatRatio(c.speedup),
      ]),
    ),
  );
  const worst = (pick: (c: EvaluationBenchResult['cases'][number]) => number) =>
    ev.cases.reduce((a, b) => (pick(b) > pick(a) ? b : a));
  const [wall, cpu] = [worst((c) => c.shipped.p99), worst((c) => c.shippedCpu.p99)];
  out.push(
    `Worst shipped p99: ${formatMicros(wall.shipped.p99 * 1000)} wall clock (${wall.name}), ${formatMicros(cpu.shippedCpu.p99 * 1000)} of CPU time (${cpu.name}); the target reads the wall clock.`,
  );
  out.push(
    `Building the estimator (once per cold start): median ${ev.buildMs.bounded.toFixed(1)} ms of ${ev.buildMs.runs}.`,
  );
  out.push(
    '',
    "The answer's language (Accept-Language), shipped, alternated: English and Polish (the most plural forms)",
  );
  out.push(
    tabulate(
      ['password', 'English p50 / p99', 'Polish p50 / p99', 'Polish - English (median of pairs)'],
      ev.languages.map((l) => [
        l.name,
        ms(l.english),
        ms(l.polish),
        `${l.differenceMs < 0 ? '-' : '+'}${formatMicros(Math.abs(l.differenceMs) * 1000)}`,
      ]),
    ),
  );
  out.push('', 'The l33t examples under policy 2: ComplianceLevel per approach (3 = Strong, which policy 2 requires)');
  out.push(
    tabulate(
      ['password', 'shipped', 'before', 'l33t 24', 'defaults'],
      ev.l33tLevels.map((l) => [l.password, ...[l.shipped, l.before, l.l33t24, l.unbounded].map(String)]),
    ),
  );
  const f = ev.filter;
  out.push(
    '',
    `Breached-password filter: ${f.entries.toLocaleString('en-US')} entries in ${formatBytes(f.bytes)} (${f.bytesPerEntry.toFixed(2)} bytes an entry); ` +
      `load (decode the base64 and view the bytes) median ${f.loadMs.median.toFixed(2)} ms of ${f.loadMs.runs}; one lookup ${f.lookupUs.toFixed(2)} us; ` +
      `false positives ${f.falsePositives.found} of ${f.falsePositives.tried.toLocaleString('en-US')} random 12-character strings (${(f.falsePositives.rate * 100).toFixed(4)}%, expected ${(f.falsePositives.expected * 100).toFixed(4)}%).`,
  );
  renderContext(out, ev.context, tabulate);
}

function renderColdStart(out: string[], cs: ColdStartResult, tabulate: Tabulate): void {
  out.push(
    '',
    `Cold start to the first answer (a fresh node process imports the bundle and answers one request against dynalite; ${cs.runs} rounds of every bundle, each round in a shuffled order; times from process start; stdout: the most EMF documents and log lines one run wrote)`,
  );
  out.push(
    tabulate(
      ['bundle', 'size', 'median', 'p90', 'import', 'first call', 'wall (spawn-exit)', 'EMF', 'log lines'],
      Object.entries(cs.bundles).map(([name, f]) => [
        name,
        formatBytes(f.bytes),
        ms(f.answered.median),
        ms(f.answered.p90),
        ms(f.medianImportMs),
        ms(f.medianInvokeMs),
        ms(f.medianWallMs),
        String(f.maxEmfDocuments),
        String(f.maxLogLines),
      ]),
    ),
  );
  out.push(
    '',
    `Cold-start comparisons (ratio: the median over the rounds of candidate over baseline in the same round, with its ${Math.round(cs.confidence * 100)}% bootstrap interval; paired: candidate minus baseline within each round, median and p90, and the median of the import and first-call differences)`,
  );
  out.push(
    tabulate(
      [
        'candidate',
        'baseline',
        'ratio',
        'interval',
        'target',
        'paired median',
        'paired p90',
        'import',
        'first call',
        'result',
      ],
      cs.comparisons.map((c) => [
        c.candidate,
        c.baseline,
        formatRatio(c.ratio.value),
        formatInterval(c.ratio),
        c.limit === undefined ? '-' : `<= ${formatRatio(c.limit)}`,
        signedMs(c.paired.median),
        signedMs(c.paired.p90),
        signedMs(c.paired.import),
        signedMs(c.paired.firstCall),
        c.limit === undefined ? (c.note ?? 'information') : describeVerdict(c.ratio, '<=', c.limit),
      ]),
    ),
  );
  for (const c of cs.comparisons.filter((x) => x.profile)) {
    const p = c.profile!;
    out.push(
      '',
      `Where ${c.candidate}'s extra time goes against ${c.baseline} (CPU profile, self time per package or file, median of ${p.runs} profiled runs each, ${p.samplingIntervalUs} us sampling; profiling slows both sides)`,
    );
    const shown = p.rows.filter((r) => Math.abs(r.differenceMs) >= 0.5);
    out.push(
      tabulate(
        ['where', c.candidate, c.baseline, 'difference'],
        [
          ...shown.map((r) => [r.category, ms(r.candidateMs), ms(r.baselineMs), signedMs(r.differenceMs)]),
          [
            'total profiled',
            ms(p.candidateTotalMs),
            ms(p.baselineTotalMs),
            signedMs(p.candidateTotalMs - p.baselineTotalMs),
          ],
        ],
      ),
    );
  }
}

function renderHttp(out: string[], http: HttpBenchResult, tabulate: Tabulate): void {
  out.push(
    '',
    `HTTP, for information (autocannon, ${http.connections} connections, ${http.seconds} s per server in ${HTTP_ROUNDS} alternating rounds; local gateway with authorizer vs bare node:http answering the same bytes; latency: median round, at autocannon's 1 ms resolution)`,
  );
  out.push(
    tabulate(
      [
        'endpoint',
        'bytes',
        'gateway req/s',
        'bare req/s',
        'ratio',
        'gateway p99',
        'bare p99',
        'p99 ratio',
        'non-2xx/errors',
      ],
      http.endpoints.map((e) => [
        e.name,
        String(e.responseBytes),
        e.gateway.requestsPerSecond.toFixed(0),
        e.bare.requestsPerSecond.toFixed(0),
        formatRatio(e.throughputRatio),
        `${e.gateway.p99Ms} ms`,
        `${e.bare.p99Ms} ms`,
        formatRatio(e.p99Ratio),
        `${e.gateway.non2xx + e.bare.non2xx}/${e.gateway.errors + e.bare.errors}`,
      ]),
    ),
  );
}
