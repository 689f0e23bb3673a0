import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { PROJECT_ROOT } from '../bundling/bundling';
import { errorEnvelope, REASON_PHRASES, type ErrorStatus } from '../functions/http';
import { ENV } from '../functions/runtime';
import { readLocalCredentials } from '../local/demo-credentials';
import { startEmbeddedStore, type EmbeddedStore } from '../embedded-store/embedded-store';
import { CREDENTIALS_FILE } from '../local/start';
import { LOCAL_ENV } from '../local/local-environment';
import { BENCH_ENV } from './bench-variables';

/**
 * npm run soak: the local gateway (`local/start.ts` in a child process, as `npm start` runs it, with its
 * default settings) under SOAK_CONNECTIONS (64) concurrent connections for SOAK_SECONDS (60) seconds, sending
 * a fixed mix of valid requests on every endpoint (the four of the specification, password generation and
 * password evaluation) and invalid ones, each with the one status it must get.
 * Prints the requests served, the statuses seen per request kind, the unexpected ones (a wrong status, or a
 * 200 whose body is not the one expected), latency percentiles and the gateway's resident memory (VmRSS) at
 * start, at its peak and at the end; then stops the gateway with SIGTERM, which must exit 0.
 *
 * Exits 1 when anything was unexpected (a status, a body, a connection error or timeout, the gateway's exit).
 * Traffic goes to 127.0.0.1 only, and the run stops by itself (a watchdog ends it if anything hangs).
 *
 * SOAK_OUTAGE=1: the store is the soak's own (the embedded one, DYNAMODB_ENDPOINT for the gateway), with
 * both caches at 2 s; it goes down for the middle third of the run (connections dropped) and comes back
 * with its data. Between the outage's start and OUTAGE_GRACE_S after its end any request may also answer
 * 503 in the envelope; before and after, only its own status. The gateway is never restarted.
 */

const SECONDS = positive(process.env[BENCH_ENV.soakSeconds], 60);
const CONNECTIONS = positive(process.env[BENCH_ENV.soakConnections], 64);
const HOST = '127.0.0.1';
const OUTAGE = process.env[BENCH_ENV.soakOutage] === '1';
/** After the store is back, requests begun during the outage may still fail within their retry budget (TIME_BUDGET, lib/deployment.ts). */
const OUTAGE_GRACE_S = 15;

interface Kind {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly status: number;
  /** The request body, for a POST. */
  readonly send?: string;
  /** For a 200 whose body differs every time (generated passwords): what makes it right. */
  readonly accepts?: (body: string) => boolean;
  /** The exact body expected: for a 200 captured once before the run, for an error its envelope message. */
  body?: string;
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : fallback;
}

