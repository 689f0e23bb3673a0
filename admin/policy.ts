import { writeFile } from 'node:fs/promises';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  generatorPolicies,
  parsePattern,
  SEPARATORS,
  type GeneratorPolicy,
} from '../functions/domain/generator-policy';
import {
  checkFeasibility,
  classesOn,
  cryptoRandom,
  entropyBits,
  generationMode,
  type CharClass,
} from '../functions/domain/password-generator';
import { DEFAULT_POLICY_ID, validatePolicy } from '../functions/domain/policy-collection';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { escapeUnshowable, shownJson } from '../functions/domain/unicode-text';
import { WORD_LIST } from '../functions/domain/word-list';
import { TABLES } from '../functions/repositories/tables';
import { STACK_OUTPUTS } from '../lib/deployment';
import {
  awsFailureMessage,
  callerIdentity,
  createDynamoDbClient,
  DEFAULT_STACK,
  AWS_LOCATION_OPTIONS,
  findStore,
  locationProblem,
  stackOutputs,
} from '../cli/aws';
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
import { readPolicyJson } from '../store/policy-json';
import { DEFAULT_LOCAL_STORE_FILE } from '../store/local-store-file';
import { SEED_FILES } from '../store/seed-files';
import {
  changeRuleProblem,
  checkPolicy,
  COLLECTIONS,
  fieldDiff,
  PolicyAdminError,
  PolicyStore,
  titleOf,
  type CollectionName,
  type Policy,
  type PolicyChange,
  type PolicyTableNames,
  type StoredPolicy,
} from '../store/policy-store';
import {
  MANIFEST,
  readPolicyDirectory,
  readPolicyFile,
  writeExport,
  writeManifest,
  formatPolicy,
  type PolicyDirectory,
} from './policy-files';
import { generatorPasswordRules, strengthPasswordRules } from './password-rules';
import { formatChange, formatPlan, makePlan, type Plan } from './policy-plan';
import {
  breaksShall,
  DEFAULT_LINT_CONTEXT,
  formatFindings,
  lintPolicies,
  lintPolicy,
  lintSummary,
  worstSeverity,
  type Finding,
  type LintContext,
} from './policy-lint';
import { renderPolicyReport } from './policy-report';

/** The outputs of the deployed stack that name the policy tables (lib/password-policy-stack.ts). */
const TABLE_OUTPUTS = {
  generator: STACK_OUTPUTS.generatorPolicyTable,
  strength: STACK_OUTPUTS.strengthPolicyTable,
  history: STACK_OUTPUTS.policyHistoryTable,
} as const satisfies Record<keyof PolicyTableNames, string>;

const OPTIONS = {
  collection: { type: 'string' },
  id: { type: 'string' },
  all: { type: 'boolean' },
  file: { type: 'string' },
  dir: { type: 'string' },
  'to-version': { type: 'string' },
  actor: { type: 'string' },
  out: { type: 'string' },
  'multi-factor': { type: 'boolean' },
  'pwned-passwords-check': { type: 'string' },
  ...AWS_LOCATION_OPTIONS,
} as const;
type OptionName = keyof typeof OPTIONS;
type Values = { [K in OptionName]?: K extends 'all' | 'help' | 'multi-factor' ? boolean : string };

/** What every store command takes besides --collection and its own options: where the tables are, and who writes. */
const LOCATION_OPTIONS: readonly OptionName[] = ['endpoint', 'stack', 'region', 'actor'];

/** What the lint assumes of the deployment, which no policy holds (lint and report; plan takes --multi-factor for its findings). */
const DEPLOYMENT_OPTIONS = ['multi-factor', 'pwned-passwords-check'] as const satisfies readonly OptionName[];

/**
 * One entry of the command table. A store command (`store`: it reads, or it writes and so records who)
 * also takes --collection, which it requires, and LOCATION_OPTIONS, and runs on one collection of the
 * store through PolicyCommands; `store: 'read both'` (report) reads both collections, so it takes no
 * --collection and runs on the PolicyStore itself; a command without `store` reads files only. Adding a
 * command is adding an entry: the usage lists it and the parser checks its options from it.
 */
type PolicyCommand = StoreCommand | BothCollectionsCommand | FileCommand;

