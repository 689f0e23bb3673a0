import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { UNAUTHORIZED_ERROR, type CredentialScheme } from '../functions/routes';
import type { GatewayResponseType } from '../lib/gateway-contract';

export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

/** What API Gateway makes of an authorizer's answer: the request goes on with its context, or the gateway response that refuses it. */
export type AuthorizerOutcome =
  | { readonly context: Record<string, unknown>; readonly usageIdentifierKey?: string }
  | {
      readonly refusal: Extract<
        GatewayResponseType,
        'UNAUTHORIZED' | 'ACCESS_DENIED' | 'AUTHORIZER_CONFIGURATION_ERROR'
      >;
      readonly context?: Record<string, unknown>;
    };

/**
 * API Gateway's REST semantics for a REQUEST authorizer: a missing identity source is UNAUTHORIZED without
 * calling the function; the result is cached per identity-source values for the TTL; a thrown
 * "Unauthorized" is UNAUTHORIZED, any other failure AUTHORIZER_CONFIGURATION_ERROR (as API Gateway reports
 * an authorizer that throws); the returned policy must Allow the methodArn, else ACCESS_DENIED.
 */
export class AuthorizerEmulation {
  /** Per identity: the authorizer's answer, and what it means for each method ARN asked about so far. */
  private readonly cache = new Map<
    string,
    { result: APIGatewayAuthorizerResult; expires: number; outcomes: Map<string, AuthorizerOutcome> }
  >();

  constructor(
    private readonly handler: AuthorizerHandler,
    private readonly ttlSeconds: number,
  ) {}

  /**
   * `event` builds the REQUEST event only when the function is really called: on a cache hit API Gateway
   * does not call it, and neither does this.
   */
  async authorize(
    scheme: CredentialScheme,
    request: { readonly multiValueHeaders: Record<string, string[]>; readonly methodArn: string },
    event: () => APIGatewayRequestAuthorizerEvent,
  ): Promise<AuthorizerOutcome> {
    const identity = scheme.headers.map((name) => identitySource(request.multiValueHeaders, name));
    if (identity.some((values) => values.length === 0 || values.every((value) => value === '')))
      return { refusal: 'UNAUTHORIZED' };
    // NUL cannot occur in an HTTP header value, so joining on it keeps distinct identities distinct.
    const cacheKey = `${scheme.name}\0${identity.map((values) => values.join('\0')).join('\0\0')}`;
    let entry = this.cached(cacheKey);
    if (!entry) {
      let result: APIGatewayAuthorizerResult;
      try {
        result = await this.handler(event());
      } catch (error) {
        return error instanceof Error && error.message === UNAUTHORIZED_ERROR
          ? { refusal: 'UNAUTHORIZED' }
          : { refusal: 'AUTHORIZER_CONFIGURATION_ERROR' };
      }
      entry = { result, expires: Date.now() + this.ttlSeconds * 1000, outcomes: new Map() };
      if (this.ttlSeconds > 0) this.cache.set(cacheKey, entry);
    }
    let outcome = entry.outcomes.get(request.methodArn);
    if (!outcome) {
      outcome = evaluate(entry.result, request.methodArn);
      entry.outcomes.set(request.methodArn, outcome);
    }
    return outcome;
  }

  private cached(key: string) {
    const entry = this.cache.get(key);
    if (entry && entry.expires > Date.now()) return entry;
    this.cache.delete(key);
    return undefined;
  }
}

function evaluate(result: APIGatewayAuthorizerResult, methodArn: string): AuthorizerOutcome {
  // The Deny's context reaches the ACCESS_DENIED template ($context.authorizer.reason).
  if (!allows(result, methodArn)) return { refusal: 'ACCESS_DENIED', context: result.context ?? {} };
  return {
    context: { ...(result.context ?? {}), principalId: result.principalId },
    ...(typeof result.usageIdentifierKey === 'string' ? { usageIdentifierKey: result.usageIdentifierKey } : {}),
  };
}

/**
 * Every value of a header identity source, matched case-insensitively as HTTP header names are. The cache
 * is keyed on all of them, so a repeated header is never answered from another request's cached result.
 */
function identitySource(headers: Record<string, string[] | undefined>, name: string): string[] {
  const wanted = name.toLowerCase();
  return Object.entries(headers).flatMap(([key, values]) => (key.toLowerCase() === wanted ? (values ?? []) : []));
}

/** IAM evaluation, reduced to what an authorizer policy holds: an explicit Deny wins, else an Allow must match. */
function allows(result: APIGatewayAuthorizerResult, arn: string): boolean {
  const statements = result.policyDocument.Statement.filter(
    (s) => 'Resource' in s && resources(s.Resource ?? []).some((r) => arnMatches(r, arn)),
  );
  return statements.some((s) => s.Effect === 'Allow') && !statements.some((s) => s.Effect === 'Deny');
}

function resources(resource: string | string[]): string[] {
  return Array.isArray(resource) ? resource : [resource];
}

/** Compiled once per pattern: a cached identity's outcomes are memoised anyway, but new ARNs reuse these. */
const compiledPatterns = new Map<string, RegExp>();

function arnMatches(pattern: string, arn: string): boolean {
  let regex = compiledPatterns.get(pattern);
  if (!regex) {
    regex = new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    compiledPatterns.set(pattern, regex);
  }
  return regex.test(arn);
}
