import * as path from 'node:path';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { userInfo } from 'node:os';
import { DEFAULT_POLICY_ID, type PolicyResource } from '../functions/domain/policy-collection';
import { generatorPolicies, type GeneratorPolicy } from '../functions/domain/generator-policy';
import { strengthPolicies, type StrengthPolicy } from '../functions/domain/strength-policy';
import { TABLES } from '../functions/repositories/tables';
import {
  checkPolicy,
  COLLECTIONS,
  fieldDiff,
  MAX_CHANGES_PER_TRANSACTION,
  PolicyStore,
  titleOf,
  type CollectionName,
  type PolicyChange,
} from '../store/policy-store';
import { readPolicyJson } from '../store/policy-json';
import { SEED_FILES } from '../store/seed-files';

/** The files the loader reads unless told others: the committed seed files. */
export const DEFAULT_GENERATOR_FILE = SEED_FILES.generator;
export const DEFAULT_STRENGTH_FILE = SEED_FILES.strength;

/** DynamoDB accepts at most 25 put requests in one BatchWriteItem. */
const BATCH_SIZE = 25;

/** A seed file that must not be written; `problems` holds one line per file-level or record-level fault. */
export class SeedValidationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'SeedValidationError';
  }
}

/**
 * Reads a JSON array of policies, no name given twice in one object (store/policy-json.ts), and checks every
 * record as every policy write is checked (checkPolicy: value domains, feasibility, the default's rule), every
 * ID's uniqueness and the presence of the default policy (DEFAULT_POLICY_ID). All problems of the file are reported together, each naming the file, the record
 * (zero-based index and ID) and the field.
 */
export async function readSeedFile<T extends object>(file: string, resource: PolicyResource<T>): Promise<T[]> {
  const shown = displayPath(file);
  const records = await readJsonArray(file, shown);
  const problems: string[] = [];
  const policies: T[] = [];
  const firstIndexOfId = new Map<unknown, number>();
  records.forEach((record, index) => {
    const where = `${shown} record #${index}${idSuffix(resource, record)}`;
    const result = checkPolicy(collectionOf(resource), record);
    if (!result.ok) {
      problems.push(...result.problems.map((p) => `${where}: ${p}`));
      return;
    }
    const id = result.policy[resource.idField];
    const first = firstIndexOfId.get(id);
    if (first !== undefined) problems.push(`${where}: ${resource.idField}: duplicates record #${first}`);
    else firstIndexOfId.set(id, index);
    policies.push(result.policy as T);
  });
  if (!records.some((r) => isObject(r) && r[resource.idField] === DEFAULT_POLICY_ID)) {
    problems.push(
      `${shown}: no record has ${resource.idField} ${DEFAULT_POLICY_ID} (the default ${resource.title} for password lists without a specific policy)`,
    );
  }
  if (problems.length > 0) throw new SeedValidationError(problems);
  return policies;
}

function collectionOf(resource: unknown): CollectionName {
  return resource === COLLECTIONS.generator.resource ? 'generator' : 'strength';
}

async function readJsonArray(file: string, shown: string): Promise<unknown[]> {
  const parsed = await readPolicyJson(file, (problem) => new SeedValidationError([`${shown}: ${problem}`]));
  if (!Array.isArray(parsed)) throw new SeedValidationError([`${shown}: must hold a JSON array of policies`]);
  return parsed;
}

