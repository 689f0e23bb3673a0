import * as http from 'node:http';

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
    return new Promise<KeepAliveResponse>((resolve, reject) => {
      const req = http.request(
        {
          hostname: this.base.hostname.replace(/^\[|\]$/g, ''),
          port: this.base.port,
          method,
          path: target,
          headers: flat as unknown as http.OutgoingHttpHeaders,
          agent: this.agent,
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`${method} ${target.slice(0, 200)} timed out after ${timeoutMs} ms`)),
      );
      req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      req.end(body);
    });
  }
}
