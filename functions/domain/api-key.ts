import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys look like `ppg_3f9a0c12ab45_<43 base64url chars>`: a prefix naming the kind, a key identifier (not
 * secret; lets an operator revoke a leaked key without holding it), and 256 random bits. Only the SHA-256
 * digest of the whole key is stored. The kinds are Passwordstate's three:
 *   ppg  a user's key, with its UserID, for /userapi/
 *   ppa  a password generator API key, for /api/passwordgenerator and /api/generatepassword
 *   pps  a password strength key, for /api/passwordstrength
 */
export type KeyKind = 'user' | 'generator' | 'strength';

export const KEY_PREFIX: Readonly<Record<KeyKind, string>> = { user: 'ppg', generator: 'ppa', strength: 'pps' };
const KIND_OF_PREFIX: ReadonlyMap<string, KeyKind> = new Map(
  Object.entries(KEY_PREFIX).map(([kind, prefix]) => [prefix, kind as KeyKind]),
);
/** The prefix of every kind, and of any future one: "pp" and a letter. */
const ANY_PREFIX = 'pp[a-z]';
const KEY_SHAPE = `(${ANY_PREFIX})_([0-9a-f]{12})_([A-Za-z0-9_-]{43})`;
const KEY_PATTERN = new RegExp(`^${KEY_SHAPE}$`);
const KEY_ANYWHERE = new RegExp(KEY_SHAPE);
const KEY_START = new RegExp(`^${ANY_PREFIX}_`, 'i');

/** Whether a text starts as a key does, in any letter case (ppg_, PPS_...): such a text is never echoed. */
export function startsLikeKey(text: string): boolean {
  return KEY_START.test(text);
}

export interface ParsedKey {
  readonly kind: KeyKind;
  readonly keyId: string;
}

export interface IssuedKey {
  readonly key: string;
  readonly keyId: string;
  readonly digest: string;
}

export function issueKey(kind: KeyKind): IssuedKey {
  const keyId = randomBytes(6).toString('hex');
  const key = `${KEY_PREFIX[kind]}_${keyId}_${randomBytes(32).toString('base64url')}`;
  return { key, keyId, digest: digestKey(key) };
}

/** The kind and identifier of a well-formed key, or undefined for anything else. */
export function parseKey(key: string): ParsedKey | undefined {
  const match = KEY_PATTERN.exec(key);
  const kind = match ? KIND_OF_PREFIX.get(match[1]!) : undefined;
  return kind === undefined ? undefined : { kind, keyId: match![2]! };
}

/** Whether text holds something in the shape of a key, of any kind, anywhere in it: such text is never logged. */
export function holdsKey(text: string): boolean {
  return KEY_ANYWHERE.test(text);
}

/**
 * A UserID: 1 to 128 printable ASCII characters, without a space or a comma. The credentials CLI creates
 * only such users and the authorizer accepts only such headers, so every user that exists can sign in. A
 * comma is out because a proxy may join a repeated header into one value with commas, and the authorizer
 * must refuse a repeated UserID.
 */
export const USER_ID_PATTERN = /^[\x21-\x2b\x2d-\x7e]{1,128}$/;

/**
 * The value of the API Gateway API key that meters one issued key against its usage plan: the authorizer
 * returns it as `usageIdentifierKey` (the API's key source is AUTHORIZER, so no client ever sends it), and
 * the credentials CLI creates it. Derived from the key id, which is not secret, so nothing more is stored.
 */
export function usageKeyOf(keyId: string): string {
  return `pp-usage-${keyId}`;
}

export function digestKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Compared with when no digest is stored (an unknown user or key id), so both paths decode a digest and
 * compare 32 bytes; one byte too long, it can never match.
 */
const UNMATCHABLE_DIGEST = '00'.repeat(33);

/**
 * A constant-time comparison of a presented key with a stored hex digest. The same work is done whether a
 * digest is stored or not (`undefined`: an unknown user or key id), and a malformed digest never matches.
 */
export function keyMatchesDigest(key: string, storedDigest: string | undefined): boolean {
  const presented = createHash('sha256').update(key).digest();
  const stored = Buffer.from(storedDigest ?? UNMATCHABLE_DIGEST, 'hex');
  // timingSafeEqual needs equal lengths; a malformed stored digest is compared with zeros and never matches.
  const sameLength = stored.length === presented.length;
  return timingSafeEqual(presented, sameLength ? stored : Buffer.alloc(presented.length)) && sameLength;
}
