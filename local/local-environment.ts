import { ENV } from '../functions/runtime';
import { LOCAL_STORE_FILE_VARIABLE } from '../store/local-store-file';

/**
 * The environment variables `npm start` reads of its own, by name (the functions' are ENV, functions/runtime.ts):
 * local/start.ts reads them, and the tests and the bench that start the local service set them from here.
 * What each does and its default: docs/operations.md#local-gateway-environment.
 */
export const LOCAL_ENV = {
  port: 'PORT',
  host: 'HOST',
  dynamodbPort: 'DYNAMODB_PORT',
  dataDir: 'DATA_DIR',
  authorizerCacheTtl: 'AUTHORIZER_CACHE_TTL_SECONDS',
  emulateUsagePlans: 'EMULATE_USAGE_PLANS',
  quiet: 'QUIET',
  /** Its home is store/local-store-file.ts, since the operator CLIs read it too. */
  storeFile: LOCAL_STORE_FILE_VARIABLE,
} as const;

/**
 * A copy of `env` without the variables that say where a local run listens and keeps its store, for a child
 * that the tests or the bench start: it gets these only when its parent sets them on purpose.
 */
export function withoutPlacement(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of [
    ENV.dynamodbEndpoint,
    LOCAL_ENV.dynamodbPort,
    LOCAL_ENV.dataDir,
    LOCAL_ENV.host,
    LOCAL_ENV.port,
    LOCAL_ENV.quiet,
    LOCAL_ENV.storeFile,
  ])
    delete copy[name];
  return copy;
}
