import type { APIGatewayProxyResult } from 'aws-lambda';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { allowHeader, errorResponse, methodNotAllowedPhrase, PHRASES, REASON_PHRASES, type ErrorStatus, type ProxyHandler } from '../functions/http';
import { resourcePaths, ROUTE_PHRASES, ROUTES, type ResourcePath } from '../functions/routes';
import { authorizerEvent, methodArn, newRequestId, proxyEvent, type ParsedRequest } from './api-gateway-events';
import type { AuthorizerEmulation } from './authorizer-emulation';
import type { UsagePlanEmulation } from './usage-plan-emulation';

export interface GatewayOptions {
  /** The handler of each function that serves routes, by its id in functions/routes.ts. */
  readonly functions: Readonly<Record<string, ProxyHandler>>;
  readonly authorizer: AuthorizerEmulation;
  /** Per-credential usage plans (EMULATE_USAGE_PLANS=1); absent, no plan limits a request. */
  readonly usagePlans?: UsagePlanEmulation;
  /** Files served as they are, to GET, with no credentials, by request path (the API description, the docs page). */
  readonly site?: ReadonlyMap<string, SiteFile>;
  /** Called with one line per request, for the console. */
  readonly log?: (line: string) => void;
}

/** A file of the site: none of its paths is an API resource path, and none needs credentials. */
export interface SiteFile {
  readonly contentType: string;
  readonly body: Buffer;
}

/** API Gateway's REST payload limit: a larger request body is a 413 before anything runs. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

/**
 * A local stand-in for the REST API of the stack, built from the same route table: unknown paths are 404,
 * other methods than a path's own are 405 with `Allow` naming them, the body is read whole (up to API
 * Gateway's payload limit), the authorizer runs first with a REQUEST event, and the handler gets a proxy
 * event carrying the authorizer context and the body. Beside the API, the site's files (the API description,
 * the docs page) are answered to GET with no credentials; none may sit on a path of the API.
 */
export function createGateway(options: GatewayOptions): Server {
  const routes = new Map(resourcePaths().map((r) => [r.path, r]));
  for (const sitePath of options.site?.keys() ?? []) {
    if (routes.has(resourcePath(sitePath))) throw new Error(`${sitePath} is both a file of the site and an API resource`);
  }
  const queryNames = loggableQueryNames();
  // A missing Host is answered in handle(), in the envelope, instead of by Node's bare 400.
  const { log } = options;
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    const started = log ? process.hrtime.bigint() : 0n;
    handle(req, routes, options)
      .catch(() => errorResponse(500, PHRASES.internal))
      .then((result) => {
        // Once the server is closing, keep-alive connections end with this response so shutdown is prompt;
        // so does a request whose body was not read to its end (what is left of it cannot be skipped).
        send(res, result, !server.listening || !req.complete);
        log?.(`${req.method} ${loggedTarget(req.url ?? '/', queryNames)} -> ${result.statusCode} (${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms)`);
      });
  });
  // What Node would otherwise answer itself, with a bare body or none, still gets the envelope.
  server.on('clientError', (error: Error & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const head = error.rawPacket?.toString('latin1').startsWith('HEAD ') ?? false;
    rawReply(socket, errorResponse(400, 'The request is not valid HTTP or its headers are too large.'), !head);
  });
  server.on('checkExpectation', (_req, res) => send(res, errorResponse(417, PHRASES.expectation), true));
  server.on('connect', (_req, socket: Duplex) => rawReply(socket, errorResponse(405, methodNotAllowedPhrase(['GET']), { Allow: allowHeader(['GET']) }), true));
  return server;
}

/** A whole HTTP/1.1 response written straight to a socket that Node's response object does not own. */
function rawReply(socket: Duplex, result: APIGatewayProxyResult, withBody: boolean): void {
  const headers = Object.entries({ ...result.headers, 'Content-Length': Buffer.byteLength(result.body), Connection: 'close' }).map(([k, v]) => `${k}: ${v}\r\n`);
  const reason = REASON_PHRASES[result.statusCode as ErrorStatus];
  socket.end(`HTTP/1.1 ${result.statusCode} ${reason}\r\n${headers.join('')}\r\n${withBody ? result.body : ''}`);
}

