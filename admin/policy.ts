import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { generatorPolicies, parsePattern, type GeneratorPolicy } from '../functions/domain/generator-policy';
import { SEPARATORS } from '../functions/domain/generator-policy';
import { checkFeasibility, classesOn, entropyBits, generationMode, type CharClass } from '../functions/domain/password-generator';
import { validatePolicy } from '../functions/domain/policy-collection';
import { WORD_LIST } from '../functions/domain/word-list';

/** The committed seed file, resolved from this module so the CLI works from any working directory. */
const DEFAULT_FILE = path.join(__dirname, '..', 'seed', 'generator-policies.json');

const USAGE = `Usage: npm run policy -- explain (--id N | --all) [--file FILE]

Explains generator policies: what each generates, a lower bound of its entropy, and whether it is feasible.

  explain --id N     the policy with PasswordGeneratorID N
  explain --all      every policy of the file
  --file FILE        a JSON array of generator policies (default: seed/generator-policies.json);
                     every record is validated first
  -h, --help         print help

Exit status: 0 done, 1 the operation failed (unknown id, unreadable or invalid file), 2 usage error.
`;

interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

class UsageError extends Error {}
class OperationError extends Error {}

/** Runs the CLI and resolves to its exit status; never throws. */
export async function main(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let args: { help: true } | { id: number | undefined; file: string };
  try {
    args = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if ('help' in args) {
    io.stdout.write(USAGE);
    return 0;
  }
  try {
    const policies = await readPolicies(args.file);
    const chosen = args.id === undefined ? policies : policies.filter((p) => p.PasswordGeneratorID === args.id);
    if (chosen.length === 0) throw new OperationError(`No policy has PasswordGeneratorID ${args.id} in ${args.file}.`);
    io.stdout.write(chosen.map(explainPolicy).join('\n') + '\n');
    return 0;
  } catch (error) {
    if (!(error instanceof OperationError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 1;
  }
}

function parseCommandLine(argv: readonly string[]): { help: true } | { id: number | undefined; file: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { id: { type: 'string' }, all: { type: 'boolean' }, file: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length === 0) throw new UsageError('A command is required.');
  if (positionals[0] !== 'explain') throw new UsageError(`Unknown command "${positionals[0]}".`);
  if (positionals.length > 1) throw new UsageError('Unexpected argument after the command (options start with --).');
  if ((values.id === undefined) === (values.all !== true)) throw new UsageError('Give exactly one of --id N and --all.');
  if (values.id !== undefined && !/^[1-9][0-9]{0,9}$/.test(values.id)) throw new UsageError('--id must be a whole number of at least 1.');
  return { id: values.id === undefined ? undefined : Number(values.id), file: values.file ?? DEFAULT_FILE };
}

/** Reads the file and validates every record (validatePolicy); any problem fails the whole command. */
async function readPolicies(file: string): Promise<GeneratorPolicy[]> {
  let records: unknown;
  try {
    records = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new OperationError(`${file}: cannot be read as JSON (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
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

const CLASS_NAMES: Record<CharClass['key'], string> = { l: 'lower-case', u: 'upper-case', d: 'digits', s: 'special', b: 'brackets' };

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
  const exclusions = [...(p.AmbiguousChars ? [] : ['no ambiguous characters']), ...(p.ExcludeChars !== '' ? [`never any of ${JSON.stringify(p.ExcludeChars)}`] : [])];
  switch (generationMode(p)) {
    case 'pattern': {
      const tokens = parsePattern(p.Pattern);
      if (typeof tokens === 'string') return `the pattern ${p.Pattern} (invalid: it ${tokens})`;
      const chars = tokens.filter((t) => t.kind !== 'w').reduce((n, t) => n + t.count, 0);
      const wordCount = tokens.filter((t) => t.kind === 'w').reduce((n, t) => n + t.count, 0);
      const shape = [...(wordCount > 0 ? [`${plural(wordCount, 'word')} of up to ${p.MaximumWordLength} letters`] : []), ...(chars > 0 || wordCount === 0 ? [plural(chars, 'character')] : [])];
      return [`the pattern ${p.Pattern}: ${shape.join(' and ')}`, ...exclusions].join(', ');
    }
    case 'alpha': {
      const length = p.MinLength === p.MaxLength ? `${p.MinLength}` : `${p.MinLength} to ${p.MaxLength}`;
      const parts = [`${length} characters of ${andList(on.map(className))}`, ...(p.HigherAlphaRatio ? ['more letters than not'] : []), ...exclusions];
      return parts.join(', ');
    }
    case 'words':
    case 'words+alpha': {
      const separator = p.SeparateWordsWith === 'N' ? 'run together' : `joined by '${SEPARATORS[p.SeparateWordsWith]}'`;
      const phrase = `${plural(p.NumberOfWords, 'word')} of up to ${p.MaximumWordLength} letters ${separator}`;
      if (!p.IncludeAlphaSpecial) return phrase;
      const seg = `${plural(on.length, 'random character')} (${on.map(className).join(', ')})`;
      const described =
        p.PrefixAppendWords === 'P' ? `${seg}, then ${phrase}` : p.PrefixAppendWords === 'A' ? `${phrase}, then ${seg}` : `${phrase}, with ${seg} between each pair of words`;
      return [described, ...exclusions].join(', ');
    }
    case 'none':
      return 'nothing (IncludeAlphaSpecial, IncludeWordPhrases and GeneratePattern are all off)';
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
