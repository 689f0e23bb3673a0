import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The credentials table (design.md §2), one item per identity:
 *   USER#<UserID>  { UserID, Roles: string[], Disabled?: boolean, Keys: { <keyId>: { Digest, CreatedAt } } }
 *   STRENGTH_KEYS  { Keys: { <keyId>: { Digest, CreatedAt } } }
 * Several active keys per identity allow rotation without downtime.
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

export interface CredentialStore {
  findUser(userId: string): Promise<UserRecord | undefined>;
  findStrengthKeys(): Promise<StrengthKeysRecord | undefined>;
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

  private async get(credentialId: string): Promise<Record<string, unknown> | undefined> {
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { CredentialID: credentialId } }));
    return result.Item;
  }
}
