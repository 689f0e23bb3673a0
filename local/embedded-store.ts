import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

export async function startEmbeddedStore(options: { host?: string; port?: number; dataDir?: string } = {}): Promise<EmbeddedStore> {
  // dynalite ships no type declarations.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dynalite = require('dynalite') as (opts: Record<string, unknown>) => Server;
  const server = addTransactions(dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(options.dataDir ? { path: options.dataDir } : {}) }));
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    interrupt: stopListening,
    resume: () => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve())),
  };
}
