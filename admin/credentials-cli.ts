import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  CREDENTIAL_SCHEMES,
  DEFAULT_USAGE_PLAN,
  GENERATOR_ADMIN_ROLE,
  isUsagePlanName,
  schemeScope,
  USAGE_PLAN_NAMES,
  type UsagePlanName,
} from '../functions/routes';
import { STACK_OUTPUTS, USAGE_PLANS } from '../lib/deployment';
import { TABLES } from '../functions/repositories/tables';
import { KEY_PREFIX } from '../functions/domain/api-key';
import type { SystemKeyKind } from '../functions/repositories/credentials';
import {
  awsFailureMessage,
  createDynamoDbClient,
  DEFAULT_STACK,
  AWS_LOCATION_OPTIONS,
  findStore,
  LocationError,
  locationProblem,
  stackOutputs,
  TABLE_NAME,
} from '../cli/aws';
import { DEFAULT_LOCAL_STORE_FILE } from '../store/local-store-file';
import {
  checkOptions,
  commandList,
  findCommand,
  cliMain,
  Help,
  parseCommandLine,
  UsageError,
  USAGE_PHRASES,
  type Cli,
  type Command,
  type Io,
} from '../cli/command-line';
import { UsagePlanAdmin } from './usage-plans';
import {
  checkKeyId,
  checkRole,
  checkUserId,
  CredentialAdmin,
  CredentialAdminError,
  SYSTEM_KEY_TITLES,
  type CredentialListing,
  type KeySummary,
} from './credential-admin';

/** The output of the deployed stack naming the credentials table. */
const TABLE_OUTPUT = STACK_OUTPUTS.credentialsTable;
/** The local gateway (`npm start`) names its tables after their kind. */
const LOCAL_TABLE = TABLES.credentials.logicalName;

/** The paths each kind of credential opens, as the route table names them. */
const USER_PATHS = schemeScope(CREDENTIAL_SCHEMES.generatorUser);
const GENERATOR_KEY_PATHS = schemeScope(CREDENTIAL_SCHEMES.generatorKey);
const STRENGTH_KEY_PATHS = schemeScope(CREDENTIAL_SCHEMES.strengthKey);

const COMMON_OPTIONS = `Where the credentials table is (the first that applies; with none of these and no AWS region
configured, the store of a running npm start, which it names in ${DEFAULT_LOCAL_STORE_FILE}):
  --table NAME        the credentials table itself
  --endpoint URL      a local DynamoDB-compatible store such as npm start's dynalite (its URL is in the
                      banner); dummy credentials, region "local", table "${LOCAL_TABLE}" unless --table
  --stack NAME        the deployed stack whose ${TABLE_OUTPUT} output names the table
                      (default: ${DEFAULT_STACK}); read with the AWS SDK's credential chain
  --region REGION     AWS region (default: the SDK's configuration; "local" with --endpoint)
  -h, --help          print help`;

const EXIT_STATUS = 'Exit status: 0 done, 1 the operation failed (unknown user or key id, AWS error), 2 usage error.';

/**
 * One entry of the command table: its words (a command, or a group and a command), its usage line and
 * help (`details`), its options, and what it runs. Adding a command is adding an entry.
 */
interface CommandSpec extends Command<OptionName> {
  readonly path: readonly [string] | readonly [string, string];
  readonly details: string;
  readonly run: (admin: CredentialAdmin, args: CommandArgs, io: Io, usage: UsagePlanAdmin | undefined) => Promise<void>;
  /** It issues, revokes or moves keys: on a deployed stack it also keeps API Gateway's usage plans in step. */
  readonly usagePlans?: true;
}

interface CommandArgs {
  userId: string;
  roles: string[];
  keyId: string;
  json: boolean;
  plan: UsagePlanName;
}

const OPTIONS = {
  'user-id': { type: 'string' },
  role: { type: 'string', multiple: true },
  'key-id': { type: 'string' },
  plan: { type: 'string' },
  json: { type: 'boolean' },
  table: { type: 'string' },
  ...AWS_LOCATION_OPTIONS,
} as const;

type OptionName = keyof typeof OPTIONS;
/** The options every command takes: where the table is, and --help. */
const COMMON: readonly OptionName[] = ['table', 'stack', 'endpoint', 'region', 'help'];

