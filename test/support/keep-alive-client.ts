import * as http from 'node:http';
import { send } from './http-client';

export interface KeepAliveResponse {
  readonly status: number;
  /** Header names lower-cased by Node. */
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A small HTTP/1.1 client on one keep-alive agent, so thousands of requests do not each pay for a TCP
 * handshake. Headers are [name, value] pairs sent exactly as given (a header may be repeated and keeps the
 * case of its name); `target` is sent as the request target unchanged, so the caller controls the
 * percent-encoding. A request that fails because the server had already closed a reused idle socket is
 * retried once on a fresh one (the race Node's documentation describes for `reusedSocket`).
 */
export class KeepAliveClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(baseUrl: string, maxSockets = 4) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 1000, timeout: 4_000 });
  }

  async request(
    method: string,
    target: string,
    headers: readonly (readonly [string, string])[] = [],
    body?: Buffer | string,
    timeoutMs = 15_000,
  ): Promise<KeepAliveResponse> {
    try {
      return await this.once(method, target, headers, body, timeoutMs);
    } catch (error) {
      if ((error as { reusedSocket?: boolean }).reusedSocket)
        return this.once(method, target, headers, body, timeoutMs);
      throw error;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private once(
    method: string,
    target: string,
    headers: readonly (readonly [string, string])[],
    body: Buffer | string | undefined,
    timeoutMs: number,
  ): Promise<KeepAliveResponse> {
    const flat: string[] = [];
    if (!headers.some(([name]) => name.toLowerCase() === 'host')) flat.push('Host', this.base.host);
    for (const [name, value] of headers) flat.push(name, value);
    if (body !== undefined) flat.push('Content-Length', String(Buffer.byteLength(body)));
    const options = {
      hostname: this.base.hostname.replace(/^\[|\]$/g, ''),
      port: this.base.port,
      method,
      path: target,
      agent: this.agent,
    };
    return send(http, options, flat, body, timeoutMs);
  }
}
