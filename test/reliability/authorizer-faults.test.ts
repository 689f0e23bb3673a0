/**
 * The authorizer's time budget (docs/operations.md#timeout-budget), through the real SDK client against a
 * real dynalite on loopback, behind a proxy that can hang every request or only the last-used writes:
 *
 * 1. last-used writes hang: the key is still allowed, in about LAST_USED_WRITE_TIMEOUT_MS, not a Lambda timeout;
 * 2. the whole store hangs: the authorizer fails in bounded time (its DynamoDB share of the budget), and the
 *    local gateway answers 503 in the envelope; never an allow;
 * 3. a malformed credential record counts as absent: 401, logged with its id and counted, never a 500.
 * Then the generation and evaluation functions with their table unavailable: 503 when cold, the cached
 * policies when warm (the list path's proof is test/reliability/dynamodb-faults.test.ts).
 *
 * Run: npx jest test/reliability/authorizer-faults
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueKey } from '../../functions/domain/api-key';
import { errorEnvelope, PHRASES, type ProxyHandler } from '../../functions/http';
import {
  LAST_USED_WRITE_TIMEOUT_MS,
  storedKey,
  systemKeysItem,
  userItem,
} from '../../functions/repositories/credentials';
import { GENERATOR_ADMIN_ROLE } from '../../functions/routes';
import { createDocumentClient, ENV, localDynamoDbClientConfig } from '../../functions/runtime';
import { dynamodbBudget, TIME_BUDGET } from '../../lib/deployment';
import { AuthorizerEmulation } from '../../local/authorizer-emulation';
import { createGateway } from '../../local/gateway';
import { createTables } from '../../store/create-tables';
import { startDynalite, type DynaliteServer } from '../support/dynalite-server';
import { getEvent, loadEntry, proxyEvent } from '../support/entry-points';
import { rawRequest } from '../support/http-client';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';

jest.setTimeout(60_000);

const TABLE = 'Credentials';
const admin = issueKey('user');
const generatorKey = issueKey('generator');
const CREATED = '2026-01-01T00:00:00.000Z';

type Mode = 'pass' | 'hang-updates' | 'hang-all';

/** An HTTP proxy in front of dynalite that forwards, or holds requests forever (it accepts, never answers). */
function startProxy(target: number): Promise<{ url: string; mode: Mode; close(): Promise<void> }> {
  const held: http.ServerResponse[] = [];
  const state = { mode: 'pass' as Mode };
  const server = http.createServer((req, res) => {
    const operation = String(req.headers['x-amz-target'] ?? '');
    if (state.mode === 'hang-all' || (state.mode === 'hang-updates' && operation.endsWith('.UpdateItem'))) {
      req.resume();
      held.push(res);
      return;
    }
    const forward = http.request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        get mode() {
          return state.mode;
        },
        set mode(mode: Mode) {
          state.mode = mode;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const res of held) res.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

let dynamo: DynaliteServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;
type Authorizer = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

beforeAll(async () => {
  dynamo = await startDynalite();
  await createTables(new DynamoDBClient(localDynamoDbClientConfig(dynamo.endpoint)), {
    generator: 'GeneratorPolicies',
    strength: 'StrengthPolicies',
    credentials: TABLE,
  });
  const documents = createDocumentClient({ [ENV.dynamodbEndpoint]: dynamo.endpoint });
  const items = [
    userItem('admin', [GENERATOR_ADMIN_ROLE], CREATED, { [admin.keyId]: storedKey(admin.digest, CREATED) }),
    systemKeysItem('generator', { [generatorKey.keyId]: storedKey(generatorKey.digest, CREATED) }),
    // Written by hand or partly restored: no Keys map at all.
    { CredentialID: 'USER#broken', UserID: 'broken', Roles: [GENERATOR_ADMIN_ROLE] },
  ];
  for (const Item of items) await documents.send(new PutCommand({ TableName: TABLE, Item }));
  proxy = await startProxy(dynamo.port);
});
afterAll(async () => {
  await proxy?.close();
  await dynamo?.stop();
});
beforeEach(() => (proxy.mode = 'pass'));

/** The real authorizer, cold, on the proxy with the authorizer's DynamoDB budget. */
function authorizer() {
  return loadEntry<{ handler: Authorizer }>(
    '../../functions/api/authorizer',
    {
      [ENV.credentialsTable]: TABLE,
      [ENV.dynamodbEndpoint]: proxy.url,
      AWS_REGION: 'local',
      POWERTOOLS_METRICS_DISABLED: 'true',
      ...dynamodbBudget(TIME_BUDGET.authorizer),
    },
    { mockDynamoDB: false },
  );
}

function event(path: string, headers: Record<string, string>): APIGatewayRequestAuthorizerEvent {
  const multi = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:local:000000000000:local/local/GET${path}`,
    resource: path,
    path,
    httpMethod: 'GET',
    headers,
    multiValueHeaders: multi,
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

async function timed<T>(promise: Promise<T>): Promise<{ ms: number; result: T | Error }> {
  const started = performance.now();
  const result = await promise.catch((error: unknown) => error as Error);
  return { ms: Math.round(performance.now() - started), result };
}

describe('the authorizer within its time budget', () => {
  it('allows while last-used writes hang, after at most the write bound', async () => {
    const { module } = authorizer();
    proxy.mode = 'hang-updates';
    for (const [path, headers] of [
      ['/userapi/passwordgenerator', { UserID: 'admin', APIKey: admin.key }],
      ['/api/generatepassword', { APIKey: generatorKey.key }],
    ] as const) {
      const { ms, result } = await timed(module.handler(event(path, headers)));
      expect((result as APIGatewayAuthorizerResult).policyDocument.Statement[0]!.Effect).toBe('Allow');
      expect(ms).toBeGreaterThanOrEqual(LAST_USED_WRITE_TIMEOUT_MS - 20);
      expect(ms).toBeLessThan(LAST_USED_WRITE_TIMEOUT_MS + 700);
    }
  });

  it('fails in bounded time when the store hangs, and the gateway answers 503 in the envelope, never an allow', async () => {
    const { module } = authorizer();
    proxy.mode = 'hang-all';
    const { attempts, requestMs } = {
      attempts: TIME_BUDGET.authorizer.dynamodbMaxAttempts,
      requestMs: TIME_BUDGET.authorizer.dynamodbRequestTimeoutMs,
    };
    const { ms, result } = await timed(
      module.handler(event('/userapi/passwordgenerator', { UserID: 'admin', APIKey: admin.key })),
    );
    expect(result).toEqual(new Error('Authorizer failure'));
    expect(ms).toBeGreaterThanOrEqual(attempts * requestMs - 50);
    expect(ms).toBeLessThan(TIME_BUDGET.authorizer.lambdaTimeoutSeconds * 1000);

    // Over HTTP through the local gateway: the authorizer's failure is API Gateway's 503 gateway response.
    const reached: string[] = [];
    const server = createGateway({
      functions: {
        GeneratorPolicies: async () => (reached.push('function'), { statusCode: 200, body: '[]' }),
      } as Record<string, ProxyHandler>,
      authorizer: new AuthorizerEmulation(module.handler, 0),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const started = performance.now();
      const response = await rawRequest(url, 'GET', '/userapi/passwordgenerator', [
        ['UserID', 'admin'],
        ['APIKey', admin.key],
      ]);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 503,
        body: errorEnvelope(503, PHRASES.credentialsUnavailable),
      });
      expect(performance.now() - started).toBeLessThan(TIME_BUDGET.authorizer.lambdaTimeoutSeconds * 1000);
      expect(reached).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('takes a malformed record for absent: 401, logged with its id and counted, never a throw', async () => {
    const { module, runtime } = authorizer();
    const warned = jest.spyOn(runtime.logger, 'warn').mockImplementation(() => undefined);
    const counted = jest.spyOn(runtime.metrics, 'addMetric');
    await expect(
      module.handler(event('/userapi/passwordgenerator', { UserID: 'broken', APIKey: admin.key })),
    ).rejects.toThrow(new Error('Unauthorized'));
    expect(warned).toHaveBeenCalledWith('Invalid credential record', { credentialId: 'USER#broken' });
    expect(counted).toHaveBeenCalledWith('InvalidCredentialRecords', 'Count', 1);
  });
});

describe('generation and evaluation with their table unavailable', () => {
  const unavailable = errorEnvelope(503, PHRASES.unavailable);
  const cases = [
    [
      'GeneratePassword',
      '../../functions/api/generate-password',
      () => getEvent('/api/generatepassword', { Qty: ['2'] }),
      [generatorPolicy()],
    ],
    [
      'EvaluatePassword',
      '../../functions/api/evaluate-password',
      () =>
        proxyEvent('POST', '/api/passwordstrength/evaluate', {
          headers: { 'Content-Type': ['application/json'] },
          body: '{"Password":"Correct-Horse-7"}',
        }),
      [strengthPolicy()],
    ],
  ] as const;

  it.each(cases)(
    '%s: 503 in the envelope when cold, the cached policy when warm, then recovery',
    async (_name, entry, request, items) => {
      const {
        module,
        dynamo: mock,
        lib,
      } = loadEntry<{ handler: ProxyHandler }>(entry, {
        POLICY_TABLE_NAME: 'policy-table',
        [ENV.policyCacheTtl]: '0',
        POWERTOOLS_METRICS_DISABLED: 'true',
      });
      const failure = Object.assign(new Error('connect ECONNREFUSED 10.0.0.12:443'), { code: 'ECONNREFUSED' });
      mock.on(lib.ScanCommand).rejects(failure);
      expect(await module.handler(request())).toMatchObject({ statusCode: 503, body: unavailable });

      mock.on(lib.ScanCommand).resolves({ Items: [...items] });
      expect((await module.handler(request())).statusCode).toBe(200);

      // Failing again with a TTL of 0: the last good policies are served for another TTL, never a 5xx.
      mock.on(lib.ScanCommand).rejects(failure);
      expect((await module.handler(request())).statusCode).toBe(200);
    },
  );
});
