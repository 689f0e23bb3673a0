import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { userCredentialId } from '../functions/repositories/credentials';
import { ENV, localDynamoDbClientConfig } from '../functions/runtime';
import { authorizerEvent, proxyEvent, type ParsedRequest } from '../local/api-gateway-events';
import { putLocalCredentials, readLocalCredentials } from '../local/demo-credentials';
import { startEmbeddedStore } from '../embedded-store/embedded-store';
import { CREDENTIALS_FILE, TABLE_NAMES } from '../local/start';
import { loadSeed } from '../seed/seed-data';
import { createTables } from '../store/create-tables';
import { isReference, REFERENCES, type BuiltBundles } from './bundles';
import { CHILD_ENV, coldRun, DRIVER, type ColdStartSubject, type RunTimes } from './cold-run';
import { profileColdStarts, type ProfileBreakdown } from './cold-start-profile';
import type { DeployedFunction } from './deployed-environment';
import { MINIMAL_ENV } from './minimal-functions';
import {
  CONFIDENCE,
  median,
  pairedMedianRatio,
  percentile,
  shuffled,
  verdict,
  type Estimate,
  type Verdict,
} from './stats';

/**
 * Cold start, to the first answer: a fresh `node` process per run imports one bundle, answers one request
 * (the functions read the seeded tables on dynalite), prints its timings and exits. Each function runs with
 * the environment the stack gives it (deployed-environment.ts: the log level, metrics on, ...) and a Lambda
 * context; what it writes to stdout (its log lines and the EMF documents of its metrics, which Lambda would
 * hand to CloudWatch) is read by the bench and counted, never sent anywhere. Every candidate is compared with
 * the fastest function doing the same job, measured in the same rounds: the listing functions with
 * MinimalScan (paginateScan + JSON.stringify), the authorizer with MinimalGetItem, the evaluation with the
 * listing function. After one discarded warm-up round, every round runs every bundle once in a shuffled order
 * (seeded: BENCH_SEED replays it). A comparison is the median of the per-round ratios, candidate over baseline,
 * with its 95% bootstrap interval over the rounds; a target passes only when the whole interval is inside it.
 */

const RESAMPLES = 10_000;

/** Each comparison of the cold-start table: a target when it has a limit, information otherwise. */
export const COLD_START_COMPARISONS: readonly { candidate: string; baseline: string; limit?: number; note?: string }[] =
  [
    { candidate: 'GeneratorPolicies', baseline: REFERENCES.minimalScan, limit: 1.1 },
    { candidate: 'StrengthPolicies', baseline: REFERENCES.minimalScan, limit: 1.1 },
    { candidate: 'Authorizer', baseline: REFERENCES.minimalGetItem, limit: 1.1 },
    // Issue 32's target, with every language's dictionaries.
    { candidate: 'EvaluatePassword', baseline: 'GeneratorPolicies', limit: 1.6 },
    { candidate: 'GeneratePassword', baseline: REFERENCES.minimalScan },
    {
      candidate: 'GeneratorPolicies',
      baseline: REFERENCES.helloWorld,
      note: 'the withdrawn "2x hello world" target, for information',
    },
    {
      candidate: REFERENCES.minimalScan,
      baseline: REFERENCES.helloWorld,
      note: 'the SDK call itself, for information',
    },
    {
      candidate: REFERENCES.breachedFilter,
      baseline: REFERENCES.helloWorld,
      note: "the breached-password filter's load, for information",
    },
  ];

export interface ColdStartFigures {
  readonly bytes: number;
  readonly answered: { readonly median: number; readonly p90: number };
  readonly medianWallMs: number;
  readonly medianImportMs: number;
  readonly medianInvokeMs: number;
  /** The most that one run wrote to stdout, of each kind: what the functions emit, counted and dropped. */
  readonly maxEmfDocuments: number;
  readonly maxLogLines: number;
}

export interface ColdStartComparison {
  readonly candidate: string;
  readonly baseline: string;
  readonly note?: string;
  /** The median over the rounds of candidate over baseline within the round, with its bootstrap interval. */
  readonly ratio: Estimate;
  readonly limit?: number;
  /** With a limit: the interval read against it. */
  readonly verdict?: Verdict;
  /** Candidate minus baseline within each round: median and p90, then the median of the import's and the first call's. */
  readonly paired: {
    readonly median: number;
    readonly p90: number;
    readonly import: number;
    readonly firstCall: number;
  };
  /** Only for a target not passed: where the extra time goes. */
  readonly profile?: ProfileBreakdown;
}