interface StoreCommand extends Command<OptionName> {
  readonly store: 'read' | 'write';
  readonly run: (commands: PolicyCommands, values: Values) => Promise<void>;
  /** Runs instead of `run`, on no store, when the command line gives --dir (lint --dir reads an export's files). */
  readonly runOnDir?: (dir: string, collection: CollectionName, values: Values, io: Io) => Promise<void>;
}

interface BothCollectionsCommand extends Command<OptionName> {
  readonly store: 'read both';
  readonly run: (store: PolicyStore, values: Values, io: Io) => Promise<void>;
}

interface FileCommand extends Command<OptionName> {
  readonly store?: undefined;
  /** Checks what the option table cannot say (a UsageError). */
  readonly check?: (values: Values) => void;
  readonly run: (values: Values, io: Io) => Promise<void>;
}

const id = (values: Values) => Number(values.id);

const COMMANDS: readonly PolicyCommand[] = [
  {
    path: ['list'],
    synopsis: 'list',
    summary: 'every policy: ID, version, name',
    options: [],
    required: [],
    store: 'read',
    run: (c) => c.list(),
  },
  {
    path: ['get'],
    synopsis: 'get --id N',
    summary: 'one policy as JSON (its version on stderr)',
    options: ['id'],
    required: ['id'],
    store: 'read',
    run: (c, v) => c.get(id(v)),
  },
  {
    path: ['export'],
    synopsis: 'export --dir DIR',
    summary: 'one file per policy, <ID>.json, and versions.json (what the export saw)',
    options: ['dir'],
    required: ['dir'],
    store: 'read',
    run: (c, v) => c.export(v.dir!),
  },
  {
    path: ['plan'],
    synopsis: 'plan --dir DIR',
    summary:
      'what apply would create, change and delete, field by field, and a summary;\nthen the lint findings of the policies it creates or changes (information)',
    options: ['dir', 'multi-factor'],
    required: ['dir'],
    store: 'read',
    run: (c, v) => c.plan(v.dir!, deploymentOf(v)),
  },
  {
    path: ['apply'],
    synopsis: 'apply --dir DIR',
    summary:
      'make the store match DIR, all or nothing; refused if anything changed in\nthe store since the export, or any file is invalid',
    options: ['dir'],
    required: ['dir'],
    store: 'write',
    run: (c, v) => c.apply(v.dir!),
  },
  {
    path: ['put'],
    synopsis: 'put --file FILE',
    summary: 'create or change one policy from a JSON file',
    options: ['file'],
    required: ['file'],
    store: 'write',
    run: (c, v) => c.put(v.file!),
  },
  {
    path: ['delete'],
    synopsis: 'delete --id N',
    summary: `delete one policy (never policy ${DEFAULT_POLICY_ID}, the default)`,
    options: ['id'],
    required: ['id'],
    store: 'write',
    run: (c, v) => c.delete(id(v)),
  },
  {
    path: ['history'],
    synopsis: 'history --id N',
    summary: 'every version of one policy: when, who, what changed',
    options: ['id'],
    required: ['id'],
    store: 'read',
    run: (c, v) => c.history(id(v)),
  },
  {
    path: ['rollback'],
    synopsis: 'rollback --id N --to-version V',
    summary: "write version V's policy again, as a new version",
    options: ['id', 'to-version'],
    required: ['id', 'to-version'],
    store: 'write',
    run: (c, v) => c.rollback(id(v), Number(v['to-version'])),
  },
  {
    path: ['explain'],
    synopsis: 'explain (--id N | --all) [--file FILE]',
    summary:
      'what generator policies of a file (default: the seed file) generate, their\nentropy, whether each is feasible; reads no store',
    options: ['id', 'all', 'file'],
    required: [],
    check: (values) => {
      if ((values.id === undefined) === (values.all !== true))
        throw new UsageError('Give exactly one of --id N and --all.');
      if (values.id !== undefined) wholeNumberOption(values.id, '--id');
    },
    run: explain,
  },
  {
    path: ['lint'],
    synopsis: 'lint [--dir DIR]',
    summary:
      "every policy (of the store, or of DIR's files, reading no store) against\nNIST SP 800-63B-4 and OWASP ASVS 5.0.0: each finding with its clause,\nseverity and fix; exit status 1 when one breaks a SHALL",
    options: ['dir', ...DEPLOYMENT_OPTIONS],
    required: [],
    store: 'read',
    run: (c, v) => c.lint(deploymentOf(v)),
    runOnDir: lintDirectory,
  },
  {
    path: ['passwordrules'],
    synopsis: 'passwordrules --id N',
    summary: "the policy as a passwordrules descriptor (Apple's password-rules language)",
    options: ['id'],
    required: ['id'],
    store: 'read',
    run: (c, v) => c.passwordRules(id(v)),
  },
  {
    path: ['report'],
    synopsis: 'report --out FILE',
    summary:
      'one HTML page of every policy of both collections (no --collection):\nfields, entropy, a sample password, findings, passwordrules',
    options: ['out', ...DEPLOYMENT_OPTIONS],
    required: ['out'],
    store: 'read both',
    run: report,
  },
];

