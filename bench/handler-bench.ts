import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import path from 'node:path';
import { generatorPolicies } from '../functions/domain/generator-policy';
import { buildCollection } from '../functions/domain/policy-collection';
import type { ProxyHandler } from '../functions/http';
import { DEFAULT_POLICY_CACHE_TTL_SECONDS, ENV, wholeNumber } from '../functions/runtime';
import {
  CONFIDENCE,
  distribution,
  pairedMedianRatio,
  pairedPercentileRatio,
  timeMicros,
  type Distribution,
  type Estimate,
} from './stats';
import { SEARCH_TERM, syntheticGeneratorPolicies } from './synthetic-policies';

/**
 * In-process: the real entry file of GeneratorPolicies (functions/api/generator-policies.ts) with its DynamoDB
 * document client mocked, timed per invocation against the irreducible work of the same answer:
 * - list: an async function returning a prebuilt response whose body is a string of the same size;
 * - search: one pass of String.prototype.includes over the collection's folded strings, collecting the matching
 *   elements into the same JSON array the handler returns (the two bodies are checked to be identical).
 * Baseline and handler calls are interleaved in pairs, a coin toss deciding which goes first, so they share the
 * drift; list and search are timed one after the other. The entry runs with the environment the stack gives
 * GeneratorPolicies (deployed-environment.ts: log level, metrics on, cache TTL) but DynamoDB's endpoint; what
 * it writes to stdout (log lines, EMF documents) is counted and dropped, not printed into the report.
 * The ratios are paired: the median of the per-pair ratios, and p99 over p99, each with its bootstrap interval.
 */

const ENTRY = path.resolve(__dirname, '..', 'functions', 'api', 'generator-policies.ts');
const FUNCTIONS_DIR = path.resolve(__dirname, '..', 'functions') + path.sep;
const WARMUP_INVOCATIONS = 200;
const COUNTED_INVOCATIONS = 1000;
/** Fewer resamples than the cold start's: each resample of a p99 sorts thousands of timings. */
const RESAMPLES = 2000;

export const HANDLER_SIZES: readonly { policies: number; iterations: number }[] = [
  { policies: 10, iterations: 2000 },
  { policies: 1000, iterations: 2000 },
  { policies: 10_000, iterations: 400 },
];

export interface Comparison {
  /** Microseconds per invocation. */
  readonly handler: Distribution;
  readonly baseline: Distribution;
  /** The median of handler over baseline within each pair. */
  readonly p50Ratio: Estimate;
  /** The handler's p99 over the baseline's, resampled by pairs. */
  readonly p99Ratio: Estimate;
}

export interface HandlerBenchOptions {
  /** The function's environment as the stack deploys it. */
  readonly environment: Readonly<Record<string, string>>;
  /** The seeded source of the pair orders and the resamples. */
  readonly random: () => number;
}

export interface HandlerBenchResult {
  readonly policies: number;
  readonly iterations: number;
  readonly listBodyBytes: number;
  readonly searchTerm: string;
  readonly searchMatches: number;
  readonly searchBodyBytes: number;
  readonly list: Comparison;
  readonly search: Comparison;
  /** What the handler wrote to stdout while it was timed and warmed, counted and dropped. */
  readonly stdout: { readonly emfDocuments: number; readonly lines: number };
  readonly dynamodb: {
    /** Calls made by the first (cold) invocation: the paginated Scan of the table. */
    readonly initialLoadCalls: number;
    /** Calls made by COUNTED_INVOCATIONS warm invocations (half list, half search) right after. */
    readonly callsPer1000Warm: number;
    /** The counted invocations all ran within the policy cache TTL of the first load. */
    readonly countedWithinTtl: boolean;
    /** Calls during warm-up and timing (non-zero would mean a TTL reload polluted the timings). */
    readonly callsDuringTiming: number;
  };
}

