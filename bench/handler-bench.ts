import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import path from 'node:path';
import { generatorPolicies } from '../functions/domain/generator-policy';
import { buildCollection } from '../functions/domain/policy-collection';
import type { ProxyHandler } from '../functions/http';
import { DEFAULT_POLICY_CACHE_TTL_SECONDS, ENV } from '../functions/runtime';
import { distribution, ratio, timeMicros, type Distribution } from './stats';
import { SEARCH_TERM, syntheticGeneratorPolicies } from './synthetic-policies';

/**
 * In-process: the real entry file of GeneratorPolicies (functions/api/generator-policies.ts) with its DynamoDB
 * document client mocked, timed per invocation against the irreducible work of the same answer:
 * - list: an async function returning a prebuilt response whose body is a string of the same size;
 * - search: one pass of String.prototype.includes over the collection's folded strings, collecting the matching
 *   elements into the same JSON array the handler returns (the two bodies are checked to be identical).
 * Baseline and handler calls are interleaved (alternating which goes first) so they share the drift; list and
 * search are timed one after the other.
 */

const ENTRY = path.resolve(__dirname, '..', 'functions', 'api', 'generator-policies.ts');
const FUNCTIONS_DIR = path.resolve(__dirname, '..', 'functions') + path.sep;
const WARMUP_INVOCATIONS = 200;
const COUNTED_INVOCATIONS = 1000;

export const HANDLER_SIZES: readonly { policies: number; iterations: number }[] = [
  { policies: 10, iterations: 2000 },
  { policies: 1000, iterations: 2000 },
  { policies: 10_000, iterations: 400 },
];

export interface Comparison {
  /** Microseconds per invocation. */
  readonly handler: Distribution;
  readonly baseline: Distribution;
  readonly p50Ratio: number;
  readonly p99Ratio: number;
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

export async function runHandlerBench(log: (line: string) => void, sizes = HANDLER_SIZES): Promise<HandlerBenchResult[]> {
  // The function's environment. The cache TTL is left at the functions' default.
  Object.assign(process.env, { POLICY_TABLE_NAME: 'BenchGeneratorPolicies', POWERTOOLS_METRICS_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'ERROR', AWS_REGION: 'local' });
  delete process.env.POLICY_CACHE_TTL_SECONDS;
  delete process.env[ENV.dynamodbEndpoint];
  // Every instance of the document client, whichever load of the entry made it, is served by this stub.
  const dynamo = mockClient(DynamoDBDocumentClient);
  try {
    const results: HandlerBenchResult[] = [];
    for (const size of sizes) {
      log(`  in-process: ${size.policies} policies, ${size.iterations} timed iterations`);
      results.push(await benchOneSize(dynamo, size.policies, size.iterations));
    }
    return results;
  } finally {
    dynamo.restore();
  }
}

async function benchOneSize(dynamo: AwsClientStub<DynamoDBDocumentClient>, count: number, iterations: number): Promise<HandlerBenchResult> {
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
  const prebuilt: APIGatewayProxyResult = { statusCode: 200, headers: { ...listResponse.headers }, body: Buffer.from(listResponse.body).toString() };
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
    throw new Error(`The search baseline and the handler disagree at ${count} policies: the baseline would measure different work`);
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
  const countedWithinTtl = Date.now() - loadedAt < DEFAULT_POLICY_CACHE_TTL_SECONDS * 1000;

  // One route at a time, so one route's garbage (and the collections it triggers) is not charged to the other.
  const beforeTiming = dynamo.calls().length;
  const list = await timeInterleaved(iterations, () => handler(listEvent), listBaseline);
  const search = await timeInterleaved(iterations, () => handler(searchEvent), searchBaseline);
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

/** Handler and baseline timed in turns, alternating which goes first, so both see the same drift. */
async function timeInterleaved(iterations: number, handler: () => Promise<unknown>, baseline: () => Promise<unknown>): Promise<Comparison> {
  const handlerSamples: number[] = [];
  const baselineSamples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    if (i % 2 === 1) {
      handlerSamples.push(await timeMicros(handler));
      baselineSamples.push(await timeMicros(baseline));
    } else {
      baselineSamples.push(await timeMicros(baseline));
      handlerSamples.push(await timeMicros(handler));
    }
  }
  const handlerFigures = distribution(handlerSamples);
  const baselineFigures = distribution(baselineSamples);
  return { handler: handlerFigures, baseline: baselineFigures, p50Ratio: ratio(handlerFigures.p50, baselineFigures.p50), p99Ratio: ratio(handlerFigures.p99, baselineFigures.p99) };
}

/** Loads the entry as a cold Lambda would: every module of functions/ evaluated afresh. */
function loadEntryFresh(): ProxyHandler {
  for (const id of Object.keys(require.cache)) if (id.startsWith(FUNCTIONS_DIR)) delete require.cache[id];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(ENTRY) as { handler: ProxyHandler }).handler;
}

function expectOk(response: APIGatewayProxyResult, what: string): APIGatewayProxyResult {
  if (response.statusCode !== 200) throw new Error(`The ${what} handler answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
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
    queryStringParameters: query ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v[v.length - 1]!])) : null,
    multiValueQueryStringParameters: query,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { authorizer: { principalId: 'bench' } } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}
