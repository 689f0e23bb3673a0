import type { APIGatewayProxyResult } from 'aws-lambda';

/** The cold-start reference: a Lambda entry that answers a constant, built with the same esbuild options. */
const RESPONSE: APIGatewayProxyResult = { statusCode: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '[]' };

export const handler = async (): Promise<APIGatewayProxyResult> => RESPONSE;
