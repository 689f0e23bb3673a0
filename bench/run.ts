import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildBenchBundles, isReference } from './bundles';
import { runColdStartBench } from './cold-start-bench';
import { DEFAULT_POLICY_CACHE_TTL_SECONDS, ENV, wholeNumber } from '../functions/runtime';
import { TABLE_NAMES } from '../local/start';
import { deployedFunctions } from './deployed-environment';
import { runEvaluationBench } from './evaluation-bench';
import { HANDLER_SIZES, runHandlerBench } from './handler-bench';
import { runHostileBench } from './hostile-bench';
import { HTTP_CONNECTIONS, runHttpBench } from './http-bench';
import { commitMeasured, writeMeasured } from './measured';
import { evaluateTargets, measuredFiles, renderReport, type BenchResults } from './report';
import { round, seededRandom } from './stats';
import { BENCH_ENV } from './bench-variables';

/**
 * `npm run bench`: every figure of the issue in one run, each next to its baseline measured in the same run
 * (absolute times on a shared machine drift, ratios much less). Prints a table and writes bench/results.json.
 *
 *   BENCH_SECTIONS         which sections to run, comma-separated (default all: handler,evaluation,hostile,cold,http)
 *   BENCH_HTTP_SECONDS     seconds per HTTP run (default 10)
 *   BENCH_COLD_RUNS        cold-start rounds (default 60, at least 10)
 *   BENCH_PROFILE_RUNS     profiled cold starts per side of a cold-start target not passed (default 5; 0: none)
 *   BENCH_SEED             seeds the round orders, the pair orders, the resamples and the hostile bodies (default: random, printed)
 *
 * Each section run also writes its tables as Markdown to a file of docs/measured/ (report.ts's measuredFiles; the
 * hostile section to hostile.md), and every run the bundle sizes to docs/measured/bundles.md.
 */

const SECTIONS = ['handler', 'evaluation', 'hostile', 'cold', 'http'] as const;

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
  const httpSeconds = positiveNumber(BENCH_ENV.httpSeconds, 10);
  const coldRuns = Math.round(positiveNumber(BENCH_ENV.coldRuns, 60));
  if (coldRuns < 10) throw new Error(`${BENCH_ENV.coldRuns} must be at least 10`);
  const profileRuns =
    process.env[BENCH_ENV.profileRuns] === '0' ? 0 : Math.round(positiveNumber(BENCH_ENV.profileRuns, 5));
  const sections = (process.env[BENCH_ENV.sections] || SECTIONS.join(',')).split(',').map((s) => s.trim());
  const unknown = sections.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new Error(
      `${BENCH_ENV.sections}: unknown section(s) ${unknown.join(', ')}; the sections are ${SECTIONS.join(', ')}`,
    );
  const runs = (section: (typeof SECTIONS)[number]) => sections.includes(section);
  const seed = process.env[BENCH_ENV.seed]
    ? Math.trunc(Number(process.env[BENCH_ENV.seed]))
    : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isFinite(seed))
    throw new Error(`${BENCH_ENV.seed} must be a number, not "${process.env[BENCH_ENV.seed]}"`);
  const random = seededRandom(seed);
  progress(`Seed ${seed} (${BENCH_ENV.seed}=${seed} replays this run's orders, resamples and hostile bodies).`);
  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
  };
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'policy-bench-'));
  const started = Date.now();
  const loadAtStart = os.loadavg()[0]!;
  // The code measured is the code loaded now: its commit, before anything is edited during a long run.
  const commit = commitMeasured();
  try {
    progress('Building the bundles (buildBundles) and the references...');
    const bundles = await buildBenchBundles(path.join(workDir, 'bundles'));
    progress("Reading each function's environment off the stack...");
    const { stage, functions: deployed } = deployedFunctions(TABLE_NAMES);
    const inProcess = runs('handler')
      ? (progress('In-process handler...'),
        await runHandlerBench(progress, { environment: deployed.GeneratorPolicies!.environment, random }))
      : undefined;
    const evaluation = runs('evaluation')
      ? (progress('Strength evaluation...'), await runEvaluationBench(progress))
      : undefined;
    const hostile = runs('hostile')
      ? (progress('Hostile evaluation inputs...'), await runHostileBench({ seed, baseEnv, machine, progress }))
      : undefined;
    const coldStart = runs('cold')
      ? (progress('Cold start...'),
        await runColdStartBench(
          bundles,
          workDir,
          {
            runs: coldRuns,
            deployed,
            random,
            profileRuns,
            buildProfileBundles: () => buildBenchBundles(path.join(workDir, 'mapped-bundles'), true),
          },
          progress,
        ))
      : undefined;
    const http = runs('http')
      ? (progress('HTTP...'), await runHttpBench(baseEnv, workDir, httpSeconds, progress))
      : undefined;

    const results: BenchResults = {
      timestamp: new Date().toISOString(),
      machine,
      config: {
        handlerSizes: HANDLER_SIZES,
        policyCacheTtlSeconds: wholeNumber(
          deployed.GeneratorPolicies!.environment[ENV.policyCacheTtl],
          DEFAULT_POLICY_CACHE_TTL_SECONDS,
        ),
        coldStartRuns: coldRuns,
        seed,
        deployedStage: stage,
        profileRuns,
        httpConnections: HTTP_CONNECTIONS,
        httpSeconds,
      },
      sections,
      loadAverage: [loadAtStart, os.loadavg()[0]!],
      seconds: (Date.now() - started) / 1000,
      bundles: Object.fromEntries(
        Object.entries(bundles)
          .sort(([a], [b]) => Number(isReference(a)) - Number(isReference(b)) || a.localeCompare(b))
          .map(([name, b]) => [name, { bytes: b.bytes, assetBytes: b.assetBytes }]),
      ),
      inProcess,
      evaluation,
      hostile,
      coldStart,
      http,
      targets: evaluateTargets(bundles, inProcess, evaluation, coldStart, hostile),
    };
    // Three decimals are plenty for figures this noisy.
    const rounded = JSON.stringify(
      results,
      (_key, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? round(value) : value),
      2,
    );
    await writeFile(RESULTS_FILE, `${rounded}\n`);
    for (const { file, text } of measuredFiles(results, commit)) await writeMeasured(file, text);
    console.log(renderReport(results));
    console.log(
      `\nWritten to ${path.relative(process.cwd(), RESULTS_FILE)} in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    );
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