const DEPLOYMENT = `What the lint assumes of the deployment (lint, report; plan's findings take --multi-factor):
  --multi-factor        the passwords are used only with a second factor: an 8-character minimum, not 15
  --pwned-passwords-check true|false
                        whether the stack checks Have I Been Pwned (default: ${DEFAULT_LINT_CONTEXT.pwnedPasswordsCheck}, the stack's default)`;

const WHERE = `Where the policy tables are (store commands; with none of these and no AWS region configured,
the store of a running npm start, which it names in ${DEFAULT_LOCAL_STORE_FILE}):
  --endpoint URL        a local DynamoDB-compatible store such as npm start's (its URL is in the banner),
                        with the local table names ${TABLES.generator.logicalName}, ${TABLES.strength.logicalName}, ${TABLES.history.logicalName}
  --stack NAME          the deployed stack whose outputs name the tables (default: ${DEFAULT_STACK}),
                        read with the AWS SDK's credential chain
  --region REGION       AWS region (default: the SDK's configuration; "local" with --endpoint)
  --actor NAME          on a local store: who the history records as making a change (default: the OS
                        user); on AWS it is always the caller's IAM ARN (STS GetCallerIdentity)`;

const USAGE = `Usage: npm run policy -- <command> [options]

Administers the password generator and strength policies (docs/administration.md): the workflow is
export, edit in git, plan, review, apply. Every write is validated first, conditional on the version it
read, and recorded in the policy history in the same transaction.

Commands (each store command but report takes --collection generator|strength):
${commandList(COMMANDS, 29)}

${DEPLOYMENT}

${WHERE}
  -h, --help            print help

Exit status: 0 done, 1 refused or failed (invalid file, conflict, policy ${DEFAULT_POLICY_ID}, unknown id, AWS error) or,
for lint, a finding breaks a SHALL; 2 usage error.
`;

const ACTOR_ON_AWS = "--actor is for a local store (--endpoint); on AWS the history records the caller's IAM ARN.";

/** A failure that is not about a policy's content: an unknown id or version, a plan apply would refuse, a lint that finds a SHALL broken. */
class OperationError extends Error {}

/** Where the tables are: as the command line gives it, then as found when the command runs (findStore). */
interface Location {
  endpoint?: string;
  stack?: string;
  region?: string;
  storeFile?: string;
}

type Run =
  | { kind: 'files'; command: FileCommand; values: Values }
  | {
      kind: 'store';
      command: StoreCommand;
      values: Values;
      collection: CollectionName;
      location: Location;
      actor: string | undefined;
    }
  | { kind: 'both'; command: BothCollectionsCommand; values: Values; location: Location };

const POLICY_CLI: Cli<Run> = {
  usage: USAGE,
  parse: parsePolicyCommandLine,
  run: runPolicyCommand,
  failureMessage: policyFailureMessage,
};

