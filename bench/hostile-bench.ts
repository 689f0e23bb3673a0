import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { startEmbeddedStore } from '../embedded-store/embedded-store';
import { EVALUATION_REQUEST_FIELDS, readEvaluationRequest } from '../functions/api/evaluation-request';
import { BREACHED_PASSWORDS } from '../functions/domain/evaluation/estimate/breached-password-list';
import { guessEstimator } from '../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../functions/domain/evaluation/strength-evaluator';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { ApiError } from '../functions/http';
import { ENV, localDynamoDbClientConfig } from '../functions/runtime';
import { readLocalCredentials } from '../local/demo-credentials';
import { CREDENTIALS_FILE, TABLE_NAMES } from '../local/start';
import { DEFAULT_STRENGTH_FILE } from '../seed/seed-data';
import { checkPolicy, PolicyStore } from '../store/policy-store';
import { HOSTILE_FAMILIES, hostileBodies, type HostileBody } from './hostile-bodies';
import { hostileMarkdown, MB, type HostileBenchResult, type HostileBodyFigures } from './hostile-report';
import { startChild, type Child } from './http-bench';
import { commitMeasured, MEASURED_DIR, writeMeasured } from './measured';
import type { Machine } from './stats';
import { median } from './stats';
import { LOCAL_ENV } from '../local/local-environment';
import { BENCH_ENV } from './bench-variables';

/**
 * The `hostile` section of `npm run bench` (issue 30, docs/performance.md#the-evaluations-worst-case): the
 * bodies of bench/hostile-bodies.ts from the run's seed, evaluated as the function evaluates them.
 *
 *   - In process: each body read by the function's own request reading (functions/api/evaluation-request.ts)
 *     and its BannedWords by the policy store's check (store/policy-store.ts); a body either refuses is counted
 *     as refused and not evaluated, as the service would not. The others are evaluated with the shipped estimator
 *     (guessEstimator) under policy 2 of seed/strength-policies.json with the body's BannedWords, breached as
 *     the function looks it up, after one evaluation of a short password under the same policy (the function
 *     prepares a policy's BannedWords once per load of its policies), and after every accepted body has been
 *     evaluated WARM_ROUNDS times untimed, as a warm function that has served such requests has compiled their paths.
 *       CPU: process.cpuUsage around one evaluation (user and system time of every thread of the process, so a
 *       concurrent GC counts, and waiting for a core on a shared machine does not), up to REPEATS runs (one
 *       when the first is past NO_REPEAT_MS: ten times the bound, no median would change its verdict); a body's
 *       figure is the median of its runs. No GC is forced before them: the collector runs when it would.
 *       Heap: one more evaluation, after a full GC (gc(), exposed with v8.setFlagsFromString('--expose-gc')
 *       when node was not started with --expose-gc), with v8.GCProfiler around it. The peak is the largest
 *       used heap seen, just before each GC that ran during the evaluation and at its end (between two GCs the
 *       used heap only grows, so that is its peak as V8 counts it), minus the used heap at the start. It counts
 *       the garbage the young generation held when read (at most one semi-space, 16 MB on 64-bit Node 20), so
 *       it is an upper bound of the live growth; beside it, the used heap right after the largest GC during the
 *       evaluation, nearer what was alive (old-generation garbage not yet collected included), or none when no
 *       GC ran. Neither sees memory outside V8's heap (the contents of Buffers and typed arrays: the matcher's
 *       arrays of code points).
 *   - Over HTTP: the HTTP_BODIES_PER_FAMILY bodies of each family that cost most in process, POSTed one at a time
 *     through the local gateway (a child process running startLocalService, as the HTTP section starts it) on
 *     loopback, its store an embedded dynalite started here; for a body with BannedWords, a copy of policy 2 with
 *     them, written through the policy store (store/policy-store.ts, what `npm run policy` writes through) before
 *     the gateway's first request. A warm-up of a few ordinary evaluations under every policy used first. Each
 *     body up to REPEATS times (once past NO_REPEAT_MS), wall time from the request's start to its response's end;
 *     a body's figure is the median.
 *
 * The figures go to the report (bench/hostile-report.ts) and, as Markdown, to docs/measured/hostile.md.
 */

