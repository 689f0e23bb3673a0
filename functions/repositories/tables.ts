/**
 * The DynamoDB tables and their keys: the CDK stack creates them from this, and the local gateway creates the
 * same tables in its embedded store. The policy history is listed here only because this is the one list of
 * tables: no function reads or writes it (the stack grants them nothing on it); the policy CLI does.
 */
export const TABLES = {
  generator: { logicalName: 'GeneratorPolicies', partitionKey: 'PasswordGeneratorID', keyType: 'N' },
  strength: { logicalName: 'StrengthPolicies', partitionKey: 'PasswordStrengthPolicyID', keyType: 'N' },
  credentials: { logicalName: 'Credentials', partitionKey: 'CredentialID', keyType: 'S' },
  history: {
    logicalName: 'PolicyHistory',
    partitionKey: 'PolicyKey',
    keyType: 'S',
    sortKey: 'Version',
    sortKeyType: 'N',
  },
} as const satisfies Record<string, TableSpec>;

/** A table's partition key, and its sort key if it has one; N is a number, S a string. */
export interface TableSpec {
  readonly logicalName: string;
  readonly partitionKey: string;
  readonly keyType: 'S' | 'N';
  readonly sortKey?: string;
  readonly sortKeyType?: 'S' | 'N';
}

export type TableKind = keyof typeof TABLES;
