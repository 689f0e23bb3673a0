import {
  GetCommand,
  paginateScan,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { issueKey, USER_ID_PATTERN, type KeyKind } from '../functions/domain/api-key';
import { usagePlanOf, type UsagePlanName } from '../functions/routes';
import {
  CREDENTIAL_ATTRIBUTES as ATTRIBUTES,
  KEY_ATTRIBUTES,
  storedKey,
  SYSTEM_KEYS_ID,
  USER_CREDENTIAL_PREFIX,
  userCredentialId,
  userItem,
  type SystemKeyKind,
  type UserItem,
} from '../functions/repositories/credentials';

/**
 * Operator actions on the credentials table (docs/credentials.md), on the items the authorizer reads
 * (functions/repositories/credentials.ts holds their shapes). Every write is a conditional PutItem or
 * UpdateItem, so two operators working at once cannot corrupt an item; only SHA-256 digests are stored, and
 * no message or listing ever carries a key or a digest.
 */

/** An operator mistake (unknown user or key id, disabled user, existing user, invalid user id or role). */
export class CredentialAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialAdminError';
  }
}

/** One key as `list` shows it (docs/credentials.md#what-list---json-prints); never its digest. */
export interface KeySummary {
  keyId: string;
  createdAt?: string;
  lastUsedAt?: string;
  /** The usage plan the key is metered on, as the authorizer reads it: the default when none (or no known one) is recorded. */
  usagePlan: UsagePlanName;
}

interface UserSummary {
  userId: string;
  roles: string[];
  disabled: boolean;
  createdAt?: string;
  keys: KeySummary[];
}

export interface CredentialListing {
  users: UserSummary[];
  generatorKeys: KeySummary[];
  strengthKeys: KeySummary[];
}

/** The system-wide key kinds as operators read them. */
export const SYSTEM_KEY_TITLES: Readonly<Record<SystemKeyKind, string>> = {
  generator: 'password generator API key',
  strength: 'password strength key',
};

/** Roles: 1 to 100 characters, none of them a control or format character. */
const ROLE = /^\P{C}{1,100}$/u;
/** The key id part of an issued key (api-key.ts). */
const KEY_ID = /^[0-9a-f]{12}$/;
/** A fresh 48-bit key id colliding with a live one is improbable; a few attempts make it impossible in practice. */
const MAX_ATTEMPTS = 3;

// KEYS, ROLES and DISABLE are DynamoDB reserved words, so every attribute goes through a name placeholder.
const NAMES = {
  '#id': ATTRIBUTES.credentialId,
  '#roles': ATTRIBUTES.roles,
  '#disabled': ATTRIBUTES.disabled,
  '#keys': ATTRIBUTES.keys,
  '#lastUsed': ATTRIBUTES.lastUsed,
} as const;

export function checkUserId(userId: string): string {
  // The value is not echoed: a mistyped argument may be a key pasted in the wrong place.
  if (!USER_ID_PATTERN.test(userId))
    throw new CredentialAdminError('A user id must be 1 to 128 printable ASCII characters without spaces or commas.');
  return userId;
}

export function checkRole(role: string): string {
  if (!ROLE.test(role) || role.trim() !== role) {
    throw new CredentialAdminError('A role must be 1 to 100 printable characters, without leading or trailing spaces.');
  }
  return role;
}

export function checkKeyId(keyId: string): string {
  if (!KEY_ID.test(keyId))
    throw new CredentialAdminError(
      'A key id is the 12 hexadecimal characters shown when the key was issued (not the key itself).',
    );
  return keyId;
}

/** The roles without repeats, in first-seen order: the authorizer reads Roles as a list of unique names. */
function uniqueRoles(roles: readonly string[]): string[] {
  return [...new Set(roles.map(checkRole))];
}

/** A new user item, its user id and roles checked first (the authorizer reads Roles as a list of unique names). */
export function newUserItem(userId: string, roles: readonly string[], createdAt: string): UserItem {
  return userItem(checkUserId(userId), uniqueRoles(roles), createdAt);
}

type Item = Record<string, unknown>;
type Update = { UpdateExpression: string; ConditionExpression?: string; ExpressionAttributeValues?: Item };

/** What a failed condition meant, learnt by reading the item afterwards: try again, nothing to do, or an error (thrown). */
type Verdict = 'retry' | 'done';

