import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

/**
 * TransactWriteItems for dynalite, which does not implement it (the policy CLI writes a policy and its
 * history record in one transaction, docs/administration.md). Installed on dynalite's HTTP server, it takes
 * that one operation and hands every other request to dynalite unchanged.
 *
 * A transaction reads the current image of each item, then applies its Put, Update and Delete actions one
 * by one through dynalite itself, each with its own condition; when one fails, the ones already applied are
 * put back from their images and the client gets DynamoDB's TransactionCanceledException with a
 * CancellationReasons entry per action. Isolation from other writers comes from a gate: while a transaction
 * runs, other writes (and other transactions) wait, and it starts only when the writes in flight are done;
 * with no transaction running, writes pass straight through. A reader may see a transaction half applied for
 * the instant it runs, which DynamoDB never shows; no reader of this service reads two items together.
 * ConditionCheck actions and ClientRequestToken idempotency are not implemented.
 */

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);
/** DynamoDB's limit on the actions of one TransactWriteItems. */
const MAX_ACTIONS = 100;
const JSON_1_0 = 'application/x-amz-json-1.0';

type Item = Record<string, unknown>;
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
interface Reply {
  status: number;
  body: Item;
}

/** A request the transaction cannot run, answered as DynamoDB would (HTTP 400 with its error type). */
class Refusal extends Error {
  constructor(readonly reply: Reply) {
    super(String(reply.body.message ?? reply.body.__type));
  }
}

export function addTransactions(server: http.Server): http.Server {
  const [dynalite] = server.listeners('request') as Handler[];
  if (dynalite === undefined) throw new Error('addTransactions: the server has no request handler');
  server.removeAllListeners('request');
  /** Marks the transaction's own calls to dynalite, which must not wait at the gate it holds. */
  const internal = randomUUID();
  let gate: Promise<void> | undefined;
  let writesInFlight = 0;
  const whenDrained: (() => void)[] = [];
  const agent = new http.Agent({ keepAlive: true });
  server.on('close', () => agent.destroy());

  const passWrite = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    while (gate) await gate;
    writesInFlight += 1;
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      writesInFlight -= 1;
      if (writesInFlight === 0) whenDrained.splice(0).forEach((resolve) => resolve());
    };
    res.once('finish', finished);
    res.once('close', finished);
    dynalite(req, res);
  };

  const transact = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await text(req);
    while (gate) await gate;
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    try {
      if (writesInFlight > 0) await new Promise<void>((resolve) => whenDrained.push(resolve));
      const call = (operation: string, input: Item) => callDynalite(server, agent, req, internal, operation, input);
      send(res, await runTransaction(body, call));
    } catch (error) {
      send(
        res,
        error instanceof Refusal
          ? error.reply
          : {
              status: 500,
              body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) },
            },
      );
    } finally {
      gate = undefined;
      open();
    }
  };

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    if (req.headers['x-local-transaction'] === internal) return dynalite(req, res);
    if (operation === 'TransactWriteItems') return void transact(req, res);
    if (WRITES.has(operation)) return void passWrite(req, res);
    dynalite(req, res);
  });
  return server;
}

type Call = (operation: string, input: Item) => Promise<Reply>;

interface Action {
  kind: 'Put' | 'Update' | 'Delete';
  request: Item;
  tableName: string;
  key: Item;
  before: Item | undefined;
}