/** Runs the CLI (cli/command-line.ts) and resolves to its exit status; never prints a stack trace. */
function parsePolicyCommandLine(argv: readonly string[]): Run | Help {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (values.help) return new Help(USAGE);
  if (positionals.length === 0) throw new UsageError(USAGE_PHRASES.commandRequired);
  const command = findCommand(COMMANDS, positionals.slice(0, 1));
  if (command === undefined) throw new UsageError(USAGE_PHRASES.unknownCommand(positionals[0]!));
  if (positionals.length > 1) throw new UsageError(USAGE_PHRASES.unexpectedArgument);
  if (command.store === undefined) {
    checkOptions(command, values, []);
    command.check?.(values);
    return { kind: 'files', command, values };
  }

  const both = command.store === 'read both';
  checkOptions(
    both
      ? command
      : { ...command, options: ['collection', ...command.options], required: ['collection', ...command.required] },
    values,
    LOCATION_OPTIONS,
  );
  if (!both && !Object.hasOwn(COLLECTIONS, values.collection!))
    throw new UsageError('--collection must be generator or strength.');
  if (values.id !== undefined) wholeNumberOption(values.id, '--id');
  if (values['to-version'] !== undefined) wholeNumberOption(values['to-version'], '--to-version');
  const pwned = values['pwned-passwords-check'];
  if (pwned !== undefined && pwned !== 'true' && pwned !== 'false')
    throw new UsageError('--pwned-passwords-check must be true or false.');
  const { endpoint, stack, region, actor } = values;
  if (endpoint !== undefined && stack !== undefined) throw new UsageError('Give --endpoint or --stack, not both.');
  const problem = locationProblem({ endpoint, stack, region });
  if (problem !== undefined) throw new UsageError(problem);
  // Without --endpoint the store may still be npm start's (its store file): known only when the command runs.
  if (actor !== undefined && endpoint === undefined && (stack !== undefined || region !== undefined))
    throw new UsageError(ACTOR_ON_AWS);
  if (actor !== undefined && !/^\P{C}{1,200}$/u.test(actor))
    throw new UsageError('--actor must be 1 to 200 printable characters.');
  const location = { endpoint, region, stack };
  if (command.store === 'read both') return { kind: 'both', command, values, location };
  return { kind: 'store', command, values, collection: values.collection as CollectionName, location, actor };
}

/** What --multi-factor and --pwned-passwords-check say of the deployment; the stack's default where not said. */
function deploymentOf(values: Values): LintContext {
  const pwned = values['pwned-passwords-check'];
  return {
    multiFactor: values['multi-factor'] === true,
    pwnedPasswordsCheck: pwned === undefined ? DEFAULT_LINT_CONTEXT.pwnedPasswordsCheck : pwned === 'true',
    pwnedPasswordsCheckAssumed: pwned === undefined,
  };
}

function wholeNumberOption(text: string, option: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) throw new UsageError(`${option} must be a whole number of at least 1.`);
  return Number(text);
}

/** A file command runs as it is (so does lint --dir); a store command once the tables are found (stack outputs or the local names). */
async function runPolicyCommand(run: Run, io: Io): Promise<void> {
  if (run.kind === 'files') return run.command.run(run.values, io);
  if (run.kind === 'store' && run.command.runOnDir !== undefined && run.values.dir !== undefined)
    return run.command.runOnDir(run.values.dir, run.collection, run.values, io);
  const given = run.location;
  const found = await findStore(
    { endpoint: given.endpoint, region: given.region, namesAwsTables: given.stack !== undefined },
    io,
  );
  const actor = run.kind === 'store' ? run.actor : undefined;
  if (actor !== undefined && found.endpoint === undefined) throw new UsageError(ACTOR_ON_AWS);
  const location: Location =
    found.endpoint !== undefined
      ? { endpoint: found.endpoint, region: found.region, storeFile: found.storeFile }
      : { region: found.region, stack: given.stack ?? DEFAULT_STACK };
  run.location = location;
  const local = found.tables ?? {
    generator: TABLES.generator.logicalName,
    strength: TABLES.strength.logicalName,
    history: TABLES.history.logicalName,
  };
  const dynamodb = createDynamoDbClient(location);
  try {
    const tables: PolicyTableNames =
      location.stack === undefined
        ? { generator: local.generator, strength: local.strength, history: local.history }
        : await stackOutputs(location.stack, location.region, Object.values(TABLE_OUTPUTS)).then((o) => ({
            generator: o[TABLE_OUTPUTS.generator],
            strength: o[TABLE_OUTPUTS.strength],
            history: o[TABLE_OUTPUTS.history],
          }));
    const store = new PolicyStore(DynamoDBDocumentClient.from(dynamodb), tables);
    if (run.kind === 'both') return await run.command.run(store, run.values, io);
    const author = run.command.store === 'write' ? await callerIdentity(location, actor) : '';
    await run.command.run(new PolicyCommands(store, run.collection, author, io), run.values);
  } finally {
    // Keep-alive sockets would otherwise hold the process open after the work is done.
    dynamodb.destroy();
  }
}

