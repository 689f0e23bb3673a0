/**
 * Graceful shutdown of the local gateway (`tsx local/start.ts`, what `npm start` runs): on SIGTERM it stops
 * accepting connections, finishes the requests in flight, closes the embedded store and exits 0.
 *
 * Each test spawns its own gateway (policy and authorizer caches off, so every request does real work on
 * the embedded store and many are in flight at once):
 *   - requests in flight on fresh connections (each connection open, its request written, before SIGTERM)
 *     all get their 200 and the right body;
 *   - requests in flight on keep-alive connections that have already served a request all complete;
 *     meanwhile a new connection is refused although the process is still running. "In flight" is made
 *     certain, not likely: each request carries Expect: 100-continue, and SIGTERM is sent only once the
 *     gateway has answered every one with 100 Continue (it has parsed them and waits for their bodies);
 *   - a client that stalls in the middle of its request cannot keep the gateway from exiting;
 * and every time: exit code 0 (start.ts exits 0 only once its stop() has closed the gateway and then the
 * embedded store), with neither the gateway's port nor the store's port accepting connections afterwards.
 *
 * Run: npx jest test/reliability/graceful-shutdown
 */
import * as net from 'node:net';
import { isListening } from '../support/dynalite-server';
import { spawnLocalService, type SpawnedService } from '../support/local-service';
import { rawExchange } from '../support/raw-socket';
import { LOCAL_CREDENTIALS, SEED_STRENGTH } from '../support/seed-reference';
import { LOCAL_ENV } from '../../local/local-environment';
import { ENV } from '../../functions/runtime';

jest.setTimeout(90_000);

/** How long a stop may take once SIGTERM is sent: in-flight work here is milliseconds, keep-alive 5 s. */
const SHUTDOWN_DEADLINE_MS = 12_000;
const STRENGTH_KEY = LOCAL_CREDENTIALS.passwordStrengthAPIKey;
const LIST = `GET /api/passwordstrength HTTP/1.1\r\nHost: 127.0.0.1\r\nAPIKey: ${STRENGTH_KEY}\r\nConnection: close\r\n\r\n`;
const LIST_BODY = JSON.stringify(SEED_STRENGTH.policies);

let service: SpawnedService | undefined;

async function start(): Promise<{
  service: SpawnedService;
  port: number;
  storePort: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>;
  sigterm: () => void;
}> {
  service = await spawnLocalService({ env: { [LOCAL_ENV.authorizerCacheTtl]: '0', [ENV.policyCacheTtl]: '0' } });
  const port = Number(new URL(service.url).port);
  const storePort = Number(/DynamoDB endpoint[^:]*: http:\/\/127\.0\.0\.1:(\d+)/.exec(service.output())?.[1]);
  expect(storePort).toBeGreaterThan(0);
  let sentAt = 0;
  const child = service.child;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, afterMs: Date.now() - sentAt })),
  );
  return {
    service,
    port,
    storePort,
    exited,
    sigterm: () => {
      sentAt = Date.now();
      child.kill('SIGTERM');
    },
  };
}

/** Waits for the exit, at most SHUTDOWN_DEADLINE_MS; a gateway still running then is killed and reported. */
async function exitWithin(
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>,
  what: string,
) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SHUTDOWN_DEADLINE_MS)));
  const outcome = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (outcome === 'late')
    throw new Error(`${what}: the gateway was still running ${SHUTDOWN_DEADLINE_MS} ms after SIGTERM`);
  return outcome;
}

afterEach(async () => {
  // Whatever happened, leave no gateway behind (stop() ends with SIGKILL if SIGTERM is not enough).
  if (service && service.child.exitCode === null && service.child.signalCode === null) await service.stop(2_000);
  service = undefined;
});

/** Opens a connection and resolves once it is established (the gateway has it, or will accept it at once). */
function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads one whole response from a socket that asked for Connection: close. */
function readResponse(socket: net.Socket): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    socket.once('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const head = text.indexOf('\r\n\r\n');
      if (head < 0)
        return resolve({ error: text === '' ? 'closed without a response' : `incomplete: ${text.slice(0, 100)}` });
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.slice(head + 4) });
    });
  });
}

