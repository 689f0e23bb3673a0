import type { APIGatewayProxyResult } from 'aws-lambda';
import { errorEnvelope, type ErrorStatus } from './errors';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(body: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: 200, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers }, body };
}

export function errorResponse(status: ErrorStatus, phrase: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers }, body: errorEnvelope(status, phrase) };
}
