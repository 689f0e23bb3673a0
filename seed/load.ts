import * as path from 'node:path';
import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  callerIdentity,
  createDynamoDbClient,
  endpointProblem,
  findStore,
  LocationError,
  LOCATION_PHRASES,
  staleStoreFileError,
  STORE_OPTIONS,
  TABLE_NAME,
} from '../cli/aws';
import { cliMain, Help, parseCommandLine, UsageError, type Cli, type Io } from '../cli/command-line';
import { STACK_OUTPUTS } from '../lib/deployment';
import { createTables } from '../store/create-tables';
import { PolicyAdminError } from '../store/policy-store';
import { DEFAULT_LOCAL_STORE_FILE } from '../store/local-store-file';
import { SEED_FILES } from '../store/seed-files';
import { loadSeed, SeedConflictError, SeedValidationError } from './seed-data';

/** A seed file as the usage names it: relative to the project root. */
const projectPath = (file: string) => path.relative(path.join(__dirname, '..'), file);

const USAGE = `Usage: npm run seed -- --generator-table NAME --strength-table NAME --history-table NAME [options]

Validates both seed files completely, then creates the policies the tables lack, each as version 1 with a
history record in the same transaction (docs/administration.md). A policy already stored as in the file is
left alone; one that differs is replaced only with --overwrite (as a new version, recorded in the history),
otherwise nothing at all is written. Nothing is written if either file is invalid.

Options:
  --generator-table NAME    table of password generator policies (required)
  --strength-table NAME     table of password strength policies (required)
  --history-table NAME      the policy history table (required; the stack's ${STACK_OUTPUTS.policyHistoryTable} output)
  --overwrite               replace stored policies that differ from the seed files
  --actor NAME              on a local store: who the history records (default: the OS user); on AWS it
                            is always the caller's IAM ARN (STS GetCallerIdentity)
  --endpoint URL            a DynamoDB-compatible endpoint (dynalite, DynamoDB Local), used with dummy
                            credentials; without it the AWS SDK's credential chain and region are used or,
                            when no region is configured, the store of a running npm start (named in
                            ${DEFAULT_LOCAL_STORE_FILE})
  --region REGION           AWS region (default: the SDK's configuration; "local" with --endpoint)
  --generator-file FILE     default: ${projectPath(SEED_FILES.generator)}
  --strength-file FILE      default: ${projectPath(SEED_FILES.strength)}
  --create-tables           create missing tables (on-demand capacity) and wait until they are ACTIVE
  --credentials-table NAME  with --create-tables, also create the credentials table
  -h, --help                print this help

Exit status: 0 written (or nothing to write), 1 invalid seed file, a stored policy differs (without
--overwrite), a concurrent change, or a DynamoDB failure; 2 usage error.
`;

const OPTIONS = {
  'generator-table': { type: 'string' },
  'strength-table': { type: 'string' },
  'history-table': { type: 'string' },
  overwrite: { type: 'boolean', default: false },
  actor: { type: 'string' },
  'credentials-table': { type: 'string' },
  'generator-file': { type: 'string' },
  'strength-file': { type: 'string' },
  'create-tables': { type: 'boolean', default: false },
  ...STORE_OPTIONS,
} as const;

export interface SeedArgs {
  generatorTable: string;
  strengthTable: string;
  historyTable: string;
  overwrite: boolean;
  actor?: string;
  credentialsTable?: string;
  endpoint?: string;
  region?: string;
  generatorFile?: string;
  strengthFile?: string;
  createTables: boolean;
}

const SEED_CLI: Cli<SeedArgs> = {
  usage: USAGE,
  parse: (argv) => {
    const args = parseSeedArgs(argv);
    return args === 'help' ? new Help(USAGE) : args;
  },
  run: async (args, io) => {
    io.stdout.write(await seed(args, io));
  },
  failureMessage,
};

