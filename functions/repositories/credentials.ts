import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyKind } from '../domain/api-key';
import { countMetric, logger, SERVICE_METRICS } from '../runtime';

/**
 * The credentials table, one item per identity (docs/credentials.md):
 *   USER#<UserID>  { CredentialID, UserID, Roles: string[], Disabled, CreatedAt, Keys: { <keyId>: StoredKey }, LastUsed: { <keyId>: ISO } }
 *   GENERATOR_KEYS { CredentialID, Keys: { <keyId>: StoredKey }, LastUsed: { <keyId>: ISO } }   password generator API keys
 *   STRENGTH_KEYS  { CredentialID, Keys: { <keyId>: StoredKey }, LastUsed: { <keyId>: ISO } }   password strength keys
 * Several active keys per identity allow rotation without downtime. Last-used dates live in their own
 * top-level map so the authorizer's IAM policy can let it write that attribute and nothing else; the
 * authorizer can only SET into an existing map, so every item is written with it. This file is the one
 * home of these shapes: the authorizer reads them, the credentials CLI and the local run write them.
 */

/** A stored key: only its digest and creation date, never the key; and its usage plan, when not the default. */
export interface StoredKey {
  readonly Digest: string;
  readonly CreatedAt: string;
  readonly UsagePlan?: string;
}

export interface UserItem {
  readonly CredentialID: string;
  readonly UserID: string;
  readonly Roles: string[];
  readonly Disabled: boolean;
  readonly CreatedAt: string;
  readonly Keys: Record<string, StoredKey>;
  readonly LastUsed: Record<string, string>;
}

/**
 * The attribute names of the items above, for code that names them in an expression or reads an untyped
 * item: the credentials CLI, the stack's IAM condition on the authorizer's write. `satisfies` ties each to
 * its field of UserItem or StoredKey, so a rename there fails to compile here.
 */
export const CREDENTIAL_ATTRIBUTES = {
  credentialId: 'CredentialID',
  userId: 'UserID',
  roles: 'Roles',
  disabled: 'Disabled',
  createdAt: 'CreatedAt',
  keys: 'Keys',
  lastUsed: 'LastUsed',
} as const satisfies Record<string, keyof UserItem>;

export const KEY_ATTRIBUTES = {
  digest: 'Digest',
  createdAt: 'CreatedAt',
  usagePlan: 'UsagePlan',
} as const satisfies Record<string, keyof StoredKey>;

/** A system-wide key kind: Passwordstate's password generator API key and password strength key, each without a user. */
export type SystemKeyKind = Exclude<KeyKind, 'user'>;

/** The one item holding every key of a system-wide kind. */
export const SYSTEM_KEYS_ID = { generator: 'GENERATOR_KEYS', strength: 'STRENGTH_KEYS' } as const satisfies Record<
  SystemKeyKind,
  string
>;

export interface SystemKeysItem {
  readonly CredentialID: (typeof SYSTEM_KEYS_ID)[SystemKeyKind];
  readonly Keys: Record<string, StoredKey>;
  readonly LastUsed: Record<string, string>;
}

/** A user's CredentialID: this prefix, then its UserID. */
export const USER_CREDENTIAL_PREFIX = 'USER#';

export const userCredentialId = (userId: string): string => `${USER_CREDENTIAL_PREFIX}${userId}`;

export function storedKey(digest: string, createdAt: string): StoredKey {
  return { Digest: digest, CreatedAt: createdAt };
}

/** A new user item; `userId` and `roles` must already be checked (the credentials CLI checks them). */
export function userItem(
  userId: string,
  roles: readonly string[],
  createdAt: string,
  keys: Record<string, StoredKey> = {},
): UserItem {
  return {
    CredentialID: userCredentialId(userId),
    UserID: userId,
    Roles: [...roles],
    Disabled: false,
    CreatedAt: createdAt,
    Keys: keys,
    LastUsed: {},
  };
}

export function systemKeysItem(kind: SystemKeyKind, keys: Record<string, StoredKey> = {}): SystemKeysItem {
  return { CredentialID: SYSTEM_KEYS_ID[kind], Keys: keys, LastUsed: {} };
}

