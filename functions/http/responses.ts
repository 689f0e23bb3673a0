import type { APIGatewayProxyResult } from 'aws-lambda';
import { errorEnvelope, type ErrorStatus } from './errors';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Policies sit behind credentials and change rarely: shared caches keep out, clients revalidate by ETag. */
export const CACHE_CONTROL = 'private, no-cache';

export function jsonResponse(body: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: 200, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers }, body };
}

/** A 200 no cache may keep: generated passwords, evaluations of a submitted password. */
export function noStoreJsonResponse(body: string): APIGatewayProxyResult {
  return jsonResponse(body, { 'Cache-Control': 'no-store' });
}

/**
 * A 200 with the body and its entity tag, or a 304 with no body when the request's If-None-Match already
 * names that tag (RFC 9110 §13.1.2: weak comparison, "*" matches any). `body` is built only for a 200.
 */
export function conditionalJsonResponse(ifNoneMatch: string | undefined, etag: string, body: () => string): APIGatewayProxyResult {
  const headers = { ETag: etag, 'Cache-Control': CACHE_CONTROL };
  if (ifNoneMatch !== undefined && noneMatchNames(ifNoneMatch, etag)) return { statusCode: 304, headers, body: '' };
  return jsonResponse(body(), headers);
}

function noneMatchNames(header: string, etag: string): boolean {
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}

export function errorResponse(status: ErrorStatus, phrase: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers }, body: errorEnvelope(status, phrase) };
}