const COMMANDS: readonly CommandSpec[] = [
  {
    path: ['user', 'create'],
    synopsis: 'user create --user-id ID [--role ROLE]...',
    summary: 'create a user (no keys yet), with roles',
    details: `Creates a user with the given roles and no keys. Fails if the user exists.
The generator API (${USER_PATHS}) needs the role:  --role "${GENERATOR_ADMIN_ROLE}"

  --user-id ID    1 to 128 printable ASCII characters without spaces (the UserID header)
  --role ROLE     a role to hold; repeat for several`,
    options: ['user-id', 'role'],
    required: ['user-id'],
    run: async (admin, args, io) => {
      await admin.createUser(args.userId, args.roles);
      warnAboutRoles(args.roles, io);
      const roles = args.roles.length > 0 ? `roles ${args.roles.map(quote).join(', ')}` : 'no roles';
      io.stdout.write(
        `Created user ${quote(args.userId)} with ${roles}. Issue a key with: user issue-key --user-id ${args.userId}\n`,
      );
    },
  },
  {
    path: ['user', 'grant-role'],
    synopsis: 'user grant-role --user-id ID --role ROLE',
    summary: 'give a user a role',
    details: `Gives the user a role (nothing changes if it already holds it).
The generator API (${USER_PATHS}) needs the role "${GENERATOR_ADMIN_ROLE}".

  --user-id ID    the user
  --role ROLE     the role`,
    options: ['user-id', 'role'],
    required: ['user-id', 'role'],
    run: async (admin, args, io) => {
      await admin.grantRole(args.userId, args.roles[0]!);
      warnAboutRoles(args.roles, io);
      io.stdout.write(`User ${quote(args.userId)} holds the role ${quote(args.roles[0]!)}.\n`);
    },
  },
  {
    path: ['user', 'revoke-role'],
    synopsis: 'user revoke-role --user-id ID --role ROLE',
    summary: 'take a role away from a user',
    details: `Takes a role away from the user. Fails if the user does not hold it, so a mistyped role name
is never mistaken for a revocation. Takes effect within the revocation bound (the authorizer cache TTL).

  --user-id ID    the user
  --role ROLE     the role`,
    options: ['user-id', 'role'],
    required: ['user-id', 'role'],
    run: async (admin, args, io) => {
      await admin.revokeRole(args.userId, args.roles[0]!);
      io.stdout.write(`Revoked the role ${quote(args.roles[0]!)} from user ${quote(args.userId)}.\n`);
    },
  },
  {
    path: ['user', 'disable'],
    synopsis: 'user disable --user-id ID',
    summary: 'stop every key of a user working (keeps the keys)',
    details: `Disables the user: none of its keys opens the API any more (within the revocation bound), and no
new key can be issued. The keys and roles are kept for "user enable".

  --user-id ID    the user`,
    options: ['user-id'],
    required: ['user-id'],
    run: async (admin, args, io) => {
      await admin.disableUser(args.userId);
      io.stdout.write(`Disabled user ${quote(args.userId)}.\n`);
    },
  },
  {
    path: ['user', 'enable'],
    synopsis: 'user enable --user-id ID',
    summary: 'let a disabled user in again',
    details: `Enables the user again: its active keys work again.

  --user-id ID    the user`,
    options: ['user-id'],
    required: ['user-id'],
    run: async (admin, args, io) => {
      await admin.enableUser(args.userId);
      io.stdout.write(`Enabled user ${quote(args.userId)}.\n`);
    },
  },
  {
    path: ['user', 'issue-key'],
    synopsis: 'user issue-key --user-id ID',
    summary: 'issue a new key for a user (prints the key alone on stdout)',
    details: `Issues a new APIKey for the user; its other keys stay active (rotation: issue, deploy, then revoke
the old key). Prints the key alone on stdout and its key id on stderr, so this works:
  KEY=$(npm run -s credentials -- user issue-key --user-id alice --stack ${DEFAULT_STACK})
The key is shown only this once; only its SHA-256 digest is stored. Fails for an unknown or disabled user.

  --user-id ID    the user`,
    options: ['user-id'],
    required: ['user-id'],
    usagePlans: true,
    run: async (admin, args, io, usage) => {
      const { key, keyId } = await admin.issueUserKey(args.userId);
      await usage?.attach(keyId, DEFAULT_USAGE_PLAN);
      io.stdout.write(`${key}\n`);
      io.stderr.write(`Issued key id ${keyId} for user ${quote(args.userId)}. ${SHOWN_ONCE}\n`);
    },
  },
  {
    path: ['user', 'revoke-key'],
    synopsis: 'user revoke-key --user-id ID --key-id KEYID',
    summary: "revoke one of a user's keys",
    details: `Revokes one key of the user (its other keys stay active). Takes effect within the revocation bound.

  --user-id ID      the user
  --key-id KEYID    the 12 hex characters after "ppg_" (shown by issue-key and list)`,
    options: ['user-id', 'key-id'],
    required: ['user-id', 'key-id'],
    usagePlans: true,
    run: async (admin, args, io, usage) => {
      await admin.revokeUserKey(args.userId, args.keyId);
      await usage?.detach(args.keyId);
      io.stdout.write(`Revoked key id ${args.keyId} of user ${quote(args.userId)}.\n`);
    },
  },
  ...systemKeyCommands('generator', 'generator-key', GENERATOR_KEY_PATHS),
  ...systemKeyCommands('strength', 'strength-key', STRENGTH_KEY_PATHS),
  {
    path: ['usage-plan', 'set'],
    synopsis: 'usage-plan set --key-id KEYID --plan NAME',
    summary: 'put one key on a usage plan (its own rate limit and quota)',
    details: `Puts one issued key (of a user, or a generator or strength key) on a usage plan: its own rate limit,
burst and daily quota, so one client cannot starve the others. Every new key starts on "${DEFAULT_USAGE_PLAN}".
On a deployed stack it moves the key's API Gateway API key between the stack's usage plans (creating it
for a key issued before usage plans existed); with --endpoint it records the plan, which the local gateway
emulates when EMULATE_USAGE_PLANS=1. Takes effect within the authorizer cache TTL.

  --key-id KEYID    the 12 hex characters after the key's prefix (shown by issue and list)
  --plan NAME       ${Object.entries(USAGE_PLANS)
    .map(([name, p]) => `${name} (${p.rateLimit}/s, bursts of ${p.burstLimit}, ${p.quotaPerDay} a day)`)
    .join(', ')}`,
    options: ['key-id', 'plan'],
    required: ['key-id', 'plan'],
    usagePlans: true,
    run: async (admin, args, io, usage) => {
      await admin.setUsagePlan(args.keyId, args.plan);
      await usage?.move(args.keyId, args.plan);
      io.stdout.write(`Key id ${args.keyId} is on the usage plan ${quote(args.plan)}.\n`);
    },
  },
  {
    path: ['list'],
    synopsis: 'list [--json]',
    summary: 'users, roles and key ids with their dates (never a key)',
    details: `Lists every user (roles, disabled or not, key ids with created and last-used dates), and every
password generator API key id and password strength key id with its dates. Never prints a key or a digest.

  --json    print JSON instead of text`,
    options: ['json'],
    required: [],
    run: async (admin, args, io) => {
      const listing = await admin.list();
      io.stdout.write(args.json ? `${JSON.stringify(listing, null, 2)}\n` : formatListing(listing));
    },
  },
];

