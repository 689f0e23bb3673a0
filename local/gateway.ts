import type { APIGatewayProxyResult } from 'aws-lambda';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  allowHeader,
  errorResponse,
  methodNotAllowedPhrase,
  PHRASES,
  REASON_PHRASES,
  type ErrorStatus,
  type ProxyHandler,
} from '../functions/http';
import { resourcePaths, type ResourcePath } from '../functions/routes';
import { GATEWAY_RESPONSES, gatewayPhrase, MAX_PAYLOAD_BYTES, type GatewayResponseType } from '../lib/gateway-contract';
import {
  authorizerEvent,
  headerMaps,
  methodArn,
  newRequestId,
  parseQuery,
  proxyEvent,
  resourcePath,
  type ParsedRequest,
} from './api-gateway-events';
import type { AuthorizerEmulation } from './authorizer-emulation';
import { siteAnswer, type Site } from './docs-site';
import { loggedTarget } from './request-log';
import type { UsagePlanEmulation } from './usage-plan-emulation';

export interface GatewayOptions {
  /** The handler of each function that serves routes, by its id in functions/routes.ts. */
  readonly functions: Readonly<Record<string, ProxyHandler>>;
  readonly authorizer: AuthorizerEmulation;
  /** Per-credential usage plans (EMULATE_USAGE_PLANS=1); absent, no plan limits a request. */
  readonly usagePlans?: UsagePlanEmulation;
  /** Files answered beside the API (docs-site.ts: the API description, the docs page). */
  readonly site?: Site;
  /** Called with one line per request, for the console (request-log.ts). */
  readonly log?: (line: string) => void;
}

/**
 * A local stand-in for the REST API of the stack, a thin adapter: route → authorizer → event → handler. The
 * routes are the route table's (functions/routes.ts) and every answer API Gateway itself gives is the
 * gateway contract's (lib/gateway-contract.ts), as the stack's gateway responses are: unknown paths are
 * 404, other methods than a path's own are 405 with `Allow` naming them, the body is read whole (up to the
 * payload limit), the authorizer runs first with a REQUEST event, and the handler gets a proxy event
 * carrying the authorizer context and the body. The site's files are answered beside the API; none may sit
 * on a path of the API.
 */
export function createGateway(options: GatewayOptions): Server {
  const routes = new Map(resourcePaths().map((r) => [r.path, r]));
  for (const sitePath of options.site?.keys() ?? []) {
    if (routes.has(resourcePath(sitePath)))
      throw new Error(`${sitePath} is both a file of the site and an API resource`);
  }
  // A missing Host is answered in handle(), in the envelope, instead of by Node's bare 400.
  const { log } = options;
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    const started = log ? process.hrtime.bigint() : 0n;
    handle(req, routes, options)
      .catch(() => gatewayError('DEFAULT_5XX'))
      .then((result) => {
        // Once the server is closing, keep-alive connections end with this response so shutdown is prompt;
        // so does a request whose body was not read to its end (what is left of it cannot be skipped).
        send(res, result, !server.listening || !req.complete);
        log?.(
          `${req.method} ${loggedTarget(req.url ?? '/')} -> ${result.statusCode} (${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms)`,
        );
      })
      // Sending itself failed (the client is gone): nothing is left to answer, and the server keeps serving.
      .catch(() => res.destroy());
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
  server.on('connect', (_req, socket: Duplex) => rawReply(socket, methodNotAllowed(['GET']), true));
  return server;
}

/** API Gateway's own answer of a type, as the stack's gateway response gives it (ACCESS_DENIED fills in the authorizer's reason). */
function gatewayError(
  type: GatewayResponseType,
  authorizerContext?: Readonly<Record<string, unknown>>,
): APIGatewayProxyResult {
  return errorResponse(GATEWAY_RESPONSES[type].status, gatewayPhrase(type, authorizerContext));
}

