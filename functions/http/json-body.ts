import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError } from './errors';
import { headerValues } from './headers';

/**
 * The JSON object a POST route takes as its body. Checked in this order: the media type (415 unless
 * application/json, UTF-8), the size (400 over maxBytes), the syntax (400), the top level (an object).
 * No phrase ever quotes the body: JSON.parse's own message does (`"xK9#..." is not valid JSON`), so it is
 * dropped, and the body may hold a password.
 */
export function readJsonObjectBody(event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded' | 'headers' | 'multiValueHeaders'>, maxBytes: number): Record<string, unknown> {
  const types = headerValues(event, 'Content-Type');
  if (types.length !== 1 || !isJsonUtf8(types[0]!)) throw new ApiError(415, 'The body must be JSON: send Content-Type: application/json (UTF-8).');
  const bytes = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '', 'utf8');
  if (bytes.length > maxBytes) throw new ApiError(400, `The body must be at most ${maxBytes} bytes; this one has ${bytes.length}.`);
  if (bytes.length === 0) throw new ApiError(400, 'The body is empty; send a JSON object.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw new ApiError(400, 'The body is not valid JSON (UTF-8); send a JSON object.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ApiError(400, 'The body must be a JSON object.');
  return parsed as Record<string, unknown>;
}

/** application/json, with at most a charset parameter, which must then be UTF-8 (RFC 8259 §8.1). */
function isJsonUtf8(contentType: string): boolean {
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return parameters.every((parameter) => parameter === '' || /^charset="?utf-8"?$/.test(parameter));
}
