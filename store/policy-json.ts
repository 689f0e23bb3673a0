import { readFile } from 'node:fs/promises';
import { repeatedName } from '../functions/domain/json-text';
import { quoted } from '../functions/domain/unicode-text';

/**
 * What every reader of policy JSON (the policy CLI's files and manifest, the seed files) refuses beyond what
 * JSON.parse refuses: a name given twice in one object, which JSON.parse reads as its last value without a
 * word, whoever meant the first. Found by the scanner the evaluation's body is checked with
 * (functions/domain/json-text.ts); here the name and its place are said, since a file is the operator's own.
 */

/**
 * Why a JSON text JSON.parse has read must still be refused (`"BannedWords" is given twice in one object
 * (at $[1]); give it once (a JSON reader keeps only the last)`), or undefined. The caller names the file.
 */
export function repeatedNameProblem(text: string): string | undefined {
  const repeated = repeatedName(text);
  if (repeated === undefined) return undefined;
  return `${quoted(repeated.name)} is given twice in one object (at ${jsonPath(repeated.path)}); give it once (a JSON reader keeps only the last)`;
}

/**
 * A policy JSON file's value. Refuses, with the error `refuse` makes of the problem, a file that cannot be read
 * (`cannot be read (ENOENT)`; `code` is Node's), is not JSON (`is not valid JSON (<JSON.parse's message>)`) or
 * gives a name twice in one object (repeatedNameProblem). The caller names the file.
 */
export async function readPolicyJson(
  file: string,
  refuse: (problem: string, code?: string) => Error,
): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw refuse(`cannot be read (${code ?? 'unknown error'})`, code);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw refuse(`is not valid JSON (${(error as Error).message})`);
  }
  const repeated = repeatedNameProblem(text);
  if (repeated !== undefined) throw refuse(repeated);
  return value;
}

/** A JSONPath: `$` the top-level value, `$[1]` an element, `$.versions` a member, `$["a b"]` a member whose name is not an identifier. */
function jsonPath(path: readonly (string | number)[]): string {
  return `$${path.map((step) => (typeof step === 'number' ? `[${step}]` : /^[A-Za-z_$][\w$]*$/.test(step) ? `.${step}` : `[${quoted(step)}]`)).join('')}`;
}
