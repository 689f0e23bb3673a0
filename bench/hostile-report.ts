import type { HostileFamily } from './hostile-bodies';
import { BENCH_ENV } from './bench-variables';
import { markdownTable } from './measured';
import { table, type Machine, type TargetResult } from './stats';

/**
 * The figures of the `hostile` section of `npm run bench` (bench/hostile-bench.ts), their targets and how they
 * are printed: a table on stdout, and the same as Markdown in docs/measured/hostile.md. Pure, so a test can
 * read it with known figures.
 */

/** The bounds of issue 30 on one evaluation of any valid body: CPU in process, wall time over HTTP, heap growth. */
export const HOSTILE_LIMITS = { cpuMs: 100, httpMs: 300, heapMB: 32 } as const;

/** MB here: 1,048,576 bytes. */
export const MB = 1024 * 1024;

export interface HostileBodyFigures {
  readonly family: HostileFamily;
  readonly name: string;
  readonly validAfterNfkc: boolean;
  /** Why the function's request reading or the policy schema refuses the body (it is then not evaluated in process). */
  readonly refused?: string;
  /** CPU time of one evaluation in process (process.cpuUsage), ms: the median of its runs. */
  readonly cpuMs: number;
  /** Runs timed for cpuMs. */
  readonly runs: number;
  /** The peak of the used heap during one more evaluation over the used heap after a full GC just before it, MB. */
  readonly heapPeakMB: number;
  /** The used heap right after the largest GC during that evaluation, over the same start, MB; NaN when no GC ran during it. */
  readonly heapAfterGcMB: number;
  /** Over HTTP, when sent: the median wall time of its POSTs, their status and how many were sent. */
  readonly http?: { readonly ms: number; readonly status: number; readonly posts: number };
}

export interface HostileBenchResult {
  /** The generator's seed (BENCH_SEED). */
  readonly seed: number;
  readonly perFamily: number;
  /** CPU runs of each body in process and POSTs of each body sent, at most (one only when the first is past noRepeatMs). */
  readonly repeats: number;
  readonly noRepeatMs: number;
  readonly httpBodiesPerFamily: number;
  readonly bodies: HostileBodyFigures[];
  /** The machine's load average (1 minute) at the start and at the end of the section. */
  readonly loadAverage: readonly [number, number];
  readonly commit: string;
  readonly seconds: number;
  /** Where the Markdown went, relative to the project. */
  readonly markdownFile: string;
}

/** The worst of some bodies by a figure: its value and the body (undefined when none has the figure). */
interface Worst {
  readonly value: number;
  readonly body?: HostileBodyFigures;
}

function worst(bodies: readonly HostileBodyFigures[], pick: (b: HostileBodyFigures) => number | undefined): Worst {
  let found: Worst = { value: Number.NaN };
  for (const body of bodies) {
    const value = pick(body);
    if (value !== undefined && Number.isFinite(value) && !(value <= found.value)) found = { value, body };
  }
  return found;
}

const evaluated = (b: HostileBodyFigures) => (b.refused === undefined ? b : undefined);
const worstCpu = (bodies: readonly HostileBodyFigures[]) => worst(bodies, (b) => evaluated(b)?.cpuMs);
const worstHeap = (bodies: readonly HostileBodyFigures[]) => worst(bodies, (b) => evaluated(b)?.heapPeakMB);
const worstHttp = (bodies: readonly HostileBodyFigures[]) => worst(bodies, (b) => b.http?.ms);

/** A bound, read as report.ts reads one: PASS when the figure is measured and within it. */
function atMost(name: string, measured: number, limit: number, unit: TargetResult['unit']): TargetResult {
  const margin = limit - measured;
  return {
    target: name,
    measured,
    comparison: '<=',
    limit,
    unit,
    margin,
    result: Number.isFinite(measured) && margin >= 0 ? 'PASS' : 'MISS',
  };
}