function policyFailureMessage(error: unknown, run: Run): string {
  if (error instanceof PolicyAdminError || error instanceof OperationError) return error.message;
  const location = run.kind === 'files' ? {} : run.location;
  const where = location.endpoint !== undefined ? ` at ${location.endpoint}` : '';
  return awsFailureMessage(
    error,
    location,
    `A policy table does not exist${where}; check --endpoint, --stack or --region.`,
  );
}

/** `explain`: the generator policies of a file (the seed file unless --file), or the one with --id. */
async function explain(values: Values, io: Io): Promise<void> {
  const file = values.file ?? SEED_FILES.generator;
  const policies = await readPolicies(file);
  const chosen = values.id === undefined ? policies : policies.filter((p) => p.PasswordGeneratorID === id(values));
  if (chosen.length === 0) throw new OperationError(`No policy has PasswordGeneratorID ${values.id} in ${file}.`);
  io.stdout.write(chosen.map(explainPolicy).join('\n') + '\n');
}

/** `lint --dir`: the policies of an export's files, checked as apply checks them; no store is read. */
async function lintDirectory(dir: string, collection: CollectionName, values: Values, io: Io): Promise<void> {
  const { policies } = await readPolicyDirectory(dir, collection);
  printLint(collection, [...policies.values()], [], deploymentOf(values), io);
}

/**
 * Prints the findings, grouped by policy, on stdout. When one breaks a SHALL (or a stored record is
 * invalid) the run fails with the summary line as its message (on stderr, exit status 1); otherwise the
 * summary is printed after the findings.
 */
function printLint(
  collection: CollectionName,
  policies: readonly Policy[],
  invalid: readonly string[],
  context: LintContext,
  io: Io,
): void {
  const findings = lintPolicies(collection, policies, context);
  io.stdout.write(formatFindings(findings, headingOf(collection, policies)));
  const summary = lintSummary(findings, policies.length, COLLECTIONS[collection].resource.title);
  if (breaksShall(findings) || invalid.length > 0) throw new OperationError([...invalid, summary].join('\n'));
  io.stdout.write(`${summary}\n`);
}

/** A finding's heading line: its policy's title and name, or the deployment. */
function headingOf(collection: CollectionName, policies: readonly Policy[]): (f: Finding) => string {
  const { idField, nameField } = COLLECTIONS[collection].resource;
  const names = new Map(policies.map((p) => [p[idField] as number, String(p[nameField])]));
  return (f) =>
    f.id === undefined ? 'The deployment' : `${titleOf(collection, f.id)} ${shownJson(names.get(f.id) ?? '')}`;
}

/** The stored policies of a collection, each checked as a write is; the invalid ones are named, not linted. */
async function checkedPolicies(
  store: PolicyStore,
  collection: CollectionName,
): Promise<{ policies: Policy[]; invalid: string[] }> {
  const policies: Policy[] = [];
  const invalid: string[] = [];
  for (const [id, { policy }] of await store.list(collection)) {
    const result = checkPolicy(collection, policy);
    if (result.ok) policies.push(result.policy);
    else invalid.push(`${titleOf(collection, id)} is invalid, not linted: ${result.problems.join('; ')}`);
  }
  return { policies, invalid };
}

