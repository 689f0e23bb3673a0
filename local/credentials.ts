import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readFile } from 'node:fs/promises';
import { digestKey, parseKey } from '../functions/authorizer/api-key';
import { STRENGTH_KEYS_ID, userCredentialId, type StoredKey } from '../functions/authorizer/credential-store';
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

/** Stores the demo identities as the deployed table holds real ones: digests only, never a key. */
export async function putLocalCredentials(client: DynamoDBDocumentClient, tableName: string, credentials: LocalCredentials): Promise<void> {
  const createdAt = new Date().toISOString();
  const stored = (key: string): Record<string, StoredKey> => {
    const parsed = parseKey(key);
    if (!parsed) throw new Error('seed/local-credentials.json holds a key that is not in the issued key format');
    return { [parsed.keyId]: { Digest: digestKey(key), CreatedAt: createdAt } };
  };
  const items = [
    { CredentialID: userCredentialId(credentials.generatorAdmin.UserID), UserID: credentials.generatorAdmin.UserID, Roles: [GENERATOR_ADMIN_ROLE], Keys: stored(credentials.generatorAdmin.APIKey), LastUsed: {} },
    { CredentialID: userCredentialId(credentials.userWithoutRole.UserID), UserID: credentials.userWithoutRole.UserID, Roles: [], Keys: stored(credentials.userWithoutRole.APIKey), LastUsed: {} },
    { CredentialID: STRENGTH_KEYS_ID, Keys: stored(credentials.passwordStrengthAPIKey), LastUsed: {} },
  ];
  for (const Item of items) await client.send(new PutCommand({ TableName: tableName, Item }));
}
