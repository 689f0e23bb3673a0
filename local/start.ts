import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildBundles, importBundle } from '../bundling/build';
import { startEmbeddedStore, type EmbeddedStore } from '../embedded-store/embedded-store';
import type { ProxyHandler } from '../functions/http';
import { TABLES } from '../functions/repositories/tables';
import { AUTHORIZER, FUNCTIONS } from '../functions/routes';
import {
  DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS,
  dynamodbBudget,
  pwnedPasswordsEnvironment,
  TIME_BUDGET,
} from '../lib/deployment';
import { PWNED_PASSWORDS_API } from '../functions/repositories/pwned-passwords';
import { createDocumentClient, ENV, localDynamoDbClientConfig, wholeNumber } from '../functions/runtime';
import { loadSeed } from '../seed/seed-data';
import { createTables } from '../store/create-tables';
import { localStoreFile, removeLocalStoreFile, shownPath, writeLocalStoreFile } from '../store/local-store-file';
import { SEED_FILES } from '../store/seed-files';
import { AuthorizerEmulation, type AuthorizerHandler } from './authorizer-emulation';
import { putLocalCredentials, readLocalCredentials } from './demo-credentials';
import { docsSite, DOCS_PATH } from './docs-site';
import { LOCAL_ENV } from './local-environment';
import { createGateway } from './gateway';
import { UsagePlanEmulation } from './usage-plan-emulation';

/** How long a write of the seed may take before the SDK gives up on it (see where the seed is written). */
const SEED_REQUEST_TIMEOUT_MS = 60_000;

/** The local tables are named after their kind; a deployed stack names its own. */
export const TABLE_NAMES = {
  generator: TABLES.generator.logicalName,
  strength: TABLES.strength.logicalName,
  credentials: TABLES.credentials.logicalName,
  history: TABLES.history.logicalName,
};
export const CREDENTIALS_FILE = SEED_FILES.credentials;
/** Where the gateway listens unless PORT says otherwise. */
const DEFAULT_PORT = 3000;
/** Where the embedded store listens unless DYNAMODB_PORT says otherwise: DynamoDB Local's port, so `--endpoint http://127.0.0.1:8000` is the same every run. */
const DEFAULT_STORE_PORT = 8000;

/** The embedded store's port: DYNAMODB_PORT, else 8000 (0: a free one). */
export function storePort(env: NodeJS.ProcessEnv): number {
  return wholeNumber(env[LOCAL_ENV.dynamodbPort], DEFAULT_STORE_PORT);
}

export interface LocalService {
  readonly url: string;
  readonly dynamodbEndpoint: string;
  stop(): Promise<void>;
}

/**
 * The same bundles that deploy, behind a local stand-in for API Gateway, on an embedded
 * DynamoDB-compatible store created and seeded at start (or DYNAMODB_ENDPOINT).
 */
export async function startLocalService(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = console.log,
): Promise<LocalService> {
  const embedded: EmbeddedStore | undefined = env[ENV.dynamodbEndpoint]
    ? undefined
    : await startEmbeddedStore({
        port: storePort(env),
        ...(env[LOCAL_ENV.dataDir] ? { dataDir: env[LOCAL_ENV.dataDir] } : {}),
      }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EADDRINUSE') throw error;
        const port = storePort(env);
        throw new Error(
          `the store's port ${port} on 127.0.0.1 is already in use (DynamoDB Local, or another npm start?); pick another with ${LOCAL_ENV.dynamodbPort}, for example: ${LOCAL_ENV.dynamodbPort}=${port + 1} npm start`,
        );
      });
  // Region `local` for the tables and the functions alike, as the CLIs' --endpoint default: a store that keeps
  // regions apart (DynamoDB Local) then shows all of them the same tables, whatever AWS_REGION says.
  const store = localDynamoDbClientConfig(env[ENV.dynamodbEndpoint] ?? embedded!.endpoint);
  const functionEnv = {
    [ENV.dynamodbEndpoint]: store.endpoint,
    AWS_REGION: store.region,
    POWERTOOLS_LOG_LEVEL: env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };

  const created = await createTables(new DynamoDBClient(store), TABLE_NAMES);
  // The seed's writes, unlike a function's reads, must not time out and retry: on a loaded machine a transaction
  // the store has applied but not yet answered within the functions' 2 s would be sent again and refused as
  // "someone else created it since it was read". A minute is past any write the embedded store takes.
  const documents = createDocumentClient({
    ...functionEnv,
    [ENV.dynamodbRequestTimeout]: String(SEED_REQUEST_TIMEOUT_MS),
  });
  // A persisted store (DATA_DIR) keeps what it holds; only new tables are seeded.
  if (created.includes(TABLE_NAMES.generator) || created.includes(TABLE_NAMES.strength)) {
    const written = await loadSeed({
      client: documents,
      generatorTable: TABLE_NAMES.generator,
      strengthTable: TABLE_NAMES.strength,
      historyTable: TABLE_NAMES.history,
    });
    log(`Seeded ${written.generator} generator policies and ${written.strength} strength policies.`);
  }
  if (created.includes(TABLE_NAMES.credentials)) {
    await putLocalCredentials(documents, TABLE_NAMES.credentials, await readLocalCredentials(CREDENTIALS_FILE));
  }

  const bundles = await buildBundles();
  // The policy cache TTL passes through only when set, so the functions' own default applies otherwise.
  const cacheTtl: Record<string, string> =
    env[ENV.policyCacheTtl] !== undefined ? { [ENV.policyCacheTtl]: env[ENV.policyCacheTtl]! } : {};
  const pwnedPasswords = localPwnedPasswords(env);
  const functions: Record<string, ProxyHandler> = {};
  for (const fn of Object.values(FUNCTIONS)) {
    const environment = {
      ...functionEnv,
      [ENV.policyTable]: TABLE_NAMES[fn.table],
      ...dynamodbBudget(TIME_BUDGET.functions),
      ...cacheTtl,
      ...(fn.id === FUNCTIONS.evaluatePassword.id ? pwnedPasswords : {}),
    };
    functions[fn.id] = (await importBundle<{ handler: ProxyHandler }>(bundles[fn.id]!.file, environment)).handler;
  }
  const authorizerModule = await importBundle<{ handler: AuthorizerHandler }>(bundles[AUTHORIZER.id]!.file, {
    ...functionEnv,
    [ENV.credentialsTable]: TABLE_NAMES.credentials,
    ...dynamodbBudget(TIME_BUDGET.authorizer),
  });
  const authorizer = new AuthorizerEmulation(
    authorizerModule.handler,
    wholeNumber(env[LOCAL_ENV.authorizerCacheTtl], DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS),
  );

  const usagePlans = env[LOCAL_ENV.emulateUsagePlans] === '1' ? { usagePlans: new UsagePlanEmulation() } : {};
  const server = createGateway({
    functions,
    authorizer,
    site: await docsSite(),
    ...usagePlans,
    ...(env[LOCAL_ENV.quiet] ? {} : { log }),
  });
  const host = env[LOCAL_ENV.host] ?? '127.0.0.1';
  const requestedPort = wholeNumber(env[LOCAL_ENV.port], DEFAULT_PORT);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      // Said in terms of the one setting that fixes it, not as Node's bare EADDRINUSE.
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `port ${requestedPort} on ${host} is already in use; pick another with ${LOCAL_ENV.port}, for example: ${LOCAL_ENV.port}=${requestedPort + 1} npm start`,
            )
          : error,
      );
    });
    server.listen(requestedPort, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    dynamodbEndpoint: store.endpoint,
    async stop() {
      // Stop accepting, let in-flight requests finish, then close the store.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // close() stops Node's header timeout, so a client that stalls mid-request would hold shutdown forever.
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      await embedded?.close();
    },
  };
}

