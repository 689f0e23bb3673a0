import {
  GetCommand,
  paginateQuery,
  paginateScan,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { generatorPolicies, type GeneratorPolicy } from '../functions/domain/generator-policy';
import { checkFeasibility } from '../functions/domain/password-generator';
import {
  DEFAULT_POLICY_ID,
  defaultPolicyProblem,
  validatePolicy,
  type PolicyResource,
} from '../functions/domain/policy-collection';
import { strengthPolicies } from '../functions/domain/strength-policy';
import { escapeUnshowable, quoted, shownJson } from '../functions/domain/unicode-text';
import { WORD_LIST } from '../functions/domain/word-list';
import { specificationFields, VERSION_ATTRIBUTE } from '../functions/repositories/policies';
import { TABLES } from '../functions/repositories/tables';

/**
 * Versioned writes to the policy tables, each with its history record in the same DynamoDB transaction
 * (docs/administration.md). A stored policy carries a Version: 1 as first written, one more with each
 * change. Every write is conditional on the version it was read at, so a concurrent change cancels the
 * whole transaction and nothing is written. The policy CLI and the seed loader (so `npm start` too) write
 * through this one module; it knows the functions' validation and nothing of either caller.
 */

/** The two policy collections, as the CLIs name them. */
export const COLLECTIONS = {
  generator: { resource: generatorPolicies as PolicyResource<object>, table: TABLES.generator },
  strength: { resource: strengthPolicies as PolicyResource<object>, table: TABLES.strength },
} as const;
export type CollectionName = keyof typeof COLLECTIONS;

/** DynamoDB's limit of 100 actions per transaction, and each change takes two (the policy and its history record). */
export const MAX_CHANGES_PER_TRANSACTION = 50;

export type Policy = Record<string, unknown>;

export interface StoredPolicy {
  readonly policy: Policy;
  readonly version: number;
}

/** One change to one policy: a create (no before), a delete (no after) or an update; a rollback says what it restores. */
export interface PolicyChange {
  readonly collection: CollectionName;
  readonly id: number;
  readonly before: StoredPolicy | undefined;
  readonly after: Policy | undefined;
  readonly restoredVersion?: number;
}

export type ChangeKind = 'create' | 'update' | 'delete' | 'rollback';

/** One record of the history table. */
export interface HistoryRecord {
  readonly version: number;
  readonly change: ChangeKind;
  readonly changedAt: string;
  readonly changedBy: string;
  readonly before?: Policy;
  readonly after?: Policy;
  readonly restoredVersion?: number;
}

export interface PolicyTableNames {
  readonly generator: string;
  readonly strength: string;
  readonly history: string;
}

/** A refusal that names the policies concerned: a conflict, a rule (policy 1) or invalid input. */
export class PolicyAdminError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'PolicyAdminError';
  }
}

export function titleOf(collection: CollectionName, id: number): string {
  return `${COLLECTIONS[collection].resource.title} ${id}`;
}

export function kindOf(change: PolicyChange): ChangeKind {
  if (change.restoredVersion !== undefined) return 'rollback';
  return change.before === undefined ? 'create' : change.after === undefined ? 'delete' : 'update';
}

/**
 * Checks a record as a write needs it: the value domains (the schema the functions validate with on read),
 * feasibility for a generator policy, and the default policy's rule. Problems name the field.
 */
export function checkPolicy(
  collection: CollectionName,
  record: unknown,
): { ok: true; policy: Policy } | { ok: false; problems: string[] } {
  const { resource } = COLLECTIONS[collection];
  const result = validatePolicy(resource, record);
  if (!result.ok) return result;
  const problems: string[] = [];
  const rule = defaultPolicyProblem(resource, result.policy);
  if (rule !== undefined) problems.push(rule);
  if (collection === 'generator') {
    const feasibility = checkFeasibility(result.policy as GeneratorPolicy, WORD_LIST);
    if (!feasibility.ok) problems.push(`infeasible: ${feasibility.reason}`);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, policy: result.policy as Policy };
}

/** Why a change breaks a rule of the collection (the default policy is never deleted), or undefined. */
export function changeRuleProblem(change: PolicyChange): string | undefined {
  if (change.after === undefined && change.id === DEFAULT_POLICY_ID) {
    return `${titleOf(change.collection, DEFAULT_POLICY_ID)} is the default for password lists without a specific policy: it can be changed but never deleted.`;
  }
  return undefined;
}

/**
 * Field-level differences, as lines: `Field: old → new` (values as JSON, every text escaped as shownJson
 * escapes it, so no line hands a terminal a control, format or separator character raw); for a list of
 * words, the words added and removed; none when the two are the same policy.
 */
