import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { MINIMAL_ENV, minimalClientConfig } from './minimal-functions';

/**
 * The listing functions' cold-start reference: the fastest function doing their job, the SDK's paginateScan
 * of the table (consistent, as the functions read it) and JSON.stringify of the items, nothing else. Built
 * with the deploy esbuild options (bench/bundles.ts).
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient(minimalClientConfig()));
const tableName = process.env[MINIMAL_ENV.table];

export const handler = async (): Promise<APIGatewayProxyResult> => {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client }, { TableName: tableName, ConsistentRead: true }))
    items.push(...(page.Items ?? []));
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify(items),
  };
};
