import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENV } from '../functions/runtime';
import { authorizerEvent, proxyEvent, type ParsedRequest } from '../local/api-gateway-events';
import { putLocalCredentials, readLocalCredentials } from '../local/credentials';
import { startEmbeddedStore } from '../local/embedded-store';
import { CREDENTIALS_FILE, TABLE_NAMES } from '../local/start';
import { createTables, loadSeed } from '../seed/seed-data';
import { HELLO_WORLD, type BuiltBundles } from './bundles';
import { median, ratio } from './stats';

/**
 * Cold start: a fresh `node` process per run imports one bundle, answers one request (the
 * functions read the seeded tables on dynalite), prints its timings and exits. The hello-world bundle runs the
 * same driver. Runs are interleaved round by round (the order rotating) after one discarded warm-up round.
 */


/** Runs in the child: times are milliseconds since the process started (performance.timeOrigin). */
const DRIVER = `const event = JSON.parse(process.env.BENCH_EVENT);
const beforeImport = performance.now();
const { handler } = await import(process.env.BENCH_BUNDLE_URL);
const imported = performance.now();
const result = await handler(event);
const answered = performance.now();
const ok = result?.statusCode === 200 || result?.policyDocument?.Statement?.[0]?.Effect === 'Allow';
process.stdout.write(JSON.stringify({ beforeImport, imported, answered, ok }) + '\\n', () => process.exit(0));
`;

interface RunTimes {
  /** Spawn to exit, measured by the parent. */
  readonly wallMs: number;
  /** Process start to the answer, measured in the child. */
  readonly answeredMs: number;
  /** The import of the bundle alone. */
  readonly importMs: number;
  /** The first invocation alone (for the functions: the Scan of the table). */
  readonly invokeMs: number;
}

export interface ColdStartFigures {
  readonly bytes: number;
  readonly medianWallMs: number;
  readonly medianAnsweredMs: number;
  readonly medianImportMs: number;
  readonly medianInvokeMs: number;
  /** Median wall time over the hello-world's; undefined for the hello-world itself. */
  readonly wallRatio?: number;
  readonly answeredRatio?: number;
}

export interface ColdStartResult {
  readonly runs: number;
  readonly reference: string;
  readonly bundles: Record<string, ColdStartFigures>;
}

interface Subject {
  readonly name: string;
  readonly file: string;
  readonly env: Record<string, string>;
}