export function fieldDiff(before: Policy | undefined, after: Policy | undefined): string[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const show = (policy: Policy | undefined, field: string) =>
    policy !== undefined && field in policy ? shownJson(policy[field]) : '(absent)';
  return fields
    .filter((f) => show(before, f) !== show(after, f))
    .map((f) =>
      before === undefined
        ? `${f}: ${show(after, f)}`
        : after === undefined
          ? `${f}: ${show(before, f)}`
          : (wordChanges(f, before[f], after[f]) ?? `${f}: ${show(before, f)} → ${show(after, f)}`),
    )
    .map(escapeUnshowable);
}

/** A change to a list of words (a strength policy's BannedWords; absent is none): `+ "added", - "removed"`, or undefined for other values. */
function wordChanges(field: string, before: unknown, after: unknown): string | undefined {
  const words = (value: unknown) =>
    value === undefined
      ? []
      : Array.isArray(value) && value.every((w) => typeof w === 'string')
        ? (value as string[])
        : undefined;
  const [was, now] = [words(before), words(after)];
  if (was === undefined || now === undefined) return undefined;
  const changes = [
    ...now.filter((w) => !was.includes(w)).map((w) => `+ ${quoted(w)}`),
    ...was.filter((w) => !now.includes(w)).map((w) => `- ${quoted(w)}`),
  ];
  if (changes.length > 0) return `${field}: ${changes.join(', ')}`;
  // An empty list against none shows as values; the same words reordered say so.
  return was.length === 0 ? undefined : `${field}: the same words, in another order`;
}