const SHOWN_ONCE = 'The key is shown only this once; store it in a secret manager now.';

/**
 * issue, list and revoke of a system-wide key kind. Rotation is issue, then move the clients, then revoke:
 * both keys work in between.
 */
function systemKeyCommands(kind: SystemKeyKind, group: string, paths: string): CommandSpec[] {
  const title = SYSTEM_KEY_TITLES[kind];
  return [
    {
      path: [group, 'issue'],
      synopsis: `${group} issue`,
      summary: `issue a ${title} (prints the key alone on stdout)`,
      details: `Issues a new ${title} (the APIKey header of ${paths}); the other ${title}s stay
active, so a key is rotated by issuing a new one, moving the clients to it, then revoking the old one.
Prints the key alone on stdout and its key id on stderr, so this works:
  KEY=$(npm run -s credentials -- ${group} issue --stack ${DEFAULT_STACK})
The key is shown only this once; only its SHA-256 digest is stored.`,
      options: [],
      required: [],
      usagePlans: true,
      run: async (admin, _args, io, usage) => {
        const { key, keyId } = await admin.issueSystemKey(kind);
        await usage?.attach(keyId, DEFAULT_USAGE_PLAN);
        io.stdout.write(`${key}\n`);
        io.stderr.write(`Issued ${title} id ${keyId}. ${SHOWN_ONCE}\n`);
      },
    },
    {
      path: [group, 'list'],
      synopsis: `${group} list [--json]`,
      summary: `${title} ids with their dates (never a key)`,
      details: `Lists every ${title} id with its created and last-used dates. Never prints a key or a digest.

  --json    print JSON instead of text`,
      options: ['json'],
      required: [],
      run: async (admin, args, io) => {
        const keys = (await admin.list())[LISTING_FIELD[kind]];
        io.stdout.write(
          args.json
            ? `${JSON.stringify(keys, null, 2)}\n`
            : `${[`${capitalised(title)}s (${keys.length}):`, ...keyLines(keys, '  ')].join('\n')}\n`,
        );
      },
    },
    {
      path: [group, 'revoke'],
      synopsis: `${group} revoke --key-id KEYID`,
      summary: `revoke a ${title}`,
      details: `Revokes one ${title}. Takes effect within the revocation bound.

  --key-id KEYID    the 12 hex characters after "${KEY_PREFIX[kind]}_" (shown by issue and list)`,
      options: ['key-id'],
      required: ['key-id'],
      usagePlans: true,
      run: async (admin, args, io, usage) => {
        await admin.revokeSystemKey(kind, args.keyId);
        await usage?.detach(args.keyId);
        io.stdout.write(`Revoked ${title} id ${args.keyId}.\n`);
      },
    },
  ];
}

