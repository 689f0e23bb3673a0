import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The scaffold every operator CLI is built on (npm run credentials, npm run policy, npm run seed;
 * docs/architecture.md#the-operator-clis): the command line read by node:util's parseArgs, strictly; one
 * usage-error type; the exit statuses; the output streams, injectable so a test reads what was printed;
 * and a command table, so a new command is one entry (its words, synopsis, options and what it runs).
 */

interface Output {
  write(text: string): unknown;
}

/** Where a CLI prints: what it produced on stdout, what went wrong and notes on stderr. */
export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
}

/** The exit statuses of every operator CLI. */
const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A mistake in the command line: its message, then `usage` (or the CLI's whole usage), exit status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What a command line asked for instead of a run: this help, on stdout, exit status 0. */
export class Help {
  constructor(readonly text: string) {}
}

/** The usage errors every CLI words the same way. */
export const USAGE_PHRASES = {
  commandRequired: 'A command is required.',
  unexpectedArgument: 'Unexpected argument after the command (options start with --).',
  unknownCommand: (words: string) => `Unknown command "${words}".`,
  notAnOption: (option: string, command: string) => `--${option} is not an option of "${command}".`,
  required: (option: string) => `--${option} is required.`,
} as const;

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>;

/**
 * The options and positionals of a command line, read strictly (an unknown option, a missing value or a
 * positional where none is allowed is a UsageError with parseArgs' own message). `usageFor` picks the
 * usage shown with such a mistake from the words typed, when the CLI has one per command.
 */
export function parseCommandLine<const O extends Options>(
  argv: readonly string[],
  options: O,
  { positionals = true, usageFor }: { positionals?: boolean; usageFor?: (positionals: string[]) => string } = {},
): Parsed<O> {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals }) as Parsed<O>;
  } catch (error) {
    const usage = usageFor?.(
      parseArgs({ args: [...argv], options, strict: false, allowPositionals: true }).positionals,
    );
    throw new UsageError((error as Error).message, usage);
  }
}

/** One command of a CLI's command table. */
export interface Command<Option extends string> {
  /** The words that name it: ['list'], ['user', 'create']. */
  readonly path: readonly string[];
  /** How it is typed, for the usage: `get --id N`. */
  readonly synopsis: string;
  /** What it does, for the usage; further lines are indented under the first. */
  readonly summary: string;
  /** The options it takes besides those every command of the CLI takes. */
  readonly options: readonly Option[];
  /** Those of its options it cannot do without. */
  readonly required: readonly Option[];
}

/** The command named exactly by these words, if any. */
export function findCommand<C extends Command<string>>(
  commands: readonly C[],
  words: readonly string[],
): C | undefined {
  return commands.find((c) => c.path.length === words.length && c.path.every((word, i) => words[i] === word));
}

/**
 * Refuses an option the command does not take (besides `common`, which every command takes) and a
 * required one that is missing, in that order.
 */
export function checkOptions<Option extends string>(
  command: Command<Option>,
  values: Readonly<Partial<Record<Option, unknown>>>,
  common: readonly Option[],
  usage?: string,
): void {
  const name = command.path.join(' ');
  for (const option of Object.keys(values) as Option[]) {
    if (!common.includes(option) && !command.options.includes(option))
      throw new UsageError(USAGE_PHRASES.notAnOption(option, name), usage);
  }
  for (const option of command.required) {
    if (values[option] === undefined) throw new UsageError(USAGE_PHRASES.required(option), usage);
  }
}

/** The commands as the usage lists them: synopsis, then summary from column `width` + 3 (on a line of its own when the synopsis is longer). */
export function commandList(commands: readonly Command<string>[], width: number): string {
  const indent = ' '.repeat(width + 3);
  return commands
    .map(({ synopsis, summary }) => {
      const [first, ...more] = summary.split('\n');
      const head =
        synopsis.length <= width ? `  ${synopsis.padEnd(width)} ${first}` : `  ${synopsis}\n${indent}${first}`;
      return [head, ...more.map((line) => `${indent}${line}`)].join('\n');
    })
    .join('\n');
}

/** A CLI: how it reads its command line, runs it and words a failure. */
export interface Cli<Run> {
  /** Printed after a usage error that carries no usage of its own. */
  readonly usage: string;
  /** Throws a UsageError for a mistake; returns Help when asked for help. */
  parse(argv: readonly string[]): Run | Help;
  /** May throw a UsageError too, for a mistake only the run can see; anything else it throws is a failure. */
  run(parsed: Run, io: Io): Promise<void>;
  /** A failure of the run, for the operator: what went wrong and what to do, never a stack trace. */
  failureMessage(error: unknown, parsed: Run): string;
  /** Masks secrets in a usage error's message (it may echo a mistyped argument). */
  redact?(text: string): string;
}

/** Runs a CLI and resolves to its exit status: 0 done, 1 the run failed, 2 a usage error. */
async function runCli<Run>(cli: Cli<Run>, argv: readonly string[], io: Io): Promise<number> {
  let parsed: Run | Help;
  try {
    parsed = cli.parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageError(cli, error, io);
  }
  if (parsed instanceof Help) {
    io.stdout.write(parsed.text);
    return EXIT.ok;
  }
  try {
    await cli.run(parsed, io);
    return EXIT.ok;
  } catch (error) {
    // A mistake only the run can see (an option for a local store, when the store found is on AWS).
    if (error instanceof UsageError) return usageError(cli, error, io);
    io.stderr.write(`${cli.failureMessage(error, parsed)}\n`);
    return EXIT.failure;
  }
}

function usageError(cli: Cli<unknown>, error: UsageError, io: Io): number {
  const message = cli.redact ? cli.redact(error.message) : error.message;
  io.stderr.write(`${message}\n\n${error.usage ?? cli.usage}`);
  return EXIT.usage;
}

/** The process's own streams. */
const PROCESS_IO: Io = { stdout: process.stdout, stderr: process.stderr };

/**
 * A CLI's `main(argv, io)`, which the tests call with their own streams; when `mod` is the program
 * (`tsx admin/policy.ts ...`), it runs at once with the process's arguments and sets the exit status.
 */
export function cliMain<Run>(cli: Cli<Run>, mod: NodeModule): (argv: readonly string[], io?: Io) => Promise<number> {
  const main = (argv: readonly string[], io: Io = PROCESS_IO): Promise<number> => runCli(cli, argv, io);
  if (require.main === mod) {
    void main(process.argv.slice(2)).then((code) => {
      process.exitCode = code;
    });
  }
  return main;
}
