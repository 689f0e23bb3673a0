import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { userCredentialId } from '../functions/repositories/credentials';
import { ENV, localDynamoDbClientConfig } from '../functions/runtime';
import { authorizerEvent, proxyEvent, type ParsedRequest } from '../local/api-gateway-events';
import { putLocalCredentials, readLocalCredentials } from '../local/demo-credentials';
import { startEmbeddedStore } from '../embedded-store/embedded-store';
import { CREDENTIALS_FILE, TABLE_NAMES } from '../local/start';
import { loadSeed } from '../seed/seed-data';
import { createTables } from '../store/create-tables';
import { REFERENCES, type BuiltBundles } from './bundles';
import { profileColdStarts, type ProfileBreakdown } from './cold-start-profile';
import { MINIMAL_ENV } from './minimal-functions';
import { median, percentile, ratio } from './stats';

/**
 * Cold start, to the first answer: a fresh `node` process per run imports one bundle, answers one request
 * (the functions read the seeded tables on dynalite), prints its timings and exits. Every candidate is
 * compared with the fastest function doing the same job, measured in the same rounds: the listing functions
 * with MinimalScan (paginateScan + JSON.stringify), the authorizer with MinimalGetItem, the evaluation with
 * the listing function. Rounds alternate all bundles (the order rotating) after one discarded warm-up round.
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

/** Each comparison of the cold-start table: a target when it has a limit, information otherwise. */
export const COLD_START_COMPARISONS: readonly { candidate: string; baseline: string; limit?: number; note?: string }[] = [
  { candidate: 'GeneratorPolicies', baseline: REFERENCES.minimalScan, limit: 1.05 },
  { candidate: 'StrengthPolicies', baseline: REFERENCES.minimalScan, limit: 1.05 },
  { candidate: 'Authorizer', baseline: REFERENCES.minimalGetItem, limit: 1.05 },
  { candidate: 'EvaluatePassword', baseline: 'GeneratorPolicies', limit: 2 },
  { candidate: 'GeneratePassword', baseline: REFERENCES.minimalScan },
  { candidate: 'GeneratorPolicies', baseline: REFERENCES.helloWorld, note: 'the withdrawn "2x hello world" target, for information' },
  { candidate: REFERENCES.minimalScan, baseline: REFERENCES.helloWorld, note: 'the SDK call itself, for information' },
  { candidate: REFERENCES.breachedFilter, baseline: REFERENCES.helloWorld, note: "the breached-password filter's load, for information" },
];

export interface RunTimes {
  /** Spawn to exit, measured by the parent. */
  readonly wallMs: number;
  /** Process start to the answer, measured in the child: the cold start. */
  readonly answeredMs: number;
  /** The import of the bundle alone. */
  readonly importMs: number;
  /** The first invocation alone (for the functions: the Scan of the table). */
  readonly invokeMs: number;
}

export interface ColdStartFigures {
  readonly bytes: number;
  readonly answered: { readonly median: number; readonly p90: number };
  readonly medianWallMs: number;
  readonly medianImportMs: number;
  readonly medianInvokeMs: number;
}

export interface ColdStartComparison {
  readonly candidate: string;
  readonly baseline: string;
  readonly note?: string;
  /** Median cold start over the baseline's. */
  readonly ratio: number;
  readonly limit?: number;
  /** With a limit: the candidate's median minus limit times the baseline's, what it must lose to meet it (negative: inside). */
  readonly overLimitMs?: number;
  /** Candidate minus baseline within each round: median and p90, then the median of the import's and the first call's. */
  readonly paired: { readonly median: number; readonly p90: number; readonly import: number; readonly firstCall: number };
  /** Only for a missed target: where the extra time goes. */
  readonly profile?: ProfileBreakdown;
}

export interface ColdStartResult {
  readonly runs: number;
  readonly bundles: Record<string, ColdStartFigures>;
  readonly comparisons: ColdStartComparison[];
}

export interface ColdStartSubject {
  readonly name: string;
  readonly file: string;
  readonly env: Record<string, string>;
}

export interface ColdStartOptions {
  readonly runs: number;
  /** Profiled runs per side of each missed target (0: no profile). */
  readonly profileRuns: number;
  /** Builds the bundles again with source maps, for the profile. */
  readonly buildProfileBundles: () => Promise<BuiltBundles>;
}

