import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../bundling/bundling';
import { readLocalCredentials } from '../local/demo-credentials';
import { CREDENTIALS_FILE } from '../local/start';
import { median, ratio } from './stats';
import { LOCAL_ENV, withoutPlacement } from '../local/local-environment';

/**
 * HTTP: requests/s and latency through the local gateway (a child process running startLocalService; the
 * authorizer runs, its result cached as API Gateway would), against a bare node:http server (another child)
 * answering the very bytes the gateway answered: same status, headers and body, captured from one real
 * response per endpoint. autocannon runs here, in the parent. Per endpoint: gateway, then bare, each after a
 * one-second warm-up. Traffic goes to 127.0.0.1 only.
 */

export const HTTP_CONNECTIONS = 32;
const WARMUP_SECONDS = 1;
/** Headers the HTTP server writes itself (or that depend on the connection), left out of the replay. */
const SERVER_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

const BARE_SERVER = `import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const responses = new Map(
  JSON.parse(readFileSync(process.argv[2], 'utf8')).map((r) => {
    const body = Buffer.from(r.body, 'utf8');
    return [r.path, { status: r.status, headers: { ...r.headers, 'Content-Length': body.length }, body }];
  }),
);
const server = createServer((req, res) => {
  req.resume();
  const response = responses.get(req.url);
  if (!response) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(response.status, response.headers);
  res.end(response.body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port }) + '\\n'));
process.on('SIGTERM', () => process.exit(0));
process.stdin.on('end', () => process.exit(0)).resume();
`;

export interface LoadFigures {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
}

export interface HttpEndpointResult {
  readonly name: string;
  readonly path: string;
  readonly list: boolean;
  readonly responseBytes: number;
  readonly gateway: LoadFigures;
  readonly bare: LoadFigures;
  /** Gateway requests/s over bare requests/s. */
  readonly throughputRatio: number;
  /** Gateway p99 over bare p99. */
  readonly p99Ratio: number;
}

export interface HttpBenchResult {
  readonly connections: number;
  readonly seconds: number;
  readonly endpoints: HttpEndpointResult[];
}

interface Endpoint {
  readonly name: string;
  readonly path: string;
  readonly list: boolean;
  readonly headers: Record<string, string>;
}

interface Captured {
  readonly path: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export async function runHttpBench(
  baseEnv: NodeJS.ProcessEnv,
  workDir: string,
  seconds: number,
  log: (line: string) => void,
): Promise<HttpBenchResult> {
  const credentials = await readLocalCredentials(CREDENTIALS_FILE);
  const generator = { UserID: credentials.generatorAdmin.UserID, APIKey: credentials.generatorAdmin.APIKey };
  const strength = { APIKey: credentials.passwordStrengthAPIKey };
  const endpoints: Endpoint[] = [
    { name: 'generator list', path: '/userapi/passwordgenerator', list: true, headers: generator },
    { name: 'generator search', path: '/userapi/passwordgenerator/?search=network', list: false, headers: generator },
    { name: 'strength list', path: '/api/passwordstrength', list: true, headers: strength },
    { name: 'strength search', path: '/api/passwordstrength/?search=accounts', list: false, headers: strength },
  ];

  const gatewayEnv: NodeJS.ProcessEnv = { ...withoutPlacement(baseEnv), [LOCAL_ENV.authorizerCacheTtl]: '300' };
  const gateway = await startChild(
    'local gateway',
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'gateway-child.ts')],
    gatewayEnv,
  );
  let bare: Child | undefined;
  try {
    const captured: Captured[] = [];
    for (const endpoint of endpoints) captured.push(await capture(gateway.url, endpoint));
    const responsesFile = path.join(workDir, 'bare-responses.json');
    await writeFile(responsesFile, JSON.stringify(captured));
    const bareScript = path.join(workDir, 'bare-server.mjs');
    await writeFile(bareScript, BARE_SERVER);
    bare = await startChild('bare server', process.execPath, [bareScript, responsesFile], { PATH: baseEnv.PATH ?? '' });
    for (const [i, endpoint] of endpoints.entries()) {
      const replayed = await capture(bare.url, endpoint);
      if (replayed.status !== captured[i]!.status || replayed.body !== captured[i]!.body)
        throw new Error(`The bare server does not replay ${endpoint.path}`);
    }

    const results: HttpEndpointResult[] = [];
    for (const [i, endpoint] of endpoints.entries()) {
      log(
        `  HTTP: ${endpoint.name}: gateway and bare server alternating, ${HTTP_ROUNDS} rounds, ${seconds} s each in all`,
      );
      const [gatewayFigures, bareFigures] = (await alternate([gateway.url, bare.url], endpoint, seconds)) as [
        LoadFigures,
        LoadFigures,
      ];
      results.push({
        name: endpoint.name,
        path: endpoint.path,
        list: endpoint.list,
        responseBytes: Buffer.byteLength(captured[i]!.body),
        gateway: gatewayFigures,
        bare: bareFigures,
        throughputRatio: ratio(gatewayFigures.requestsPerSecond, bareFigures.requestsPerSecond),
        p99Ratio: ratio(gatewayFigures.p99Ms, bareFigures.p99Ms),
      });
    }
    return { connections: HTTP_CONNECTIONS, seconds, endpoints: results };
  } finally {
    await bare?.stop();
    await gateway.stop();
  }
}