/** " (PasswordGeneratorID 4)" when the record carries an ID, so the operator can find it by either. */
function idSuffix<T extends object>(resource: PolicyResource<T>, record: unknown): string {
  if (!isObject(record) || !(resource.idField in record)) return '';
  return ` (${resource.idField} ${JSON.stringify(record[resource.idField])})`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Relative to the working directory when inside it, as the operator typed it; absolute otherwise. */
function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

export interface WriteOptions {
  /** BatchWriteItem calls per batch before giving up on UnprocessedItems (default 8). */
  maxAttempts?: number;
  /** Delay before the first retry; doubles on each further retry (default 100 ms). */
  baseDelayMs?: number;
  /** Injectable so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
}

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } };

/** Puts every policy into the table, 25 per BatchWriteItem, and returns how many were written. */
export async function writePolicies(
  client: DynamoDBDocumentClient,
  tableName: string,
  policies: readonly object[],
  options: WriteOptions = {},
): Promise<number> {
  let written = 0;
  for (let start = 0; start < policies.length; start += BATCH_SIZE) {
    const batch = policies
      .slice(start, start + BATCH_SIZE)
      .map((p): WriteRequest => ({ PutRequest: { Item: { ...p } } }));
    await writeBatch(client, tableName, batch, options);
    written += batch.length;
  }
  return written;
}

/** One batch, resending what DynamoDB returns as UnprocessedItems (throttling) with exponential backoff. */
async function writeBatch(
  client: DynamoDBDocumentClient,
  tableName: string,
  batch: WriteRequest[],
  options: WriteOptions,
): Promise<void> {
  const maxAttempts = options.maxAttempts ?? 8;
  const baseDelayMs = options.baseDelayMs ?? 100;
  const sleep = options.sleep ?? defaultSleep;
  let pending = batch;
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    if (attempt > 1) await sleep(Math.min(baseDelayMs * 2 ** (attempt - 2), 10_000));
    const output = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
    pending = (output.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    if (pending.length === 0) return;
  }
  throw new Error(
    `${pending.length} item(s) for table ${tableName} were still unprocessed after ${maxAttempts} BatchWriteItem attempts`,
  );
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface LoadSeedOptions {
  client: DynamoDBDocumentClient;
  generatorTable: string;
  strengthTable: string;
  /** The policy history table (default: the local store's, TABLES.history.logicalName). */
  historyTable?: string;
  generatorFile?: string;
  strengthFile?: string;
  /** Replace stored policies that differ from the seed files (as new versions, with history); refused otherwise. */
  overwrite?: boolean;
  /** Who the history records as making the changes (default: the OS user). */
  actor?: string;
}

export interface SeedResult {
  /** Policies written per collection: created, or overwritten. */
  generator: number;
  strength: number;
  created: number;
  overwritten: number;
  unchanged: number;
}

/** Stored policies that differ from the seed files, without --overwrite: nothing was written. */
export class SeedConflictError extends Error {
  constructor(readonly policies: readonly string[]) {
    super(
      `${policies.join('\n')}\nNothing was written; --overwrite replaces them (each as a new version, recorded in the history).`,
    );
    this.name = 'SeedConflictError';
  }
}

/**
 * Validates both files completely; creates the policies the store lacks and leaves equal ones alone. A stored
 * policy that differs is replaced only with `overwrite`, otherwise nothing is written. Every write goes
 * through PolicyStore: versioned, with its history record in the same transaction (up to
 * MAX_CHANGES_PER_TRANSACTION policies per transaction).
 */
export async function loadSeed(options: LoadSeedOptions): Promise<SeedResult> {
  const [generator, strength] = await readBoth(
    options.generatorFile ?? DEFAULT_GENERATOR_FILE,
    options.strengthFile ?? DEFAULT_STRENGTH_FILE,
  );
  const store = new PolicyStore(options.client, {
    generator: options.generatorTable,
    strength: options.strengthTable,
    history: options.historyTable ?? TABLES.history.logicalName,
  });
  const changes: PolicyChange[] = [];
  const differing: string[] = [];
  let unchanged = 0;
  for (const [collection, policies] of [
    ['generator', generator],
    ['strength', strength],
  ] as [CollectionName, object[]][]) {
    const stored = await store.list(collection);
    for (const policy of policies as Record<string, unknown>[]) {
      const id = policy[COLLECTIONS[collection].resource.idField] as number;
      const before = stored.get(id);
      if (before !== undefined && fieldDiff(before.policy, policy).length === 0) unchanged += 1;
      else if (before !== undefined && !options.overwrite)
        differing.push(
          `${titleOf(collection, id)} differs from the seed file: ${fieldDiff(before.policy, policy).join('; ')}`,
        );
      else changes.push({ collection, id, before, after: policy });
    }
  }
  if (differing.length > 0) throw new SeedConflictError(differing);
  const actor = options.actor ?? userInfo().username;
  for (let start = 0; start < changes.length; start += MAX_CHANGES_PER_TRANSACTION) {
    await store.commit(changes.slice(start, start + MAX_CHANGES_PER_TRANSACTION), actor);
  }
  const written = (collection: CollectionName) => changes.filter((c) => c.collection === collection).length;
  const overwritten = changes.filter((c) => c.before !== undefined).length;
  return {
    generator: written('generator'),
    strength: written('strength'),
    created: changes.length - overwritten,
    overwritten,
    unchanged,
  };
}

/** Reads both files and reports the problems of both at once, not only of the first that fails. */
async function readBoth(generatorFile: string, strengthFile: string): Promise<[GeneratorPolicy[], StrengthPolicy[]]> {
  const [generator, strength] = await Promise.allSettled([
    readSeedFile(generatorFile, generatorPolicies),
    readSeedFile(strengthFile, strengthPolicies),
  ]);
  const problems = [...problemsOf(generator), ...problemsOf(strength)];
  if (generator.status === 'rejected' || strength.status === 'rejected') throw new SeedValidationError(problems);
  return [generator.value, strength.value];
}

/** The validation problems of one read; any other failure (a bug, not bad data) is rethrown as it is. */
function problemsOf(result: PromiseSettledResult<unknown>): readonly string[] {
  if (result.status === 'fulfilled') return [];
  if (result.reason instanceof SeedValidationError) return result.reason.problems;
  throw result.reason;
}
