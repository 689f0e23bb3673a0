import * as net from 'node:net';

/**
 * One HTTP exchange over a bare TCP socket: the bytes are written exactly as given (Node's http client
 * refuses spaces and control characters in a path, control characters or non-Latin-1 text in a header, an
 * unknown method spelling, a missing Host header...), so the server really receives them. The request should
 * ask for `Connection: close`; the answer is read until the server closes the socket or a complete response
 * (by Content-Length) has arrived.
 */
export interface RawSocketResponse {
  /** 0 when the server closed the connection without answering. */
  readonly status: number;
  readonly reason: string;
  /** Header names lower-cased; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Everything the server sent, as Latin-1 text, for failure messages. */
  readonly raw: string;
}

export function rawExchange(
  baseUrl: string,
  request: Buffer | string,
  options: { timeoutMs?: number; headOnly?: boolean } = {},
): Promise<RawSocketResponse> {
  const url = new URL(baseUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise<RawSocketResponse>((resolve, reject) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(parseResponse(Buffer.concat(chunks), options.headOnly ?? false));
    };
    const timer = setTimeout(
      () =>
        finish(
          new Error(
            `no complete answer within ${timeoutMs} ms; received so far: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 500))}`,
          ),
        ),
      timeoutMs,
    );
    socket.on('connect', () => socket.write(typeof request === 'string' ? Buffer.from(request, 'latin1') : request));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (isComplete(Buffer.concat(chunks), options.headOnly ?? false)) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    // A reset after the server answered and closed is normal (it may close while we still write a body).
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? finish() : finish(error),
    );
  });
}

function headerEnd(data: Buffer): number {
  return data.indexOf('\r\n\r\n');
}

/** A final (non-1xx) response whose body has fully arrived. */
function isComplete(data: Buffer, headOnly: boolean): boolean {
  let start = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', start);
    if (end < 0) return false;
    const head = data.subarray(start, end).toString('latin1');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
    if (status >= 100 && status < 200) {
      start = end + 4;
      continue;
    }
    if (headOnly || status === 204 || status === 304) return true;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    return length !== null && data.length - (end + 4) >= Number(length[1]);
  }
}

function parseResponse(data: Buffer, headOnly: boolean): RawSocketResponse {
  const raw = data.toString('latin1');
  let rest = data;
  for (;;) {
    const end = headerEnd(rest);
    if (end < 0) return { status: 0, reason: '', headers: {}, body: '', raw };
    const head = rest.subarray(0, end).toString('latin1');
    const [statusLine, ...lines] = head.split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine ?? '');
    const status = Number(match?.[1] ?? 0);
    if (status >= 100 && status < 200) {
      rest = rest.subarray(end + 4);
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let body = rest.subarray(end + 4);
    if (headOnly) body = Buffer.alloc(0);
    else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
    return { status, reason: match?.[2] ?? '', headers, body: body.toString('utf8'), raw };
  }
}