export async function runHandlerBench(
  log: (line: string) => void,
  options: HandlerBenchOptions,
  sizes = HANDLER_SIZES,
): Promise<HandlerBenchResult[]> {
  // The function's environment, as deployed (the cache TTL included), with the DynamoDB client mocked instead of pointed anywhere.
  const saved = { ...process.env };
  Object.assign(process.env, options.environment, { AWS_REGION: 'local' });
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  delete process.env[ENV.dynamodbEndpoint];
  // Every instance of the document client, whichever load of the entry made it, is served by this stub.
  const dynamo = mockClient(DynamoDBDocumentClient);
  try {
    const results: HandlerBenchResult[] = [];
    for (const size of sizes) {
      log(`  in-process: ${size.policies} policies, ${size.iterations} timed iterations`);
      results.push(await benchOneSize(dynamo, size.policies, size.iterations, options));
    }
    return results;
  } finally {
    dynamo.restore();
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

/**
 * Runs `work` with process.stdout's writes counted and dropped: Powertools writes its log lines and EMF
 * documents to stdout (a Console built on process.stdout), which holds the report. The writes still happen,
 * into nothing.
 */
async function capturingStdout<T>(work: () => Promise<T>): Promise<{ result: T; emfDocuments: number; lines: number }> {
  const write = process.stdout.write;
  let emfDocuments = 0;
  let lines = 0;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      lines += 1;
      if (line.includes('"_aws"')) emfDocuments += 1;
    }
    const callback = rest.find((r): r is () => void => typeof r === 'function');
    if (callback) process.nextTick(callback);
    return true;
  }) as typeof process.stdout.write;
  try {
    return { result: await work(), emfDocuments, lines };
  } finally {
    process.stdout.write = write;
  }
}

async function benchOneSize(
  dynamo: AwsClientStub<DynamoDBDocumentClient>,
  count: number,
  iterations: number,
  options: HandlerBenchOptions,
): Promise<HandlerBenchResult> {
  const { result, emfDocuments, lines } = await capturingStdout(() =>
    measureOneSize(dynamo, count, iterations, options),
  );
  return { ...result, stdout: { emfDocuments, lines } };
}

