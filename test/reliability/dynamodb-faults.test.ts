/**
 * DynamoDB faults (docs/architecture.md#reads-and-caching): bounded retries in a bounded total time, the cached
 * collection served when there is one, else a 503 in the envelope; never a partial collection; full recovery
 * when DynamoDB returns, without restarting anything.
 *
 * 1. Injected with aws-sdk-client-mock on the real entry points (a cold function per test, its module
 *    registry fresh): throttling, timeouts, connection refused, access and table errors, a Scan whose third
 *    page fails. The error texts carry a table name and an ARN, which must never reach the body.
 * 2. Against a real dynalite on loopback, through the real SDK client built by createDocumentClient with
 *    DYNAMODB_MAX_ATTEMPTS=2 and DYNAMODB_REQUEST_TIMEOUT_MS=500: dynalite stopped (connection refused), then
 *    a hung endpoint on its port (accepts, never answers), then dynalite restarted on the same port with its
 *    data (LevelDB folder): the same store, cache and client objects recover. Each failing call is timed
 *    against its bound: attempts x (request timeout or connect timeout) + back-off.
 * 3. The same timings with the defaults (3 attempts, 2000 ms), printed for docs/operations.md.
 *
 * Run: npx jest test/reliability/dynamodb-faults
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { PHRASES, type ProxyHandler } from '../../functions/http';
import { PolicyRepository } from '../../functions/repositories/policies';
import {
  createDocumentClient,
  ENV,
  logger,
  UnavailableError,
  localDynamoDbClientConfig,
} from '../../functions/runtime';
import { writePolicies } from '../../seed/seed-data';
import { createTables } from '../../store/create-tables';
import { startBlackHole, startDynalite, type BlackHole, type DynaliteServer } from '../support/dynalite-server';
import { getEvent, loadEntry } from '../support/entry-points';
import { envelopeProblems } from '../support/error-envelope';
import { generatorPolicy } from '../../testkit/policy-fixtures';

jest.setTimeout(60_000);

const TABLE = 'PasswordPolicyService-GeneratorPolicies-1A2B3C4D5E6F';
const ARN = `arn:aws:dynamodb:eu-west-1:123456789012:table/${TABLE}`;
const LIST = getEvent('/userapi/passwordgenerator');
const SEARCH = getEvent('/userapi/passwordgenerator', { search: ['network'] });

const policies = (ids: number[], tag = ''): GeneratorPolicy[] =>
  ids.map((id) =>
    generatorPolicy({
      PasswordGeneratorID: id,
      GeneratorName: `Policy ${id}${tag}`,
      GeneratorDescription: id % 2 === 0 ? `network devices ${id}` : `servers ${id}`,
    }),
  );
const bodyOf = (ps: GeneratorPolicy[]) =>
  JSON.stringify([...ps].sort((a, b) => a.PasswordGeneratorID - b.PasswordGeneratorID));
const searchBodyOf = (ps: GeneratorPolicy[]) => bodyOf(ps.filter((p) => p.GeneratorDescription.includes('network')));

/** SDK-shaped errors as the v3 client raises them, with texts that name the table and its ARN. */
const FAULTS: Record<string, () => unknown> = {
  'throttling (ProvisionedThroughputExceededException)': () =>
    Object.assign(
      new Error(
        `The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API. Table: ${ARN}`,
      ),
      {
        name: 'ProvisionedThroughputExceededException',
        $fault: 'client',
        $metadata: { httpStatusCode: 400, attempts: 3, totalRetryDelay: 180 },
      },
    ),
  'throttling (ThrottlingException)': () =>
    Object.assign(new Error(`Rate of requests exceeds the allowed throughput for ${TABLE}.`), {
      name: 'ThrottlingException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    }),
  'request timeout (TimeoutError)': () =>
    Object.assign(
      new Error('@smithy/node-http-handler - [ERROR] a request has exceeded the configured 2000 ms requestTimeout.'),
      { name: 'TimeoutError', code: 'ETIMEDOUT' },
    ),
  'connection refused (ECONNREFUSED)': () =>
    Object.assign(new Error('connect ECONNREFUSED 10.0.0.12:443'), {
      name: 'Error',
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
      address: '10.0.0.12',
      port: 443,
    }),
  'table missing (ResourceNotFoundException)': () =>
    Object.assign(new Error(`Requested resource not found: Table: ${TABLE} not found`), {
      name: 'ResourceNotFoundException',
      $fault: 'client',
    }),
  'access denied (AccessDeniedException)': () =>
    Object.assign(
      new Error(
        `User: arn:aws:sts::123456789012:assumed-role/PolicyFn/x is not authorized to perform: dynamodb:Scan on resource: ${ARN}`,
      ),
      { name: 'AccessDeniedException', $fault: 'client' },
    ),
  'service error (InternalServerError)': () =>
    Object.assign(new Error('Internal server error'), {
      name: 'InternalServerError',
      $fault: 'server',
      $metadata: { httpStatusCode: 500 },
    }),
  'a non-Error rejection': () => `socket hang up talking to ${ARN}`,
};
const LEAKS = [
  TABLE,
  ARN,
  'ECONNREFUSED',
  'ProvisionedThroughput',
  'not authorized',
  'requestTimeout',
  'socket hang up',
];

function coldFunction(ttlSeconds = '0') {
  const entry = loadEntry<{ handler: ProxyHandler }>('../../functions/api/generator-policies', {
    POLICY_TABLE_NAME: TABLE,
    [ENV.policyCacheTtl]: ttlSeconds,
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  const logged: unknown[][] = [];
  for (const level of ['error', 'warn', 'info'] as const)
    jest
      .spyOn(entry.runtime.logger, level)
      .mockImplementation((...args: unknown[]) => void logged.push([level, ...args]));
  return { ...entry, logged };
}

/** The 503 in the error envelope, with nothing of the fault in it. */
function expectUnavailable(result: APIGatewayProxyResult): void {
  expect(result.statusCode).toBe(503);
  expect(envelopeProblems(503, String(result.headers?.['Content-Type']), result.body, LEAKS)).toEqual([]);
  expect(JSON.parse(result.body)[0].errors[1].phrase).toBe(PHRASES.unavailable);
  for (const leak of LEAKS) expect(result.body).not.toContain(leak);
}

afterEach(() => {
  jest.restoreAllMocks();
});

// ---------------------------------------------------------------------------------------------------------

describe('faults injected with aws-sdk-client-mock on the real entry point', () => {
  test.each(Object.keys(FAULTS))(
    '%s: 503 in the envelope with nothing cached, the cached collection when there is one, then recovery',
    async (fault) => {
      const v1 = policies([3, 1, 2]);
      const v2 = policies([1, 2, 4], ' (v2)');
      const { module, dynamo, lib, logged } = coldFunction();

      // Cold, DynamoDB failing: list and search both 503, and the log names the error class only.
      const failing = () => dynamo.on(lib.ScanCommand).callsFake(async () => Promise.reject(FAULTS[fault]!()));
      failing();
      expectUnavailable(await module.handler(LIST));
      expectUnavailable(await module.handler(SEARCH));
      expect(
        logged.some(
          ([level, message]) => level === 'error' && message === 'Policy store unavailable and nothing cached',
        ),
      ).toBe(true);
      for (const entry of logged) for (const leak of [TABLE, ARN]) expect(JSON.stringify(entry)).not.toContain(leak);

      // DynamoDB answers: the collection, complete. (TTL 0: every request reloads.)
      dynamo.reset();
      dynamo.on(lib.ScanCommand).resolves({ Items: v1 });
      expect(await module.handler(LIST)).toMatchObject({ statusCode: 200, body: bodyOf(v1) });

      // Failing again: the cached collection is served, whole, on both routes.
      dynamo.reset();
      failing();
      expect(await module.handler(LIST)).toMatchObject({ statusCode: 200, body: bodyOf(v1) });
      expect(await module.handler(SEARCH)).toMatchObject({ statusCode: 200, body: searchBodyOf(v1) });
      expect(
        logged.some(
          ([level, message]) =>
            level === 'warn' && String(message).startsWith('Policy store unavailable; serving the cached collection'),
        ),
      ).toBe(true);

      // Back: the new collection at once, no restart.
      dynamo.reset();
      dynamo.on(lib.ScanCommand).resolves({ Items: v2 });
      expect(await module.handler(LIST)).toMatchObject({ statusCode: 200, body: bodyOf(v2) });
      expect(await module.handler(SEARCH)).toMatchObject({ statusCode: 200, body: searchBodyOf(v2) });
    },
  );

  test('a Scan whose third page fails: 503 when cold, the previous whole collection when warm, never the first two pages', async () => {
    const { module, dynamo, lib } = coldFunction();
    const pages = [policies([1, 2]), policies([3, 4]), policies([5, 6])];
    const failThirdPage = () => {
      dynamo.reset();
      dynamo
        .on(lib.ScanCommand)
        .resolvesOnce({ Items: pages[0], LastEvaluatedKey: { PasswordGeneratorID: 2 } })
        .resolvesOnce({ Items: pages[1], LastEvaluatedKey: { PasswordGeneratorID: 4 } })
        .rejects(FAULTS['throttling (ProvisionedThroughputExceededException)']!() as Error);
    };

    failThirdPage();
    expectUnavailable(await module.handler(LIST));
    expect(dynamo.commandCalls(lib.ScanCommand)).toHaveLength(3);

    dynamo.reset();
    dynamo
      .on(lib.ScanCommand)
      .resolvesOnce({ Items: pages[0], LastEvaluatedKey: { PasswordGeneratorID: 2 } })
      .resolvesOnce({ Items: pages[1], LastEvaluatedKey: { PasswordGeneratorID: 4 } })
      .resolvesOnce({ Items: pages[2] });
    const whole = bodyOf(pages.flat());
    expect(await module.handler(LIST)).toMatchObject({ statusCode: 200, body: whole });

    failThirdPage();
    const stale = await module.handler(LIST);
    expect(stale).toMatchObject({ statusCode: 200, body: whole });
    expect(stale.body).not.toBe(bodyOf([...pages[0]!, ...pages[1]!]));
    expect(dynamo.commandCalls(lib.ScanCommand)).toHaveLength(3);
  });

  test('requests arriving during an outage share one reload, and all get the same answer', async () => {
    const { module, dynamo, lib } = coldFunction();
    dynamo.on(lib.ScanCommand).callsFake(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw FAULTS['request timeout (TimeoutError)']!();
    });
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => module.handler(i % 2 ? LIST : SEARCH)));
    for (const result of results) expectUnavailable(result);
    expect(dynamo.commandCalls(lib.ScanCommand)).toHaveLength(1);
  });

  test('with a cache TTL, an outage inside the TTL costs no DynamoDB call at all', async () => {
    const { module, dynamo, lib } = coldFunction('30');
    dynamo
      .on(lib.ScanCommand)
      .resolvesOnce({ Items: policies([1, 2]) })
      .rejects(FAULTS['service error (InternalServerError)']!() as Error);
    for (let i = 0; i < 5; i++)
      expect(await module.handler(LIST)).toMatchObject({ statusCode: 200, body: bodyOf(policies([1, 2])) });
    expect(dynamo.commandCalls(lib.ScanCommand)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------------------

/** Settles the promise or fails after `deadlineMs`, saying how long the call had been pending. */
async function timed<T>(
  what: string,
  promise: Promise<T>,
  deadlineMs: number,
): Promise<{ ms: number; outcome: { ok: true; value: T } | { ok: false; error: unknown } }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), deadlineMs)));
  const settled = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const first = await Promise.race([settled, deadline]);
  clearTimeout(timer);
  if (first === 'deadline') {
    void settled; // it settles later, once the endpoint goes away; nobody waits for it
    throw new Error(`${what}: still pending after ${deadlineMs} ms, so the DynamoDB call is not bounded in time`);
  }
  return { ms: Date.now() - started, outcome: first };
}

describe('a real dynalite that stops, hangs and comes back on the same port', () => {
  const MAX_ATTEMPTS = 2;
  const REQUEST_TIMEOUT_MS = 500;
  /** Connect timeout of createDocumentClient, and a generous allowance for back-off and scheduling. */
  const CONNECT_TIMEOUT_MS = 1000;
  const SLACK_MS = 1000;
  const FAILING_CALL_BOUND_MS = MAX_ATTEMPTS * Math.max(REQUEST_TIMEOUT_MS, CONNECT_TIMEOUT_MS) + SLACK_MS;
  const TABLE_NAME = 'GeneratorPolicies';

  let dataDir: string;
  let dynamo: DynaliteServer;
  let writer: DynamoDBDocumentClient;
  let client: DynamoDBDocumentClient;
  let attempts = 0;
  /** Loaded before the outage; TTL 0 so every get() goes to DynamoDB. */
  let warm: PolicyRepository<GeneratorPolicy>;
  /** Never loaded before the outage. */
  let cold: PolicyRepository<GeneratorPolicy>;
  /** The function, loaded (and so its collection) before the outage. */
  let warmFunction: ProxyHandler;
  /** The function, never loaded before the outage. */
  let coldFunction: ProxyHandler;
  const initial = policies([1, 2, 3, 4]);
  const figures: string[] = [];

  /** Every attempt of a client counts in `attempts` (the middleware runs inside the retry loop). */
  const counted = (documents: DynamoDBDocumentClient) => {
    documents.middlewareStack.add((next) => async (args) => ((attempts += 1), next(args)), {
      step: 'deserialize',
      name: 'countAttempts',
    });
    return documents;
  };
  const cache = () => new PolicyRepository(generatorPolicies, client, TABLE_NAME, { ttlMs: 0 });
  /** The real entry of GeneratorPolicies on the dynalite, its DynamoDB client counted like the repositories'. */
  const functionOnDynalite = (): ProxyHandler =>
    loadEntry<{ handler: ProxyHandler }>(
      '../../functions/api/generator-policies',
      {
        [ENV.policyTable]: TABLE_NAME,
        [ENV.policyCacheTtl]: '0',
        [ENV.dynamodbEndpoint]: dynamo.endpoint,
        AWS_REGION: 'local',
        [ENV.dynamodbMaxAttempts]: String(MAX_ATTEMPTS),
        [ENV.dynamodbRequestTimeout]: String(REQUEST_TIMEOUT_MS),
        POWERTOOLS_METRICS_DISABLED: 'true',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
      },
      {
        mockDynamoDB: false,
        modules: {
          '../../functions/runtime': () => {
            const actual = jest.requireActual('../../functions/runtime') as typeof import('../../functions/runtime');
            return {
              ...actual,
              createDocumentClient: (env?: NodeJS.ProcessEnv) => counted(actual.createDocumentClient(env)),
            };
          },
        },
      },
    ).module.handler;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'dynamodb-faults-'));
    dynamo = await startDynalite({ path: dataDir });
    const raw = new DynamoDBClient(localDynamoDbClientConfig(dynamo.endpoint));
    await createTables(raw, { generator: TABLE_NAME, strength: 'StrengthPolicies' });
    raw.destroy();
    writer = createDocumentClient({ [ENV.dynamodbEndpoint]: dynamo.endpoint, AWS_REGION: 'local' });
    await writePolicies(writer, TABLE_NAME, initial);

    client = counted(
      createDocumentClient({
        [ENV.dynamodbEndpoint]: dynamo.endpoint,
        AWS_REGION: 'local',
        [ENV.dynamodbMaxAttempts]: String(MAX_ATTEMPTS),
        [ENV.dynamodbRequestTimeout]: String(REQUEST_TIMEOUT_MS),
      }),
    );
    warm = cache();
    cold = cache();
    warmFunction = functionOnDynalite();
    coldFunction = functionOnDynalite();
  });

  beforeEach(() => {
    attempts = 0;
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });

  afterAll(async () => {
    client?.destroy();
    writer?.destroy();
    await dynamo?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    console.log(
      `DynamoDB fault timings (${MAX_ATTEMPTS} attempts, ${REQUEST_TIMEOUT_MS} ms request timeout):\n  ${figures.join('\n  ')}`,
    );
  });

  test('up: the whole collection', async () => {
    expect((await warm.get()).body).toBe(bodyOf(initial));
    expect(attempts).toBe(1);
    expect(await warmFunction(LIST)).toMatchObject({ statusCode: 200, body: bodyOf(initial) });
    expect(attempts).toBe(2);
  });

  test('stopped (connection refused): bounded retries, the cached collection when there is one, else 503', async () => {
    await dynamo.stop();

    const stale = await timed('warm get, dynalite stopped', warm.get(), FAILING_CALL_BOUND_MS * 2);
    expect(stale.outcome).toEqual({ ok: true, value: expect.objectContaining({ body: bodyOf(initial) }) });
    expect(stale.ms).toBeLessThan(FAILING_CALL_BOUND_MS);
    expect(attempts).toBe(MAX_ATTEMPTS);

    attempts = 0;
    const failed = await timed('cold get, dynalite stopped', cold.get(), FAILING_CALL_BOUND_MS * 2);
    expect(failed.outcome).toEqual({ ok: false, error: expect.any(UnavailableError) });
    expect(failed.ms).toBeLessThan(FAILING_CALL_BOUND_MS);
    expect(attempts).toBe(MAX_ATTEMPTS);
    figures.push(
      `connection refused: a failing call took ${failed.ms} ms over ${attempts} attempts (stale served in ${stale.ms} ms)`,
    );

    // Through the function: cold, it answers 503 in the envelope; warm, the whole list from its last load.
    const result = await coldFunction(LIST);
    expect(result.statusCode).toBe(503);
    expect(
      envelopeProblems(503, String(result.headers?.['Content-Type']), result.body, [TABLE_NAME, dynamo.endpoint]),
    ).toEqual([]);
    expect(await warmFunction(SEARCH)).toMatchObject({ statusCode: 200, body: searchBodyOf(initial) });
  });

  test('hung (accepts, never answers): each attempt ends at the request timeout, so the call fails in bounded time', async () => {
    const hole: BlackHole = await startBlackHole(dynamo.port);
    const pending: Promise<unknown>[] = [];
    const track = <T>(promise: Promise<T>) => (pending.push(promise.catch(() => undefined)), promise);
    try {
      const failed = await timed('cold get, endpoint hung', track(cache().get()), FAILING_CALL_BOUND_MS * 2);
      expect(failed.outcome).toEqual({ ok: false, error: expect.any(UnavailableError) });
      expect(failed.ms).toBeGreaterThanOrEqual(MAX_ATTEMPTS * REQUEST_TIMEOUT_MS - 50);
      expect(failed.ms).toBeLessThan(FAILING_CALL_BOUND_MS);
      expect(attempts).toBe(MAX_ATTEMPTS);
      figures.push(`hung endpoint: a failing call took ${failed.ms} ms over ${attempts} attempts`);

      const stale = await timed('warm get, endpoint hung', track(warm.get()), FAILING_CALL_BOUND_MS * 2);
      expect(stale.outcome).toEqual({ ok: true, value: expect.objectContaining({ body: bodyOf(initial) }) });
      expect(stale.ms).toBeLessThan(FAILING_CALL_BOUND_MS);
    } finally {
      // A call still pending fails over to a refused port once the hole closes; let it finish here, so that
      // nothing of this outage reaches the next test.
      await hole.close();
      await Promise.all(pending);
    }
  });

  test('back on the same port with its data: the same client, repositories and function recover at once', async () => {
    await dynamo.restart();
    const added = policies([99], ' (added after the outage)');
    await writer.send(new PutCommand({ TableName: TABLE_NAME, Item: added[0] }));
    const now = bodyOf([...initial, ...added]);

    expect((await warm.get()).body).toBe(now);
    expect((await cold.get()).body).toBe(now); // the cache that had only ever failed
    expect(await coldFunction(LIST)).toMatchObject({ statusCode: 200, body: now });
    expect(attempts).toBe(3); // one attempt per call: nothing left over from the outage
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('the defaults (DYNAMODB_MAX_ATTEMPTS 3, DYNAMODB_REQUEST_TIMEOUT_MS 2000): worst case of a failing call', () => {
  const DEFAULT_ATTEMPTS = 3;
  const DEFAULT_TIMEOUT_MS = 2000;
  /** docs/operations.md: "at most about 6 s plus back-off". */
  const BOUND_MS = DEFAULT_ATTEMPTS * DEFAULT_TIMEOUT_MS + 1500;

  test('refused and hung endpoints, timed', async () => {
    const hole = await startBlackHole();
    const figures: string[] = [];
    const pending: Promise<unknown>[] = [];
    const track = <T>(promise: Promise<T>) => (pending.push(promise.catch(() => undefined)), promise);
    try {
      const store = (port: number) =>
        new PolicyRepository(
          generatorPolicies,
          createDocumentClient({ [ENV.dynamodbEndpoint]: `http://127.0.0.1:${port}`, AWS_REGION: 'local' }),
          'GeneratorPolicies',
          { ttlMs: 0 },
        );
      const closedPort = await (async () => {
        const probe = await startBlackHole();
        await probe.close();
        return probe.port;
      })();
      const refused = await timed('defaults, connection refused', track(store(closedPort).scan()), BOUND_MS);
      expect(refused.outcome.ok).toBe(false);
      figures.push(`connection refused: ${refused.ms} ms`);

      const hung = await timed('defaults, hung endpoint', track(store(hole.port).scan()), BOUND_MS);
      expect(hung.outcome.ok).toBe(false);
      expect(hung.ms).toBeGreaterThanOrEqual(DEFAULT_ATTEMPTS * DEFAULT_TIMEOUT_MS - 50);
      expect(hole.connections()).toBe(DEFAULT_ATTEMPTS);
      figures.push(`hung endpoint: ${hung.ms} ms over ${hole.connections()} attempts`);
    } finally {
      await hole.close();
      await Promise.all(pending);
      console.log(
        `DynamoDB fault timings with the defaults (${DEFAULT_ATTEMPTS} attempts, ${DEFAULT_TIMEOUT_MS} ms):\n  ${figures.join('\n  ')}`,
      );
    }
  });
});
