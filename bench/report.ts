import { HTTP_ROUNDS } from './http-bench';
import type { ColdStartResult } from './cold-start-bench';
import type { EvaluationBenchResult } from './evaluation-bench';
import type { HandlerBenchResult } from './handler-bench';
import type { HttpBenchResult } from './http-bench';
import { HELLO_WORLD, type BuiltBundles } from './bundles';
import { formatBytes, formatMicros, formatRatio, table } from './stats';

/** The targets of the issue, each checked against this run's figures. Nothing enforces them. */

export const BUNDLE_LIMIT_BYTES = 300 * 1024;
export const LISTING_BUNDLES = ['GeneratorPolicies', 'StrengthPolicies'] as const;

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly platform: string;
}

export interface BenchResults {
  readonly timestamp: string;
  readonly machine: Machine;
  readonly config: {
    readonly handlerSizes: readonly { policies: number; iterations: number }[];
    readonly policyCacheTtlSeconds: number;
    readonly coldStartRuns: number;
    readonly httpConnections: number;
    readonly httpSeconds: number;
  };
  readonly bundles: Record<string, { bytes: number; listing: boolean }>;
  readonly inProcess: HandlerBenchResult[];
  readonly evaluation: EvaluationBenchResult;
  readonly coldStart: ColdStartResult;
  readonly http: HttpBenchResult;
  readonly targets: TargetResult[];
}

export interface TargetResult {
  readonly target: string;
  readonly measured: number;
  readonly comparison: '<=' | '>=' | '=';
  readonly limit: number;
  readonly unit: 'x' | 'KB' | 'calls' | 'ms';
  /** How far inside the limit (positive) or outside it (negative), in the unit. */
  readonly margin: number;
  readonly pass: boolean;
}

function target(name: string, measured: number, comparison: TargetResult['comparison'], limit: number, unit: TargetResult['unit'], extraCondition = true): TargetResult {
  const margin = comparison === '>=' ? measured - limit : limit - measured;
  const inside = comparison === '=' ? measured === limit : margin >= 0;
  return { target: name, measured, comparison, limit, unit, margin, pass: inside && extraCondition && Number.isFinite(measured) };
}

/** The most one evaluation may cost, whatever the password (256 characters at most): a bound, not a goal. */
export const EVALUATION_LIMIT_MS = 100;

export function evaluateTargets(bundles: BuiltBundles, inProcess: HandlerBenchResult[], evaluation: EvaluationBenchResult, coldStart: ColdStartResult, http: HttpBenchResult): TargetResult[] {
  const targets: TargetResult[] = [];
  const maxCalls = Math.max(...inProcess.map((r) => r.dynamodb.callsPer1000Warm));
  const allWithinTtl = inProcess.every((r) => r.dynamodb.countedWithinTtl);
  targets.push(target('DynamoDB calls per 1,000 warm invocations within the TTL (every size)', maxCalls, '=', 0, 'calls', allWithinTtl));
  const at = (n: number) => inProcess.find((r) => r.policies === n);
  const search10000 = at(10_000);
  if (search10000) targets.push(target('Search handler at 10,000 policies: p99 over linear-scan baseline', search10000.search.p99Ratio, '<=', 3, 'x'));
  for (const name of LISTING_BUNDLES) {
    targets.push(target(`${name} bundle size (minified, SDK included)`, bundles[name]!.bytes / 1024, '<=', BUNDLE_LIMIT_BYTES / 1024, 'KB'));
  }
  for (const name of LISTING_BUNDLES) {
    const figures = coldStart.bundles[name]!;
    targets.push(target(`${name} cold start: process wall time over hello-world`, figures.wallRatio ?? Number.NaN, '<=', 2, 'x'));
  }
  const worst = Math.max(...evaluation.cases.map((c) => c.bounded.p99));
  targets.push(target('Strength evaluation, worst p99 of any case (in process, adversarial 256-character passwords included)', worst, '<=', EVALUATION_LIMIT_MS, 'ms'));
  for (const endpoint of http.endpoints.filter((e) => e.list)) {
    const clean = endpoint.gateway.non2xx === 0 && endpoint.gateway.errors === 0;
    targets.push(target(`Gateway throughput, ${endpoint.name}: over bare node:http`, endpoint.throughputRatio, '>=', 0.7, 'x', clean));
  }
  return targets;
}

const fmtUnit = (value: number, unit: TargetResult['unit']) =>
  unit === 'x' ? formatRatio(value) : unit === 'KB' ? `${value.toFixed(1)} KB` : unit === 'ms' ? `${value.toFixed(1)} ms` : `${value}`;
const signed = (value: number, unit: TargetResult['unit']) => (Number.isFinite(value) ? `${value >= 0 ? '+' : '-'}${fmtUnit(Math.abs(value), unit)}` : 'n/a');