/** `report`: the page of both collections, written to --out; an invalid record is named on stderr and left out. */
async function report(store: PolicyStore, values: Values, io: Io): Promise<void> {
  const out = values.out!;
  const context = deploymentOf(values);
  const generator = await checkedPolicies(store, 'generator');
  const strength = await checkedPolicies(store, 'strength');
  const page = renderPolicyReport({
    generator: generator.policies as unknown as GeneratorPolicy[],
    strength: strength.policies as unknown as StrengthPolicy[],
    context,
    random: cryptoRandom,
    generatedAt: new Date().toISOString(),
  });
  await writeFile(out, page);
  for (const line of [...generator.invalid, ...strength.invalid]) io.stderr.write(`${line}\n`);
  const all = [
    ...generator.policies.map((p) => lintPolicy('generator', p, context)),
    ...strength.policies.map((p) => lintPolicy('strength', p, context)),
  ];
  const breaking = all.filter((findings) => worstSeverity(findings) === 'shall').length;
  io.stdout.write(`Wrote ${out}: ${all.length} policies, ${breaking} breaking a SHALL.\n`);
}

/** The store commands, each reading what it needs and printing what it did. */
class PolicyCommands {
  private readonly resource;

  constructor(
    private readonly store: PolicyStore,
    private readonly collection: CollectionName,
    private readonly actor: string,
    private readonly io: Io,
  ) {
    this.resource = COLLECTIONS[collection].resource;
  }

  async list(): Promise<void> {
    const stored = await this.store.list(this.collection);
    const lines = [...stored].map(
      ([id, s]) =>
        `${String(id).padStart(4)}  v${String(s.version).padEnd(4)} ${escapeUnshowable(String(s.policy[this.resource.nameField]))}`,
    );
    this.io.stdout.write(`${['  ID  VERSION NAME', ...lines].join('\n')}\n${stored.size} ${this.resource.title}(s).\n`);
  }

  async get(id: number): Promise<void> {
    const stored = await this.required(id);
    this.io.stdout.write(formatPolicy(stored.policy));
    this.io.stderr.write(`${titleOf(this.collection, id)}: version ${stored.version}\n`);
  }

  async export(dir: string): Promise<void> {
    const stored = await this.store.list(this.collection);
    await writeExport(dir, this.collection, stored);
    this.io.stdout.write(
      `Exported ${stored.size} ${this.resource.title}(s) to ${dir} (one <ID>.json each, and ${MANIFEST}).\n`,
    );
  }

  private async makePlan(dir: string): Promise<{ plan: Plan; directory: PolicyDirectory }> {
    const directory = await readPolicyDirectory(dir, this.collection);
    const stored = await this.store.list(this.collection);
    return { plan: makePlan(this.collection, directory.policies, directory.base, stored), directory };
  }

  async plan(dir: string, context: LintContext): Promise<void> {
    const { plan } = await this.makePlan(dir);
    this.io.stdout.write(formatPlan(plan, this.resource.nameField));
    const changed = plan.changes.flatMap((change) => (change.after === undefined ? [] : [change.after]));
    const findings = changed.flatMap((policy) => lintPolicy(this.collection, policy, context));
    if (findings.length > 0) {
      // Information for the review: apply never refuses for a finding.
      this.io.stdout.write(
        `\nLint of the policies this plan creates or changes (information; apply does not refuse for it):\n${formatFindings(findings, headingOf(this.collection, changed))}`,
      );
    }
    if (plan.refusals.length > 0) throw new OperationError('Apply would refuse this plan (see the lines marked !).');
  }

  async apply(dir: string): Promise<void> {
    const { plan, directory } = await this.makePlan(dir);
    if (plan.refusals.length > 0) {
      this.io.stdout.write(formatPlan(plan, this.resource.nameField));
      throw new OperationError('Refused: nothing was written (see the lines marked !).');
    }
    const versions = await this.store.commit(plan.changes, this.actor);
    // The directory now rests on the versions just written, so the next plan starts from them.
    const base = new Map([...directory.base].filter(([id]) => directory.policies.has(id)));
    plan.changes.forEach((change, i) =>
      change.after === undefined ? base.delete(change.id) : base.set(change.id, versions[i]!),
    );
    await writeManifest(dir, this.collection, base);
    this.io.stdout.write(formatPlan(plan, this.resource.nameField).replace(/^Plan: /m, 'Applied: '));
  }