async function runTransaction(text: string, call: Call): Promise<Reply> {
  let input: { TransactItems?: unknown };
  try {
    input = JSON.parse(text) as { TransactItems?: unknown };
  } catch {
    throw new Refusal({ status: 400, body: { __type: 'com.amazon.coral.service#SerializationException' } });
  }
  const elements = input.TransactItems;
  if (!Array.isArray(elements) || elements.length === 0 || elements.length > MAX_ACTIONS) {
    throw validation(`TransactItems must hold 1 to ${MAX_ACTIONS} actions`);
  }
  const actions: Action[] = [];
  const seen = new Set<string>();
  for (const element of elements as Item[]) {
    const kinds = Object.keys(element ?? {});
    const kind = kinds[0];
    if (kinds.length !== 1 || (kind !== 'Put' && kind !== 'Update' && kind !== 'Delete')) {
      throw validation(
        'Each of TransactItems must be exactly one of Put, Update or Delete (the local store does not implement ConditionCheck)',
      );
    }
    const request = element[kind] as Item;
    const tableName = String(request.TableName);
    const key = kind === 'Put' ? await keyOf(call, tableName, request.Item as Item) : (request.Key as Item);
    const identity = `${tableName}\n${JSON.stringify(key)}`;
    if (seen.has(identity)) throw validation('Transaction request cannot include multiple operations on one item');
    seen.add(identity);
    actions.push({ kind, request, tableName, key, before: await currentImage(call, tableName, key) });
  }

  const applied: Action[] = [];
  for (const [index, action] of actions.entries()) {
    const reply = await call(`${action.kind}Item`, action.request);
    if (reply.status === 200) {
      applied.push(action);
      continue;
    }
    await restore(call, applied);
    if (String(reply.body.__type).endsWith('ConditionalCheckFailedException')) throw cancelled(actions.length, index);
    throw new Refusal(reply);
  }
  return { status: 200, body: {} };
}

/** The item's key attributes, from the table's key schema (DescribeTable). */
async function keyOf(call: Call, tableName: string, item: Item): Promise<Item> {
  const reply = await call('DescribeTable', { TableName: tableName });
  if (reply.status !== 200) throw new Refusal(reply);
  const schema = (reply.body.Table as { KeySchema: { AttributeName: string }[] }).KeySchema;
  return Object.fromEntries(schema.map(({ AttributeName }) => [AttributeName, item?.[AttributeName]]));
}

async function currentImage(call: Call, tableName: string, key: Item): Promise<Item | undefined> {
  const reply = await call('GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
  if (reply.status !== 200) throw new Refusal(reply);
  return reply.body.Item as Item | undefined;
}

/** Puts back the images of the actions applied, last first. */
async function restore(call: Call, applied: readonly Action[]): Promise<void> {
  for (const action of [...applied].reverse()) {
    const reply = action.before
      ? await call('PutItem', { TableName: action.tableName, Item: action.before })
      : await call('DeleteItem', { TableName: action.tableName, Key: action.key });
    if (reply.status !== 200)
      throw new Error(
        `could not undo a partly applied transaction on ${action.tableName}: ${JSON.stringify(reply.body)}`,
      );
  }
}

function cancelled(count: number, failed: number): Refusal {
  const reasons = Array.from({ length: count }, (_, i) =>
    i === failed ? { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } : { Code: 'None' },
  );
  return new Refusal({
    status: 400,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
      CancellationReasons: reasons,
    },
  });
}

function validation(message: string): Refusal {
  return new Refusal({ status: 400, body: { __type: 'com.amazon.coral.validate#ValidationException', message } });
}

/** One call to dynalite over loopback, signed as the transaction was (dynalite checks the headers' shape only). */
async function callDynalite(
  server: http.Server,
  agent: http.Agent,
  original: http.IncomingMessage,
  internal: string,
  operation: string,
  input: Item,
): Promise<Reply> {
  const { address, port } = server.address() as AddressInfo;
  const host = address === '::' || address === '0.0.0.0' ? '127.0.0.1' : address;
  const body = JSON.stringify(input);
  const headers: http.OutgoingHttpHeaders = {
    'content-type': JSON_1_0,
    'content-length': Buffer.byteLength(body),
    'x-amz-target': `DynamoDB_20120810.${operation}`,
    authorization: original.headers.authorization,
    'x-amz-date': original.headers['x-amz-date'],
    'x-local-transaction': internal,
  };
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.request({ host, port, method: 'POST', path: '/', headers, agent }, resolve).on('error', reject).end(body);
  });
  const answer = await text(response);
  return { status: response.statusCode ?? 0, body: answer === '' ? {} : (JSON.parse(answer) as Item) };
}

function send(res: http.ServerResponse, reply: Reply): void {
  const body = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'Content-Type': JSON_1_0,
    'Content-Length': Buffer.byteLength(body),
    'x-amzn-RequestId': randomUUID(),
  });
  res.end(body);
}