describe('graceful shutdown on SIGTERM', () => {
  test('requests in flight on fresh connections all complete with 200; then the gateway and its store are closed and it exits 0', async () => {
    const { port, storePort, exited, sigterm } = await start();
    const CONNECTIONS = 40;
    const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(port)));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the gateway has accepted them all by now

    let answered = 0;
    let answeredBeforeSigterm = -1;
    const responses = sockets.map((socket) =>
      readResponse(socket).then((response) => {
        answered += 1;
        if (answeredBeforeSigterm < 0) {
          answeredBeforeSigterm = answered;
          sigterm(); // at the first response: the others are in flight
        }
        return response;
      }),
    );
    for (const socket of sockets) socket.write(LIST);

    const results = await Promise.all(responses);
    const exit = await exitWithin(exited, 'after in-flight requests on fresh connections');

    expect(answeredBeforeSigterm).toBe(1);
    const summary = results.map((r) =>
      'error' in r ? r.error : r.status === 200 && r.body === LIST_BODY ? 'ok' : `${r.status}: ${r.body.slice(0, 80)}`,
    );
    expect(summary.filter((s) => s !== 'ok')).toEqual([]);
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(await isListening(port)).toBe(false);
    expect(await isListening(storePort)).toBe(false);
  });

  test('requests in flight on keep-alive connections complete; a new connection is refused while they do; exit 0', async () => {
    const { service: gateway, port, storePort, exited, sigterm } = await start();
    const connections = await Promise.all(Array.from({ length: 12 }, () => KeepAliveConnection.open(port)));
    try {
      // Every connection has served one request, and is kept alive (idle: the case a shutdown can get wrong).
      for (const c of connections)
        c.send(`GET /api/passwordstrength HTTP/1.1\r\nHost: 127.0.0.1\r\nAPIKey: ${STRENGTH_KEY}\r\n\r\n`);
      for (const r of await Promise.all(connections.map((c) => c.response()))) expect(r.status).toBe(200);

      // A second request on each, whose headers the gateway has provably parsed: it answers "100 Continue"
      // (Expect: 100-continue) and then waits for the body. Only then SIGTERM, so every one is in flight.
      const body = JSON.stringify({ Password: 'Velvet-Orchard-Comet-58?' });
      for (const c of connections) {
        c.send(
          `POST /api/passwordstrength/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\nAPIKey: ${STRENGTH_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
        );
      }
      for (const r of await Promise.all(connections.map((c) => c.response()))) expect(r.status).toBe(100);
      sigterm();

      // Stopped accepting: a new connection is refused while the process still has requests in flight.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const stillRunning = gateway.child.exitCode === null;
      const refused = await rawExchange(gateway.url, LIST, { timeoutMs: 3_000 }).then(
        (r) => `answered ${r.status}`,
        (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? 'refused' : error.message),
      );
      expect({ stillRunning, refused }).toEqual({ stillRunning: true, refused: 'refused' });

      for (const c of connections) c.send(body);
      const results = await Promise.all(connections.map((c) => c.response()));
      expect(results.map((r) => [r.status, r.headers.connection, JSON.parse(r.body).PasswordStrengthPolicyID])).toEqual(
        results.map(() => [200, 'close', 1]),
      );

      const exit = await exitWithin(exited, 'after in-flight requests on keep-alive connections');
      expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
      console.log(
        `graceful shutdown with ${connections.length} keep-alive connections in flight: exit 0 after ${exit.afterMs} ms`,
      );
      expect(await isListening(port)).toBe(false);
      expect(await isListening(storePort)).toBe(false);
    } finally {
      for (const c of connections) c.close();
    }
  });

  test('a client stalled in the middle of its request does not keep the gateway from exiting', async () => {
    const { port, storePort, exited, sigterm } = await start();
    const stalled = await connect(port);
    stalled.on('error', () => undefined);
    stalled.write('GET /api/passwordstrength HTTP/1.1\r\nHost: 127.0.0.1\r\nAPIKey: '); // and nothing more
    await new Promise((resolve) => setTimeout(resolve, 200));
    sigterm();
    try {
      const exit = await exitWithin(exited, 'with a client stalled mid-request');
      expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
      expect(await isListening(port)).toBe(false);
      expect(await isListening(storePort)).toBe(false);
    } finally {
      stalled.destroy();
    }
  });
});

/** One keep-alive HTTP/1.1 connection over a bare socket: writes requests as given, reads responses in order. */
class KeepAliveConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  private closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
    socket.on('error', () => undefined);
  }

  static async open(port: number): Promise<KeepAliveConnection> {
    return new KeepAliveConnection(await connect(port));
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** The next response (an interim 100 Continue counts as one), read by its Content-Length. */
  async response(): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    for (;;) {
      const head = this.buffer.indexOf('\r\n\r\n');
      if (head >= 0) {
        const lines = this.buffer.subarray(0, head).toString('latin1').split('\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
        const headers = Object.fromEntries(
          lines
            .slice(1)
            .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= head + 4 + length) {
          const body = this.buffer.subarray(head + 4, head + 4 + length).toString('utf8');
          this.buffer = this.buffer.subarray(head + 4 + length);
          return { status, headers, body };
        }
      }
      if (this.closed)
        throw new Error(
          `connection closed before a whole response: ${JSON.stringify(this.buffer.toString('latin1').slice(0, 200))}`,
        );
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}