  async put(file: string): Promise<void> {
    const policy = await readPolicyFile(file, this.collection);
    const id = policy[this.resource.idField] as number;
    const before = await this.store.get(this.collection, id);
    if (before !== undefined && fieldDiff(before.policy, policy).length === 0) {
      this.io.stdout.write(
        `${titleOf(this.collection, id)} already holds that policy (version ${before.version}); nothing written.\n`,
      );
      return;
    }
    await this.write({ collection: this.collection, id, before, after: policy });
  }

  async delete(id: number): Promise<void> {
    if (id === DEFAULT_POLICY_ID)
      throw new PolicyAdminError([
        changeRuleProblem({ collection: this.collection, id, before: undefined, after: undefined })!,
      ]);
    await this.write({ collection: this.collection, id, before: await this.required(id), after: undefined });
  }

  async history(id: number): Promise<void> {
    const records = await this.store.history(this.collection, id);
    if (records.length === 0) throw new OperationError(`${titleOf(this.collection, id)} has no history.`);
    const lines = records.flatMap((r) => {
      const what = r.change === 'rollback' ? `rollback to version ${r.restoredVersion}` : r.change;
      // A creation's fields are all new: the line says so, `get` or the record shows them.
      const diff = r.after === undefined || r.before === undefined ? [] : fieldDiff(r.before, r.after);
      // What a record holds was written by whoever could write the table: every text escaped, as the plan's.
      return [
        escapeUnshowable(`version ${r.version}  ${r.changedAt}  ${what}  by ${r.changedBy}`),
        ...diff.map((d) => `    ${d}`),
      ];
    });
    this.io.stdout.write(`${lines.join('\n')}\n`);
  }

  async rollback(id: number, toVersion: number): Promise<void> {
    const record = (await this.store.history(this.collection, id)).find((r) => r.version === toVersion);
    if (record === undefined)
      throw new OperationError(`${titleOf(this.collection, id)} has no version ${toVersion} in its history.`);
    if (record.after === undefined)
      throw new OperationError(
        `Version ${toVersion} of ${titleOf(this.collection, id)} is its deletion; there is no policy to restore.`,
      );
    // The old policy is checked as any write is: the rules may have changed since it was written.
    const result = checkPolicy(this.collection, record.after);
    if (!result.ok) throw new PolicyAdminError(result.problems.map((p) => `version ${toVersion}: ${p}`));
    const before = await this.store.get(this.collection, id);
    await this.write({ collection: this.collection, id, before, after: result.policy, restoredVersion: toVersion });
  }

  async lint(context: LintContext): Promise<void> {
    const { policies, invalid } = await checkedPolicies(this.store, this.collection);
    printLint(this.collection, policies, invalid, context, this.io);
  }

  async passwordRules(id: number): Promise<void> {
    const result = checkPolicy(this.collection, (await this.required(id)).policy);
    if (!result.ok) throw new PolicyAdminError(result.problems.map((p) => `${titleOf(this.collection, id)}: ${p}`));
    const rules =
      this.collection === 'generator'
        ? generatorPasswordRules(result.policy as unknown as GeneratorPolicy)
        : strengthPasswordRules(result.policy as unknown as StrengthPolicy);
    this.io.stdout.write(`${rules.descriptor}\n`);
    for (const note of rules.notes) this.io.stderr.write(`note: ${note}\n`);
  }

  private async write(change: PolicyChange): Promise<void> {
    const [version] = await this.store.commit([change], this.actor);
    this.io.stdout.write(
      `${formatChange(change, this.resource.nameField)}\nWritten: ${titleOf(this.collection, change.id)} is ${change.after === undefined ? 'deleted' : 'now'} version ${version}, recorded as ${this.actor}.\n`,
    );
  }

  private async required(id: number): Promise<StoredPolicy> {
    const stored = await this.store.get(this.collection, id);
    if (stored === undefined) throw new OperationError(`There is no ${titleOf(this.collection, id)}.`);
    return stored;
  }
}

