import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { TableKind } from '../functions/repositories/tables';

/**
 * Where `npm start`'s store is, for the operator CLIs (cli/aws.ts): `npm start` writes this file once it is
 * ready and removes it when it stops; a CLI given neither --endpoint nor an AWS region reads it. Its
 * place is `.local/store.json` in the project (gitignored), or LOCAL_STORE_FILE, which the tests set so that
 * the services they start never touch a developer's file.
 */
export const LOCAL_STORE_FILE_VARIABLE = 'LOCAL_STORE_FILE';
/** The file's place in the project, as the CLIs' help names it. */
export const DEFAULT_LOCAL_STORE_FILE = '.local/store.json';

export interface LocalStoreNote {
  /** The store's DynamoDB endpoint, as the banner prints it. */
  readonly endpoint: string;
  /** The local table of each kind. */
  readonly tables: Readonly<Record<TableKind, string>>;
  /** The process of the `npm start` that wrote it: only that one removes it. */
  readonly pid: number;
}

export function localStoreFile(env: NodeJS.ProcessEnv = process.env): string {
  return env[LOCAL_STORE_FILE_VARIABLE] || path.join(__dirname, '..', DEFAULT_LOCAL_STORE_FILE);
}

/** The file as a person would type it: relative to the working directory when it lies below it. */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

export function writeLocalStoreFile(file: string, note: LocalStoreNote): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(note, null, 2)}\n`);
}

/** Removes the file if this process wrote it (another `npm start` may have written it since); never throws. */
export function removeLocalStoreFile(file: string, pid: number = process.pid): void {
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid === pid) unlinkSync(file);
  } catch {
    // Gone already, or not ours to remove.
  }
}

/** The note, undefined when there is no file; an Error saying what is wrong with one that is not a note. */
export function readLocalStoreFile(file: string): LocalStoreNote | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(
      `${shownPath(file)} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); delete it, or pass --endpoint URL.`,
    );
  }
  let note: unknown;
  try {
    note = JSON.parse(text);
  } catch {
    note = undefined;
  }
  const { endpoint, tables } = (note ?? {}) as Partial<LocalStoreNote>;
  const kinds: TableKind[] = ['generator', 'strength', 'credentials', 'history'];
  if (
    typeof endpoint !== 'string' ||
    typeof tables !== 'object' ||
    tables === null ||
    !kinds.every((kind) => typeof tables[kind] === 'string')
  ) {
    throw new Error(
      `${shownPath(file)} is not a store file npm start wrote; delete it (npm start writes it again), or pass --endpoint URL.`,
    );
  }
  return note as LocalStoreNote;
}
