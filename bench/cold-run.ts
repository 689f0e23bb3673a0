import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

/**
 * One cold run, below both the cold-start bench (cold-start-bench.ts) and its profile (cold-start-profile.ts):
 * a fresh `node` process runs the driver, which imports one bundle, answers one request and reports its own
 * timings on fd 3; the parent counts what the function wrote to stdout.
 */

/** What the parent hands the driver in its environment: the event, the Lambda context and the bundle. */
export const CHILD_ENV = { event: 'BENCH_EVENT', context: 'BENCH_CONTEXT', bundleUrl: 'BENCH_BUNDLE_URL' } as const;

/** Runs in the child: times are milliseconds since the process started (performance.timeOrigin). */
export const DRIVER = `import { writeSync } from 'node:fs';
const event = JSON.parse(process.env.${CHILD_ENV.event});
// What Lambda passes beside the event; Powertools' logger adds it to every log line.
const context = { ...JSON.parse(process.env.${CHILD_ENV.context}), callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => 5000, done() {}, fail() {}, succeed() {} };
const beforeImport = performance.now();
const { handler } = await import(process.env.${CHILD_ENV.bundleUrl});
const imported = performance.now();
const result = await handler(event, context);
const answered = performance.now();
const ok = result?.statusCode === 200 || result?.policyDocument?.Statement?.[0]?.Effect === 'Allow';
// The timings on fd 3: stdout is the function's, as on Lambda. Exit once stdout has been written.
writeSync(3, JSON.stringify({ beforeImport, imported, answered, ok }) + '\\n');
process.stdout.write('', () => process.exit(0));
`;

export interface RunTimes {
  /** Spawn to exit, measured by the parent. */
  readonly wallMs: number;
  /** Process start to the answer, measured in the child: the cold start. */
  readonly answeredMs: number;
  /** The import of the bundle alone. */
  readonly importMs: number;
  /** The first invocation alone (for the functions: the Scan of the table). */
  readonly invokeMs: number;
  /** EMF documents (metrics) the run wrote to stdout. */
  readonly emfDocuments: number;
  /** Other lines it wrote to stdout (log lines). */
  readonly logLines: number;
}

export interface ColdStartSubject {
  readonly name: string;
  readonly file: string;
  readonly env: Record<string, string>;
}

/** An EMF document: Powertools' metrics are one JSON object a line with CloudWatch's `_aws` metadata. */
function isEmf(line: string): boolean {
  try {
    const parsed = JSON.parse(line) as unknown;
    return typeof parsed === 'object' && parsed !== null && '_aws' in parsed;
  } catch {
    return false;
  }
}

/** One fresh process: spawn, wait for exit, read the child's own timings from fd 3 and count what it wrote to stdout. */
export function coldRun(
  driver: string,
  subject: ColdStartSubject,
  nodeOptions: readonly string[] = [],
): Promise<RunTimes> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...nodeOptions, driver], {
      env: { ...subject.env, [CHILD_ENV.bundleUrl]: pathToFileURL(subject.file).href },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let timings = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    (child.stdio[3] as Readable).setEncoding('utf8').on('data', (chunk: string) => (timings += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close', not 'exit': every pipe has been read to its end.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      try {
        const reported = JSON.parse(timings.trim()) as {
          beforeImport: number;
          imported: number;
          answered: number;
          ok: boolean;
        };
        if (code !== 0 || !reported.ok) throw new Error('no successful answer');
        const lines = stdout.split('\n').filter((line) => line.trim() !== '');
        const emfDocuments = lines.filter(isEmf).length;
        resolve({
          wallMs,
          answeredMs: reported.answered,
          importMs: reported.imported - reported.beforeImport,
          invokeMs: reported.answered - reported.imported,
          emfDocuments,
          logLines: lines.length - emfDocuments,
        });
      } catch {
        reject(
          new Error(
            `Cold start of ${subject.name} failed (exit ${code ?? signal}):\n${timings}\n${stdout.slice(-4000)}\n${stderr}`,
          ),
        );
      }
    });
  });
}
