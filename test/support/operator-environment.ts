import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LOCAL_STORE_FILE_VARIABLE } from '../../store/local-store-file';

/** What tells the AWS SDK (or the AWS CLI's convention) a region or profile, none of which a test may inherit. */
const AWS_SETTINGS = [
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_PROFILE',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  LOCAL_STORE_FILE_VARIABLE,
];

/**
 * The environment of an operator on a machine where nothing says where the store is: no AWS region
 * anywhere (no AWS_REGION or AWS_DEFAULT_REGION, config files that do not exist, whatever the developer's
 * ~/.aws holds) and npm start's store file at `storeFile` (which may not exist); then `overrides`.
 */
export function operatorEnvironment(storeFile: string, overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of AWS_SETTINGS) delete env[name];
  const nowhere = path.join(tmpdir(), `no-aws-config-${process.pid}`, 'none');
  return {
    ...env,
    AWS_CONFIG_FILE: nowhere,
    AWS_SHARED_CREDENTIALS_FILE: nowhere,
    [LOCAL_STORE_FILE_VARIABLE]: storeFile,
    ...overrides,
  };
}

/** Runs `body` with process.env set to operatorEnvironment(storeFile, overrides), and restores it after. */
export async function inOperatorEnvironment<T>(
  storeFile: string,
  overrides: Record<string, string>,
  body: () => Promise<T>,
): Promise<T> {
  const saved = process.env;
  process.env = operatorEnvironment(storeFile, overrides);
  try {
    return await body();
  } finally {
    process.env = saved;
  }
}
