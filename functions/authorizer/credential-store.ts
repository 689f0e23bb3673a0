import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The credentials table (design.md §2), one item per identity:
 *   USER#<UserID>  { UserID, Roles: string[], Disabled?: boolean, CreatedAt, Keys: { <keyId>: { Digest, CreatedAt } }, LastUsed: { <keyId>: ISO } }
 *   STRENGTH_KEYS  { Keys: { <keyId>: { Digest, CreatedAt } }, LastUsed: { <keyId>: ISO } }
 * Several active keys per identity allow rotation without downtime. Last-used dates live in their own
 * top-level map so the authorizer's IAM policy can let it write that attribute and nothing else.
 */
export interface StoredKey {
  readonly Digest: string;
  readonly CreatedAt?: string;
}

export interface UserRecord {
  readonly UserID: string;
  readonly Roles?: Iterable<string>; // a list or a string set
  readonly Disabled?: boolean;
  readonly Keys: Readonly<Record<string, StoredKey>>;
}

export interface StrengthKeysRecord {
  readonly Keys: Readonly<Record<string, StoredKey>>;
}

export const STRENGTH_KEYS_ID = 'STRENGTH_KEYS';
export const userCredentialId = (userId: string): string => `USER#${userId}`;

/** Last-used dates are written at most this often per key, so a busy key costs one write an hour. */
export const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

export interface CredentialStore {
  findUser(userId: string): Promise<UserRecord | undefined>;
  findStrengthKeys(): Promise<StrengthKeysRecord | undefined>;
  /** Notes that a key was accepted now; best effort, never fails the request. */
  recordKeyUse(credentialId: string, keyId: string, now: Date): Promise<void>;
}

export class DynamoDbCredentialStore implements CredentialStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findUser(userId: string): Promise<UserRecord | undefined> {
    return (await this.get(userCredentialId(userId))) as UserRecord | undefined;
  }

  async findStrengthKeys(): Promise<StrengthKeysRecord | undefined> {
    return (await this.get(STRENGTH_KEYS_ID)) as StrengthKeysRecord | undefined;
  }

  async recordKeyUse(credentialId: string, keyId: string, now: Date): Promise<void> {
    const threshold = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { CredentialID: credentialId },
        // Only CredentialID and LastUsed are named: the IAM policy allows the authorizer no other attribute.
        UpdateExpression: 'SET LastUsed.#key = :now',
        ConditionExpression: 'attribute_exists(CredentialID) AND (attribute_not_exists(LastUsed.#key) OR LastUsed.#key < :threshold)',
        ExpressionAttributeNames: { '#key': keyId },
        ExpressionAttributeValues: { ':now': now.toISOString(), ':threshold': threshold },
      }),
    );
  }

  private async get(credentialId: string): Promise<Record<string, unknown> | undefined> {
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { CredentialID: credentialId } }));
    return result.Item;
  }
}
