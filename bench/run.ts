import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildBenchBundles, HELLO_WORLD } from './bundles';
import { runColdStartBench } from './cold-start-bench';
import { DEFAULT_POLICY_CACHE_TTL_SECONDS } from '../functions/runtime';
import { runEvaluationBench } from './evaluation-bench';
import { HANDLER_SIZES, runHandlerBench } from './handler-bench';
import { HTTP_CONNECTIONS, runHttpBench } from './http-bench';
import { evaluateTargets, renderReport, LISTING_BUNDLES, type BenchResults } from './report';
import { round } from './stats';

/**
 * `npm run bench`: every figure of the issue in one run, each next to its baseline measured in the same run
 * (absolute times on a shared machine drift, ratios much less). Prints a table and writes bench/results.json.
 *
 *   BENCH_HTTP_SECONDS  seconds per HTTP run (default 10)
 *   BENCH_COLD_RUNS     cold-start runs per bundle (default 11, at least 10)
 */

const RESULTS_FILE = path.join(__dirname, 'results.json');

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

/** Progress goes to stderr, so stdout holds the report alone. */
const progress = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  // The environment as given, before the in-process measurement sets the function's variables.
  const baseEnv = { ...process.env };
  const httpSeconds = positiveNumber('BENCH_HTTP_SECONDS', 10);
  const coldRuns = Math.round(positiveNumber('BENCH_COLD_RUNS', 11));
  if (coldRuns < 10) throw new Error('BENCH_COLD_RUNS must be at least 10');
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'policy-bench-'));
  const started = Date.now();
  try {
    progress('Building the bundles (buildBundles) and the hello-world reference...');
    const bundles = await buildBenchBundles(path.join(workDir, 'bundles'));
    progress('In-process handler...');
    const inProcess = await runHandlerBench(progress);
    progress('Strength evaluation...');
    const evaluation = await runEvaluationBench(progress);
    progress('Cold start...');
    const coldStart = await runColdStartBench(bundles, workDir, coldRuns, progress);
    progress('HTTP...');
    const http = await runHttpBench(baseEnv, workDir, httpSeconds, progress);

    const cpus = os.cpus();
    const results: BenchResults = {
      timestamp: new Date().toISOString(),
      machine: { cpu: cpus[0]?.model.trim() ?? 'unknown', cores: cpus.length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
      config: {
        handlerSizes: HANDLER_SIZES,
        policyCacheTtlSeconds: DEFAULT_POLICY_CACHE_TTL_SECONDS,
        coldStartRuns: coldRuns,
        httpConnections: HTTP_CONNECTIONS,
        httpSeconds,
      },
      bundles: Object.fromEntries(
        Object.entries(bundles)
          .sort(([a], [b]) => (a === HELLO_WORLD ? 1 : b === HELLO_WORLD ? -1 : a.localeCompare(b)))
          .map(([name, b]) => [name, { bytes: b.bytes, listing: (LISTING_BUNDLES as readonly string[]).includes(name) }]),
      ),
      inProcess,
      evaluation,
      coldStart,
      http,
      targets: evaluateTargets(bundles, inProcess, evaluation, coldStart, http),
    };
    // Three decimals are plenty for figures this noisy.
    const rounded = JSON.stringify(results, (_key, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? round(value) : value), 2);
    await writeFile(RESULTS_FILE, `${rounded}\n`);
    console.log(renderReport(results));
    console.log(`\nWritten to ${path.relative(process.cwd(), RESULTS_FILE)} in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

main().then(
  // Nothing should be left running, but a forgotten handle must not keep the benchmark alive.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
