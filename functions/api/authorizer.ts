import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { keyMatchesDigest, parseKey, usageKeyOf, USER_ID_PATTERN } from '../domain/api-key';
import { headerValues, trimOptionalWhitespace, type EventHeaders } from '../http';
import {
  CredentialRepository,
  LAST_USED_RESOLUTION_MS,
  SYSTEM_KEYS_ID,
  userCredentialId,
  type SystemKeysRecord,
} from '../repositories/credentials';
import {
  ROUTE_PHRASES,
  schemeForPath,
  schemePaths,
  UNAUTHORIZED_ERROR,
  usagePlanOf,
  type CredentialScheme,
} from '../routes';
import {
  countMetric,
  createDocumentClient,
  ENV,
  errorName,
  lambdaHandler,
  logger,
  requiredSetting,
  SERVICE_METRICS,
} from '../runtime';

/**
 * The REQUEST authorizer: one function behind the three API Gateway authorizer definitions; the resource
 * path picks the credential scheme (functions/routes.ts). /userapi/ takes a user's UserID + APIKey and the
 * generator administrator role; /api/passwordgenerator and /api/generatepassword take a password generator
 * API key; /api/passwordstrength takes a password strength key. A key of one kind never opens another's paths.
 */
const repository = new CredentialRepository(createDocumentClient(), requiredSetting(ENV.credentialsTable));

const OUTCOME_METRICS = {
  allow: SERVICE_METRICS.names.authorizerAllow,
  deny: SERVICE_METRICS.names.authorizerDeny,
  unauthorized: SERVICE_METRICS.names.authorizerUnauthorized,
} as const;

export const handler = lambdaHandler(
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    // API Gateway names the resource (the route's path template) in every REQUEST event of a REST API.
    const scheme = schemeForPath(event.resource);
    if (!scheme) throw new Error(UNAUTHORIZED_ERROR);
    let decision: Decision;
    try {
      decision = await authorize(scheme, headerLookup(event), repository);
    } catch (error) {
      // A real failure (the credentials table unreadable): API Gateway answers 503 (its gateway response for an
      // authorizer error). Lambda's Errors metric cannot tell these from 401s, which are thrown too, so the
      // authorizer counts them itself.
      countMetric(SERVICE_METRICS.names.authorizerFailure);
      logger.error('Authorizer failed', { error: errorName(error) });
      throw new Error('Authorizer failure');
    }
    countMetric(OUTCOME_METRICS[decision.outcome]);
    if (decision.outcome === 'unauthorized') {
      logger.info('Credentials rejected', { scheme: scheme.name });
      // The exact message API Gateway maps to its 401 UNAUTHORIZED response.
      throw new Error(UNAUTHORIZED_ERROR);
    }
    const effect = decision.outcome === 'allow' ? 'Allow' : 'Deny';
    return {
      principalId: decision.principalId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: schemeArns(event.methodArn, scheme) }],
      },
      // The API key that meters this issued key against its usage plan (API key source AUTHORIZER).
      ...(decision.outcome === 'allow' ? { usageIdentifierKey: usageKeyOf(decision.context.keyId!) } : {}),
      context: decision.outcome === 'allow' ? decision.context : { reason: decision.reason },
    };
  },
);

/** What API Gateway does with the request: Allow, Deny (403 with the reason), or Unauthorized (401). */
export type Decision =
  | { readonly outcome: 'allow'; readonly principalId: string; readonly context: Record<string, string> }
  | { readonly outcome: 'deny'; readonly principalId: string; readonly reason: string }
  | { readonly outcome: 'unauthorized' };

const UNAUTHORIZED: Decision = { outcome: 'unauthorized' };

/** Marks a header sent more than once: a symbol, so that no header value (a UserID "duplicate") can be taken for it. */
const DUPLICATE = Symbol('duplicate header');

/** Header values by name, matched case-insensitively; DUPLICATE for a header sent more than once. */
type HeaderLookup = (name: string) => string | undefined | typeof DUPLICATE;

