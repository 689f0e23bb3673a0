import type { Server } from 'node:http';
import * as net from 'node:net';

/**
 * dynalite on loopback that a test can stop and start again on the same port. With `path` its data lives in
 * a LevelDB folder, so it survives the restart (dynalite closes the database on close and reopens it on the
 * next listen); without, it is in memory and a restart starts empty.
 */
export interface DynaliteServer {
  readonly endpoint: string;
  readonly port: number;
  /** Stops listening and drops every open connection at once, as a crashed endpoint would. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

export async function startDynalite(options: { path?: string } = {}): Promise<DynaliteServer> {
  // dynalite ships no type declarations.
  const dynalite = require('dynalite') as (opts: Record<string, unknown>) => Server;
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.path ? { path: options.path } : {}),
  });
  await listen(server, 0);
  const port = (server.address() as net.AddressInfo).port;
  let listening = true;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      if (!listening) return;
      listening = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
    async restart() {
      if (listening) return;
      await listen(server, port);
      listening = true;
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * A TCP server that accepts connections and never answers: what a hung endpoint (or a black-holing network
 * path past the handshake) looks like to a client. `close` drops every connection it holds.
 */
export interface BlackHole {
  readonly port: number;
  readonly connections: () => number;
  close(): Promise<void>;
}

export async function startBlackHole(port = 0): Promise<BlackHole> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => accepted,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** Whether something accepts TCP connections on the port. */
export function isListening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