async function requestKinds(): Promise<Kind[]> {
  const credentials = await readLocalCredentials(CREDENTIALS_FILE);
  const admin = { UserID: credentials.generatorAdmin.UserID, APIKey: credentials.generatorAdmin.APIKey };
  const noRole = { UserID: credentials.userWithoutRole.UserID, APIKey: credentials.userWithoutRole.APIKey };
  const strength = { APIKey: credentials.passwordStrengthAPIKey };
  return [
    { name: 'generator list', method: 'GET', path: '/userapi/passwordgenerator', headers: admin, status: 200 },
    {
      name: 'generator search',
      method: 'GET',
      path: '/userapi/passwordgenerator/?search=network',
      headers: admin,
      status: 200,
    },
    { name: 'strength list', method: 'GET', path: '/api/passwordstrength', headers: strength, status: 200 },
    {
      name: 'strength search',
      method: 'GET',
      path: '/api/passwordstrength/?search=accounts',
      headers: strength,
      status: 200,
    },
    {
      name: 'generator search, no match',
      method: 'GET',
      path: '/userapi/passwordgenerator?search=zzzz%20nothing',
      headers: admin,
      status: 200,
    },
    {
      name: 'unknown parameter',
      method: 'GET',
      path: '/api/passwordstrength?serach=x',
      headers: strength,
      status: 400,
    },
    {
      name: 'invalid percent-encoding',
      method: 'GET',
      path: '/userapi/passwordgenerator?search=%E0%A4',
      headers: admin,
      status: 400,
    },
    {
      name: 'search too long',
      method: 'GET',
      path: `/api/passwordstrength?search=${'x'.repeat(300)}`,
      headers: strength,
      status: 400,
    },
    {
      name: 'unknown key',
      method: 'GET',
      path: '/api/passwordstrength',
      headers: { APIKey: 'pps_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      status: 401,
    },
    {
      name: 'key of the other group',
      method: 'GET',
      path: '/userapi/passwordgenerator',
      headers: { UserID: admin.UserID, ...strength },
      status: 401,
    },
    { name: 'no credentials', method: 'GET', path: '/userapi/passwordgenerator', headers: {}, status: 401 },
    { name: 'user without the role', method: 'GET', path: '/userapi/passwordgenerator', headers: noRole, status: 403 },
    { name: 'unknown path', method: 'GET', path: '/api/passwordstrengths', headers: strength, status: 404 },
    {
      name: 'POST on a route',
      method: 'POST',
      path: '/api/passwordstrength',
      headers: { ...strength, 'Content-Type': 'application/json' },
      send: '{}',
      status: 405,
    },
    {
      name: 'generate passwords',
      method: 'GET',
      path: '/userapi/generatepassword/?PasswordGeneratorID=1&Qty=5',
      headers: admin,
      status: 200,
      accepts: (body) =>
        (JSON.parse(body) as { Password: string }[]).filter(
          (p) => Object.keys(p).join() === 'Password' && p.Password.length > 0,
        ).length === 5,
    },
    {
      name: 'generate, unknown policy',
      method: 'GET',
      path: '/userapi/generatepassword/?PasswordGeneratorID=999',
      headers: admin,
      status: 404,
    },
    {
      name: 'evaluate a password',
      method: 'POST',
      path: '/api/passwordstrength/evaluate',
      headers: { ...strength, 'Content-Type': 'application/json' },
      send: '{"PasswordStrengthPolicyID":2,"Password":"Velvet-Orchard-Comet-58?"}',
      status: 200,
    },
    {
      name: 'evaluate, empty password',
      method: 'POST',
      path: '/api/passwordstrength/evaluate',
      headers: { ...strength, 'Content-Type': 'application/json' },
      send: '{"Password":""}',
      status: 400,
    },
    {
      name: 'evaluate, not JSON',
      method: 'POST',
      path: '/api/passwordstrength/evaluate',
      headers: { ...strength, 'Content-Type': 'text/plain' },
      send: 'Velvet-Orchard-Comet-58?',
      status: 415,
    },
  ];
}

interface Gateway {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  kill(): void;
}

/** `node --import tsx local/start.ts` directly (no wrapper process), so the pid is the gateway's own. */
function startGateway(store?: EmbeddedStore): Promise<Gateway> {
  // Free ports, and a store file of its own: never npm start's port 8000 or its .local/store.json.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [LOCAL_ENV.port]: '0',
    [LOCAL_ENV.dynamodbPort]: '0',
    [LOCAL_ENV.host]: HOST,
    [LOCAL_ENV.quiet]: '1',
    [LOCAL_ENV.storeFile]: path.join(os.tmpdir(), `soak-${process.pid}-store.json`),
  };
  for (const name of [ENV.dynamodbEndpoint, LOCAL_ENV.dataDir]) delete env[name];
  if (store)
    Object.assign(env, {
      [ENV.dynamodbEndpoint]: store.endpoint,
      [ENV.policyCacheTtl]: '2',
      [LOCAL_ENV.authorizerCacheTtl]: '2',
    });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'local', 'start.ts')], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-8000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail('did not start within 60 s'), 60_000);
    function fail(reason: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`The local gateway ${reason}\n${output}`));
    }
    void exited.then(({ code, signal }) => fail(`exited before it was ready (${code ?? signal})`));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output = (output + chunk).slice(-8000);
      const match = /listening on (http:\/\/\S+)\r?\n/.exec(output);
      if (!match || child.pid === undefined) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({
        url: match[1]!,
        pid: child.pid,
        kill: () => child.kill('SIGKILL'),
        async stop() {
          const started = Date.now();
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          const exit = await exited;
          clearTimeout(killer);
          return { ...exit, ms: Date.now() - started };
        },
      });
    });
  });
}

/** Resident memory of a process in MB (Linux /proc), or NaN elsewhere. */
function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

function once(url: string, kind: Kind): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + kind.path, { method: kind.method, headers: kind.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(kind.send);
  });
}