/** The decision for one request's credentials, read from the credentials table. */
export async function authorize(
  scheme: CredentialScheme,
  header: HeaderLookup,
  credentials: Pick<CredentialRepository, 'findUser' | 'findSystemKeys' | 'recordKeyUse'>,
  now: () => Date = () => new Date(),
): Promise<Decision> {
  const key = credentialValue(header('APIKey'));
  const parsed = parseKey(key);
  if (parsed === undefined) return UNAUTHORIZED;

  if (scheme.keyKind !== 'user') {
    if (parsed.kind !== scheme.keyKind) return UNAUTHORIZED;
    const record = await credentials.findSystemKeys(scheme.keyKind);
    if (!keyMatchesDigest(key, record?.Keys[parsed.keyId]?.Digest)) return UNAUTHORIZED;
    return allow(
      credentials,
      SYSTEM_KEYS_ID[scheme.keyKind],
      record!,
      parsed.keyId,
      now(),
      `${scheme.keyKind}-key:${parsed.keyId}`,
      {},
    );
  }

  const userId = credentialValue(header('UserID'));
  // Exactly the UserIDs the credentials CLI creates, so no user that exists is refused here, and no other is looked up.
  if (!USER_ID_PATTERN.test(userId) || parsed.kind !== 'user') return UNAUTHORIZED;
  const user = await credentials.findUser(userId);
  // The digest is compared, at the same cost, even for an unknown user or key id. What timing still shows is
  // the read: an item found is returned and checked, a missing one is not (npm run bench:timing measures both).
  if (!keyMatchesDigest(key, user?.Keys[parsed.keyId]?.Digest) || !user || user.Disabled === true) return UNAUTHORIZED;
  // A user's route group always names its role (routes.ts); a user without Roles holds none.
  if (!new Set(user.Roles).has(scheme.role!)) {
    // A fixed sentence: API Gateway pastes it unescaped into the 403 body, so it must never carry input.
    return { outcome: 'deny', principalId: userId, reason: ROUTE_PHRASES.missingRole };
  }
  return allow(credentials, userCredentialId(userId), user, parsed.keyId, now(), userId, { userId });
}

/** An Allow for a key whose digest matched: its use recorded, and its usage plan in the context. */
async function allow(
  credentials: Pick<CredentialRepository, 'recordKeyUse'>,
  credentialId: string,
  record: SystemKeysRecord,
  keyId: string,
  now: Date,
  principalId: string,
  context: Record<string, string>,
): Promise<Decision> {
  await recordUse(credentials, credentialId, record, keyId, now);
  return {
    outcome: 'allow',
    principalId,
    context: { ...context, keyId, usagePlan: usagePlanOf(record.Keys[keyId]!.UsagePlan) },
  };
}

/**
 * A last-used date is bookkeeping: when the record just read shows one within the hour there is nothing to
 * write, and a failed or slow write (bounded in recordKeyUse) never denies.
 */
async function recordUse(
  credentials: Pick<CredentialRepository, 'recordKeyUse'>,
  credentialId: string,
  record: SystemKeysRecord,
  keyId: string,
  now: Date,
): Promise<void> {
  // A date that is absent or unreadable parses to NaN, which is never recent.
  const last = Date.parse(String((record.LastUsed as Record<string, unknown> | undefined)?.[keyId]));
  if (now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
  try {
    await credentials.recordKeyUse(credentialId, keyId, now);
  } catch {
    // ConditionalCheckFailed means "written within the hour"; anything else is left to the next request.
  }
}

/**
 * A header's value without the spaces and tabs around it; a missing or repeated header is the empty string.
 * What a value may be is the UserID rule (USER_ID_PATTERN) and the key format (parseKey), both anchored and
 * printable ASCII, so nothing else looks at it, and a value padded with any other space fails them.
 */
function credentialValue(value: string | undefined | typeof DUPLICATE): string {
  return value === undefined || value === DUPLICATE ? '' : trimOptionalWhitespace(value);
}

/**
 * The policy covers every method of exactly the scheme's resource paths, not just this request's methodArn,
 * because API Gateway caches it per identity and reuses it for the scheme's other routes; a cached Allow of
 * one key kind never covers another kind's paths.
 */
function schemeArns(methodArn: string, scheme: CredentialScheme): string[] {
  // arn:aws:execute-api:<region>:<account>:<apiId>/<stage>/<METHOD>/<path...>
  const [apiArn, stage] = methodArn.split('/');
  return schemePaths(scheme).map((path) => `${apiArn}/${stage}/*${path}`);
}

/** Case-insensitive header access; a header given twice (or with a comma-joined value) is a duplicate. */
function headerLookup(event: EventHeaders): HeaderLookup {
  return (name) => {
    const [value, ...others] = headerValues(event, name);
    return others.length > 0 || value?.includes(',') ? DUPLICATE : value;
  };
}