export interface ColdStartResult {
  readonly runs: number;
  readonly confidence: number;
  readonly bundles: Record<string, ColdStartFigures>;
  readonly comparisons: ColdStartComparison[];
}

export interface ColdStartOptions {
  readonly runs: number;
  /** The environment and memory of each function as the stack deploys it. */
  readonly deployed: Record<string, DeployedFunction>;
  /** The seeded source of the round orders and the resamples. */
  readonly random: () => number;
  /** Profiled runs per side of each target not passed (0: no profile). */
  readonly profileRuns: number;
  /** Builds the bundles again with source maps, for the profile. */
  readonly buildProfileBundles: () => Promise<BuiltBundles>;
}

export async function runColdStartBench(
  bundles: BuiltBundles,
  workDir: string,
  options: ColdStartOptions,
  log: (line: string) => void,
): Promise<ColdStartResult> {
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
    const subjects = coldStartSubjects(bundles, store.endpoint, credentials, options.deployed);

    const times = new Map<string, RunTimes[]>(subjects.map((s) => [s.name, []]));
    for (let round = 0; round <= options.runs; round++) {
      if (round === 0)
        log(
          `  cold start: warm-up round, then ${options.runs} rounds of ${subjects.length} processes, each round in a shuffled order`,
        );
      for (const subject of shuffled(subjects, options.random)) {
        const run = await coldRun(driver, subject);
        if (round > 0) times.get(subject.name)!.push(run);
      }
    }
    // Metrics on means every function of the service publishes at least one EMF document on its first call (a cache miss, an authorizer outcome).
    const silent = subjects
      .filter((s) => !isReference(s.name) && times.get(s.name)!.some((r) => r.emfDocuments === 0))
      .map((s) => s.name);
    if (silent.length > 0)
      throw new Error(
        `No EMF document on stdout from ${silent.join(', ')}: the functions did not run with their metrics on`,
      );

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
        maxEmfDocuments: Math.max(...runs.map((r) => r.emfDocuments)),
        maxLogLines: Math.max(...runs.map((r) => r.logLines)),
      };
    }

    const comparisons: ColdStartComparison[] = COLD_START_COMPARISONS.map((c) => {
      const candidate = times.get(c.candidate)!;
      const baseline = times.get(c.baseline)!;
      const diff = (pick: (r: RunTimes) => number) => candidate.map((r, i) => pick(r) - pick(baseline[i]!));
      const answered = diff((r) => r.answeredMs);
      const estimate = pairedMedianRatio(
        candidate.map((r) => r.answeredMs),
        baseline.map((r) => r.answeredMs),
        { random: options.random, resamples: RESAMPLES, level: CONFIDENCE },
      );
      return {
        ...c,
        ratio: estimate,
        ...(c.limit === undefined ? {} : { verdict: verdict(estimate, '<=', c.limit) }),
        paired: {
          median: median(answered),
          p90: percentile(answered, 90),
          import: median(diff((r) => r.importMs)),
          firstCall: median(diff((r) => r.invokeMs)),
        },
      };
    });

    const missed = comparisons.filter((c) => c.verdict !== undefined && c.verdict !== 'PASS');
    if (missed.length > 0 && options.profileRuns > 0) {
      log(
        `  cold start: profiling ${missed.map((c) => c.candidate).join(', ')} (${options.profileRuns} runs per side)`,
      );
      const mapped = await options.buildProfileBundles();
      const profiled = coldStartSubjects(mapped, store.endpoint, credentials, options.deployed);
      const byName = (name: string) => profiled.find((s) => s.name === name)!;
      for (const c of missed) {
        const profile = await profileColdStarts(
          (subject, nodeOptions) => coldRun(driver, subject, nodeOptions),
          byName(c.candidate),
          byName(c.baseline),
          options.profileRuns,
          path.join(workDir, 'profiles'),
        );
        comparisons[comparisons.indexOf(c)] = { ...c, profile };
      }
    }
    return { runs: options.runs, confidence: CONFIDENCE, bundles: figures, comparisons };
  } finally {
    client.destroy();
    await store.close();
  }
}