const LISTING_FIELD = { generator: 'generatorKeys', strength: 'strengthKeys' } as const satisfies Record<
  SystemKeyKind,
  keyof CredentialListing
>;

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const USAGE = `Usage: npm run credentials -- <command> [options]

Manages the credentials table of the Password Policy Service: users with roles and API keys for ${USER_PATHS},
password generator API keys for ${GENERATOR_KEY_PATHS}, and password strength keys
for ${STRENGTH_KEY_PATHS}. Only SHA-256 digests of keys are stored; a new key is printed once.

Commands:
${commandList(COMMANDS, 46)}

${COMMON_OPTIONS}

"npm run credentials -- <command> --help" describes one command.
Changes take effect within the revocation bound: the API's authorizer cache TTL (300 s by default).
${EXIT_STATUS}
`;

/** A Map, since the group name comes from the command line: "constructor" must find nothing. */
const GROUP_USAGE: ReadonlyMap<string, string> = new Map(
  ['user', 'generator-key', 'strength-key', 'usage-plan'].map((group) => [
    group,
    `Usage: npm run credentials -- ${group} <command> [options]

Commands:
${commandList(
  COMMANDS.filter((c) => c.path[0] === group),
  46,
)}

"npm run credentials -- ${group} <command> --help" describes one command.
`,
  ]),
);

function commandUsage(command: CommandSpec): string {
  return `Usage: npm run credentials -- ${command.synopsis} [options]

${command.details}

${COMMON_OPTIONS}

${EXIT_STATUS}
`;
}

/** Where the table is: as the command line gives it, then as found when the command runs (findStore). */
interface Location {
  table?: string;
  stack?: string;
  endpoint?: string;
  region?: string;
  storeFile?: string;
}

interface Run {
  command: CommandSpec;
  args: CommandArgs;
  location: Location;
}

const CREDENTIALS_CLI: Cli<Run> = {
  usage: USAGE,
  parse: parseCredentialsCommandLine,
  run: (run, io) => execute(run.command, run.args, run, io),
  failureMessage: (error, { location }) => failureMessage(error, location),
  redact,
};