function safely(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

/** An error body must be the envelope with its status's reason phrase (the phrase itself may vary). */
function bodyIsRight(kind: Kind, body: string): boolean {
  if (kind.status === 200) return kind.accepts ? safely(() => kind.accepts!(body)) : body === kind.body;
  const prefix = errorEnvelope(kind.status as ErrorStatus, '').slice(0, -'"}]}]'.length);
  return body.startsWith(prefix) && body.endsWith('"}]}]') && REASON_PHRASES[kind.status as ErrorStatus] !== undefined;
}

async function main(): Promise<void> {
  const kinds = await requestKinds();
  console.log(
    `Soak: the local gateway under ${CONNECTIONS} connections for ${SECONDS} s, ${kinds.length} request kinds in turn${OUTAGE ? ', the store down for the middle third' : ''}.`,
  );
  // In a folder of its own: dynalite reopens its store when it listens again, and only a folder keeps the data.
  const dataDir = OUTAGE ? await mkdtemp(path.join(os.tmpdir(), 'soak-store-')) : undefined;
  const store = dataDir ? await startEmbeddedStore({ dataDir }) : undefined;
  const gateway = await startGateway(store);
  if (new URL(gateway.url).hostname !== HOST)
    throw new Error(`refusing to send traffic to ${gateway.url}: loopback only`);
  const watchdog = setTimeout(
    () => {
      console.error('Soak: watchdog fired, the run did not end in time');
      gateway.kill();
      process.exit(1);
    },
    (SECONDS + 120) * 1000,
  );

  try {
    // Each kind once, before the load: capture the 200 bodies, and check every kind answers as expected.
    for (const kind of kinds) {
      const { status, body } = await once(gateway.url, kind);
      if (kind.status === 200) kind.body = body;
      if (status !== kind.status || !bodyIsRight(kind, body))
        throw new Error(
          `${kind.name}: ${kind.method} ${kind.path} answered ${status} before the load: ${body.slice(0, 200)}`,
        );
    }
    const rssStart = rssMb(gateway.pid);
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(gateway.pid))), 1000);

    const seen = new Map<string, Map<number, number>>(kinds.map((k) => [k.name, new Map()]));
    const unexpected: string[] = [];
    let unexpectedCount = 0;
    // The outage: [down, up) with the store unreachable; a 503 is expected until up + OUTAGE_GRACE_S.
    const outage = { down: Infinity, up: Infinity, unavailable: 0, lastUnavailable: 0 };
    const started = Date.now();
    const timers = store
      ? [
          setTimeout(() => void store.interrupt().then(() => (outage.down = Date.now())), (SECONDS * 1000) / 3),
          setTimeout(() => void store.resume().then(() => (outage.up = Date.now())), (SECONDS * 2000) / 3),
        ]
      : [];
    const duringOutage = (now: number) =>
      now >= outage.down && (outage.up === Infinity || now < outage.up + OUTAGE_GRACE_S * 1000);
    const result = await autocannon({
      url: gateway.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      timeout: 10,
      requests: kinds.map((kind) => ({
        method: kind.method,
        path: kind.path,
        headers: kind.headers,
        ...(kind.send !== undefined ? { body: kind.send } : {}),
        onResponse: (status: number, body: string) => {
          const counts = seen.get(kind.name)!;
          counts.set(status, (counts.get(status) ?? 0) + 1);
          const now = Date.now();
          if (status === 503 && duringOutage(now) && bodyIsRight({ ...kind, status: 503 }, body)) {
            outage.unavailable += 1;
            outage.lastUnavailable = now;
            return;
          }
          if (status !== kind.status || !bodyIsRight(kind, body)) {
            unexpectedCount += 1;
            if (unexpected.length < 10) unexpected.push(`${kind.name}: ${status} ${body.slice(0, 120)}`);
          }
        },
      })),
    });
    clearInterval(sampler);
    for (const timer of timers) clearTimeout(timer);
    const rssEnd = rssMb(gateway.pid);
    rssPeak = Math.max(rssPeak, rssEnd);
    const exit = await gateway.stop();

    const byStatus = new Map<number, number>();
    for (const counts of seen.values())
      for (const [status, n] of counts) byStatus.set(status, (byStatus.get(status) ?? 0) + n);
    const served = [...byStatus.values()].reduce((a, b) => a + b, 0);
    const lines = [
      '',
      `Requests served:     ${served} in ${result.duration.toFixed(1)} s (${(served / result.duration).toFixed(0)} requests/s), ${CONNECTIONS} connections`,
      `Statuses seen:       ${[...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')}`,
      `Unexpected statuses: ${unexpectedCount}`,
      `Connection errors:   ${result.errors} (timeouts ${result.timeouts})`,
      `Latency:             p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
      `Gateway VmRSS:       start ${rssStart.toFixed(1)} MB, peak ${rssPeak.toFixed(1)} MB, end ${rssEnd.toFixed(1)} MB`,
      `Gateway exit:        ${exit.code === 0 ? 'code 0' : `code ${exit.code} signal ${exit.signal}`} ${exit.ms} ms after SIGTERM`,
      ...(store
        ? [
            `Store outage:        down at ${((outage.down - started) / 1000).toFixed(1)} s, back at ${((outage.up - started) / 1000).toFixed(1)} s; ${outage.unavailable} answers 503 in the envelope, the last ${outage.lastUnavailable === 0 ? 'never' : `${((outage.lastUnavailable - outage.up) / 1000).toFixed(1)} s after the store was back`}`,
          ]
        : []),
      '',
      'Per request kind (expected status: statuses seen):',
      ...kinds.map(
        (k) =>
          `  ${k.name.padEnd(28)} ${k.status}: ${[...seen.get(k.name)!].map(([s, n]) => `${s} x ${n}`).join(', ')}`,
      ),
      ...(unexpected.length > 0 ? ['', 'First unexpected responses:', ...unexpected.map((u) => `  ${u}`)] : []),
      '',
    ];
    console.log(lines.join('\n'));
    const ok =
      unexpectedCount === 0 &&
      result.errors === 0 &&
      result.timeouts === 0 &&
      exit.code === 0 &&
      served > 0 &&
      (!store || outage.up !== Infinity);
    await store?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    console.log(ok ? 'Soak passed.' : 'Soak FAILED.');
    process.exitCode = ok ? 0 : 1;
  } catch (error) {
    gateway.kill();
    throw error;
  } finally {
    clearTimeout(watchdog);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
