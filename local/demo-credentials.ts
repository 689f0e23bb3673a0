import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readFile } from 'node:fs/promises';
import { digestKey, parseKey } from '../functions/domain/api-key';
import { storedKey, systemKeysItem, userItem, type StoredKey } from '../functions/repositories/credentials';
import { GENERATOR_ADMIN_ROLE } from '../functions/routes';

/** The demo credentials of the local run (seed/local-credentials.json), never deployed. */
export interface LocalCredentials {
  readonly generatorAdmin: { readonly UserID: string; readonly APIKey: string };
  readonly userWithoutRole: { readonly UserID: string; readonly APIKey: string };
  readonly passwordGeneratorAPIKey: string;
  readonly passwordStrengthAPIKey: string;
}

export async function readLocalCredentials(file: string): Promise<LocalCredentials> {
  return JSON.parse(await readFile(file, 'utf8')) as LocalCredentials;
}

/**
 * Stores the demo identities as the deployed table holds real ones (digests only, never a key), with the
 * item builders the credentials CLI writes with, so the shapes cannot drift.
 */
export async function putLocalCredentials(
  client: DynamoDBDocumentClient,
  tableName: string,
  credentials: LocalCredentials,
): Promise<void> {
  const createdAt = new Date().toISOString();
  const stored = (key: string): Record<string, StoredKey> => {
    const parsed = parseKey(key);
    if (!parsed) throw new Error('seed/local-credentials.json holds a key that is not in the issued key format');
    return { [parsed.keyId]: storedKey(digestKey(key), createdAt) };
  };
  const items = [
    userItem(
      credentials.generatorAdmin.UserID,
      [GENERATOR_ADMIN_ROLE],
      createdAt,
      stored(credentials.generatorAdmin.APIKey),
    ),
    userItem(credentials.userWithoutRole.UserID, [], createdAt, stored(credentials.userWithoutRole.APIKey)),
    systemKeysItem('generator', stored(credentials.passwordGeneratorAPIKey)),
    systemKeysItem('strength', stored(credentials.passwordStrengthAPIKey)),
  ];
  for (const Item of items) await client.send(new PutCommand({ TableName: tableName, Item }));
}