export async function runColdStartBench(bundles: BuiltBundles, workDir: string, options: ColdStartOptions, log: (line: string) => void): Promise<ColdStartResult> {
  const driver = path.join(workDir, 'cold-start-driver.mjs');
  await writeFile(driver, DRIVER);

  const store = await startEmbeddedStore();
  const client = new DynamoDBClient(localDynamoDbClientConfig(store.endpoint));
  try {
    await createTables(client, TABLE_NAMES);
    const documents = DynamoDBDocumentClient.from(client);
    await loadSeed({ client: documents, generatorTable: TABLE_NAMES.generator, strengthTable: TABLE_NAMES.strength });
    const credentials = await readLocalCredentials(CREDENTIALS_FILE);
    await putLocalCredentials(documents, TABLE_NAMES.credentials, credentials);
    const subjects = coldStartSubjects(bundles, store.endpoint, credentials);

    const times = new Map<string, RunTimes[]>(subjects.map((s) => [s.name, []]));
    for (let round = 0; round <= options.runs; round++) {
      if (round === 0) log(`  cold start: warm-up round, then ${options.runs} rounds of ${subjects.length} processes`);
      for (let k = 0; k < subjects.length; k++) {
        const subject = subjects[(k + round) % subjects.length]!;
        const run = await coldRun(driver, subject);
        if (round > 0) times.get(subject.name)!.push(run);
      }
    }

    const figures: Record<string, ColdStartFigures> = {};
    for (const subject of subjects) {
      const runs = times.get(subject.name)!;
      const answered = runs.map((r) => r.answeredMs);
      figures[subject.name] = {
        bytes: bundles[subject.name]!.bytes,
        answered: { median: median(answered), p90: percentile(answered, 90) },
        medianWallMs: median(runs.map((r) => r.wallMs)),
        medianImportMs: median(runs.map((r) => r.importMs)),
        medianInvokeMs: median(runs.map((r) => r.invokeMs)),
      };
    }

    const comparisons: ColdStartComparison[] = [];
    for (const c of COLD_START_COMPARISONS) {
      const candidate = times.get(c.candidate)!;
      const baseline = times.get(c.baseline)!;
      const diff = (pick: (r: RunTimes) => number) => candidate.map((r, i) => pick(r) - pick(baseline[i]!));
      const answered = diff((r) => r.answeredMs);
      const [candidateMedian, baselineMedian] = [figures[c.candidate]!.answered.median, figures[c.baseline]!.answered.median];
      comparisons.push({
        ...c,
        ratio: ratio(candidateMedian, baselineMedian),
        ...(c.limit === undefined ? {} : { overLimitMs: candidateMedian - c.limit * baselineMedian }),
        paired: { median: median(answered), p90: percentile(answered, 90), import: median(diff((r) => r.importMs)), firstCall: median(diff((r) => r.invokeMs)) },
      });
    }

    const missed = comparisons.filter((c) => c.limit !== undefined && !(c.ratio <= c.limit));
    if (missed.length > 0 && options.profileRuns > 0) {
      log(`  cold start: profiling ${missed.map((c) => c.candidate).join(', ')} (${options.profileRuns} runs per side)`);
      const mapped = await options.buildProfileBundles();
      const profiled = coldStartSubjects(mapped, store.endpoint, credentials);
      const byName = (name: string) => profiled.find((s) => s.name === name)!;
      for (const c of missed) {
        const profile = await profileColdStarts((subject, nodeOptions) => coldRun(driver, subject, nodeOptions), byName(c.candidate), byName(c.baseline), options.profileRuns, path.join(workDir, 'profiles'));
        comparisons[comparisons.indexOf(c)] = { ...c, profile };
      }
    }
    return { runs: options.runs, bundles: figures, comparisons };
  } finally {
    client.destroy();
    await store.close();
  }
}

/** Every bundle with its environment and the one request it answers, as the local gateway would call it. */
function coldStartSubjects(bundles: BuiltBundles, endpoint: string, credentials: Awaited<ReturnType<typeof readLocalCredentials>>): ColdStartSubject[] {
  // The function environment of the local gateway (local/start.ts), with dummy credentials as Lambda gives.
  const local = localDynamoDbClientConfig(endpoint);
  const base = {
    PATH: process.env.PATH ?? '',
    [ENV.dynamodbEndpoint]: endpoint,
    [MINIMAL_ENV.endpoint]: endpoint,
    AWS_REGION: local.region,
    AWS_ACCESS_KEY_ID: local.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: local.credentials.secretAccessKey,
    POWERTOOLS_LOG_LEVEL: 'WARN',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  const admin = { UserID: credentials.generatorAdmin.UserID, APIKey: credentials.generatorAdmin.APIKey };
  const generatorRequest = request('/userapi/passwordgenerator', admin);
  const strengthRequest = request('/api/passwordstrength', { APIKey: credentials.passwordStrengthAPIKey });
  const generateRequest = request('/userapi/generatepassword', admin);
  const evaluateRequest = request('/api/passwordstrength/evaluate', { APIKey: credentials.passwordStrengthAPIKey, 'Content-Type': 'application/json' }, { body: JSON.stringify({ Password: 'Velvet-Orchard-Comet-58?' }) });
  const context = { principalId: 'bench' };
  const proxy = (table: string, req: ParsedRequest) => ({
    ...base,
    [ENV.policyTable]: table,
    [MINIMAL_ENV.table]: table,
    BENCH_EVENT: JSON.stringify(proxyEvent(req, 'cold-start', context)),
  });
  const authorizer = {
    ...base,
    [ENV.credentialsTable]: TABLE_NAMES.credentials,
    [MINIMAL_ENV.table]: TABLE_NAMES.credentials,
    [MINIMAL_ENV.credentialId]: userCredentialId(admin.UserID),
    BENCH_EVENT: JSON.stringify(authorizerEvent(generatorRequest, 'cold-start')),
  };
  const env: Record<string, Record<string, string>> = {
    [REFERENCES.helloWorld]: proxy(TABLE_NAMES.generator, generatorRequest),
    [REFERENCES.breachedFilter]: proxy(TABLE_NAMES.generator, generatorRequest),
    [REFERENCES.minimalScan]: proxy(TABLE_NAMES.generator, generatorRequest),
    [REFERENCES.minimalGetItem]: authorizer,
    GeneratorPolicies: proxy(TABLE_NAMES.generator, generatorRequest),
    StrengthPolicies: proxy(TABLE_NAMES.strength, strengthRequest),
    GeneratePassword: proxy(TABLE_NAMES.generator, generateRequest),
    EvaluatePassword: proxy(TABLE_NAMES.strength, evaluateRequest),
    Authorizer: authorizer,
  };
  return Object.entries(env).map(([name, e]) => ({ name, file: bundles[name]!.file, env: e }));
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
export function coldRun(driver: string, subject: ColdStartSubject, nodeOptions: readonly string[] = []): Promise<RunTimes> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...nodeOptions, driver], {
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
