import type { CredentialScheme } from '../routes';
import { PHRASES } from '../http/errors';
import { keyMatchesDigest, parseKey } from './api-key';
import { STRENGTH_KEYS_ID, userCredentialId, type CredentialStore } from './credential-store';

/** What API Gateway does with the request: Allow, Deny (403 with the reason), or Unauthorized (401). */
export type Decision =
  | { readonly outcome: 'allow'; readonly principalId: string; readonly context: Record<string, string> }
  | { readonly outcome: 'deny'; readonly principalId: string; readonly reason: string }
  | { readonly outcome: 'unauthorized' };

/** Longest header value looked at; anything longer is a 401 before any work. */
export const MAX_HEADER_LENGTH = 256;
const UNAUTHORIZED: Decision = { outcome: 'unauthorized' };

/** Header values by name, matched case-insensitively; `undefined` marks a header sent more than once. */
export type HeaderLookup = (name: string) => string | undefined | 'duplicate';

/**
 * design.md §2: /userapi/ takes a user's UserID + APIKey and the generator administrator role; /api/
 * takes a password strength key. A key of one kind never opens the other group.
 */
export async function authorize(scheme: CredentialScheme, header: HeaderLookup, store: CredentialStore, now: () => Date = () => new Date()): Promise<Decision> {
  const key = credentialValue(header('APIKey'));
  const parsed = key === undefined ? undefined : parseKey(key);
  if (key === undefined || parsed === undefined) return UNAUTHORIZED;

  if (scheme.name === 'strengthKey') {
    if (parsed.kind !== 'strength') return UNAUTHORIZED;
    const record = await store.findStrengthKeys();
    if (!keyMatchesDigest(key, record?.Keys[parsed.keyId]?.Digest)) return UNAUTHORIZED;
    await recordUse(store, STRENGTH_KEYS_ID, parsed.keyId, now());
    return { outcome: 'allow', principalId: `strength-key:${parsed.keyId}`, context: { keyId: parsed.keyId } };
  }

  const userId = credentialValue(header('UserID'));
  if (userId === undefined || parsed.kind !== 'user') return UNAUTHORIZED;
  const user = await store.findUser(userId);
  // The digest is compared even for an unknown user or key id, so timing does not tell them apart.
  if (!keyMatchesDigest(key, user?.Keys[parsed.keyId]?.Digest) || !user || user.Disabled === true) return UNAUTHORIZED;
  if (scheme.role !== undefined && ![...(user.Roles ?? [])].includes(scheme.role)) {
    // A fixed sentence: API Gateway pastes it unescaped into the 403 body, so it must never carry input.
    return { outcome: 'deny', principalId: userId, reason: PHRASES.missingRole };
  }
  await recordUse(store, userCredentialId(userId), parsed.keyId, now());
  return { outcome: 'allow', principalId: userId, context: { userId, keyId: parsed.keyId } };
}

/** A last-used date is bookkeeping: a failure to write it (or a write skipped inside the hour) never denies. */
async function recordUse(store: CredentialStore, credentialId: string, keyId: string, now: Date): Promise<void> {
  try {
    await store.recordKeyUse(credentialId, keyId, now);
  } catch {
    // ConditionalCheckFailed means "written within the hour"; anything else is left to the next request.
  }
}

/** Trimmed, non-empty, printable ASCII and not oversized; anything else counts as absent. */
function credentialValue(value: string | undefined | 'duplicate'): string | undefined {
  if (value === undefined || value === 'duplicate' || value.length > MAX_HEADER_LENGTH) return undefined;
  const trimmed = value.trim();
  return trimmed !== '' && /^[\x21-\x7e]+$/.test(trimmed) ? trimmed : undefined;
}