async function handle(req: IncomingMessage, routes: Map<string, ResourcePath>, options: GatewayOptions): Promise<APIGatewayProxyResult> {
  if (req.httpVersion === '1.1' && req.headers.host === undefined) return errorResponse(400, 'An HTTP/1.1 request needs a Host header.');
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
  const path = resourcePath(rawPath);
  // API Gateway has the whole request before it routes: read the body first (bounded), whatever the path,
  // so every answer leaves the connection clean for its next request.
  const reading = readBody(req, MAX_PAYLOAD_BYTES);
  const body = reading === null ? null : await reading;
  if (body === 'too-large') return errorResponse(413, PHRASES.tooLarge);
  const site = options.site && siteAnswer(options.site, req.method, rawPath, path, queryStart < 0 ? '' : url.slice(queryStart));
  if (site) return site;
  const route = routes.get(path);
  if (!route) return errorResponse(404, ROUTE_PHRASES.notFound);
  const method = route.methods.find((m) => m === req.method);
  if (!method) return errorResponse(405, methodNotAllowedPhrase(route.methods), { Allow: allowHeader(route.methods) });

  const query = parseQuery(queryStart < 0 ? '' : url.slice(queryStart + 1), route.lenientQuery === true);
  if (query === 'invalid') return errorResponse(400, 'The query string has invalid percent-encoding; encode "%" as %25.');
  const request: ParsedRequest = { method, path: rawPath, body, resource: route.path, ...headerMaps(req.rawHeaders), query, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' };
  const requestId = newRequestId();

  const outcome = await options.authorizer.authorize(route.credentials, { multiValueHeaders: request.multiValueHeaders, methodArn: methodArn(request) }, () =>
    authorizerEvent(request, requestId),
  );
  if (outcome.status === 401) return errorResponse(401, ROUTE_PHRASES.unauthorized);
  if (outcome.status === 403) return errorResponse(403, outcome.reason);
  if (outcome.status === 503) return errorResponse(503, PHRASES.credentialsUnavailable);
  // API Gateway meters the key the authorizer named against its usage plan: over the plan, 429.
  if (options.usagePlans && outcome.usageIdentifierKey !== undefined && !options.usagePlans.admit(outcome.usageIdentifierKey, outcome.context.usagePlan)) {
    return errorResponse(429, PHRASES.throttled);
  }

  const handler = options.functions[route.function.id];
  if (!handler) return errorResponse(500, PHRASES.internal);
  const result = await handler(proxyEvent(request, requestId, outcome.context));
  return { ...result, headers: { ...result.headers, 'x-amzn-RequestId': requestId } };
}

const GET_ONLY = ['GET'];

/**
 * The answer of the site for a path, or undefined when the path is none of its. A file is answered to GET,
 * with or without one trailing slash as a resource is, and any other method is a 405, as on a resource. A
 * folder asked for without its slash (`/docs`) is redirected to it (`/docs/`), so that the page's relative
 * links resolve inside the folder.
 */
function siteAnswer(site: ReadonlyMap<string, SiteFile>, method: string | undefined, rawPath: string, path: string, query: string): APIGatewayProxyResult | undefined {
  const file = site.get(rawPath) ?? site.get(path);
  if (!file && !site.has(`${rawPath}/`)) return undefined;
  if (method !== 'GET') return errorResponse(405, methodNotAllowedPhrase(GET_ONLY), { Allow: allowHeader(GET_ONLY) });
  if (!file) return { statusCode: 301, headers: { Location: `${rawPath}/${query}` }, body: '' };
  return {
    statusCode: 200,
    // no-cache: a browser asks again each time, so a restarted gateway's document is never stale.
    headers: { 'Content-Type': file.contentType, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' },
    body: file.body.toString('base64'),
    isBase64Encoded: true,
  };
}

/** API Gateway matches a resource with or without one trailing slash. */
function resourcePath(rawPath: string): string {
  return rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
}

/** Shown in place of a query parameter name that the route does not take. */
const UNSHOWN_NAME = '[other]';

/** Each resource path's query parameter names, lower-cased: the names a request line may show. */
function loggableQueryNames(): Map<string, Set<string>> {
  const byPath = new Map<string, Set<string>>();
  for (const route of ROUTES) {
    const names = byPath.get(route.path) ?? new Set<string>();
    for (const name of route.query) names.add(name.toLowerCase());
    byPath.set(route.path, names);
  }
  return byPath;
}

/**
 * What a request line shows of the request target: the path and the names of the query parameters, never a
 * value (a client may put a key or a password in one). A name is shown as sent only when the route takes it
 * (in any letter case); any other as UNSHOWN_NAME, since a name can be a key or password too (`?<password>`).
 */
function loggedTarget(url: string, queryNames: ReadonlyMap<string, ReadonlySet<string>>): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const rawPath = url.slice(0, queryStart);
  const known = queryNames.get(resourcePath(rawPath));
  const names = url
    .slice(queryStart + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const name = pair.split('=', 1)[0]!;
      return known?.has(decodeLeniently(name).toLowerCase()) ? name : UNSHOWN_NAME;
    });
  return `${rawPath}?${names.join('&')}`;
}

