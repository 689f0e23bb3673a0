import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { addTransactions } from './transactions';

/** dynalite: an embedded DynamoDB-compatible server, in memory or persisted under `dataDir`, with TransactWriteItems added (transactions.ts). */
export interface EmbeddedStore {
  readonly endpoint: string;
  close(): Promise<void>;
  /** An outage, for the soak: stops listening and drops every open connection, keeping the data. */
  interrupt(): Promise<void>;
  /** The end of an outage: listens again on the same port. dynalite reopens its store: the data survives in a `dataDir` only. */
  resume(): Promise<void>;
}

export async function startEmbeddedStore(
  options: { host?: string; port?: number; dataDir?: string } = {},
): Promise<EmbeddedStore> {
  // dynalite ships no type declarations.
  const dynalite = require('dynalite') as (opts: Record<string, unknown>) => Server;
  const server = addTransactions(
    dynalite({
      createTableMs: 0,
      deleteTableMs: 0,
      updateTableMs: 0,
      ...(options.dataDir ? { path: options.dataDir } : {}),
    }),
  );
  // server.close() ends only the connections idle at that moment; one whose request is still in flight (a
  // function reading while the gateway stops) would keep the store open for Node's 5 s keep-alive timeout
  // after its answer. So once closing, each connection ends as soon as it has no request in flight.
  const inFlight = new Map<Socket, number>();
  let closing = false;
  const endIfIdle = (socket: Socket) => {
    if (closing && inFlight.get(socket) === 0) socket.end();
  };
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      if (!inFlight.has(socket)) return;
      inFlight.set(socket, inFlight.get(socket)! - 1);
      endIfIdle(socket);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    endpoint: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        for (const socket of inFlight.keys()) endIfIdle(socket);
      }),
    interrupt: stopListening,
    resume: () =>
      new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve())),
  };
}