export class CredentialAdmin {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async createUser(userId: string, roles: string[] = []): Promise<void> {
    const item = newUserItem(userId, roles, this.timestamp());
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(#id)',
          ExpressionAttributeNames: { '#id': NAMES['#id'] },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new CredentialAdminError(`User "${userId}" already exists.`);
      throw error;
    }
  }

  /** Granting a role the user already holds changes nothing and is not an error. */
  async grantRole(userId: string, role: string): Promise<void> {
    checkUserId(userId);
    checkRole(role);
    await this.updateWithRetry(
      userCredentialId(userId),
      () => ({
        UpdateExpression: 'SET #roles = list_append(if_not_exists(#roles, :none), :role)',
        ConditionExpression: 'attribute_exists(#id) AND NOT contains(#roles, :name)',
        ExpressionAttributeValues: { ':none': [], ':role': [role], ':name': role },
      }),
      (item) => (rolesOf(requireUser(item, userId)).includes(role) ? 'done' : 'retry'),
    );
  }

  /** Revoking a role the user does not hold is an error, so a mistyped role name is never mistaken for a revocation. */
  async revokeRole(userId: string, role: string): Promise<void> {
    checkUserId(userId);
    checkRole(role);
    const credentialId = userCredentialId(userId);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const held = rolesOf(requireUser(await this.read(credentialId), userId));
      const indexes = held.flatMap((r, i) => (r === role ? [i] : []));
      if (indexes.length === 0) throw new CredentialAdminError(`User "${userId}" does not hold the role "${role}".`);
      // DynamoDB removes list elements by index only; the condition makes sure the index still holds this role.
      const removed = await this.tryUpdate(credentialId, {
        UpdateExpression: `REMOVE ${indexes.map((i) => `#roles[${i}]`).join(', ')}`,
        ConditionExpression: indexes.map((i) => `#roles[${i}] = :role`).join(' AND '),
        ExpressionAttributeValues: { ':role': role },
      });
      if (removed) return;
    }
    throw concurrentChange(credentialId);
  }

  async disableUser(userId: string): Promise<void> {
    await this.setDisabled(userId, true);
  }

  async enableUser(userId: string): Promise<void> {
    await this.setDisabled(userId, false);
  }

  async issueUserKey(userId: string): Promise<{ key: string; keyId: string }> {
    checkUserId(userId);
    const credentialId = userCredentialId(userId);
    await this.ensureMaps(credentialId, unknownUser(userId));
    return this.addKey('user', credentialId, {
      condition: 'attribute_exists(#id) AND (attribute_not_exists(#disabled) OR #disabled = :false)',
      values: { ':false': false },
      diagnose: (item) => {
        const user = requireUser(item, userId);
        if (user[ATTRIBUTES.disabled] === true)
          throw new CredentialAdminError(`User "${userId}" is disabled; enable it before issuing a key.`);
      },
    });
  }

  async revokeUserKey(userId: string, keyId: string): Promise<void> {
    checkUserId(userId);
    checkKeyId(keyId);
    const credentialId = userCredentialId(userId);
    await this.ensureMaps(credentialId, unknownUser(userId));
    await this.removeKey(
      credentialId,
      keyId,
      () => new CredentialAdminError(`User "${userId}" has no key with id ${keyId}.`),
    );
  }

  /** A new system-wide key (password generator API key or password strength key); the others of its kind stay active. */
  async issueSystemKey(kind: SystemKeyKind): Promise<{ key: string; keyId: string }> {
    await this.ensureMaps(SYSTEM_KEYS_ID[kind], undefined);
    return this.addKey(kind, SYSTEM_KEYS_ID[kind], { condition: undefined, values: {}, diagnose: () => undefined });
  }

  async revokeSystemKey(kind: SystemKeyKind, keyId: string): Promise<void> {
    checkKeyId(keyId);
    const notFound = () => new CredentialAdminError(`There is no ${SYSTEM_KEY_TITLES[kind]} with id ${keyId}.`);
    await this.ensureMaps(SYSTEM_KEYS_ID[kind], notFound());
    await this.removeKey(SYSTEM_KEYS_ID[kind], keyId, notFound);
  }

  /**
   * Records a key's usage plan in the credentials table (for `list` and the local run; on AWS the CLI also
   * moves its API key). Returns the CredentialID holding the key.
   */
  async setUsagePlan(keyId: string, plan: UsagePlanName): Promise<string> {
    checkKeyId(keyId);
    const notFound = () => new CredentialAdminError(`There is no key with id ${keyId}.`);
    let credentialId: string | undefined;
    for await (const page of paginateScan(
      { client: this.client },
      { TableName: this.tableName, ConsistentRead: true },
    )) {
      credentialId = page.Items?.find((item) => Object.hasOwn(asMap(item[ATTRIBUTES.keys]), keyId))?.[
        ATTRIBUTES.credentialId
      ] as string | undefined;
      // A key id is in one item only: the pages after it need not be read.
      if (credentialId !== undefined) break;
    }
    if (credentialId === undefined) throw notFound();
    const updated = await this.tryUpdate(
      credentialId,
      {
        UpdateExpression: `SET #keys.#keyId.${KEY_ATTRIBUTES.usagePlan} = :plan`,
        ConditionExpression: 'attribute_exists(#keys.#keyId)',
        ExpressionAttributeValues: { ':plan': plan },
      },
      { '#keyId': keyId },
    );
    if (!updated) throw notFound();
    return credentialId;
  }

  /** Every user and system key id with its dates, sorted; the listing is built field by field so no digest can slip in. */
  async list(): Promise<CredentialListing> {
    const users: UserSummary[] = [];
    let generatorKeys: KeySummary[] = [];
    let strengthKeys: KeySummary[] = [];
    for await (const page of paginateScan(
      { client: this.client },
      { TableName: this.tableName, ConsistentRead: true },
    )) {
      for (const item of page.Items ?? []) {
        const id = item[ATTRIBUTES.credentialId];
        if (id === SYSTEM_KEYS_ID.generator) generatorKeys = keySummaries(item);
        else if (id === SYSTEM_KEYS_ID.strength) strengthKeys = keySummaries(item);
        else if (typeof id === 'string' && id.startsWith(USER_CREDENTIAL_PREFIX)) users.push(userSummary(item, id));
      }
    }
    users.sort((a, b) => compareStrings(a.userId, b.userId));
    return { users, generatorKeys, strengthKeys };
  }

  private async setDisabled(userId: string, disabled: boolean): Promise<void> {
    checkUserId(userId);
    const done = await this.tryUpdate(userCredentialId(userId), {
      UpdateExpression: 'SET #disabled = :disabled',
      ConditionExpression: 'attribute_exists(#id)',
      ExpressionAttributeValues: { ':disabled': disabled },
    });
    if (!done) throw unknownUser(userId);
  }

  /**
   * A nested path (SET/REMOVE Keys.<id>, the authorizer's SET LastUsed.<id>) fails when its map is absent, as on a
   * hand-written item or the first key of a system kind, so both maps are made first. With `ifMissing` the item
   * must exist already (that error is thrown otherwise); without it, the item is created (a system keys item).
   */
  private async ensureMaps(credentialId: string, ifMissing: CredentialAdminError | undefined): Promise<void> {
    const done = await this.tryUpdate(credentialId, {
      UpdateExpression: 'SET #keys = if_not_exists(#keys, :empty), #lastUsed = if_not_exists(#lastUsed, :empty)',
      ...(ifMissing !== undefined ? { ConditionExpression: 'attribute_exists(#id)' } : {}),
      ExpressionAttributeValues: { ':empty': {} },
    });
    if (!done && ifMissing !== undefined) throw ifMissing;
  }

  /** Adds a new key's digest under a fresh key id; `diagnose` throws the operator error when `condition` failed for a reason. */
  private async addKey(
    kind: KeyKind,
    credentialId: string,
    guard: { condition: string | undefined; values: Item; diagnose: (item: Item | undefined) => void },
  ): Promise<{ key: string; keyId: string }> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const issued = issueKey(kind);
      const added = await this.tryUpdate(
        credentialId,
        {
          UpdateExpression: 'SET #keys.#keyId = :key',
          ConditionExpression: [guard.condition, 'attribute_not_exists(#keys.#keyId)'].filter(Boolean).join(' AND '),
          ExpressionAttributeValues: { ...guard.values, ':key': storedKey(issued.digest, this.timestamp()) },
        },
        { '#keyId': issued.keyId },
      );
      if (added) return { key: issued.key, keyId: issued.keyId };
      guard.diagnose(await this.read(credentialId));
      // Otherwise the key id collided with a live one: draw a new key.
    }
    throw concurrentChange(credentialId);
  }

  /** REMOVE conditional on the key existing, so an unknown key id is reported instead of silently succeeding. */
  private async removeKey(credentialId: string, keyId: string, notFound: () => CredentialAdminError): Promise<void> {
    const removed = await this.tryUpdate(
      credentialId,
      {
        UpdateExpression: 'REMOVE #keys.#keyId, #lastUsed.#keyId',
        ConditionExpression: 'attribute_exists(#keys.#keyId)',
      },
      { '#keyId': keyId },
    );
    if (!removed) throw notFound();
  }

  /** Retries an update whose condition failed while `diagnose` (reading the item) says the state may have moved on. */
  private async updateWithRetry(
    credentialId: string,
    update: () => Update,
    diagnose: (item: Item | undefined) => Verdict,
  ): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      if (await this.tryUpdate(credentialId, update())) return;
      if (diagnose(await this.read(credentialId)) === 'done') return;
    }
    throw concurrentChange(credentialId);
  }

  /** One conditional UpdateItem: true when applied, false when its condition failed. */
  private async tryUpdate(
    credentialId: string,
    update: Update,
    extraNames: Record<string, string> = {},
  ): Promise<boolean> {
    const expressions = [update.UpdateExpression, update.ConditionExpression ?? ''].join(' ');
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { [ATTRIBUTES.credentialId]: credentialId },
          ...update,
          // DynamoDB rejects placeholders that no expression uses, so only the ones in use are sent.
          ExpressionAttributeNames: usedNames({ ...NAMES, ...extraNames }, expressions),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async read(credentialId: string): Promise<Item | undefined> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { [ATTRIBUTES.credentialId]: credentialId },
        ConsistentRead: true,
      }),
    );
    return result.Item;
  }

  private timestamp(): string {
    return this.now().toISOString();
  }
}

