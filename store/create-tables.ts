import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { TABLES, type TableKind, type TableSpec } from '../functions/repositories/tables';

/**
 * Creates the tables of TABLES in a store that lacks them: the local run (`npm start`), `npm run seed --
 * --create-tables` and the tests. The stack creates the same tables on AWS (lib/policy-tables.ts).
 */

/** The name each table kind gets; the credentials and history tables are optional. */
export type TableNames = { generator: string; strength: string; credentials?: string; history?: string };

/**
 * Creates each named table of TABLES that does not exist yet (on-demand capacity) and waits until every
 * one is ACTIVE. Returns the names it created. Only the named tables are made (credentials and history are optional).
 */
export async function createTables(client: DynamoDBClient, names: TableNames, maxWaitSeconds = 300): Promise<string[]> {
  const created: string[] = [];
  for (const kind of Object.keys(TABLES) as TableKind[]) {
    const tableName = names[kind];
    if (tableName === undefined) continue;
    if (await createIfAbsent(client, kind, tableName)) created.push(tableName);
    // The first poll is immediate, so a table that is already ACTIVE costs one DescribeTable.
    await waitUntilTableExists(
      { client, minDelay: 0.2, maxDelay: 5, maxWaitTime: maxWaitSeconds },
      { TableName: tableName },
    );
  }
  return created;
}

async function createIfAbsent(client: DynamoDBClient, kind: TableKind, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return false;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const spec: TableSpec = TABLES[kind];
  const sort = spec.sortKey !== undefined ? [{ name: spec.sortKey, type: spec.sortKeyType! }] : [];
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [{ name: spec.partitionKey, type: spec.keyType }, ...sort].map((k) => ({
          AttributeName: k.name,
          AttributeType: k.type,
        })),
        KeySchema: [
          { AttributeName: spec.partitionKey, KeyType: 'HASH' as const },
          ...sort.map((k) => ({ AttributeName: k.name, KeyType: 'RANGE' as const })),
        ],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    return true;
  } catch (error) {
    // Another process created it between our DescribeTable and CreateTable: that is what we wanted.
    if (error instanceof ResourceInUseException) return false;
    throw error;
  }
}
