import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import type { CredentialScheme } from '../functions/routes';

export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

/** What API Gateway makes of an authorizer's answer. */
export type AuthorizerOutcome =
  | { readonly status: 200; readonly context: Record<string, unknown> }
  | { readonly status: 401 }
  | { readonly status: 403; readonly reason: string }
  | { readonly status: 500 };

/**
 * API Gateway's REST semantics for a REQUEST authorizer: a missing identity source is a 401 without
 * calling the function; the result is cached per identity-source values for the TTL; a thrown
 * "Unauthorized" is a 401, any other failure a 500; the returned policy must Allow the methodArn.
 */
export class AuthorizerEmulation {
  private readonly cache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();

  constructor(
    private readonly handler: AuthorizerHandler,
    private readonly ttlSeconds: number,
  ) {}

  async authorize(scheme: CredentialScheme, event: APIGatewayRequestAuthorizerEvent): Promise<AuthorizerOutcome> {
    const identity = scheme.headers.map((name) => identitySource(event.multiValueHeaders ?? {}, name));
    if (identity.some((values) => values.length === 0 || values.every((value) => value === ''))) return { status: 401 };
    const cacheKey = JSON.stringify([scheme.name, ...identity]);
    let result = this.cached(cacheKey);
    if (!result) {
      try {
        result = await this.handler(event);
      } catch (error) {
        return error instanceof Error && error.message === 'Unauthorized' ? { status: 401 } : { status: 500 };
      }
      if (this.ttlSeconds > 0) this.cache.set(cacheKey, { result, expires: Date.now() + this.ttlSeconds * 1000 });
    }
    const context = { ...(result.context ?? {}), principalId: result.principalId };
    if (!allows(result, event.methodArn)) return { status: 403, reason: String(result.context?.reason ?? '') };
    return { status: 200, context };
  }

  private cached(key: string): APIGatewayAuthorizerResult | undefined {
    const entry = this.cache.get(key);
    if (entry && entry.expires > Date.now()) return entry.result;
    this.cache.delete(key);
    return undefined;
  }
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
  const statements = result.policyDocument.Statement.filter((s) => 'Resource' in s && resources(s.Resource ?? []).some((r) => arnMatches(r, arn)));
  return statements.some((s) => s.Effect === 'Allow') && !statements.some((s) => s.Effect === 'Deny');
}

function resources(resource: string | string[]): string[] {
  return Array.isArray(resource) ? resource : [resource];
}

function arnMatches(pattern: string, arn: string): boolean {
  const regex = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return regex.test(arn);
}