export class PolicyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: PolicyTableNames,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Every stored policy of a collection with its version, ordered by identifier. */
  async list(collection: CollectionName): Promise<Map<number, StoredPolicy>> {
    const { idField } = COLLECTIONS[collection].resource;
    const stored = new Map<number, StoredPolicy>();
    for await (const page of paginateScan(
      { client: this.client },
      { TableName: this.tables[collection], ConsistentRead: true },
    )) {
      for (const item of page.Items ?? []) stored.set(item[idField] as number, storedPolicy(collection, item));
    }
    return new Map([...stored].sort(([a], [b]) => a - b));
  }

  async get(collection: CollectionName, id: number): Promise<StoredPolicy | undefined> {
    const key = { [COLLECTIONS[collection].table.partitionKey]: id };
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tables[collection], Key: key, ConsistentRead: true }),
    );
    return Item === undefined ? undefined : storedPolicy(collection, Item);
  }

  /** The history of one policy, oldest first. */
  async history(collection: CollectionName, id: number): Promise<HistoryRecord[]> {
    const records: HistoryRecord[] = [];
    const query = {
      TableName: this.tables.history,
      KeyConditionExpression: '#key = :key',
      ExpressionAttributeNames: { '#key': TABLES.history.partitionKey },
      ExpressionAttributeValues: { ':key': historyKey(collection, id) },
      ConsistentRead: true,
    };
    for await (const page of paginateQuery({ client: this.client }, query))
      records.push(...(page.Items ?? []).map(historyRecord));
    return records;
  }

  /**
   * Applies the changes in one transaction, each with its history record, and returns the version each
   * policy has afterwards (for a delete, the version its history record carries). Refuses, writing nothing,
   * when a rule is broken or any policy changed since its `before` was read.
   */
  async commit(changes: readonly PolicyChange[], changedBy: string): Promise<number[]> {
    if (changes.length === 0) return [];
    const problems = changes.map(changeRuleProblem).filter((p): p is string => p !== undefined);
    if (problems.length > 0) throw new PolicyAdminError(problems);
    if (changes.length > MAX_CHANGES_PER_TRANSACTION) {
      throw new PolicyAdminError([
        `${changes.length} changes are more than one transaction holds (${MAX_CHANGES_PER_TRANSACTION}); apply them in parts.`,
      ]);
    }
    const changedAt = this.now().toISOString();
    const versions = await Promise.all(changes.map((change) => this.nextVersion(change)));
    const actions = changes.flatMap((change, i) => [
      this.policyAction(change, versions[i]!),
      this.historyAction(change, versions[i]!, changedAt, changedBy),
    ]);
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: actions }));
    } catch (error) {
      const reasons = (error as { name?: string; CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if ((error as Error).name !== 'TransactionCanceledException' || reasons === undefined) throw error;
      const conflicts = changes.filter((_, i) =>
        [reasons[2 * i], reasons[2 * i + 1]].some((r) => r?.Code === 'ConditionalCheckFailed'),
      );
      if (conflicts.length === 0) throw error;
      throw new PolicyAdminError(conflicts.map(conflictMessage));
    }
    return versions;
  }

  /**
   * The version a change writes: one more than the version read. A new policy starts at 1, or, when a
   * policy of that identifier was deleted before, one past its last history record, so history only grows.
   */
  private async nextVersion(change: PolicyChange): Promise<number> {
    if (change.before !== undefined) return change.before.version + 1;
    const history = await this.history(change.collection, change.id);
    return (history.at(-1)?.version ?? 0) + 1;
  }

  private policyAction(change: PolicyChange, version: number): Record<string, unknown> {
    const { table } = COLLECTIONS[change.collection];
    const TableName = this.tables[change.collection];
    if (change.before === undefined) {
      return {
        Put: {
          TableName,
          Item: { ...change.after, [VERSION_ATTRIBUTE]: version },
          ConditionExpression: 'attribute_not_exists(#id)',
          ExpressionAttributeNames: { '#id': table.partitionKey },
        },
      };
    }
    // A record written before versions existed (by hand, or by an older seed loader) counts as version 1.
    const condition =
      change.before.version === 1
        ? {
            ConditionExpression: 'attribute_exists(#id) AND (attribute_not_exists(#version) OR #version = :read)',
            ExpressionAttributeNames: { '#id': table.partitionKey, '#version': VERSION_ATTRIBUTE },
          }
        : { ConditionExpression: '#version = :read', ExpressionAttributeNames: { '#version': VERSION_ATTRIBUTE } };
    Object.assign(condition, { ExpressionAttributeValues: { ':read': change.before.version } });
    if (change.after === undefined)
      return { Delete: { TableName, Key: { [table.partitionKey]: change.id }, ...condition } };
    return { Put: { TableName, Item: { ...change.after, [VERSION_ATTRIBUTE]: version }, ...condition } };
  }

  private historyAction(
    change: PolicyChange,
    version: number,
    changedAt: string,
    changedBy: string,
  ): Record<string, unknown> {
    const item: Record<string, unknown> = {
      [TABLES.history.partitionKey]: historyKey(change.collection, change.id),
      [TABLES.history.sortKey]: version,
      Change: kindOf(change),
      ChangedAt: changedAt,
      ChangedBy: changedBy,
      ...(change.before !== undefined ? { Before: change.before.policy } : {}),
      ...(change.after !== undefined ? { After: change.after } : {}),
      ...(change.restoredVersion !== undefined ? { RestoredVersion: change.restoredVersion } : {}),
    };
    // Two writers of the same new version collide here even when the policy condition cannot tell (a create after a delete).
    return {
      Put: {
        TableName: this.tables.history,
        Item: item,
        ConditionExpression: 'attribute_not_exists(#key)',
        ExpressionAttributeNames: { '#key': TABLES.history.partitionKey },
      },
    };
  }
}

/** The history table's partition key of one policy: "generator#3". */
function historyKey(collection: CollectionName, id: number): string {
  return `${collection}#${id}`;
}

/** A stored item as the CLI sees it: the specification's fields (in their order where known) and the version. */
function storedPolicy(collection: CollectionName, item: Record<string, unknown>): StoredPolicy {
  const fields = specificationFields(item);
  const ordered: Policy = {};
  for (const field of COLLECTIONS[collection].resource.fields) if (field in fields) ordered[field] = fields[field];
  for (const [name, value] of Object.entries(fields)) if (!(name in ordered)) ordered[name] = value;
  const version = item[VERSION_ATTRIBUTE];
  return { policy: ordered, version: typeof version === 'number' ? version : 1 };
}

function historyRecord(item: Record<string, unknown>): HistoryRecord {
  return {
    version: item[TABLES.history.sortKey] as number,
    change: item.Change as ChangeKind,
    changedAt: String(item.ChangedAt),
    changedBy: String(item.ChangedBy),
    ...(item.Before !== undefined ? { before: item.Before as Policy } : {}),
    ...(item.After !== undefined ? { after: item.After as Policy } : {}),
    ...(typeof item.RestoredVersion === 'number' ? { restoredVersion: item.RestoredVersion } : {}),
  };
}

function conflictMessage(change: PolicyChange): string {
  const title = titleOf(change.collection, change.id);
  if (change.before === undefined)
    return `${title}: someone else created it since it was read; nothing was written. Export (or read) it again.`;
  return `${title}: someone else changed it since version ${change.before.version} was read; nothing was written. Export (or read) it again.`;
}