/** Runs the CLI (cli/command-line.ts) and resolves to its exit status; never prints a stack trace or a key in an error. */
function parseCredentialsCommandLine(argv: readonly string[]): Run | Help {
  // With a mistake parseArgs finds, still show the usage of the command the operator was typing.
  const { values, positionals } = parseCommandLine(argv, OPTIONS, { usageFor });
  if (positionals.length === 0) {
    if (values.help) return new Help(USAGE);
    throw new UsageError(USAGE_PHRASES.commandRequired, USAGE);
  }
  const command = findCommand(COMMANDS, positionals);
  const group = GROUP_USAGE.get(positionals[0]!);
  if (values.help && (command || (group !== undefined && positionals.length === 1)))
    return new Help(command ? commandUsage(command) : group!);
  if (!command) throw new UsageError(unknownCommandMessage(positionals), usageFor(positionals));
  return { command, args: commandArgs(command, values), location: locationOf(command, values) };
}

type Values = { [K in OptionName]?: K extends 'role' ? string[] : K extends 'json' | 'help' ? boolean : string };

/** The command the leading words name, ignoring extra words after it. */
function commandAtStart(positionals: readonly string[]): CommandSpec | undefined {
  return findCommand(COMMANDS, positionals.slice(0, 2)) ?? findCommand(COMMANDS, positionals.slice(0, 1));
}

function usageFor(positionals: readonly string[]): string {
  const command = commandAtStart(positionals);
  return command ? commandUsage(command) : (GROUP_USAGE.get(positionals[0] ?? '') ?? USAGE);
}

function unknownCommandMessage(positionals: readonly string[]): string {
  if (GROUP_USAGE.has(positionals[0]!) && positionals.length === 1) return `"${positionals[0]}" needs a command.`;
  // Extra words are not echoed: one could be a key pasted in the wrong place.
  if (commandAtStart(positionals)) return USAGE_PHRASES.unexpectedArgument;
  return USAGE_PHRASES.unknownCommand(redact(positionals.slice(0, 2).join(' ')));
}

function commandArgs(command: CommandSpec, values: Values): CommandArgs {
  const usage = commandUsage(command);
  checkOptions(command, values, COMMON, usage);
  const roles = values.role ?? [];
  if (command.path[0] !== 'user' || command.path[1] !== 'create') {
    if (roles.length > 1) throw new UsageError('--role may be given only once here.', usage);
  }
  const plan = values.plan ?? DEFAULT_USAGE_PLAN;
  if (!isUsagePlanName(plan)) throw new UsageError(`--plan must be one of ${USAGE_PLAN_NAMES.join(', ')}.`, usage);
  return { userId: values['user-id'] ?? '', roles, keyId: values['key-id'] ?? '', json: values.json === true, plan };
}

function locationOf(command: CommandSpec, values: Values): Location {
  const usage = commandUsage(command);
  const { table, stack, endpoint, region } = values;
  if (table !== undefined && stack !== undefined) throw new UsageError('Give --table or --stack, not both.', usage);
  if (endpoint !== undefined && stack !== undefined)
    throw new UsageError(
      '--stack reads a deployed stack; with --endpoint give --table (default "Credentials").',
      usage,
    );
  if (table !== undefined && !TABLE_NAME.test(table))
    throw new UsageError('--table must be 3 to 255 letters, digits, "_", "-" or ".".', usage);
  const problem = locationProblem({ stack, endpoint, region });
  if (problem !== undefined) throw new UsageError(problem, usage);
  return { table, stack, endpoint, region };
}

/** The store findStore finds, and the table in it: --table, else a local store's, else the stack's output (read later). */
async function findTable(given: Location, io: Io): Promise<Location> {
  const found = await findStore(
    {
      endpoint: given.endpoint,
      region: given.region,
      namesAwsTables: given.stack !== undefined || given.table !== undefined,
    },
    io,
  );
  if (found.endpoint === undefined)
    return {
      table: given.table,
      stack: given.table === undefined ? (given.stack ?? DEFAULT_STACK) : undefined,
      region: found.region,
    };
  return {
    table: given.table ?? found.tables?.credentials ?? LOCAL_TABLE,
    endpoint: found.endpoint,
    region: found.region,
    storeFile: found.storeFile,
  };
}

