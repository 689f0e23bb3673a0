import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { readPolicyJson } from '../store/policy-json';
import {
  checkPolicy,
  COLLECTIONS,
  PolicyAdminError,
  type CollectionName,
  type Policy,
  type StoredPolicy,
} from '../store/policy-store';

/**
 * A collection as files, for git: one `<ID>.json` per policy, and `versions.json`, the version of each
 * policy the export saw, which `plan` and `apply` check the store against. The format is stable (fields in
 * the specification's order, two-space indentation, a final newline), so a diff shows only real changes.
 */

export const MANIFEST = 'versions.json';
const POLICY_FILE = /^([1-9][0-9]{0,9})\.json$/;

interface Manifest {
  collection: CollectionName;
  versions: Record<string, number>;
}

/** One policy (or any JSON value) as it is written to a file. */
export function formatPolicy(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes the collection to `dir`: every policy's file and the manifest; policy files of policies no longer stored are removed. */
export async function writeExport(
  dir: string,
  collection: CollectionName,
  stored: ReadonlyMap<number, StoredPolicy>,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) {
    const id = POLICY_FILE.exec(name)?.[1];
    if (id !== undefined && !stored.has(Number(id))) await rm(path.join(dir, name));
  }
  for (const [id, { policy }] of stored) await writeFile(path.join(dir, `${id}.json`), formatPolicy(policy));
  await writeManifest(dir, collection, new Map([...stored].map(([id, s]) => [id, s.version])));
}

export async function writeManifest(
  dir: string,
  collection: CollectionName,
  versions: ReadonlyMap<number, number>,
): Promise<void> {
  const manifest: Manifest = {
    collection,
    versions: Object.fromEntries([...versions].sort(([a], [b]) => a - b).map(([id, v]) => [String(id), v])),
  };
  await writeFile(path.join(dir, MANIFEST), formatPolicy(manifest));
}

export interface PolicyDirectory {
  readonly policies: Map<number, Policy>;
  readonly base: Map<number, number>;
}

/**
 * Reads and checks every file of `dir` (checkPolicy: value domains, feasibility, the default's rule) and its
 * manifest. Any problem, each named by file and field, refuses the whole directory.
 */
export async function readPolicyDirectory(dir: string, collection: CollectionName): Promise<PolicyDirectory> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (error) {
    throw new PolicyAdminError([
      `${dir}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}).`,
    ]);
  }
  const problems: string[] = [];
  const base = await readManifest(dir, collection).catch((error: unknown) => {
    if (!(error instanceof PolicyAdminError)) throw error;
    problems.push(...error.problems);
    return new Map<number, number>();
  });
  const policies = new Map<number, Policy>();
  const { idField } = COLLECTIONS[collection].resource;
  for (const name of names.filter((n) => n.endsWith('.json') && n !== MANIFEST)) {
    const file = path.join(dir, name);
    const id = POLICY_FILE.exec(name)?.[1];
    if (id === undefined) {
      problems.push(`${file}: a policy file is named <${idField}>.json`);
      continue;
    }
    const record = await readJson(file).catch((error: unknown) => {
      if (!(error instanceof PolicyAdminError)) throw error;
      problems.push(...error.problems);
      return undefined;
    });
    if (record === undefined) continue;
    const result = checkPolicy(collection, record);
    if (!result.ok) problems.push(...result.problems.map((p) => `${file}: ${p}`));
    else if (result.policy[idField] !== Number(id))
      problems.push(`${file}: ${idField}: must be ${id}, as the file name says`);
    else policies.set(Number(id), result.policy);
  }
  if (problems.length > 0) throw new PolicyAdminError(problems);
  return { policies, base };
}

/** One policy from a file of its own, checked as `apply` checks. */
export async function readPolicyFile(file: string, collection: CollectionName): Promise<Policy> {
  const result = checkPolicy(collection, await readJson(file));
  if (!result.ok) throw new PolicyAdminError(result.problems.map((p) => `${file}: ${p}`));
  return result.policy;
}

async function readManifest(dir: string, collection: CollectionName): Promise<Map<number, number>> {
  const file = path.join(dir, MANIFEST);
  const manifest = await readPolicyJson(
    file,
    (problem, code) =>
      new PolicyAdminError([
        code === 'ENOENT'
          ? `${file}: missing; a directory to apply starts as an export (npm run policy -- export).`
          : `${file}: ${problem}`,
      ]),
  );
  const { collection: of, versions } = (manifest ?? {}) as Partial<Manifest>;
  if (of !== collection)
    throw new PolicyAdminError([`${file}: this directory holds the ${String(of)} collection, not ${collection}.`]);
  const entries = Object.entries(versions ?? {});
  if (
    typeof versions !== 'object' ||
    entries.some(([id, v]) => !POLICY_FILE.test(`${id}.json`) || !Number.isInteger(v) || (v as number) < 1)
  ) {
    throw new PolicyAdminError([`${file}: "versions" must map each policy ID to its version (a whole number from 1).`]);
  }
  return new Map(entries.map(([id, v]) => [Number(id), v]));
}

/** A policy file's JSON; a PolicyAdminError naming the file when it cannot be read, is not JSON, or gives a name twice in one object. */
function readJson(file: string): Promise<unknown> {
  return readPolicyJson(file, (problem) => new PolicyAdminError([`${file}: ${problem}`]));
}
