import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { userInfo } from 'node:os';
import type { TableKind } from '../functions/repositories/tables';
import { DEFAULT_STACK_NAME } from '../lib/deployment';
import { localDynamoDbClientConfig } from '../functions/runtime';
import { localStoreFile, readLocalStoreFile, shownPath } from '../store/local-store-file';
import type { Io } from './command-line';

/**
 * What the operator CLIs (credentials, policy, seed) share about reaching their tables: a deployed stack
 * found by its outputs with the SDK's credential chain, or a local store (`npm start`'s dynalite) at
 * --endpoint or, when no AWS region is configured either, the one `npm start` names in its store file;
 * who makes a change; and one sentence for each way an AWS call fails.
 */

/** The options every operator CLI takes to find a local store or its AWS region, and --help (node:util parseArgs). */
export const STORE_OPTIONS = {
  endpoint: { type: 'string' },
  region: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options the credentials and policy CLIs take to find the deployed stack or a local store: those, and --stack. */
export const AWS_LOCATION_OPTIONS = { ...STORE_OPTIONS, stack: { type: 'string' } } as const;

/** The stack name `cdk deploy` uses unless told otherwise (bin/app.ts). */
export const DEFAULT_STACK = DEFAULT_STACK_NAME;

/** DynamoDB's rule for table names, and CloudFormation's for stack names (or a stack ARN). */
export const TABLE_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;
const STACK_NAME = /^([a-zA-Z][-a-zA-Z0-9]{0,127}|arn:[\x21-\x7e]+)$/;
const REGION = /^[a-z0-9-]{1,50}$/;

/** A failure that is the operator's to fix (a missing stack or output), reported as it is. */
export class LocationError extends Error {}

/** What the CLIs say about where their store is. */
export const LOCATION_PHRASES = {
  /** Neither --endpoint nor an AWS region, and no npm start running (no store file). */
  notConfigured:
    'No AWS region is configured and npm start is not running: pass --region REGION (or set AWS_REGION) for AWS, or --endpoint URL for a local store (npm start prints it as "DynamoDB endpoint").',
  /** The operator named AWS tables (--stack, --table) but no region is configured. */
  noRegion:
    'No AWS region is configured: pass --region REGION (or set AWS_REGION) for AWS, or --endpoint URL for a local store (npm start prints it as "DynamoDB endpoint").',
  /** On stderr, before anything else, whenever a CLI works on the store npm start's file names. */
  usingLocalStore: (endpoint: string, file: string) => `Using npm start's local store at ${endpoint} (${file}).`,
  /** The file names a store that does not answer: npm start was killed, or its store moved. */
  staleStoreFile: (endpoint: string, file: string) =>
    `npm start's local store at ${endpoint} (named in ${file}) does not answer: start npm start again, or delete ${file} if npm start was stopped without removing it; --region REGION or --endpoint URL picks another store.`,
} as const;

/** Where a CLI's tables are, as its command line says: a local store (--endpoint), AWS tables it names (--stack or --table), a region. */
export interface GivenLocation {
  readonly endpoint?: string;
  readonly region?: string;
  /** --stack or --table: tables on AWS, so never npm start's. */
  readonly namesAwsTables: boolean;
}

/**
 * Where the tables are: a local store at `endpoint` (with `storeFile` and its `tables` when npm start's file
 * named it), else AWS in `region`.
 */
export interface StoreLocation {
  readonly endpoint?: string;
  readonly region?: string;
  readonly storeFile?: string;
  readonly tables?: Readonly<Record<TableKind, string>>;
}

/**
 * Finds the store, in this order: --endpoint; AWS when a region is given or configured (--region,
 * AWS_REGION, the profile's region in the AWS config file, AWS_DEFAULT_REGION), so a deployed stack's
 * operator is never sent elsewhere; npm start's store file (saying so on stderr); else a LocationError.
 */
export async function findStore(
  given: GivenLocation,
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StoreLocation> {
  if (given.endpoint !== undefined) return { endpoint: given.endpoint, region: given.region };
  const region = given.region ?? (await configuredRegion(env));
  if (region !== undefined) return { region };
  if (given.namesAwsTables) throw new LocationError(LOCATION_PHRASES.noRegion);
  const file = localStoreFile(env);
  let note: ReturnType<typeof readLocalStoreFile>;
  try {
    note = readLocalStoreFile(file);
  } catch (error) {
    throw new LocationError((error as Error).message);
  }
  if (note === undefined) throw new LocationError(LOCATION_PHRASES.notConfigured);
  const problem = endpointProblem(note.endpoint);
  if (problem !== undefined)
    throw new LocationError(
      `${shownPath(file)} names no store: ${problem.replace('--endpoint', 'its endpoint')}; delete it, or pass --endpoint URL.`,
    );
  io.stderr.write(`${LOCATION_PHRASES.usingLocalStore(note.endpoint, shownPath(file))}\n`);
  return { endpoint: note.endpoint, storeFile: shownPath(file), tables: note.tables };
}

/** The region the AWS SDK finds by itself (AWS_REGION, the profile's config), else AWS_DEFAULT_REGION (the AWS CLI's), else none. */
async function configuredRegion(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const client = new DynamoDBClient({});
  try {
    return await client.config.region();
  } catch {
    return env.AWS_DEFAULT_REGION || undefined;
  } finally {
    client.destroy();
  }
}

/** Why an --endpoint, --stack or --region value is not usable, or undefined when it is. */
export function locationProblem(values: { endpoint?: string; stack?: string; region?: string }): string | undefined {
  if (values.stack !== undefined && !STACK_NAME.test(values.stack))
    return '--stack must be a stack name (a letter, then letters, digits or "-") or a stack ARN.';
  const endpoint = values.endpoint === undefined ? undefined : endpointProblem(values.endpoint);
  if (endpoint !== undefined) return `${endpoint}.`;
  if (values.region !== undefined && !REGION.test(values.region))
    return '--region must be a region name such as eu-west-1.';
  return undefined;
}

/** Why an --endpoint value is not an http(s) URL (without a full stop, so a CLI may add the value), or undefined. */
export function endpointProblem(endpoint: string): string | undefined {
  let protocol: string;
  try {
    protocol = new URL(endpoint).protocol;
  } catch {
    return '--endpoint must be a URL such as http://127.0.0.1:8000';
  }
  return protocol === 'http:' || protocol === 'https:' ? undefined : '--endpoint must be an http or https URL';
}

/** With an endpoint: a local store that accepts any credentials. Without: a real account, as the SDK finds it. */
export function createDynamoDbClient(location: { endpoint?: string; region?: string }): DynamoDBClient {
  if (location.endpoint !== undefined) {
    return new DynamoDBClient(localDynamoDbClientConfig(location.endpoint, location.region));
  }
  return new DynamoDBClient(location.region !== undefined ? { region: location.region } : {});
}

/**
 * Who is making a change, for the policy history: on AWS the caller's IAM ARN (STS GetCallerIdentity, which
 * needs no permission), so it cannot be made up; against a local store the name given, else the OS user.
 */
export async function callerIdentity(
  location: { endpoint?: string; region?: string },
  name: string | undefined,
): Promise<string> {
  if (location.endpoint !== undefined) return name ?? userInfo().username;
  const sts = new STSClient(location.region !== undefined ? { region: location.region } : {});
  try {
    const { Arn } = await sts.send(new GetCallerIdentityCommand({}));
    if (Arn === undefined)
      throw new LocationError('STS GetCallerIdentity returned no ARN; cannot record who made the change.');
    return Arn;
  } finally {
    sts.destroy();
  }
}

/**
 * The named outputs of a deployed stack (lib/password-policy-stack.ts); a LocationError names the first one
 * missing. `otherwise` names the CLI's other way to give the tables (" or --table NAME"), for the messages.
 */
export async function stackOutputs<K extends string>(
  stack: string,
  region: string | undefined,
  names: readonly K[],
  otherwise = '',
): Promise<Record<K, string>> {
  const cloudFormation = new CloudFormationClient(region !== undefined ? { region } : {});
  try {
    const output = await cloudFormation.send(new DescribeStacksCommand({ StackName: stack }));
    const outputs = output.Stacks?.[0]?.Outputs ?? [];
    const found = {} as Record<K, string>;
    for (const name of names) {
      const value = outputs.find((o) => o.OutputKey === name)?.OutputValue;
      if (value === undefined)
        throw new LocationError(
          `Stack "${stack}" has no ${name} output; is it the Password Policy Service stack? Pass --stack NAME${otherwise}.`,
        );
      found[name] = value;
    }
    return found;
  } catch (error) {
    if (error instanceof LocationError) throw error;
    if ((error as Error).name === 'ValidationError' && /does not exist/i.test((error as Error).message)) {
      throw new LocationError(
        `Stack "${stack}" does not exist in this account and region; pass --stack NAME${otherwise ? ', ' : ' or '}--region REGION${otherwise}.`,
      );
    }
    throw error;
  } finally {
    cloudFormation.destroy();
  }
}

/**
 * One sentence for an AWS failure, with a hint; never a stack trace. `missingTable` is the sentence for
 * ResourceNotFoundException (which table the command was looking for); `mask` hides secrets in echoed text.
 */
export function awsFailureMessage(
  error: unknown,
  location: { endpoint?: string; storeFile?: string },
  missingTable: string,
  mask: (text: string) => string = (t) => t,
): string {
  const e = (error ?? {}) as { name?: string; message?: string; code?: string };
  const name = e.name ?? 'Error';
  const text = String(e.message ?? error);
  if (error instanceof LocationError) return mask(error.message);
  if (name === 'ResourceNotFoundException') return missingTable;
  if (name === 'CredentialsProviderError' || /could not load credentials/i.test(text)) {
    return 'No AWS credentials were found; configure the SDK credential chain (aws configure, AWS_PROFILE, SSO) or pass --endpoint for a local store.';
  }
  if (/region is missing/i.test(text)) return LOCATION_PHRASES.noRegion;
  if (unreachable(error)) {
    if (location.storeFile !== undefined && location.endpoint !== undefined)
      return LOCATION_PHRASES.staleStoreFile(location.endpoint, location.storeFile);
    const hint =
      location.endpoint !== undefined
        ? 'check --endpoint and that the store is running'
        : 'check the network and --region';
    return `Cannot reach ${location.endpoint ?? 'AWS'} (${firstLine(text, mask)}); ${hint}.`;
  }
  return `The operation failed: ${name}: ${firstLine(text, mask)}`;
}

/** The store or AWS could not be reached at all (refused, no such host, timed out). */
function unreachable(error: unknown): boolean {
  const e = (error ?? {}) as { message?: string; code?: string };
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT/.test(`${e.code ?? ''} ${String(e.message ?? error)}`);
}

/** For a CLI with failure messages of its own (the seed loader): npm start's store file names a store that does not answer. */
export function staleStoreFileError(error: unknown, location: StoreLocation): LocationError | undefined {
  if (location.storeFile === undefined || location.endpoint === undefined || !unreachable(error)) return undefined;
  return new LocationError(LOCATION_PHRASES.staleStoreFile(location.endpoint, location.storeFile));
}

/** DynamoDB can echo a whole request in an error: keep one short line, masked before it is cut. */
function firstLine(text: string, mask: (text: string) => string): string {
  const line = mask(text.split('\n')[0] ?? '').trim();
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}
