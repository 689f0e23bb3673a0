import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { callerIdentity } from '../cli/aws';
import { createTables } from '../store/create-tables';
import { PolicyAdminError } from '../store/policy-store';
import { SEED_FILES } from '../store/seed-files';
import { loadSeed, SeedConflictError, SeedValidationError } from './seed-data';

/** A seed file as the usage names it: relative to the project root. */
const projectPath = (file: string) => path.relative(path.join(__dirname, '..'), file);

export const USAGE = `Usage: npm run seed -- --generator-table NAME --strength-table NAME --history-table NAME [options]

Validates both seed files completely, then creates the policies the tables lack, each as version 1 with a
history record in the same transaction (docs/administration.md). A policy already stored as in the file is
left alone; one that differs is replaced only with --overwrite (as a new version, recorded in the history),
otherwise nothing at all is written. Nothing is written if either file is invalid.

Options:
  --generator-table NAME    table of password generator policies (required)
  --strength-table NAME     table of password strength policies (required)
  --history-table NAME      the policy history table (required; the stack's PolicyHistoryTableName output)
  --overwrite               replace stored policies that differ from the seed files
  --actor NAME              with --endpoint: who the history records (default: the OS user); on AWS it is
                            always the caller's IAM ARN (STS GetCallerIdentity)
  --endpoint URL            a DynamoDB-compatible endpoint (dynalite, DynamoDB Local), used with dummy
                            credentials; without it the AWS SDK's credential chain and region are used
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
  endpoint: { type: 'string' },
  region: { type: 'string' },
  'generator-file': { type: 'string' },
  'strength-file': { type: 'string' },
  'create-tables': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
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

/** A mistake in the command line: reported with the usage and exit status 2. */
class UsageError extends Error {}

interface Output {
  write(text: string): unknown;
}

/** Runs the CLI and resolves to its exit status; never throws, never prints a stack trace. */
export async function main(argv: readonly string[], out: Output = process.stdout, err: Output = process.stderr): Promise<number> {
  let args: SeedArgs | 'help';
  try {
    args = parseSeedArgs(argv);
  } catch (error) {
    err.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    out.write(USAGE);
    return 0;
  }
  try {
    out.write(await seed(args));
    return 0;
  } catch (error) {
    err.write(`${failureMessage(error)}\n`);
    return 1;
  }
}

export function parseSeedArgs(argv: readonly string[]): SeedArgs | 'help' {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const generatorTable = required(values['generator-table'], '--generator-table');
  const strengthTable = required(values['strength-table'], '--strength-table');
  const historyTable = required(values['history-table'], '--history-table');
  if (values.endpoint !== undefined) checkEndpoint(values.endpoint);
  if (values.actor !== undefined && values.endpoint === undefined) throw new UsageError("--actor is for a local store (--endpoint); on AWS the history records the caller's IAM ARN");
  if (values['credentials-table'] !== undefined) required(values['credentials-table'], '--credentials-table');
  if (values['credentials-table'] !== undefined && !values['create-tables']) throw new UsageError('--credentials-table is only used with --create-tables');
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

/** DynamoDB's own rule for table names, checked here so a typo is a usage error, not a 400 from the service. */
const TABLE_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;

function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${option} is required`);
  if (!TABLE_NAME.test(value)) throw new UsageError(`${option} must be 3 to 255 letters, digits, "_", "-" or "." (got "${value}")`);
  return value;
}

function checkEndpoint(endpoint: string): void {
  let protocol: string;
  try {
    protocol = new URL(endpoint).protocol;
  } catch {
    throw new UsageError(`--endpoint must be a URL such as http://127.0.0.1:8000 (got "${endpoint}")`);
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new UsageError(`--endpoint must be an http or https URL (got "${endpoint}")`);
}

/** Creates the tables if asked, loads both files, and returns the summary lines. */
async function seed(args: SeedArgs): Promise<string> {
  const client = createClient(args);
  try {
    const lines: string[] = [];
    if (args.createTables) {
      const created = await createTables(client, { generator: args.generatorTable, strength: args.strengthTable, history: args.historyTable, credentials: args.credentialsTable });
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
      actor: await callerIdentity(args, args.actor),
    });
    lines.push(
      `Wrote ${result.generator} generator policies to ${args.generatorTable} and ${result.strength} strength policies to ${args.strengthTable} ` +
        `(${result.created} created, ${result.overwritten} overwritten, ${result.unchanged} unchanged), each recorded in ${args.historyTable}.`,
    );
    return lines.map((line) => `${line}\n`).join('');
  } finally {
    // Keep-alive sockets would otherwise hold the process open after the work is done.
    client.destroy();
  }
}

/** With --endpoint: a local store that accepts any credentials. Without: a real account, as the SDK finds it. */
function createClient(args: SeedArgs): DynamoDBClient {
  if (args.endpoint !== undefined) {
    return new DynamoDBClient({
      endpoint: args.endpoint,
      region: args.region ?? process.env.AWS_REGION ?? 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  }
  return new DynamoDBClient(args.region !== undefined ? { region: args.region } : {});
}

function failureMessage(error: unknown): string {
  if (error instanceof SeedValidationError) return `Seed data is invalid; nothing was written.\n${error.message}`;
  if (error instanceof SeedConflictError) return `Stored policies differ from the seed files:\n${error.message}`;
  if (error instanceof PolicyAdminError) return `Seeding refused: ${error.message}`;
  if (error instanceof ResourceNotFoundException) return `Seeding failed: a table does not exist (${error.message}); create it or pass --create-tables.`;
  const e = error as Error;
  const text = String(e.message ?? error);
  const hint = /region is missing/i.test(text) ? ' (pass --region or set AWS_REGION)' : '';
  // DynamoDB's ValidationException can echo the whole request; the first few hundred characters say enough.
  const shown = text.length > 300 ? `${text.slice(0, 300)}...` : text;
  return `Seeding failed: ${e.name ?? 'Error'}: ${shown}${hint}`;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