export function hostileTargets(result: HostileBenchResult): TargetResult[] {
  const targets = [
    atMost(
      'Hostile inputs: worst CPU time of one evaluation in process (median of its runs), every family',
      worstCpu(result.bodies).value,
      HOSTILE_LIMITS.cpuMs,
      'ms',
    ),
    atMost(
      'Hostile inputs: worst heap growth during one evaluation in process (peak used heap over a full GC before)',
      worstHeap(result.bodies).value,
      HOSTILE_LIMITS.heapMB,
      'MB',
    ),
  ];
  if (result.bodies.some((b) => b.http))
    targets.push(
      atMost(
        'Hostile inputs: worst wall time of one POST through the local gateway',
        worstHttp(result.bodies).value,
        HOSTILE_LIMITS.httpMs,
        'ms',
      ),
    );
  return targets;
}

const verdictOf = (value: number, limit: number) => (Number.isFinite(value) ? (value <= limit ? 'PASS' : 'MISS') : '-');
const figure = (w: Worst, unit: string, limit: number, decimals = 1) =>
  w.body ? `${w.value.toFixed(decimals)} ${unit} ${verdictOf(w.value, limit)} (${numberOf(w.body)})` : '-';
const numberOf = (body: HostileBodyFigures) => body.name.split(' ')[0]!;
const families = (result: HostileBenchResult) => [...new Set(result.bodies.map((b) => b.family))];

/** One row per family: bodies, the worst figures beside their targets, and the body each comes from (#n). */
function familyRows(result: HostileBenchResult): string[][] {
  return families(result).map((family) => {
    const bodies = result.bodies.filter((b) => b.family === family);
    const refused = bodies.filter((b) => b.refused !== undefined).length;
    const heap = worstHeap(bodies);
    const sent = bodies.filter((b) => b.http);
    const refusedOverHttp = sent.filter((b) => b.http!.status !== 200).length;
    return [
      family,
      `${bodies.length}${refused > 0 ? ` (${refused} refused)` : ''}`,
      figure(worstCpu(bodies), 'ms', HOSTILE_LIMITS.cpuMs),
      figure(heap, 'MB', HOSTILE_LIMITS.heapMB),
      heap.body && Number.isFinite(heap.body.heapAfterGcMB)
        ? `${heap.body.heapAfterGcMB.toFixed(1)} MB`
        : heap.body
          ? 'no GC'
          : '-',
      sent.length === 0 ? '-' : `${sent.length}${refusedOverHttp > 0 ? ` (${refusedOverHttp} not 200)` : ''}`,
      figure(worstHttp(bodies), 'ms', HOSTILE_LIMITS.httpMs),
    ];
  });
}

const FAMILY_HEADER = [
  'family',
  'bodies',
  `worst CPU (<= ${HOSTILE_LIMITS.cpuMs} ms)`,
  `worst heap peak (<= ${HOSTILE_LIMITS.heapMB} MB)`,
  'its heap after GC',
  'sent over HTTP',
  `worst POST (<= ${HOSTILE_LIMITS.httpMs} ms)`,
];

/** The bodies the family table points at (#n), by family: the worst of each figure, each name as `quote` writes it. */
function worstNames(result: HostileBenchResult, quote: (name: string) => string = (name) => name): string[] {
  return families(result).map((family) => {
    const bodies = result.bodies.filter((b) => b.family === family);
    const named = [
      ...new Set(
        [worstCpu(bodies).body, worstHeap(bodies).body, worstHttp(bodies).body].filter((b) => b !== undefined),
      ),
    ];
    return `${family}: ${named.map((b) => `${quote(b.name)}${b.validAfterNfkc ? '' : ' (valid as sent only)'}`).join('; ')}`;
  });
}

/** A body's name as Markdown: a code span, so that `<letter>`, `$$` and `*` stay as they are. */
const code = (name: string) => `\`${name}\``;