/** The stack's 405 (its ANY method's mock): the path's methods in the phrase and in Allow. */
function methodNotAllowed(allowed: readonly string[]): APIGatewayProxyResult {
  return errorResponse(405, methodNotAllowedPhrase(allowed), { Allow: allowHeader(allowed) });
}

/** A whole HTTP/1.1 response written straight to a socket that Node's response object does not own. */
function rawReply(socket: Duplex, result: APIGatewayProxyResult, withBody: boolean): void {
  const headers = Object.entries({
    ...result.headers,
    'Content-Length': Buffer.byteLength(result.body),
    Connection: 'close',
  }).map(([k, v]) => `${k}: ${v}\r\n`);
  const reason = REASON_PHRASES[result.statusCode as ErrorStatus];
  socket.end(`HTTP/1.1 ${result.statusCode} ${reason}\r\n${headers.join('')}\r\n${withBody ? result.body : ''}`);
}

async function handle(
  req: IncomingMessage,
  routes: ReadonlyMap<string, ResourcePath>,
  options: GatewayOptions,
): Promise<APIGatewayProxyResult> {
  if (req.httpVersion === '1.1' && req.headers.host === undefined)
    return errorResponse(400, 'An HTTP/1.1 request needs a Host header.');
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
  const path = resourcePath(rawPath);
  // API Gateway has the whole request before it routes: read the body first (bounded), whatever the path,
  // so every answer leaves the connection clean for its next request.
  const reading = readBody(req, MAX_PAYLOAD_BYTES);
  const body = reading === null ? null : await reading;
  if (body === 'too-large') return gatewayError('REQUEST_TOO_LARGE');
  const site =
    options.site && siteAnswer(options.site, req.method, rawPath, path, queryStart < 0 ? '' : url.slice(queryStart));
  if (site) return site;
  const route = routes.get(path);
  if (!route) return gatewayError('MISSING_AUTHENTICATION_TOKEN');
  const method = route.methods.find((m) => m === req.method);
  if (!method) return methodNotAllowed(route.methods);

  const query = parseQuery(queryStart < 0 ? '' : url.slice(queryStart + 1), route.lenientQuery === true);
  if (query === 'invalid')
    return errorResponse(400, 'The query string has invalid percent-encoding; encode "%" as %25.');
  const request: ParsedRequest = {
    method,
    path: rawPath,
    body,
    resource: route.path,
    ...headerMaps(req.rawHeaders),
    query,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
  };
  const requestId = newRequestId();

  const outcome = await options.authorizer.authorize(
    route.credentials,
    { multiValueHeaders: request.multiValueHeaders, methodArn: methodArn(request) },
    () => authorizerEvent(request, requestId),
  );
  if ('refusal' in outcome) return gatewayError(outcome.refusal, outcome.context);
  // API Gateway meters the key the authorizer named against its usage plan: over the plan, 429.
  if (
    options.usagePlans &&
    outcome.usageIdentifierKey !== undefined &&
    !options.usagePlans.admit(outcome.usageIdentifierKey, outcome.context.usagePlan)
  ) {
    return gatewayError('THROTTLED');
  }

  const handler = options.functions[route.function.id];
  if (!handler) return gatewayError('DEFAULT_5XX');
  const result = await handler(proxyEvent(request, requestId, outcome.context));
  return { ...result, headers: { ...result.headers, 'x-amzn-RequestId': requestId } };
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

function send(res: ServerResponse, result: APIGatewayProxyResult, closeConnection = false): void {
  // A text body is written as it is: Node encodes it once on the socket, with no intermediate copy.
  const body: string | Buffer = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : (result.body ?? '');
  // One flat header list for writeHead: cheaper than a setHeader call (and its bookkeeping) per header.
  const headers: string[] = [];
  for (const [name, value] of Object.entries(result.headers ?? {})) headers.push(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    for (const value of values) headers.push(name, String(value));
  headers.push('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  if (closeConnection) headers.push('Connection', 'close');
  res.writeHead(result.statusCode, headers);
  res.end(body);
}