export async function runColdStartBench(bundles: BuiltBundles, workDir: string, runs: number, log: (line: string) => void): Promise<ColdStartResult> {
  const driver = path.join(workDir, 'cold-start-driver.mjs');
  await writeFile(driver, DRIVER);

  const store = await startEmbeddedStore();
  const client = new DynamoDBClient({ endpoint: store.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await createTables(client, TABLE_NAMES);
    const documents = DynamoDBDocumentClient.from(client);
    await loadSeed({ client: documents, generatorTable: TABLE_NAMES.generator, strengthTable: TABLE_NAMES.strength });
    const credentials = await readLocalCredentials(CREDENTIALS_FILE);
    await putLocalCredentials(documents, TABLE_NAMES.credentials, credentials);

    // The function environment of the local gateway (local/start.ts), with dummy credentials as Lambda gives.
    const base = {
      PATH: process.env.PATH ?? '',
      DYNAMODB_ENDPOINT: store.endpoint,
      AWS_REGION: 'local',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      POWERTOOLS_METRICS_DISABLED: 'true',
    };
    const generatorRequest = request('/userapi/passwordgenerator', { UserID: credentials.generatorAdmin.UserID, APIKey: credentials.generatorAdmin.APIKey });
    const strengthRequest = request('/api/passwordstrength', { APIKey: credentials.passwordStrengthAPIKey });
    const generateRequest = request('/userapi/generatepassword', { UserID: credentials.generatorAdmin.UserID, APIKey: credentials.generatorAdmin.APIKey });
    const evaluateRequest = request('/api/passwordstrength/evaluate', { APIKey: credentials.passwordStrengthAPIKey, 'Content-Type': 'application/json' }, { body: JSON.stringify({ Password: 'Velvet-Orchard-Comet-58?' }) });
    const context = { principalId: 'bench' };
    const generatorEnv = { ...base, [ENV.policyTable]: TABLE_NAMES.generator, BENCH_EVENT: JSON.stringify(proxyEvent(generatorRequest, 'cold-start', context)) };
    const subjects: Subject[] = [
      { name: HELLO_WORLD, file: bundles[HELLO_WORLD]!.file, env: generatorEnv },
      { name: 'GeneratorPolicies', file: bundles.GeneratorPolicies!.file, env: generatorEnv },
      {
        name: 'StrengthPolicies',
        file: bundles.StrengthPolicies!.file,
        env: { ...base, [ENV.policyTable]: TABLE_NAMES.strength, BENCH_EVENT: JSON.stringify(proxyEvent(strengthRequest, 'cold-start', context)) },
      },
      { name: 'GeneratePassword', file: bundles.GeneratePassword!.file, env: { ...generatorEnv, BENCH_EVENT: JSON.stringify(proxyEvent(generateRequest, 'cold-start', context)) } },
      {
        // Its init ranks zxcvbn's dictionaries: on Lambda that happens in the init phase, before any request.
        name: 'EvaluatePassword',
        file: bundles.EvaluatePassword!.file,
        env: { ...base, [ENV.policyTable]: TABLE_NAMES.strength, BENCH_EVENT: JSON.stringify(proxyEvent(evaluateRequest, 'cold-start', context)) },
      },
      {
        name: 'Authorizer',
        file: bundles.Authorizer!.file,
        env: { ...base, [ENV.credentialsTable]: TABLE_NAMES.credentials, BENCH_EVENT: JSON.stringify(authorizerEvent(generatorRequest, 'cold-start')) },
      },
    ];

    const times = new Map<string, RunTimes[]>(subjects.map((s) => [s.name, []]));
    for (let round = 0; round <= runs; round++) {
      if (round === 0) log(`  cold start: warm-up round, then ${runs} rounds of ${subjects.length} processes`);
      for (let k = 0; k < subjects.length; k++) {
        const subject = subjects[(k + round) % subjects.length]!;
        const run = await coldRun(driver, subject);
        if (round > 0) times.get(subject.name)!.push(run);
      }
    }

    const figures = (name: string): ColdStartFigures => {
      const runsOf = times.get(name)!;
      return {
        bytes: bundles[name]!.bytes,
        medianWallMs: median(runsOf.map((r) => r.wallMs)),
        medianAnsweredMs: median(runsOf.map((r) => r.answeredMs)),
        medianImportMs: median(runsOf.map((r) => r.importMs)),
        medianInvokeMs: median(runsOf.map((r) => r.invokeMs)),
      };
    };
    const reference = figures(HELLO_WORLD);
    const result: Record<string, ColdStartFigures> = { [HELLO_WORLD]: reference };
    for (const subject of subjects.filter((s) => s.name !== HELLO_WORLD)) {
      const f = figures(subject.name);
      result[subject.name] = { ...f, wallRatio: ratio(f.medianWallMs, reference.medianWallMs), answeredRatio: ratio(f.medianAnsweredMs, reference.medianAnsweredMs) };
    }
    return { runs, reference: HELLO_WORLD, bundles: result };
  } finally {
    client.destroy();
    await store.close();
  }
}

function request(requestPath: string, headers: Record<string, string>, post?: { body: string }): ParsedRequest {
  return {
    method: post ? 'POST' : 'GET',
    path: requestPath,
    resource: requestPath,
    body: post?.body ?? null,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    query: null,
    sourceIp: '127.0.0.1',
  };
}

/** One fresh process: spawn, wait for exit, read the child's own timings from its stdout. */
function coldRun(driver: string, subject: Subject): Promise<RunTimes> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [driver], {
      env: { ...subject.env, BENCH_BUNDLE_URL: pathToFileURL(subject.file).href },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      try {
        const reported = JSON.parse(stdout.trim()) as { beforeImport: number; imported: number; answered: number; ok: boolean };
        if (code !== 0 || !reported.ok) throw new Error('no successful answer');
        resolve({ wallMs, answeredMs: reported.answered, importMs: reported.imported - reported.beforeImport, invokeMs: reported.answered - reported.imported });
      } catch {
        reject(new Error(`Cold start of ${subject.name} failed (exit ${code ?? signal}):\n${stdout}\n${stderr}`));
      }
    });
  });
}