function usedNames(names: Record<string, string>, expressions: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(names).filter(([placeholder]) => new RegExp(`${placeholder}\\b`).test(expressions)),
  );
}

/** By name, not instanceof: the document client may surface an error class from another copy of the SDK. */
function isConditionFailure(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';
}

function requireUser(item: Item | undefined, userId: string): Item {
  if (item === undefined) throw unknownUser(userId);
  return item;
}

function unknownUser(userId: string): CredentialAdminError {
  return new CredentialAdminError(`User "${userId}" does not exist.`);
}

function concurrentChange(credentialId: string): CredentialAdminError {
  const kind = (Object.keys(SYSTEM_KEYS_ID) as SystemKeyKind[]).find((k) => SYSTEM_KEYS_ID[k] === credentialId);
  const what =
    kind !== undefined
      ? `the ${SYSTEM_KEY_TITLES[kind]}s`
      : `user "${credentialId.slice(USER_CREDENTIAL_PREFIX.length)}"`;
  return new CredentialAdminError(`The credentials of ${what} kept changing while this command ran; run it again.`);
}

/** Roles as stored: a list, or a string set if an item was written by hand. */
function rolesOf(item: Item): string[] {
  const roles = item[ATTRIBUTES.roles];
  if (Array.isArray(roles) || roles instanceof Set)
    return [...(roles as Iterable<unknown>)].filter((r): r is string => typeof r === 'string');
  return [];
}