/** Reads the file, refusing a name given twice in one object, and validates every record (validatePolicy); any problem fails the whole command. */
async function readPolicies(file: string): Promise<GeneratorPolicy[]> {
  const records = await readPolicyJson(file, (problem) => new OperationError(`${file}: ${problem}`));
  if (!Array.isArray(records)) throw new OperationError(`${file}: must hold a JSON array of generator policies.`);
  const problems: string[] = [];
  const policies: GeneratorPolicy[] = [];
  records.forEach((record, index) => {
    const result = validatePolicy(generatorPolicies, record);
    if (result.ok) policies.push(result.policy);
    else problems.push(...result.problems.map((p) => `${file} record #${index}: ${p}`));
  });
  if (problems.length > 0) throw new OperationError(problems.join('\n'));
  return policies;
}

/** `Policy N "<name>": <description>; entropy ≥ X.X bits; feasible | infeasible: reason` */
export function explainPolicy(policy: GeneratorPolicy): string {
  const feasibility = checkFeasibility(policy, WORD_LIST);
  const verdict = feasibility.ok ? 'feasible' : `infeasible: ${feasibility.reason}`;
  // Rounded down, so the printed figure is still a lower bound.
  const bits = Math.floor(entropyBits(policy, WORD_LIST) * 10) / 10;
  return `Policy ${policy.PasswordGeneratorID} "${policy.GeneratorName}": ${describePolicy(policy)}; entropy ≥ ${bits.toFixed(1)} bits; ${verdict}`;
}

const CLASS_NAMES: Record<CharClass['key'], string> = {
  l: 'lower-case',
  u: 'upper-case',
  d: 'digits',
  s: 'special',
  b: 'brackets',
};

function className(c: CharClass): string {
  return c.key === 's' || c.key === 'b' ? `${CLASS_NAMES[c.key]} (${c.chars.join('')})` : CLASS_NAMES[c.key];
}

function andList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line saying what the policy generates (docs/generation.md lists the seed policies with it). */
export function describePolicy(policy: GeneratorPolicy): string {
  const p = policy;
  const on = classesOn(p);
  const exclusions = [
    ...(p.AmbiguousChars ? [] : ['no ambiguous characters']),
    ...(p.ExcludeChars !== '' ? [`never any of ${JSON.stringify(p.ExcludeChars)}`] : []),
  ];
  switch (generationMode(p)) {
    case 'pattern': {
      const tokens = parsePattern(p.Pattern);
      if (typeof tokens === 'string') return `the pattern ${p.Pattern} (invalid: it ${tokens})`;
      const chars = tokens.filter((t) => t.kind !== 'w').reduce((n, t) => n + t.count, 0);
      const wordCount = tokens.filter((t) => t.kind === 'w').reduce((n, t) => n + t.count, 0);
      const shape = [
        ...(wordCount > 0 ? [`${plural(wordCount, 'word')} of up to ${p.MaximumWordLength} letters`] : []),
        ...(chars > 0 || wordCount === 0 ? [plural(chars, 'character')] : []),
      ];
      return [`the pattern ${p.Pattern}: ${shape.join(' and ')}`, ...exclusions].join(', ');
    }
    case 'alpha': {
      const length = p.MinLength === p.MaxLength ? `${p.MinLength}` : `${p.MinLength} to ${p.MaxLength}`;
      const parts = [
        `${length} characters of ${andList(on.map(className))}`,
        ...(p.HigherAlphaRatio ? ['more letters than not'] : []),
        ...exclusions,
      ];
      return parts.join(', ');
    }
    case 'words':
    case 'words+alpha': {
      const separator = p.SeparateWordsWith === 'N' ? 'run together' : `joined by '${SEPARATORS[p.SeparateWordsWith]}'`;
      const phrase = `${plural(p.NumberOfWords, 'word')} of up to ${p.MaximumWordLength} letters ${separator}`;
      if (!p.IncludeAlphaSpecial) return phrase;
      const seg = `${plural(on.length, 'random character')} (${on.map(className).join(', ')})`;
      const described =
        p.PrefixAppendWords === 'P'
          ? `${seg}, then ${phrase}`
          : p.PrefixAppendWords === 'A'
            ? `${phrase}, then ${seg}`
            : `${phrase}, with ${seg} between each pair of words`;
      return [described, ...exclusions].join(', ');
    }
    case 'none':
      return 'nothing (IncludeAlphaSpecial, IncludeWordPhrases and GeneratePattern are all off)';
  }
}

export const main = cliMain(POLICY_CLI, module);
