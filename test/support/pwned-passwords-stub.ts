import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Have I Been Pwned's range API on loopback (GET /range/<5 hex>, `SUFFIX:COUNT` lines joined
 * by CRLF, as the real one answers), so no test reaches the internet. It records every request as it
 * arrived, and can be told to misbehave: never answer, stall mid-body, answer 5xx, a redirect or a body
 * that is not a range.
 */
export type StubBehaviour =
  | { readonly kind: 'range' }
  | { readonly kind: 'hang' }
  | { readonly kind: 'stall-body' }
  | { readonly kind: 'status'; readonly status: number }
  | { readonly kind: 'body'; readonly body: string };

export interface StubRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** The upper-case hex SHA-1 of a password's UTF-8, as HIBP indexes it. */
export function sha1Hex(password: string): string {
  return createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
}

/** A deterministic suffix that is no password's (for the padding and filler lines). */
const filler = (prefix: string, n: number): string =>
  createHash('sha1').update(`${prefix}:${n}`).digest('hex').toUpperCase().slice(5);

export class PwnedPasswordsStub {
  readonly requests: StubRequest[] = [];
  behaviour: StubBehaviour = { kind: 'range' };
  /** Full hashes and their counts; a count of 0 is a padding line that happens to carry the hash's suffix. */
  private readonly entries = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<PwnedPasswordsStub> {
    let stub: PwnedPasswordsStub | undefined;
    const server = createServer((req, res) => {
      stub!.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const behaviour = stub!.behaviour;
      if (behaviour.kind === 'hang') return;
      if (behaviour.kind === 'stall-body') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write(`${filler('stall', 0)}:1\r\n`);
        return;
      }
      if (behaviour.kind === 'status') {
        res.writeHead(
          behaviour.status,
          behaviour.status >= 300 && behaviour.status < 400 ? { Location: '/elsewhere' } : {},
        );
        res.end('Service Unavailable');
        return;
      }
      if (behaviour.kind === 'body') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end(behaviour.body);
        return;
      }
      const match = /^\/range\/([0-9A-F]{5})$/.exec(req.url ?? '');
      if (!match) {
        res.writeHead(400);
        res.end('The hash prefix was not in a valid format');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(stub!.range(match[1]!, req.headers['add-padding'] === 'true'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stub = new PwnedPasswordsStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return stub;
  }

  /** Makes `password` a breached one, seen `count` times (0: only a padding line carries its suffix). */
  add(password: string, count: number): void {
    this.entries.set(sha1Hex(password), count);
  }

  /** The body of one range: the prefix's entries among a few others, and padding lines (count 0) when asked for. */
  private range(prefix: string, padding: boolean): string {
    const lines = [0, 1, 2].map((n) => `${filler(prefix, n)}:${n + 1}`);
    for (const [hash, count] of this.entries) if (hash.startsWith(prefix)) lines.push(`${hash.slice(5)}:${count}`);
    if (padding) lines.push(...[3, 4, 5].map((n) => `${filler(prefix, n)}:0`));
    return lines.join('\r\n');
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
