import { PHRASES, type ErrorStatus } from '../functions/http';
import { ROUTE_PHRASES, ROUTES } from '../functions/routes';

/**
 * What API Gateway itself answers, as plain data: the stack turns it into gateway responses
 * (gateway-responses.ts) and the local gateway answers from it where API Gateway would, so the two cannot
 * drift. No aws-cdk-lib here: local/ and docs/ read this file too (test/infrastructure/layout.test.ts).
 */

/** API Gateway's REST payload limit (it cannot be set lower): a larger request body is a 413 before anything runs. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
/** The limit as the phrases and the API description state it. */
export const MAX_PAYLOAD_SIZE = `${MAX_PAYLOAD_BYTES / 2 ** 20} MB`;

/** The one route that takes a body (POST /api/passwordstrength/evaluate), which the phrases below name. */
const [BODY_ROUTE] = ROUTES.filter((route) => route.method === 'POST');

/**
 * The phrases only API Gateway produces (the shared ones live in functions/http.ts, and those naming
 * routes in functions/routes.ts). Templates do simple
 * $context substitution only; the authorizer puts its Deny reason in its context as `reason`.
 */
export const GATEWAY_PHRASES = {
  accessDenied: '$context.authorizer.reason',
  tooLarge: `The request is too large: API Gateway accepts a request body of at most ${MAX_PAYLOAD_SIZE}.`,
  badRequest: `The request could not be read; check its query parameters and, for ${BODY_ROUTE!.path}, its JSON body.`,
  unsupportedMediaType: `The request content type is not supported; send GET requests with no body, and ${BODY_ROUTE!.method} ${BODY_ROUTE!.path} an application/json body.`,
  wafFiltered: 'The request was blocked by the firewall of this API.',
  clientError: 'The request could not be processed; check the path, the method and the headers.',
} as const;

/** Every response type API Gateway defines (its name, as ResponseType spells it), with our status and phrase. */
export const GATEWAY_RESPONSES = {
  UNAUTHORIZED: { status: 401, phrase: ROUTE_PHRASES.unauthorized },
  ACCESS_DENIED: { status: 403, phrase: GATEWAY_PHRASES.accessDenied },
  // API Gateway answers an unknown path with 403 "Missing Authentication Token"; it is a 404.
  MISSING_AUTHENTICATION_TOKEN: { status: 404, phrase: ROUTE_PHRASES.notFound },
  RESOURCE_NOT_FOUND: { status: 404, phrase: ROUTE_PHRASES.notFound },
  THROTTLED: { status: 429, phrase: PHRASES.throttled },
  QUOTA_EXCEEDED: { status: 429, phrase: PHRASES.throttled },
  BAD_REQUEST_PARAMETERS: { status: 400, phrase: GATEWAY_PHRASES.badRequest },
  BAD_REQUEST_BODY: { status: 400, phrase: GATEWAY_PHRASES.badRequest },
  REQUEST_TOO_LARGE: { status: 413, phrase: GATEWAY_PHRASES.tooLarge },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, phrase: GATEWAY_PHRASES.unsupportedMediaType },
  INVALID_API_KEY: { status: 403, phrase: ROUTE_PHRASES.forbidden },
  INVALID_SIGNATURE: { status: 403, phrase: ROUTE_PHRASES.forbidden },
  EXPIRED_TOKEN: { status: 403, phrase: ROUTE_PHRASES.forbidden },
  WAF_FILTERED: { status: 403, phrase: GATEWAY_PHRASES.wafFiltered },
  // The authorizer could not decide (it threw, or timed out: the credentials table unreadable). API Gateway
  // reports an authorizer that throws as AuthorizerConfigurationException; both are an unavailable service.
  AUTHORIZER_FAILURE: { status: 503, phrase: PHRASES.credentialsUnavailable },
  AUTHORIZER_CONFIGURATION_ERROR: { status: 503, phrase: PHRASES.credentialsUnavailable },
  API_CONFIGURATION_ERROR: { status: 500, phrase: PHRASES.internal },
  // The function did not answer in time or failed outright: the service behind the API is unavailable.
  INTEGRATION_FAILURE: { status: 503, phrase: PHRASES.unavailable },
  INTEGRATION_TIMEOUT: { status: 503, phrase: PHRASES.unavailable },
  // Fallbacks for any type not listed; a fixed status, because the message must be its reason phrase.
  DEFAULT_4XX: { status: 400, phrase: GATEWAY_PHRASES.clientError },
  DEFAULT_5XX: { status: 500, phrase: PHRASES.internal },
} as const satisfies Record<string, { readonly status: ErrorStatus; readonly phrase: string }>;

export type GatewayResponseType = keyof typeof GATEWAY_RESPONSES;

/**
 * A response's phrase with its $context references filled in, as API Gateway renders the template (a
 * variable it does not have is empty); only `$context.authorizer.<name>` is ever used (ACCESS_DENIED).
 */
export function gatewayPhrase(
  type: GatewayResponseType,
  authorizerContext: Readonly<Record<string, unknown>> = {},
): string {
  return GATEWAY_RESPONSES[type].phrase.replace(/\$context\.authorizer\.([A-Za-z0-9_]+)/g, (_, name: string) =>
    String(authorizerContext[name] ?? ''),
  );
}
