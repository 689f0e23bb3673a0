import type { APIGatewayProxyResult } from 'aws-lambda';
import { BREACHED_PASSWORDS } from '../functions/domain/evaluation/estimate/breached-password-list';

/**
 * A Lambda entry that loads the breached-password filter and answers one lookup, built with the same esbuild
 * options: against the hello world, what the filter adds to a cold start (its module's compile, the base64
 * decode, node:crypto and one SHA-256), for information.
 */
export const handler = async (): Promise<APIGatewayProxyResult> => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: JSON.stringify(BREACHED_PASSWORDS.has('cold-start')),
});
