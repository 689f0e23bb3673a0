import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { userInfo } from 'node:os';
import { DEFAULT_STACK_NAME } from '../lib/deployment';
import { localDynamoDbClientConfig } from '../functions/runtime';

/**
 * What the operator CLIs (credentials, policy, seed) share about reaching their tables: a deployed stack
 * found by its outputs with the SDK's credential chain, or a local store (`npm start`'s dynalite) at
 * --endpoint; who makes a change; and one sentence for each way an AWS call fails.
 */

/** The options the credentials and policy CLIs take to find the deployed stack or a local store (node:util parseArgs). */
export const AWS_LOCATION_OPTIONS = {
  endpoint: { type: 'string' },
  stack: { type: 'string' },
  region: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The stack name `cdk deploy` uses unless told otherwise (bin/app.ts). */
export const DEFAULT_STACK = DEFAULT_STACK_NAME;

/** DynamoDB's rule for table names, and CloudFormation's for stack names (or a stack ARN). */
export const TABLE_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;
const STACK_NAME = /^([a-zA-Z][-a-zA-Z0-9]{0,127}|arn:[\x21-\x7e]+)$/;
const REGION = /^[a-z0-9-]{1,50}$/;

/** A failure that is the operator's to fix (a missing stack or output), reported as it is. */
export class LocationError extends Error {}

/** Why an --endpoint, --stack or --region value is not usable, or undefined when it is. */
export function locationProblem(values: { endpoint?: string; stack?: string; region?: string }): string | undefined {
  if (values.stack !== undefined && !STACK_NAME.test(values.stack)) return '--stack must be a stack name (a letter, then letters, digits or "-") or a stack ARN.';
  const endpoint = values.endpoint === undefined ? undefined : endpointProblem(values.endpoint);
  if (endpoint !== undefined) return `${endpoint}.`;
  if (values.region !== undefined && !REGION.test(values.region)) return '--region must be a region name such as eu-west-1.';
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
export async function callerIdentity(location: { endpoint?: string; region?: string }, name: string | undefined): Promise<string> {
  if (location.endpoint !== undefined) return name ?? userInfo().username;
  const sts = new STSClient(location.region !== undefined ? { region: location.region } : {});
  try {
    const { Arn } = await sts.send(new GetCallerIdentityCommand({}));
    if (Arn === undefined) throw new LocationError('STS GetCallerIdentity returned no ARN; cannot record who made the change.');
    return Arn;
  } finally {
    sts.destroy();
  }
}

/**
 * The named outputs of a deployed stack (lib/password-policy-stack.ts); a LocationError names the first one
 * missing. `otherwise` names the CLI's other way to give the tables (" or --table NAME"), for the messages.
 */
export async function stackOutputs<K extends string>(stack: string, region: string | undefined, names: readonly K[], otherwise = ''): Promise<Record<K, string>> {
  const cloudFormation = new CloudFormationClient(region !== undefined ? { region } : {});
  try {
    const output = await cloudFormation.send(new DescribeStacksCommand({ StackName: stack }));
    const outputs = output.Stacks?.[0]?.Outputs ?? [];
    const found = {} as Record<K, string>;
    for (const name of names) {
      const value = outputs.find((o) => o.OutputKey === name)?.OutputValue;
      if (value === undefined) throw new LocationError(`Stack "${stack}" has no ${name} output; is it the Password Policy Service stack? Pass --stack NAME${otherwise}.`);
      found[name] = value;
    }
    return found;
  } catch (error) {
    if (error instanceof LocationError) throw error;
    if ((error as Error).name === 'ValidationError' && /does not exist/i.test((error as Error).message)) {
      throw new LocationError(`Stack "${stack}" does not exist in this account and region; pass --stack NAME${otherwise ? ', ' : ' or '}--region REGION${otherwise}.`);
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
export function awsFailureMessage(error: unknown, location: { endpoint?: string }, missingTable: string, mask: (text: string) => string = (t) => t): string {
  const e = (error ?? {}) as { name?: string; message?: string; code?: string };
  const name = e.name ?? 'Error';
  const text = String(e.message ?? error);
  if (error instanceof LocationError) return mask(error.message);
  if (name === 'ResourceNotFoundException') return missingTable;
  if (name === 'CredentialsProviderError' || /could not load credentials/i.test(text)) {
    return 'No AWS credentials were found; configure the SDK credential chain (aws configure, AWS_PROFILE, SSO) or pass --endpoint for a local store.';
  }
  if (/region is missing/i.test(text)) return 'No AWS region is configured; pass --region REGION or set AWS_REGION.';
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT/.test(`${e.code ?? ''} ${text}`)) {
    const hint = location.endpoint !== undefined ? 'check --endpoint and that the store is running' : 'check the network and --region';
    return `Cannot reach ${location.endpoint ?? 'AWS'} (${firstLine(text, mask)}); ${hint}.`;
  }
  return `The operation failed: ${name}: ${firstLine(text, mask)}`;
}

/** DynamoDB can echo a whole request in an error: keep one short line, masked before it is cut. */
function firstLine(text: string, mask: (text: string) => string): string {
  const line = mask(text.split('\n')[0] ?? '').trim();
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}
