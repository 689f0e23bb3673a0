import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { KeepAliveClient } from './keep-alive-client';
import { PROJECT_ROOT } from '../../bundling/bundling';
import { LOCAL_ENV, withoutPlacement } from '../../local/local-environment';

/** The project root (bundling/ resolves it), whatever directory jest runs from. */
export { PROJECT_ROOT };

/** How `npm start` runs the local service (package.json "start"), without npm in between. */
const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const START_SCRIPT = 'local/start.ts';
/** The URL is complete only once the line ends, whatever chunks stdout arrives in. */
const LISTENING = /listening on (https?:\/\/\S+)\r?\n/;
/** How many services this process spawned, for each one's own store file. */
let spawned = 0;

export interface SpawnedService {
  /** The base URL the service printed, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly child: ChildProcess;
  /** The store file it writes for the operator CLIs (LOCAL_STORE_FILE). */
  readonly storeFile: string;
  /** Everything the process wrote so far, stdout and stderr, for failure messages. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code (null when it had to be killed). */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  /** Extra environment on top of the defaults (PORT=0, DYNAMODB_PORT=0, QUIET=1, a store file of its own). */
  readonly env?: Record<string, string>;
  /** How long to wait for the "listening on" line. */
  readonly startTimeoutMs?: number;
}

/**
 * Starts the real start command (`tsx local/start.ts`) as a child process on a free port and waits for the
 * line announcing its URL. Settings that would point it elsewhere (DYNAMODB_ENDPOINT, DATA_DIR, HOST, PORT)
 * are not inherited from the test's environment.
 */
export function spawnLocalService(options: SpawnOptions = {}): Promise<SpawnedService> {
  const inherited = withoutPlacement(process.env);
  // Free ports, and a store file of its own (the CLIs' way to npm start's store), never a developer's .local/store.json.
  const env = {
    ...inherited,
    [LOCAL_ENV.port]: '0',
    [LOCAL_ENV.dynamodbPort]: '0',
    [LOCAL_ENV.quiet]: '1',
    [LOCAL_ENV.storeFile]: path.join(tmpdir(), `local-service-${process.pid}-${++spawned}.json`),
    ...options.env,
  };
  const storeFile = env[LOCAL_ENV.storeFile];
  const child = spawn(TSX, [START_SCRIPT], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });

  let output = '';
  let stdout = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (output += chunk));

  return new Promise<SpawnedService>((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      reject(new Error(`${message}\n--- output of ${START_SCRIPT} ---\n${output}`));
    };
    const timer = setTimeout(
      () => fail(`${START_SCRIPT} did not report "listening on" within ${options.startTimeoutMs ?? 60_000} ms`),
      options.startTimeoutMs ?? 60_000,
    );
    child.once('error', (error) => fail(`${START_SCRIPT} could not be started: ${error.message}`));
    void exited.then(({ code, signal }) =>
      fail(`${START_SCRIPT} exited before it was ready (code ${code}, signal ${signal})`),
    );
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      stdout += chunk;
      const match = LISTENING.exec(stdout);
      if (!match || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        url: match[1]!.replace(/\/+$/, ''),
        child,
        storeFile,
        output: () => output,
        async stop(timeoutMs = 20_000) {
          if (child.exitCode !== null || child.signalCode !== null) return exited;
          child.kill('SIGTERM');
          let killer: NodeJS.Timeout | undefined;
          const forced = new Promise<{ code: null; signal: NodeJS.Signals | null }>((done) => {
            killer = setTimeout(() => {
              child.kill('SIGKILL');
              void exited.then(({ signal }) => done({ code: null, signal }));
            }, timeoutMs);
          });
          try {
            return await Promise.race([exited, forced]);
          } finally {
            clearTimeout(killer);
          }
        },
      });
    });
  });
}

export interface LocalServiceForFile {
  /** The spawned service (throws when read before the beforeAll hook has started it). */
  readonly service: SpawnedService;
  /** A keep-alive client on the service's URL. */
  readonly client: KeepAliveClient;
}

/**
 * One local service for a whole test file, with a keep-alive client on it: registers a beforeAll hook that
 * spawns it (spawnLocalService) and opens the client, and an afterAll hook that closes the client and stops the
 * service, which must exit cleanly (code 0, no signal) on SIGTERM. Call it at the top level of the file.
 */
export function useLocalService(options: SpawnOptions & { readonly maxSockets?: number } = {}): LocalServiceForFile {
  let service: SpawnedService | undefined;
  let client: KeepAliveClient | undefined;
  beforeAll(async () => {
    service = await spawnLocalService(options);
    client = new KeepAliveClient(service.url, options.maxSockets ?? 4);
  }, 90_000);
  afterAll(async () => {
    client?.close();
    if (service) expect(await service.stop()).toEqual({ code: 0, signal: null });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the local service is not started yet: use it inside a test or hook');
    return value;
  };
  return {
    get service() {
      return started(service);
    },
    get client() {
      return started(client);
    },
  };
}