/** Runs the CLI (cli/command-line.ts) and resolves to its exit status; never prints a stack trace. */
export function parseSeedArgs(argv: readonly string[]): SeedArgs | 'help' {
  const { values } = parseCommandLine(argv, OPTIONS, { positionals: false });
  if (values.help) return 'help';
  const generatorTable = required(values['generator-table'], '--generator-table');
  const strengthTable = required(values['strength-table'], '--strength-table');
  const historyTable = required(values['history-table'], '--history-table');
  if (values.endpoint !== undefined) checkEndpoint(values.endpoint);
  // Without --endpoint or --region the store may still be npm start's: known only when the command runs.
  if (values.actor !== undefined && values.endpoint === undefined && values.region !== undefined)
    throw new UsageError(ACTOR_ON_AWS);
  if (values['credentials-table'] !== undefined) required(values['credentials-table'], '--credentials-table');
  if (values['credentials-table'] !== undefined && !values['create-tables'])
    throw new UsageError('--credentials-table is only used with --create-tables');
  return {
    generatorTable,
    strengthTable,
    historyTable,
    overwrite: values.overwrite,
    actor: values.actor,
    credentialsTable: values['credentials-table'],
    endpoint: values.endpoint,
    region: values.region,
    generatorFile: values['generator-file'],
    strengthFile: values['strength-file'],
    createTables: values['create-tables'],
  };
}

/** A table name is checked here (DynamoDB's own rule), so a typo is a usage error, not a 400 from the service. */
function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${option} is required`);
  if (!TABLE_NAME.test(value))
    throw new UsageError(`${option} must be 3 to 255 letters, digits, "_", "-" or "." (got "${value}")`);
  return value;
}

function checkEndpoint(endpoint: string): void {
  const problem = endpointProblem(endpoint);
  if (problem !== undefined) throw new UsageError(`${problem} (got "${endpoint}")`);
}

const ACTOR_ON_AWS = "--actor is for a local store (--endpoint); on AWS the history records the caller's IAM ARN";

/** Finds the store (findStore), creates the tables if asked, loads both files, and returns the summary lines. */
async function seed(args: SeedArgs, io: Io): Promise<string> {
  const location = await findStore({ endpoint: args.endpoint, region: args.region, namesAwsTables: false }, io);
  if (args.actor !== undefined && location.endpoint === undefined) throw new UsageError(ACTOR_ON_AWS);
  const client = createDynamoDbClient(location);
  try {
    const lines: string[] = [];
    if (args.createTables) {
      const created = await createTables(client, {
        generator: args.generatorTable,
        strength: args.strengthTable,
        history: args.historyTable,
        credentials: args.credentialsTable,
      });
      lines.push(created.length > 0 ? `Created table(s) ${created.join(', ')}.` : 'All tables already exist.');
    }
    const result = await loadSeed({
      client: DynamoDBDocumentClient.from(client),
      generatorTable: args.generatorTable,
      strengthTable: args.strengthTable,
      historyTable: args.historyTable,
      generatorFile: args.generatorFile,
      strengthFile: args.strengthFile,
      overwrite: args.overwrite,
      actor: await callerIdentity(location, args.actor),
    });
    lines.push(
      `Wrote ${result.generator} generator policies to ${args.generatorTable} and ${result.strength} strength policies to ${args.strengthTable} ` +
        `(${result.created} created, ${result.overwritten} overwritten, ${result.unchanged} unchanged), each recorded in ${args.historyTable}.`,
    );
    return lines.map((line) => `${line}\n`).join('');
  } catch (error) {
    throw staleStoreFileError(error, location) ?? error;
  } finally {
    // Keep-alive sockets would otherwise hold the process open after the work is done.
    client.destroy();
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof LocationError) return error.message;
  if (error instanceof SeedValidationError) return `Seed data is invalid; nothing was written.\n${error.message}`;
  if (error instanceof SeedConflictError) return `Stored policies differ from the seed files:\n${error.message}`;
  if (error instanceof PolicyAdminError) return `Seeding refused: ${error.message}`;
  if (error instanceof ResourceNotFoundException)
    return `Seeding failed: a table does not exist (${error.message}); create it or pass --create-tables.`;
  const e = error as Error;
  const text = String(e.message ?? error);
  if (/region is missing/i.test(text)) return LOCATION_PHRASES.noRegion;
  // DynamoDB's ValidationException can echo the whole request; the first few hundred characters say enough.
  const shown = text.length > 300 ? `${text.slice(0, 300)}...` : text;
  return `Seeding failed: ${e.name ?? 'Error'}: ${shown}`;
}

export const main = cliMain(SEED_CLI, module);
