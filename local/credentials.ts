import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readFile } from 'node:fs/promises';
import { newUserItem, storedKey, strengthKeysItem, type StoredKeyItem } from '../admin/credential-admin';
import { digestKey, parseKey } from '../functions/authorizer/api-key';
import { GENERATOR_ADMIN_ROLE } from '../functions/routes';

/** design.md §4: the demo credentials of the local run, never deployed. */
export interface LocalCredentials {
  readonly generatorAdmin: { readonly UserID: string; readonly APIKey: string };
  readonly userWithoutRole: { readonly UserID: string; readonly APIKey: string };
  readonly passwordStrengthAPIKey: string;
}

export async function readLocalCredentials(file: string): Promise<LocalCredentials> {
  return JSON.parse(await readFile(file, 'utf8')) as LocalCredentials;
}

/**
 * Stores the demo identities as the deployed table holds real ones (digests only, never a key), built by the
 * credentials CLI's own item builders so the shapes cannot drift (LastUsed included, for the authorizer).
 */
export async function putLocalCredentials(client: DynamoDBDocumentClient, tableName: string, credentials: LocalCredentials): Promise<void> {
  const createdAt = new Date().toISOString();
  const stored = (key: string): Record<string, StoredKeyItem> => {
    const parsed = parseKey(key);
    if (!parsed) throw new Error('seed/local-credentials.json holds a key that is not in the issued key format');
    return { [parsed.keyId]: storedKey(digestKey(key), createdAt) };
  };
  const items = [
    newUserItem(credentials.generatorAdmin.UserID, [GENERATOR_ADMIN_ROLE], createdAt, stored(credentials.generatorAdmin.APIKey)),
    newUserItem(credentials.userWithoutRole.UserID, [], createdAt, stored(credentials.userWithoutRole.APIKey)),
    strengthKeysItem(stored(credentials.passwordStrengthAPIKey)),
  ];
  for (const Item of items) await client.send(new PutCommand({ TableName: tableName, Item }));
}