/**
 * A user as the authorizer reads it: an item may have been written by hand, so Roles may be a list or a
 * string set and the optional parts may be absent.
 */
export interface UserRecord extends SystemKeysRecord {
  readonly UserID: string;
  readonly Roles?: Iterable<string>;
  readonly Disabled?: boolean;
}

export interface SystemKeysRecord {
  readonly Keys: Readonly<Record<string, Partial<StoredKey>>>;
  /** Written by the authorizer; read only to skip a write inside the hour, so its shape is not trusted. */
  readonly LastUsed?: unknown;
}

/** Last-used dates are written at most this often per key, so a busy key costs one write an hour. */
export const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

/** The longest the authorizer waits for a last-used write before it answers anyway (docs/operations.md#timeout-budget). */
export const LAST_USED_WRITE_TIMEOUT_MS = 300;

const { credentialId: ID, lastUsed: LAST_USED } = CREDENTIAL_ATTRIBUTES;

/** Reads the credentials table for the authorizer: one GetItem per request, and last-used dates. */
export class CredentialRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The user, or undefined when there is none or its record is malformed (logged and counted). */
  async findUser(userId: string): Promise<UserRecord | undefined> {
    const credentialId = userCredentialId(userId);
    return wellFormed(credentialId, await this.get(credentialId), isUserRecord);
  }

  /** The keys of a system-wide kind, or undefined when there is none or its record is malformed (logged and counted). */
  async findSystemKeys(kind: SystemKeyKind): Promise<SystemKeysRecord | undefined> {
    const credentialId = SYSTEM_KEYS_ID[kind];
    return wellFormed(credentialId, await this.get(credentialId), hasKeys);
  }

  /**
   * Notes that a key was accepted now, at most once per LAST_USED_RESOLUTION_MS, and gives up after
   * LAST_USED_WRITE_TIMEOUT_MS so a slow table never delays an answer; the caller ignores failures.
   */
  async recordKeyUse(credentialId: string, keyId: string, now: Date): Promise<void> {
    const threshold = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { [ID]: credentialId },
        // Only CredentialID and LastUsed are named: the IAM policy allows the authorizer no other attribute.
        UpdateExpression: `SET ${LAST_USED}.#key = :now`,
        ConditionExpression: `attribute_exists(${ID}) AND (attribute_not_exists(${LAST_USED}.#key) OR ${LAST_USED}.#key < :threshold)`,
        ExpressionAttributeNames: { '#key': keyId },
        ExpressionAttributeValues: { ':now': now.toISOString(), ':threshold': threshold },
      }),
      { abortSignal: AbortSignal.timeout(LAST_USED_WRITE_TIMEOUT_MS) },
    );
  }

  private async get(credentialId: string): Promise<Record<string, unknown> | undefined> {
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { [ID]: credentialId } }));
    return result.Item;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Records are checked on read, as policy records are: one written by hand or partly restored (no Keys, a key
// without its Digest) counts as absent, so it can only ever refuse, never throw.
// ---------------------------------------------------------------------------------------------------------

function wellFormed<T>(
  credentialId: string,
  item: Record<string, unknown> | undefined,
  check: (item: Record<string, unknown>) => boolean,
): T | undefined {
  if (item === undefined) return undefined;
  if (check(item)) return item as T;
  logger.warn('Invalid credential record', { credentialId });
  countMetric(SERVICE_METRICS.names.invalidCredentialRecords);
  return undefined;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Set);

/** Keys is a map of key id to an object holding a string Digest. */
function hasKeys(item: Record<string, unknown>): boolean {
  return isMap(item.Keys) && Object.values(item.Keys).every((key) => isMap(key) && typeof key.Digest === 'string');
}

/** A user: its UserID, its keys, Roles absent or a list or set of strings, Disabled absent or a boolean. */
function isUserRecord(item: Record<string, unknown>): boolean {
  const roles = item.Roles;
  const rolesOk =
    roles === undefined ||
    ((Array.isArray(roles) || roles instanceof Set) &&
      [...(roles as Iterable<unknown>)].every((r) => typeof r === 'string'));
  return (
    typeof item.UserID === 'string' &&
    hasKeys(item) &&
    rolesOk &&
    (item.Disabled === undefined || typeof item.Disabled === 'boolean')
  );
}