const PER_FAMILY = 6;
const REPEATS = 3;
const NO_REPEAT_MS = 1000;
const HTTP_BODIES_PER_FAMILY = 3;
/** The first identifier of the policies written for the bodies with BannedWords (the seed's are 1 to 10). */
const FIRST_POLICY_ID = 9001;
/** Where the figures go as Markdown, relative to the project (a generated file, marked so in .gitattributes). */
export const HOSTILE_MARKDOWN_FILE = path.join(MEASURED_DIR, 'hostile.md');
const EVALUATE_PATH = '/api/passwordstrength/evaluate';

export interface HostileBenchOptions {
  readonly seed: number;
  /** The environment as given, for the gateway's child process. */
  readonly baseEnv: NodeJS.ProcessEnv;
  readonly machine: Machine;
  readonly progress: (line: string) => void;
}

export async function runHostileBench({
  seed,
  baseEnv,
  machine,
  progress,
}: HostileBenchOptions): Promise<HostileBenchResult> {
  const started = Date.now();
  const loadAtStart = os.loadavg()[0]!;
  const bodies = hostileBodies(seed, PER_FAMILY);
  progress(`  hostile: seed ${seed} (${BENCH_ENV.seed}=${seed} makes the same bodies), ${bodies.length} bodies`);
  const policy2 = (JSON.parse(readFileSync(DEFAULT_STRENGTH_FILE, 'utf8')) as StrengthPolicy[]).find(
    (p) => p.PasswordStrengthPolicyID === 2,
  )!;

  const figures = inProcess(bodies, policy2, progress);
  // Over HTTP, the bodies of each family that cost most in process.
  const costliest = new Set(
    HOSTILE_FAMILIES.flatMap((family) =>
      bodies
        .map((body, i) => ({ body, cpuMs: figures[i]!.refused === undefined ? figures[i]!.cpuMs : Number.NaN }))
        .filter(({ body, cpuMs }) => body.family === family && !Number.isNaN(cpuMs))
        .sort((a, b) => b.cpuMs - a.cpuMs)
        .slice(0, HTTP_BODIES_PER_FAMILY)
        .map(({ body }) => body),
    ),
  );
  const chosen = bodies.filter((body) => costliest.has(body));
  const http = await overHttp(baseEnv, chosen, policy2, progress);
  const withHttp = figures.map((f, i) => (http.has(bodies[i]!) ? { ...f, http: http.get(bodies[i]!)! } : f));

  const result: HostileBenchResult = {
    seed,
    perFamily: PER_FAMILY,
    repeats: REPEATS,
    noRepeatMs: NO_REPEAT_MS,
    httpBodiesPerFamily: HTTP_BODIES_PER_FAMILY,
    bodies: withHttp,
    loadAverage: [loadAtStart, os.loadavg()[0]!],
    commit: commitMeasured(),
    seconds: (Date.now() - started) / 1000,
    markdownFile: HOSTILE_MARKDOWN_FILE,
  };
  await writeMeasured(HOSTILE_MARKDOWN_FILE, hostileMarkdown(result, new Date().toISOString(), machine));
  return result;
}

/** The JSON body of a POST of `body` under policy `id`. */
export function requestBody(body: HostileBody, id: number): string {
  const { policyId, password, userInputs } = EVALUATION_REQUEST_FIELDS;
  return JSON.stringify({
    [policyId]: id,
    [password]: body.password,
    ...(body.userInputs.length > 0 ? { [userInputs]: body.userInputs } : {}),
  });
}

/** The policy a body is evaluated under: policy 2 with the body's BannedWords, if any. */
export const policyFor = (policy2: StrengthPolicy, body: HostileBody): StrengthPolicy =>
  body.bannedWords.length > 0 ? { ...policy2, BannedWords: body.bannedWords } : policy2;

/** Why the function's request reading or the policy store refuses a body, or undefined. */
export function refusal(body: HostileBody, policy: StrengthPolicy): string | undefined {
  const json = { 'Content-Type': 'application/json' };
  const event = {
    body: requestBody(body, 2),
    isBase64Encoded: false,
    headers: json,
    multiValueHeaders: { 'Content-Type': [json['Content-Type']] },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
  };
  try {
    readEvaluationRequest(event);
  } catch (error) {
    if (error instanceof ApiError) return `${error.status}: ${error.phrase}`;
    throw error;
  }
  const checked = checkPolicy('strength', policy);
  return checked.ok ? undefined : `the policy store refuses its BannedWords: ${checked.problems[0]}`;
}