/**
 * Every bundle with its environment and the one request it answers, as the local gateway would call it. A
 * function gets the environment the stack gives it; a reference gets that of the function it stands for (it
 * reads none of it but its table), so both sides of a comparison start from the same variables.
 */
function coldStartSubjects(
  bundles: BuiltBundles,
  endpoint: string,
  credentials: Awaited<ReturnType<typeof readLocalCredentials>>,
  deployed: Record<string, DeployedFunction>,
): ColdStartSubject[] {
  // Where the local run differs from Lambda: the embedded store, and dummy credentials as Lambda gives.
  const client = localDynamoDbClientConfig(endpoint);
  const local = {
    PATH: process.env.PATH ?? '',
    [ENV.dynamodbEndpoint]: endpoint,
    [MINIMAL_ENV.endpoint]: endpoint,
    AWS_REGION: client.region,
    AWS_ACCESS_KEY_ID: client.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: client.credentials.secretAccessKey,
  };
  const admin = { UserID: credentials.generatorAdmin.UserID, APIKey: credentials.generatorAdmin.APIKey };
  const generatorRequest = request('/userapi/passwordgenerator', admin);
  const strengthRequest = request('/api/passwordstrength', { APIKey: credentials.passwordStrengthAPIKey });
  const generateRequest = request('/userapi/generatepassword', admin);
  const evaluateRequest = request(
    '/api/passwordstrength/evaluate',
    { APIKey: credentials.passwordStrengthAPIKey, 'Content-Type': 'application/json' },
    { body: JSON.stringify({ Password: 'Velvet-Orchard-Comet-58?' }) },
  );
  const authorizerContext = { principalId: 'bench' };
  /** The variables of the deployed function `as`, the subject's own Lambda context and its event. */
  const deployedAs = (as: string, name: string, event: unknown, extra: Record<string, string> = {}) => {
    const fn = deployed[as];
    if (!fn) throw new Error(`The stack has no function ${as}`);
    return {
      ...local,
      ...fn.environment,
      ...extra,
      [CHILD_ENV.event]: JSON.stringify(event),
      [CHILD_ENV.context]: JSON.stringify(lambdaContext(name, fn.memoryMiB)),
    };
  };
  const proxy = (as: string, name: string, req: ParsedRequest) => {
    const table = deployed[as]?.environment[ENV.policyTable];
    return deployedAs(
      as,
      name,
      proxyEvent(req, 'cold-start', authorizerContext),
      table ? { [MINIMAL_ENV.table]: table } : {},
    );
  };
  const authorizer = (name: string) =>
    deployedAs(AUTHORIZER_ID, name, authorizerEvent(generatorRequest, 'cold-start'), {
      [MINIMAL_ENV.table]: deployed[AUTHORIZER_ID]?.environment[ENV.credentialsTable] ?? '',
      [MINIMAL_ENV.credentialId]: userCredentialId(admin.UserID),
    });
  const env: Record<string, Record<string, string>> = {
    [REFERENCES.helloWorld]: proxy('GeneratorPolicies', REFERENCES.helloWorld, generatorRequest),
    [REFERENCES.breachedFilter]: proxy('EvaluatePassword', REFERENCES.breachedFilter, generatorRequest),
    [REFERENCES.minimalScan]: proxy('GeneratorPolicies', REFERENCES.minimalScan, generatorRequest),
    [REFERENCES.minimalGetItem]: authorizer(REFERENCES.minimalGetItem),
    GeneratorPolicies: proxy('GeneratorPolicies', 'GeneratorPolicies', generatorRequest),
    StrengthPolicies: proxy('StrengthPolicies', 'StrengthPolicies', strengthRequest),
    GeneratePassword: proxy('GeneratePassword', 'GeneratePassword', generateRequest),
    EvaluatePassword: proxy('EvaluatePassword', 'EvaluatePassword', evaluateRequest),
    Authorizer: authorizer('Authorizer'),
  };
  return Object.entries(env).map(([name, e]) => ({ name, file: bundles[name]!.file, env: e }));
}

/** The authorizer's id in the stack (the other functions are named by their bundles). */
const AUTHORIZER_ID = 'Authorizer';

/** The fields of Lambda's context object a handler or Powertools reads. */
function lambdaContext(functionName: string, memoryMiB: number) {
  return {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMiB),
    awsRequestId: 'cold-start',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'bench',
  };
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