function userSummary(item: Item, credentialId: string): UserSummary {
  const userId = item[ATTRIBUTES.userId];
  return {
    userId: typeof userId === 'string' ? userId : credentialId.slice(USER_CREDENTIAL_PREFIX.length),
    roles: rolesOf(item),
    disabled: item[ATTRIBUTES.disabled] === true,
    ...optionalString('createdAt', item[ATTRIBUTES.createdAt]),
    keys: keySummaries(item),
  };
}

/**
 * The item's key ids with their dates (last use from the authorizer's LastUsed map) and usage plans, oldest
 * first; the digest is deliberately not copied.
 */
function keySummaries(item: Item): KeySummary[] {
  const keys = asMap(item[ATTRIBUTES.keys]);
  const lastUsed = asMap(item[ATTRIBUTES.lastUsed]);
  return Object.entries(keys)
    .map(([keyId, stored]) => ({
      keyId,
      ...optionalString('createdAt', asMap(stored)[KEY_ATTRIBUTES.createdAt]),
      ...optionalString('lastUsedAt', lastUsed[keyId]),
      usagePlan: usagePlanOf(asMap(stored)[KEY_ATTRIBUTES.usagePlan]),
    }))
    .sort((a, b) => compareStrings(a.createdAt ?? '', b.createdAt ?? '') || compareStrings(a.keyId, b.keyId));
}

function asMap(value: unknown): Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Item) : {};
}

function optionalString<K extends string>(name: K, value: unknown): Partial<Record<K, string>> {
  return typeof value === 'string' ? ({ [name]: value } as Record<K, string>) : {};
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