/**
 * Rounds that alternate the servers, so drift on this shared machine (another tenant, a frequency change)
 * falls on both sides of the ratio rather than on whichever ran second. A warm-up of each first; then
 * throughput over all rounds, and the median round's latencies.
 */
export const HTTP_ROUNDS = 5;

async function alternate(baseUrls: readonly string[], endpoint: Endpoint, seconds: number): Promise<LoadFigures[]> {
  const options = (url: string, duration: number) => ({
    url: url + endpoint.path,
    connections: HTTP_CONNECTIONS,
    headers: endpoint.headers,
    duration,
  });
  for (const url of baseUrls) await autocannon(options(url, WARMUP_SECONDS));
  const rounds: autocannon.Result[][] = baseUrls.map(() => []);
  for (let round = 0; round < HTTP_ROUNDS; round++) {
    for (const [i, url] of baseUrls.entries()) rounds[i]!.push(await autocannon(options(url, seconds / HTTP_ROUNDS)));
  }
  return rounds.map((results) => ({
    requestsPerSecond: sumOf(results, (r) => r.requests.total) / sumOf(results, (r) => r.duration),
    p50Ms: median(results.map((r) => r.latency.p50)),
    p99Ms: median(results.map((r) => r.latency.p99)),
    requests: sumOf(results, (r) => r.requests.total),
    non2xx: sumOf(results, (r) => r.non2xx),
    errors: sumOf(results, (r) => r.errors),
  }));
}

const sumOf = (results: autocannon.Result[], value: (r: autocannon.Result) => number): number =>
  results.reduce((total, r) => total + value(r), 0);

/** One real response: status, the headers the application set (in the case it sent them), body. */
function capture(baseUrl: string, endpoint: Endpoint): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(baseUrl + endpoint.path, { headers: endpoint.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          if (!SERVER_HEADERS.has(res.rawHeaders[i]!.toLowerCase()))
            headers[res.rawHeaders[i]!] = res.rawHeaders[i + 1]!;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200)
          reject(new Error(`${endpoint.path} answered ${res.statusCode}: ${body.slice(0, 300)}`));
        else resolve({ path: endpoint.path, status: res.statusCode, headers, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Child {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts a server process that prints {"url": ...} as its first line. Its stdin is a pipe from this process,
 * so it also exits if this process dies without stopping it.
 */
export function startChild(what: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Child> {
  const child: ChildProcess = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => fail('did not start within 60 s'), 60_000);
    function fail(reason: string) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop();
      reject(new Error(`The ${what} ${reason}\n${stdout}\n${stderr}`));
    }
    child.once('error', (error) => fail(`could not be started: ${error.message}`));
    void exited.then(() => fail(`exited before it was ready (${child.exitCode ?? child.signalCode})`));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (settled) return;
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      let url: string;
      try {
        url = (JSON.parse(stdout.slice(0, newline)) as { url: string }).url;
      } catch {
        fail(`printed something other than its URL: ${stdout.slice(0, newline)}`);
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve({ url, stop });
    });
  });
}
