import * as http from 'node:http';
import * as https from 'node:https';

export interface RawResponse {
  readonly status: number;
  /** Header names lower-cased by Node; a repeated header is joined or listed as Node does. */
  readonly headers: http.IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  readonly body: string;
}

/**
 * One HTTP request with headers sent exactly as given: `headers` is a list of [name, value] pairs, so a
 * header may be repeated and keeps the case of its name (fetch would merge and lower-case them). `target`
 * is appended to the base URL's path as it is, so the caller controls the percent-encoding of the query.
 * A `body` is sent with its Content-Length unless the headers give one.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  target: string,
  headers: readonly (readonly [string, string])[] = [],
  timeoutMs = 20_000,
  body?: string | Buffer,
): Promise<RawResponse> {
  const base = new URL(baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  const flat: string[] = [];
  // With headers given as an array Node adds no Host header, and HTTP/1.1 servers refuse a request without one.
  if (!headers.some(([name]) => name.toLowerCase() === 'host')) flat.push('Host', base.host);
  for (const [name, value] of headers) flat.push(name, value);
  if (body !== undefined && !headers.some(([name]) => name.toLowerCase() === 'content-length'))
    flat.push('Content-Length', String(Buffer.byteLength(body)));
  const options: http.RequestOptions = {
    protocol: base.protocol,
    hostname: base.hostname.replace(/^\[|\]$/g, ''),
    port: base.port || undefined,
    method,
    path: `${base.pathname.replace(/\/+$/, '')}${target}`,
    agent: false,
  };
  return send(transport, options, flat, body, timeoutMs);
}

/**
 * Sends one request, its headers already flattened into name, value, name, ..., and collects the whole answer.
 * A failed request's error carries `reusedSocket`, so that a keep-alive client can retry the race of a server
 * closing an idle socket as it is reused.
 */
export function send(
  transport: typeof http | typeof https,
  options: http.RequestOptions,
  flatHeaders: readonly string[],
  body: string | Buffer | undefined,
  timeoutMs: number,
): Promise<RawResponse> {
  const { method, path } = options;
  return new Promise<RawResponse>((resolve, reject) => {
    const req = transport.request(
      { ...options, headers: flatHeaders as unknown as http.OutgoingHttpHeaders, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path?.slice(0, 200)} timed out after ${timeoutMs} ms`)));
    req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}

/** POST /api/passwordstrength/evaluate with a strength key and a JSON body, as a client sends it. */
export function evaluateRequest(baseUrl: string, apiKey: string, body: unknown): Promise<RawResponse> {
  return rawRequest(
    baseUrl,
    'POST',
    '/api/passwordstrength/evaluate',
    [
      ['APIKey', apiKey],
      ['Content-Type', 'application/json'],
    ],
    20_000,
    JSON.stringify(body),
  );
}