/**
 * The whole request body as text, bytes that are not UTF-8 replaced by U+FFFD (API Gateway hands a body
 * over as UTF-8 text when no binary media type is set; docs/api.md#evaluating-a-password), or
 * null when there is none (at once, without a promise: most requests are GETs). Past `limit` bytes reading
 * stops; the connection is then closed after the 413.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string | null | 'too-large'> | null {
  // No Content-Length and no Transfer-Encoding: no body (RFC 9112 §6.3), and nothing to wait for. Node has
  // already ended such a request by the time any promise settles; resume() only lets 'end' be emitted.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    return null;
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve('too-large');
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(size === 0 ? null : Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/**
 * The query string as API Gateway hands it over: names and values percent-decoded ("+" is a space),
 * repeated names kept in order. Invalid percent-encoding is rejected rather than guessed at, as API Gateway
 * rejects it, except on a `lenientQuery` route, where a `%` that starts no valid escape is taken literally.
 */
export function parseQuery(raw: string, lenient = false): Record<string, string[]> | null | 'invalid' {
  if (raw === '') return null;
  // Null-prototype: a name such as `constructor` or `__proto__` is a key like any other, never Object.prototype's.
  const parameters: Record<string, string[]> = Object.create(null);
  const decodeOne = lenient ? decodeLeniently : decode;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeOne(eq < 0 ? pair : pair.slice(0, eq));
    const value = decodeOne(eq < 0 ? '' : pair.slice(eq + 1));
    if (name === undefined || value === undefined) return 'invalid';
    (parameters[name] ??= []).push(value);
  }
  return Object.keys(parameters).length > 0 ? parameters : null;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Each run of escapes that is valid UTF-8 is decoded; anything else (a lone `%`, `%+-`, `%FF`) stays as it is. */
function decodeLeniently(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => decode(run) ?? run);
}

/** Header names keep the case the client sent; a repeated header keeps every value in multiValueHeaders. */
export function headerMaps(rawHeaders: readonly string[]): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  // Null-prototype, as in parseQuery: a header named `toString` or `__proto__` is just a header.
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

function send(res: ServerResponse, result: APIGatewayProxyResult, closeConnection = false): void {
  // A text body is written as it is: Node encodes it once on the socket, with no intermediate copy.
  const body: string | Buffer = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : (result.body ?? '');
  // One flat header list for writeHead: cheaper than a setHeader call (and its bookkeeping) per header.
  const headers: string[] = [];
  for (const [name, value] of Object.entries(result.headers ?? {})) headers.push(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) for (const value of values) headers.push(name, String(value));
  headers.push('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  if (closeConnection) headers.push('Connection', 'close');
  res.writeHead(result.statusCode, headers);
  res.end(body);
}