export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const { machine } = results;
  out.push(`Password policy service benchmark, ${results.timestamp}`);
  out.push(`Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.platform}`);

  out.push('', 'Bundles (buildBundles: minified ESM, SDK included; KB = 1,024 bytes)');
  out.push(
    table(
      ['bundle', 'size', 'limit'],
      Object.entries(results.bundles).map(([name, b]) => [name, formatBytes(b.bytes), b.listing ? `${BUNDLE_LIMIT_BYTES / 1024} KB` : name === HELLO_WORLD ? '(reference)' : '-']),
    ),
  );

  out.push('', 'In-process handler (functions/api/generator-policies.ts, DynamoDB mocked; per invocation, handler vs baseline interleaved)');
  out.push(
    table(
      ['policies', 'route', 'body', 'matches', 'iterations', 'p50', 'p99', 'base p50', 'base p99', 'p50 ratio', 'p99 ratio', 'DDB calls/1k warm'],
      results.inProcess.flatMap((r) =>
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
            formatRatio(c.p50Ratio),
            formatRatio(c.p99Ratio),
            route === 'list' ? `${r.dynamodb.callsPer1000Warm}${r.dynamodb.countedWithinTtl ? '' : ' (TTL passed!)'}` : '',
          ];
        }),
      ),
    ),
  );
  const first = results.inProcess[0];
  if (first) {
    out.push(
      `Baselines: list = async return of a prebuilt response, body of the same size; search = one includes() pass over the folded strings for "${first.searchTerm}", matches joined.`,
      `DynamoDB: ${results.inProcess.map((r) => `${r.policies}: ${r.dynamodb.initialLoadCalls} Scan call(s) on the first load, ${r.dynamodb.callsDuringTiming} during timing`).join('; ')}.`,
    );
  }

  const ev = results.evaluation;
  out.push(
    '',
    `Strength evaluation in process (policy 1; zxcvbn-ts bounded to the first ${ev.bounds.maxLength} characters and ${ev.bounds.l33tMaxSubstitutions} l33t substitutions, against the library defaults 256 and 100, alternated)`,
  );
  out.push(
    table(
      ['password', 'chars', 'p50', 'p99', 'defaults p50', 'defaults p99', 'defaults / ours (p50)'],
      ev.cases.map((c) => [c.name, String(c.characters), formatMicros(c.bounded.p50 * 1000), formatMicros(c.bounded.p99 * 1000), formatMicros(c.unbounded.p50 * 1000), formatMicros(c.unbounded.p99 * 1000), formatRatio(c.speedup)]),
    ),
  );
  out.push(`Building the estimator (ranking the dictionaries, once per cold start): median ${ev.buildMs.bounded.toFixed(1)} ms of ${ev.buildMs.runs}.`);

  const cs = results.coldStart;
  out.push('', `Cold start (fresh node process: import the bundle, answer one request against dynalite, exit; median of ${cs.runs} interleaved runs)`);
  out.push(
    table(
      ['bundle', 'size', 'wall (spawn-exit)', 'ratio', 'start-answer', 'ratio', 'import', 'first call'],
      Object.entries(cs.bundles).map(([name, f]) => [
        name,
        formatBytes(f.bytes),
        `${f.medianWallMs.toFixed(1)} ms`,
        f.wallRatio === undefined ? '(ref)' : formatRatio(f.wallRatio),
        `${f.medianAnsweredMs.toFixed(1)} ms`,
        f.answeredRatio === undefined ? '(ref)' : formatRatio(f.answeredRatio),
        `${f.medianImportMs.toFixed(1)} ms`,
        `${f.medianInvokeMs.toFixed(1)} ms`,
      ]),
    ),
  );

  const http = results.http;
  out.push('', `HTTP (autocannon, ${http.connections} connections, ${http.seconds} s per server in ${HTTP_ROUNDS} alternating rounds; local gateway with authorizer vs bare node:http answering the same bytes; latency: median round, at autocannon's 1 ms resolution)`);
  out.push(
    table(
      ['endpoint', 'bytes', 'gateway req/s', 'bare req/s', 'ratio', 'gateway p99', 'bare p99', 'p99 ratio', 'non-2xx/errors'],
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

  out.push('', 'Targets');
  out.push(
    table(
      ['target', 'measured', 'limit', 'margin', 'result'],
      results.targets.map((t) => [t.target, fmtUnit(t.measured, t.unit), `${t.comparison} ${fmtUnit(t.limit, t.unit)}`, signed(t.margin, t.unit), t.pass ? 'PASS' : 'MISS']),
    ),
  );
  const passed = results.targets.filter((t) => t.pass).length;
  out.push(`${passed} of ${results.targets.length} targets met.`);
  return out.join('\n');
}