/** gc(), from the command line's --expose-gc or exposed now. */
function garbageCollector(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** The CPU time of one evaluation, ms. */
function cpuMs(evaluate: () => unknown): number {
  const cpu = process.cpuUsage();
  evaluate();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

/** One evaluation after a full GC: the peak of the used heap over the start, and the used heap after its largest GC (NaN: none ran), MB. */
function heapGrowth(collect: () => void, evaluate: () => unknown): { heapPeakMB: number; heapAfterGcMB: number } {
  collect();
  const profiler = new v8.GCProfiler();
  const start = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  evaluate();
  const end = v8.getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  const peak = Math.max(end, ...statistics.map((s) => s.beforeGC.heapStatistics.usedHeapSize));
  const afterGc =
    statistics.length === 0 ? Number.NaN : Math.max(...statistics.map((s) => s.afterGC.heapStatistics.usedHeapSize));
  return { heapPeakMB: (peak - start) / MB, heapAfterGcMB: (afterGc - start) / MB };
}

/** Untimed evaluations of every accepted body before the timed ones. */
const WARM_ROUNDS = 8;

function inProcess(
  bodies: readonly HostileBody[],
  policy2: StrengthPolicy,
  progress: (line: string) => void,
): HostileBodyFigures[] {
  const collect = garbageCollector();
  const estimate = guessEstimator();
  // Warm the evaluation, in context and not: the first ones compile the matchers.
  for (let i = 0; i < 20; i++) {
    evaluatePassword(policy2, `warm-Up-${i}!`, estimate, false);
    evaluatePassword({ ...policy2, BannedWords: ['contoso', 'fabrikam'] }, `warm-Up-${i}!`, estimate, false, [
      'John Smith',
      'jsmith@acme.example',
    ]);
  }
  // Then every body the service accepts, WARM_ROUNDS times untimed: a warm function that has served such
  // requests has compiled the paths they take (the first few evaluations of a 256-character l33t run with 1,687
  // terms cost several times the later ones, V8 compiling on other threads that process.cpuUsage counts).
  const accepted = bodies.filter((body) => refusal(body, policyFor(policy2, body)) === undefined);
  for (let round = 0; round < WARM_ROUNDS; round++) {
    for (const body of accepted)
      evaluatePassword(
        policyFor(policy2, body),
        body.password,
        estimate,
        BREACHED_PASSWORDS.has(body.password),
        body.userInputs,
      );
  }
  // Every body's CPU runs first, then every body's heap growth: the heap's forced full GC leaves the collector's
  // background work (and a shrunken young generation) to whatever runs next, which process.cpuUsage would count.
  const timed = bodies.map((body): { figures: HostileBodyFigures; evaluate?: () => unknown } => {
    const policy = policyFor(policy2, body);
    const refused = refusal(body, policy);
    const described = { family: body.family, name: body.name, validAfterNfkc: body.validAfterNfkc };
    if (refused !== undefined) {
      progress(`  hostile: ${body.family} ${body.name.split(' ')[0]}: refused (${refused})`);
      return {
        figures: {
          ...described,
          refused,
          cpuMs: Number.NaN,
          runs: 0,
          heapPeakMB: Number.NaN,
          heapAfterGcMB: Number.NaN,
        },
      };
    }
    const evaluate = () =>
      evaluatePassword(policy, body.password, estimate, BREACHED_PASSWORDS.has(body.password), body.userInputs);
    evaluatePassword(policy, 'warm-Up-1!', estimate, false);
    // The CPU runs as they come, the collector running when it would.
    const runs: number[] = [];
    do runs.push(cpuMs(evaluate));
    while (runs.length < REPEATS && runs[0]! <= NO_REPEAT_MS);
    return {
      figures: {
        ...described,
        cpuMs: median(runs),
        runs: runs.length,
        heapPeakMB: Number.NaN,
        heapAfterGcMB: Number.NaN,
      },
      evaluate,
    };
  });
  return timed.map(({ figures, evaluate }) => {
    if (evaluate === undefined) return figures;
    const measured = { ...figures, ...heapGrowth(collect, evaluate) };
    progress(
      `  hostile: ${measured.family} ${measured.name.split(' ')[0]}: CPU ${measured.cpuMs.toFixed(1)} ms (${measured.runs} run(s)), heap peak ${measured.heapPeakMB.toFixed(1)} MB`,
    );
    return measured;
  });
}

async function overHttp(
  baseEnv: NodeJS.ProcessEnv,
  chosen: readonly HostileBody[],
  policy2: StrengthPolicy,
  progress: (line: string) => void,
): Promise<Map<HostileBody, NonNullable<HostileBodyFigures['http']>>> {
  const results = new Map<HostileBody, NonNullable<HostileBodyFigures['http']>>();
  if (chosen.length === 0) return results;
  progress(`  hostile: HTTP, ${chosen.length} bodies through the local gateway`);
  const store = await startEmbeddedStore();
  // The policies stay loaded for the whole run (no reload, so no new preparation of BannedWords mid-run), the
  // authorizer's answer cached as API Gateway caches it, and nothing leaves the machine (no Pwned Passwords check).
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    [ENV.dynamodbEndpoint]: store.endpoint,
    [ENV.policyCacheTtl]: '3600',
    [LOCAL_ENV.authorizerCacheTtl]: '300',
  };
  for (const name of [
    LOCAL_ENV.dynamodbPort,
    LOCAL_ENV.dataDir,
    LOCAL_ENV.host,
    LOCAL_ENV.port,
    LOCAL_ENV.quiet,
    ENV.pwnedPasswordsCheck,
  ])
    delete env[name];
  let gateway: Child | undefined;
  try {
    // The gateway creates the tables and loads the seed into them before it prints its URL.
    gateway = await startChild(
      'local gateway',
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'gateway-child.ts')],
      env,
    );
    const policies = new PolicyStore(
      DynamoDBDocumentClient.from(new DynamoDBClient(localDynamoDbClientConfig(store.endpoint))),
      TABLE_NAMES,
    );
    const policyIds = new Map<HostileBody, number>();
    for (const body of chosen) {
      if (body.bannedWords.length === 0) {
        policyIds.set(body, 2);
        continue;
      }
      const id = FIRST_POLICY_ID + policyIds.size;
      const checked = checkPolicy('strength', {
        ...policy2,
        PasswordStrengthPolicyID: id,
        PolicyName: `Hostile bench ${body.family} ${body.name.split(' ')[0]}`,
        BannedWords: body.bannedWords,
      });
      if (!checked.ok)
        throw new Error(
          `The policy store refuses the BannedWords of ${body.family} ${body.name}: ${checked.problems.join('; ')}`,
        );
      await policies.commit(
        [{ collection: 'strength', id, before: undefined, after: checked.policy }],
        'npm run bench (hostile)',
      );
      policyIds.set(body, id);
    }
    const { passwordStrengthAPIKey } = await readLocalCredentials(CREDENTIALS_FILE);
    const post = (json: string) => timedPost(gateway!.url + EVALUATE_PATH, passwordStrengthAPIKey, json);
    for (const id of new Set(policyIds.values())) {
      for (let i = 0; i < 5; i++) {
        const warm = await post(
          JSON.stringify({
            PasswordStrengthPolicyID: id,
            Password: `warm-Up-${i}!`,
            ...(i % 2 === 0 ? { UserInputs: ['John Smith'] } : {}),
          }),
        );
        if (warm.status !== 200)
          throw new Error(`The warm-up of policy ${id} answered ${warm.status}: ${warm.body.slice(0, 300)}`);
      }
    }
    for (const body of chosen) {
      const posts: { ms: number; status: number }[] = [];
      do {
        const answer = await post(requestBody(body, policyIds.get(body)!));
        if (answer.status !== 200)
          progress(
            `  hostile: ${body.family} ${body.name.split(' ')[0]} answered ${answer.status}: ${answer.body.slice(0, 200)}`,
          );
        posts.push(answer);
      } while (posts.length < REPEATS && posts[0]!.ms <= NO_REPEAT_MS);
      const figures = {
        ms: median(posts.map((p) => p.ms)),
        status: posts.find((p) => p.status !== 200)?.status ?? 200,
        posts: posts.length,
      };
      progress(
        `  hostile: HTTP ${body.family} ${body.name.split(' ')[0]}: ${figures.ms.toFixed(1)} ms (${figures.posts} POST(s), ${figures.status})`,
      );
      results.set(body, figures);
    }
    return results;
  } finally {
    await gateway?.stop();
    await store.close();
  }
}

/** One POST, timed from the request's start to its response's end. */
function timedPost(url: string, apiKey: string, json: string): Promise<{ ms: number; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = request(
      url,
      {
        method: 'POST',
        headers: { APIKey: apiKey, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            ms: Number(process.hrtime.bigint() - start) / 1e6,
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(json);
  });
}