/** Checks the arguments before any AWS call, finds the table, then runs the command. */
async function execute(command: CommandSpec, args: CommandArgs, run: Run, io: Io): Promise<void> {
  if (command.options.includes('user-id')) checkUserId(args.userId);
  args.roles.forEach(checkRole);
  if (command.options.includes('key-id')) checkKeyId(args.keyId);
  const location = (run.location = await findTable(run.location, io));
  const dynamodb = createDynamoDbClient(location);
  let usage: UsagePlanAdmin | undefined;
  try {
    // A deployed stack names its table and, for a command that needs them, its usage plans, in one read;
    // --table and --endpoint name a table alone.
    const outputs =
      location.stack === undefined
        ? undefined
        : await stackOutputs(
            location.stack,
            location.region,
            [TABLE_OUTPUT, ...(command.usagePlans ? UsagePlanAdmin.OUTPUTS : [])],
            ' or --table NAME',
          );
    const table = location.table ?? outputs![TABLE_OUTPUT]!;
    location.table = table;
    usage =
      command.usagePlans && outputs !== undefined ? UsagePlanAdmin.fromOutputs(outputs, location.region) : undefined;
    if (command.usagePlans && usage === undefined && location.endpoint === undefined) {
      io.stderr.write(
        'Note: with --table no usage plan is changed; give --stack so the key is metered (the API answers 403 to a key without one).\n',
      );
    }
    await command.run(new CredentialAdmin(DynamoDBDocumentClient.from(dynamodb), table), args, io, usage);
  } finally {
    // Keep-alive sockets would otherwise hold the process open after the work is done.
    dynamodb.destroy();
    usage?.destroy();
  }
}

function warnAboutRoles(roles: readonly string[], io: Io): void {
  for (const role of roles) {
    if (role !== GENERATOR_ADMIN_ROLE)
      io.stderr.write(
        `Note: the API checks only the role "${GENERATOR_ADMIN_ROLE}"; ${quote(role)} grants nothing by itself.\n`,
      );
  }
}

function formatListing(listing: CredentialListing): string {
  const lines: string[] = [`Users (${listing.users.length}):`];
  if (listing.users.length === 0) lines.push('  (none)');
  for (const user of listing.users) {
    lines.push(`  ${user.userId}${user.disabled ? '  [DISABLED]' : ''}  created ${user.createdAt ?? 'unknown'}`);
    lines.push(`    roles: ${user.roles.length > 0 ? user.roles.map(quote).join(', ') : '(none)'}`);
    lines.push(...keyLines(user.keys, '    '));
  }
  lines.push(
    '',
    `Password generator API keys (${listing.generatorKeys.length}):`,
    ...keyLines(listing.generatorKeys, '  '),
  );
  lines.push('', `Password strength keys (${listing.strengthKeys.length}):`, ...keyLines(listing.strengthKeys, '  '));
  return `${lines.join('\n')}\n`;
}

function keyLines(keys: readonly KeySummary[], indent: string): string[] {
  if (keys.length === 0) return [`${indent}keys: (none)`];
  return keys.map(
    (k) =>
      `${indent}key ${k.keyId}  created ${k.createdAt ?? 'unknown'}  last used ${k.lastUsedAt ?? 'never recorded'}  plan ${k.usagePlan}`,
  );
}

function quote(text: string): string {
  return `"${text}"`;
}

/** One sentence for the operator: an operator mistake as it is, an AWS failure with a hint; never a stack trace. */
export function failureMessage(error: unknown, location: Location = {}): string {
  if (error instanceof CredentialAdminError || error instanceof LocationError) return redact(error.message);
  const missing = `The credentials table "${location.table ?? '?'}" does not exist${location.endpoint ? ` at ${location.endpoint}` : ''}; check --table, --stack, --endpoint or --region.`;
  return awsFailureMessage(error, location, missing, redact);
}

/** Masks anything shaped like a key (or its secret part), and any SHA-256 hex digest. */
export function redact(text: string): string {
  return text.replace(/\bpp[gs]_[0-9A-Za-z_-]*/g, '<key>').replace(/\b[0-9a-f]{64}\b/gi, '<digest>');
}

export const main = cliMain(CREDENTIALS_CLI, module);
