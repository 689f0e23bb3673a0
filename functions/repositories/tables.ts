/**
 * The three DynamoDB tables and their partition keys: the CDK stack creates them from this, and the local
 * gateway creates the same tables in its embedded store.
 */
export const TABLES = {
  generator: { logicalName: 'GeneratorPolicies', partitionKey: 'PasswordGeneratorID', keyType: 'N' },
  strength: { logicalName: 'StrengthPolicies', partitionKey: 'PasswordStrengthPolicyID', keyType: 'N' },
  credentials: { logicalName: 'Credentials', partitionKey: 'CredentialID', keyType: 'S' },
} as const;

export type TableKind = keyof typeof TABLES;
