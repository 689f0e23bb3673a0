/**
 * The embedded store of `npm start` (embedded-store/embedded-store.ts) closes as soon as nothing is in flight. The
 * functions' SDK clients keep their connections to it open between requests, and a function may still be
 * reading when the gateway stops: closing must answer that request and then end its connection, not wait for
 * Node's 5 s keep-alive timeout (it did: `npm run soak` took 6 s to exit after SIGTERM).
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { once } from 'node:events';
import * as net from 'node:net';
import { startEmbeddedStore, type EmbeddedStore } from '../../embedded-store/embedded-store';
import { localDynamoDbClientConfig } from '../../functions/runtime';

const client = (endpoint: string) => new DynamoDBClient({ ...localDynamoDbClientConfig(endpoint), maxAttempts: 1 });

/** Whether the store closed before Node's keep-alive timeout (5 s) could have ended its connections. */
const closedBeforeKeepAliveTimeout = (closing: Promise<void>) =>
  Promise.race([closing.then(() => true), new Promise<false>((resolve) => setTimeout(resolve, 4_000, false).unref())]);

describe('closing the embedded store', () => {
  let store: EmbeddedStore;
  let clients: DynamoDBClient[];
  beforeEach(async () => {
    store = await startEmbeddedStore();
    clients = [client(store.endpoint), client(store.endpoint)];
  });
  afterEach(() => clients.forEach((c) => c.destroy()));

  it('ends the connections kept open between requests at once', async () => {
    await Promise.all(clients.flatMap((c) => Array.from({ length: 4 }, () => c.send(new ListTablesCommand({})))));
    expect(await closedBeforeKeepAliveTimeout(store.close())).toBe(true);
  });

  it('answers a request in flight when it starts closing, then ends that connection at once', async () => {
    // A request whose body has not all arrived is in flight however fast the store is.
    const socket = net.connect(Number(new URL(store.endpoint).port), '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const ended = once(socket, 'end');
    socket.write(
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 2\r\n\r\n{',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = store.close();
    socket.write('}');
    expect(await closedBeforeKeepAliveTimeout(closing)).toBe(true);
    await ended;
    // Answered (dynalite refuses the unsigned request), and the connection ended by the store.
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    socket.destroy();
  });
});
