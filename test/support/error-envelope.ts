import { REASON_PHRASES, type ErrorStatus } from '../../functions/http';

/**
 * The error envelope (docs/api.md#errors), checked on one error response: Content-Type application/json, a body that is exactly
 *   [{"errors":[{"message":"<reason phrase of the status>"},{"phrase":"<one sentence>"}]}]
 * and nothing in it that is not ours to show: a stack frame, a library's error text, a table name, an ARN,
 * or any part of a key the client submitted. Returns the problems found (empty when the response is right),
 * so a property can print them all with the request that caused them.
 */
export function envelopeProblems(
  status: number,
  contentType: string | undefined,
  body: string,
  secrets: readonly string[] = [],
  options: { bodyless?: boolean } = {},
): string[] {
  const problems: string[] = [];
  if (!(status in REASON_PHRASES)) problems.push(`status ${status} has no reason phrase in functions/http.ts`);
  if (!/^application\/json(;|$)/i.test(contentType ?? ''))
    problems.push(`Content-Type is ${JSON.stringify(contentType)}, not application/json`);
  if (options.bodyless) return problems; // HEAD: the headers are all there is
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    problems.push(`body is not JSON: ${JSON.stringify(body.slice(0, 200))}`);
    return problems;
  }
  const phrase = envelopePhrase(parsed, REASON_PHRASES[status as ErrorStatus]);
  if (phrase === undefined) {
    problems.push(
      `body is not the envelope with message ${JSON.stringify(REASON_PHRASES[status as ErrorStatus])}: ${body.slice(0, 300)}`,
    );
    return problems;
  }
  if (phrase.trim() === '') problems.push('the phrase is empty');
  problems.push(...leakProblems(phrase, secrets));
  return problems;
}

/** The phrase of a well-formed envelope with exactly the expected message, else undefined. */
function envelopePhrase(parsed: unknown, message: string | undefined): string | undefined {
  if (!Array.isArray(parsed) || parsed.length !== 1) return undefined;
  const outer = parsed[0] as Record<string, unknown>;
  if (typeof outer !== 'object' || outer === null || Object.keys(outer).join() !== 'errors') return undefined;
  const errors = outer.errors;
  if (!Array.isArray(errors) || errors.length !== 2) return undefined;
  const [first, second] = errors as Record<string, unknown>[];
  if (Object.keys(first ?? {}).join() !== 'message' || first!.message !== message) return undefined;
  if (Object.keys(second ?? {}).join() !== 'phrase' || typeof second!.phrase !== 'string') return undefined;
  return second!.phrase;
}

/**
 * Texts that must never reach a client. The unknown-parameter phrase echoes (a printable prefix of) the
 * client's own parameter name; that echo is checked for secrets only, the rest for everything.
 */
const FORBIDDEN: readonly (readonly [RegExp, string])[] = [
  [/\bat\s+\S+\s+\(|\bat\s+(?:file:|node:|\/)/, 'a stack frame'],
  [/node_modules|\.ts:\d+|\.m?js:\d+/, 'a source location'],
  [/\b\w*(?:Error|Exception):/, 'an exception text'],
  [
    /\b(?:ValidationException|ResourceNotFoundException|ProvisionedThroughputExceeded|ThrottlingException|ECONNREFUSED|ECONNRESET|ETIMEDOUT|TimeoutError|UnrecognizedClientException)\b/,
    'a library error name',
  ],
  [/arn:aws/i, 'an ARN'],
  [/\b(?:GeneratorPolicies|StrengthPolicies)\b|\bCredentials table\b|Table: |\btable\/|TableName/, 'a table name'],
  [/\bUSER#|STRENGTH_KEYS\b|\bDigest\b/, 'a credentials item key'],
  [/\$metadata|httpStatusCode|requestId/, 'SDK metadata'],
];

function leakProblems(phrase: string, secrets: readonly string[]): string[] {
  const problems: string[] = [];
  const echo = /^(Unknown query parameter ")([\s\S]*)("; the only parameter is "search"\.)$/.exec(phrase);
  const template = echo ? `${echo[1]}${echo[3]}` : phrase;
  for (const [pattern, what] of FORBIDDEN)
    if (pattern.test(template)) problems.push(`the phrase contains ${what}: ${JSON.stringify(phrase)}`);
  for (const secret of secrets) {
    const part = sharedPart(phrase, secret);
    if (part)
      problems.push(`the phrase contains part of a submitted key (${JSON.stringify(part)}): ${JSON.stringify(phrase)}`);
  }
  return problems;
}

/** Any 12-character window of the secret found in the text (a key id and its secret part are both longer). */
export function sharedPart(text: string, secret: string, window = 12): string | undefined {
  if (secret.length < window) return text.includes(secret) && secret.length >= 8 ? secret : undefined;
  for (let i = 0; i + window <= secret.length; i++) {
    const part = secret.slice(i, i + window);
    if (text.includes(part)) return part;
  }
  return undefined;
}