async function measureOneSize(
  dynamo: AwsClientStub<DynamoDBDocumentClient>,
  count: number,
  iterations: number,
  options: HandlerBenchOptions,
): Promise<Omit<HandlerBenchResult, 'stdout'>> {
  const policies = syntheticGeneratorPolicies(count);
  dynamo.reset();
  dynamo.on(ScanCommand).resolves({ Items: policies.map((p) => ({ ...p })), Count: policies.length });

  // A cold start: fresh module state (so the cached collection starts empty), then the first invocation loads.
  const handler = loadEntryFresh();
  const listEvent = proxyEvent(null);
  const searchEvent = proxyEvent({ search: [SEARCH_TERM] });
  const loadedAt = Date.now();
  const listResponse = expectOk(await handler(listEvent), 'list');
  const initialLoadCalls = dynamo.calls().length;
  const searchResponse = expectOk(await handler(searchEvent), 'search');

  // The baselines. The list one returns a distinct copy of the body (same size), prebuilt once.
  const prebuilt: APIGatewayProxyResult = {
    statusCode: 200,
    headers: { ...listResponse.headers },
    body: Buffer.from(listResponse.body).toString(),
  };
  const listBaseline = async (): Promise<APIGatewayProxyResult> => prebuilt;
  const collection = buildCollection(generatorPolicies, policies);
  const folded = collection.searchText;
  const elements = collection.elements;
  const searchHeaders = { ...searchResponse.headers };
  // A local: an imported binding is a getter call on the module object in the CommonJS tsx runs.
  const term = SEARCH_TERM;
  const searchBaseline = async (): Promise<APIGatewayProxyResult> => {
    const matched: string[] = [];
    for (let i = 0; i < folded.length; i++) if (folded[i]!.includes(term)) matched.push(elements[i]!);
    return { statusCode: 200, headers: searchHeaders, body: `[${matched.join(',')}]` };
  };
  const baselineBody = (await searchBaseline()).body;
  if (baselineBody !== searchResponse.body) {
    throw new Error(
      `The search baseline and the handler disagree at ${count} policies: the baseline would measure different work`,
    );
  }
  const searchMatches = (JSON.parse(baselineBody) as unknown[]).length;

  for (let i = 0; i < WARMUP_INVOCATIONS; i++) {
    await handler(listEvent);
    await handler(searchEvent);
    await listBaseline();
    await searchBaseline();
  }

  const beforeCounted = dynamo.calls().length;
  for (let i = 0; i < COUNTED_INVOCATIONS; i++) await handler(i % 2 === 0 ? listEvent : searchEvent);
  const callsPer1000Warm = ((dynamo.calls().length - beforeCounted) * 1000) / COUNTED_INVOCATIONS;
  // The TTL the function reads, as it reads it.
  const countedWithinTtl =
    Date.now() - loadedAt < wholeNumber(process.env[ENV.policyCacheTtl], DEFAULT_POLICY_CACHE_TTL_SECONDS) * 1000;

  // One route at a time, so one route's garbage (and the collections it triggers) is not charged to the other.
  const beforeTiming = dynamo.calls().length;
  const list = await timeInterleaved(iterations, () => handler(listEvent), listBaseline, options);
  const search = await timeInterleaved(iterations, () => handler(searchEvent), searchBaseline, options);
  const callsDuringTiming = dynamo.calls().length - beforeTiming;

  return {
    policies: count,
    iterations,
    listBodyBytes: Buffer.byteLength(listResponse.body),
    searchTerm: SEARCH_TERM,
    searchMatches,
    searchBodyBytes: Buffer.byteLength(searchResponse.body),
    list,
    search,
    dynamodb: { initialLoadCalls, callsPer1000Warm, countedWithinTtl, callsDuringTiming },
  };
}

/** Handler and baseline timed in pairs, a coin toss deciding which goes first, so both see the same drift. */
async function timeInterleaved(
  iterations: number,
  handler: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  options: HandlerBenchOptions,
): Promise<Comparison> {
  const handlerSamples: number[] = [];
  const baselineSamples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    if (options.random() < 0.5) {
      handlerSamples.push(await timeMicros(handler));
      baselineSamples.push(await timeMicros(baseline));
    } else {
      baselineSamples.push(await timeMicros(baseline));
      handlerSamples.push(await timeMicros(handler));
    }
  }
  const bootstrap = { random: options.random, resamples: RESAMPLES, level: CONFIDENCE };
  return {
    handler: distribution(handlerSamples),
    baseline: distribution(baselineSamples),
    p50Ratio: pairedMedianRatio(handlerSamples, baselineSamples, bootstrap),
    p99Ratio: pairedPercentileRatio(handlerSamples, baselineSamples, 99, bootstrap),
  };
}

/** Loads the entry as a cold Lambda would: every module of functions/ evaluated afresh. */
function loadEntryFresh(): ProxyHandler {
  for (const id of Object.keys(require.cache)) if (id.startsWith(FUNCTIONS_DIR)) delete require.cache[id];
  return (require(ENTRY) as { handler: ProxyHandler }).handler;
}

function expectOk(response: APIGatewayProxyResult, what: string): APIGatewayProxyResult {
  if (response.statusCode !== 200)
    throw new Error(`The ${what} handler answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  return response;
}

/** A GET proxy event of /userapi/passwordgenerator as API Gateway hands it over (authorizer already passed). */
function proxyEvent(query: Record<string, string[]> | null): APIGatewayProxyEvent {
  const path = '/userapi/passwordgenerator';
  return {
    resource: path,
    path,
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: query
      ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v[v.length - 1]!]))
      : null,
    multiValueQueryStringParameters: query,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { authorizer: { principalId: 'bench' } } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}
