import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { MINIMAL_ENV, minimalClientConfig } from './minimal-functions';

/**
 * The authorizer's cold-start reference: the fastest authorizer doing the core of its job, one GetItem of
 * the caller's credential record and an Allow when it exists, nothing else (no digest check, no LastUsed
 * write). Built with the deploy esbuild options (bench/bundles.ts).
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient(minimalClientConfig()));
const tableName = process.env[MINIMAL_ENV.table];
const credentialId = process.env[MINIMAL_ENV.credentialId];

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { CredentialID: credentialId } }));
  const Effect = Item ? 'Allow' : 'Deny';
  return {
    principalId: 'minimal',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect, Resource: event.methodArn }],
    },
  };
};
