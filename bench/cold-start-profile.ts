import { readdir, readFile } from 'node:fs/promises';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../bundling/bundling';
import type { ColdStartSubject, RunTimes } from './cold-run';
import { median } from './stats';

/**
 * Where a missed cold-start target's time goes: the candidate and its baseline each run cold under
 * `node --cpu-prof`, alternately, from bundles built with source maps (the same code). Each sample's self time
 * is put down to the package or file of ours its function comes from (read through the source map), or to
 * what V8 and Node.js do themselves (compiling the bundle, garbage collection, waiting on I/O). The breakdown
 * is the median per category over the runs, candidate against baseline.
 */

export interface ProfileRow {
  readonly category: string;
  readonly candidateMs: number;
  readonly baselineMs: number;
  readonly differenceMs: number;
}

export interface ProfileBreakdown {
  readonly runs: number;
  readonly samplingIntervalUs: number;
  readonly rows: ProfileRow[];
  readonly candidateTotalMs: number;
  readonly baselineTotalMs: number;
}

export const SAMPLING_INTERVAL_US = 100;

interface CpuProfile {
  readonly nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

type Run = (subject: ColdStartSubject, nodeOptions: readonly string[]) => Promise<RunTimes>;

export async function profileColdStarts(
  run: Run,
  candidate: ColdStartSubject,
  baseline: ColdStartSubject,
  runs: number,
  dir: string,
): Promise<ProfileBreakdown> {
  const maps = new Map<string, SourceMap>();
  const sides = { candidate: [] as Map<string, number>[], baseline: [] as Map<string, number>[] };
  for (let i = 0; i < runs; i++) {
    for (const [side, subject] of [
      ['candidate', candidate],
      ['baseline', baseline],
    ] as const) {
      const runDir = path.join(dir, `${subject.name}-${i}`);
      await run(subject, ['--cpu-prof', `--cpu-prof-dir=${runDir}`, `--cpu-prof-interval=${SAMPLING_INTERVAL_US}`]);
      const [file] = (await readdir(runDir)).filter((f) => f.endsWith('.cpuprofile'));
      const profile = JSON.parse(await readFile(path.join(runDir, file!), 'utf8')) as CpuProfile;
      sides[side].push(await selfTimeByCategory(profile, maps));
    }
  }
  const categories = new Set([...sides.candidate, ...sides.baseline].flatMap((m) => [...m.keys()]));
  const medianOf = (runsOf: Map<string, number>[], category: string) => median(runsOf.map((m) => m.get(category) ?? 0));
  const rows = [...categories]
    .map((category) => {
      const candidateMs = medianOf(sides.candidate, category);
      const baselineMs = medianOf(sides.baseline, category);
      return { category, candidateMs, baselineMs, differenceMs: candidateMs - baselineMs };
    })
    .sort((a, b) => Math.abs(b.differenceMs) - Math.abs(a.differenceMs));
  const total = (runsOf: Map<string, number>[]) =>
    median(runsOf.map((m) => [...m.values()].reduce((s, v) => s + v, 0)));
  return {
    runs,
    samplingIntervalUs: SAMPLING_INTERVAL_US,
    rows,
    candidateTotalMs: total(sides.candidate),
    baselineTotalMs: total(sides.baseline),
  };
}

/** Self time in milliseconds by category. */
async function selfTimeByCategory(profile: CpuProfile, maps: Map<string, SourceMap>): Promise<Map<string, number>> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const categoryOf = new Map<number, string>();
  const byCategory = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    let category = categoryOf.get(id);
    if (category === undefined) {
      category = await categorize(nodes.get(id)!, maps);
      categoryOf.set(id, category);
    }
    byCategory.set(category, (byCategory.get(category) ?? 0) + profile.timeDeltas[i]! / 1000);
  }
  byCategory.delete('(root)');
  return byCategory;
}

const SDK_SCOPES = ['@aws-sdk/', '@smithy/', '@aws-crypto/', '@aws/'];

async function categorize(
  frame: CpuProfile['nodes'][number]['callFrame'],
  maps: Map<string, SourceMap>,
): Promise<string> {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(idle)') return 'idle (waiting on DynamoDB, I/O)';
    if (functionName === '(program)') return 'V8 and Node.js native code';
    return `native: ${functionName || '(anonymous)'}`;
  }
  if (url.startsWith('node:'))
    return functionName === 'compileSourceTextModule' ? 'V8 compiling the bundle (parse)' : 'Node.js internals';
  if (!url.startsWith('file:') || !url.endsWith('.mjs')) return 'other';
  const file = fileURLToPath(url);
  if (path.basename(file) === 'cold-start-driver.mjs') return 'bench driver';
  if (frame.lineNumber === 0 && frame.columnNumber === 0) return "bundle's top-level code";
  let map = maps.get(file);
  if (!map) {
    map = new SourceMap(JSON.parse(await readFile(`${file}.map`, 'utf8')) as SourceMapPayload);
    maps.set(file, map);
  }
  const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string };
  const source = entry.originalSource;
  if (!source) return 'bundle (unmapped)';
  const resolved = source.startsWith('file:') ? fileURLToPath(source) : path.resolve(path.dirname(file), source);
  const modules = resolved.lastIndexOf(`node_modules${path.sep}`);
  if (modules >= 0) {
    const [scope, name] = resolved.slice(modules + 'node_modules/'.length).split(path.sep);
    const pkg = scope!.startsWith('@') ? `${scope}/${name}` : scope!;
    return SDK_SCOPES.some((s) => pkg.startsWith(s)) ? 'AWS SDK (@aws-sdk, @smithy, ...)' : pkg;
  }
  return path.relative(PROJECT_ROOT, resolved);
}