function method(result: HostileBenchResult): string {
  return (
    `${result.perFamily} bodies per family from seed ${result.seed}, evaluated in process under policy 2 with the body's BannedWords; ` +
    `CPU: process.cpuUsage, the median of ${result.repeats} runs (one when the first takes over ${result.noRepeatMs} ms), the worst body shown; ` +
    `heap: one more evaluation after a full GC, the peak used heap during it over the used heap at its start (v8.GCProfiler: the used heap before each GC during the evaluation, and at its end), ` +
    `the young generation's garbage included (at most its semi-space, 16 MB on 64-bit Node); its heap after GC: the used heap right after the largest GC during that evaluation, near its live objects. ` +
    `HTTP: the ${result.httpBodiesPerFamily} bodies of each family that cost most in process, each POSTed up to ${result.repeats} times through the local gateway after a warm-up, the median of a body's POSTs, the worst body shown.`
  );
}

export function renderHostile(out: string[], result: HostileBenchResult): void {
  out.push(
    '',
    `Hostile evaluation inputs (bench/hostile-bodies.ts), ${result.seconds.toFixed(0)} s, load average ${result.loadAverage.map((l) => l.toFixed(2)).join(' to ')}: ${method(result)}`,
  );
  out.push(table(FAMILY_HEADER, familyRows(result)));
  out.push('Worst bodies:', ...worstNames(result).map((line) => `  ${line}`));
  out.push(`Written as Markdown to ${result.markdownFile}.`);
}

/** The Markdown file of a run: when, where, the family table, the targets and every body's figures. */
export function hostileMarkdown(result: HostileBenchResult, timestamp: string, machine: Machine): string {
  const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : '-');
  const mb = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} MB` : '-');
  return [
    `# The evaluation's worst case, as measured`,
    '',
    `Written by \`${BENCH_ENV.sections}=hostile npm run bench\` (\`bench/hostile-bench.ts\`) and overwritten by each run: not edited by hand. What it measures and why: [performance.md](../performance.md#the-evaluations-worst-case).`,
    '',
    `- Date: ${timestamp}`,
    `- Seed: ${result.seed} (\`${BENCH_ENV.seed}=${result.seed}\` makes the same bodies)`,
    `- Code: commit ${result.commit}`,
    `- Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.platform}`,
    `- Load average (1 minute) at the start and the end of the section: ${result.loadAverage.map((l) => l.toFixed(2)).join(', ')}`,
    `- Run time of the section: ${result.seconds.toFixed(0)} s`,
    '',
    method(result),
    '',
    markdownTable(FAMILY_HEADER, familyRows(result)),
    '',
    'Worst bodies:',
    '',
    ...worstNames(result, code).map((line) => `- ${line}`),
    '',
    '## Targets',
    '',
    markdownTable(
      ['target', 'measured', 'limit', 'result'],
      hostileTargets(result).map((t) => [
        t.target,
        t.unit === 'MB' ? mb(t.measured) : ms(t.measured),
        `<= ${t.limit} ${t.unit}`,
        t.result,
      ]),
    ),
    '',
    '## Every body',
    '',
    markdownTable(
      [
        'family',
        'body',
        'valid after NFKC',
        'CPU (median)',
        'runs',
        'heap peak',
        'heap after GC',
        'POST (median)',
        'status',
      ],
      result.bodies.map((b) => [
        b.family,
        code(b.name),
        b.validAfterNfkc ? 'yes' : 'no',
        b.refused === undefined ? ms(b.cpuMs) : `refused: ${b.refused}`,
        String(b.runs),
        b.refused === undefined ? mb(b.heapPeakMB) : '-',
        b.refused === undefined ? (Number.isFinite(b.heapAfterGcMB) ? mb(b.heapAfterGcMB) : 'no GC') : '-',
        b.http ? `${ms(b.http.ms)} of ${b.http.posts}` : '-',
        b.http ? String(b.http.status) : '-',
      ]),
    ),
    '',
  ].join('\n');
}