/**
 * EvaluatePassword's Pwned Passwords check, as the stack turns it on, when PWNED_PASSWORDS_CHECK=true;
 * PWNED_PASSWORDS_URL (a stub on loopback) and PWNED_PASSWORDS_TIMEOUT_MS pass through when set.
 */
function localPwnedPasswords(env: NodeJS.ProcessEnv): Record<string, string> {
  if (env[ENV.pwnedPasswordsCheck] !== 'true') return {};
  const passed = [ENV.pwnedPasswordsUrl, ENV.pwnedPasswordsTimeout]
    .filter((name) => env[name])
    .map((name) => [name, env[name]!]);
  return { ...pwnedPasswordsEnvironment(), ...Object.fromEntries(passed) };
}

/** Each bundle carries its own SDK, and each copy warns once (about Node < 22, when preload/sdk-node-warning.cjs has not turned that off): print such a warning once. */
function printEachWarningOnce(): void {
  const seen = new Set<string>();
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (seen.has(warning.message)) return;
    seen.add(warning.message);
    console.warn(`${warning.name}: ${warning.message}`);
  });
}

async function main(): Promise<void> {
  printEachWarningOnce();
  const service = await startLocalService();
  // The operator CLIs find this store by the file (cli/aws.ts), until this process exits.
  const storeFile = localStoreFile();
  writeLocalStoreFile(storeFile, { endpoint: service.dynamodbEndpoint, tables: TABLE_NAMES, pid: process.pid });
  process.once('exit', () => removeLocalStoreFile(storeFile));
  const credentials = await readLocalCredentials(CREDENTIALS_FILE);
  const admin = credentials.generatorAdmin;
  console.log(
    [
      '',
      `Password Policy Service listening on ${service.url}`,
      `  DynamoDB endpoint (dynalite${process.env[LOCAL_ENV.dataDir] ? `, data in ${process.env[LOCAL_ENV.dataDir]}` : ', in memory'}): ${service.dynamodbEndpoint}`,
      `  Tables: ${Object.values(TABLE_NAMES).join(', ')}`,
      `  Store file (the operator CLIs use this store when given no --endpoint and no AWS region): ${shownPath(storeFile)}`,
      `  Demo credentials: ${path.relative(process.cwd(), CREDENTIALS_FILE)}`,
      `  API description: ${service.url}/openapi.json`,
      `  Docs page: ${service.url}${DOCS_PATH}`,
      `  Pwned Passwords check: ${process.env[ENV.pwnedPasswordsCheck] === 'true' ? `on (${process.env[ENV.pwnedPasswordsUrl] || PWNED_PASSWORDS_API})` : 'off (PWNED_PASSWORDS_CHECK=true turns it on)'}`,
      '',
      'Try:',
      `  curl -s -H 'UserID: ${admin.UserID}' -H 'APIKey: ${admin.APIKey}' '${service.url}/userapi/passwordgenerator/?search=default'`,
      `  curl -s -H 'APIKey: ${credentials.passwordGeneratorAPIKey}' '${service.url}/api/generatepassword/?PasswordGeneratorID=3&Qty=2'`,
      `  curl -s -H 'APIKey: ${credentials.passwordStrengthAPIKey}' '${service.url}/api/passwordstrength'`,
      `  curl -s -X POST -H 'APIKey: ${credentials.passwordStrengthAPIKey}' -H 'Content-Type: application/json' -d '{"Password":"Correct-Horse-7"}' '${service.url}/api/passwordstrength/evaluate'`,
      '',
      'Ctrl-C stops it.',
    ].join('\n'),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
