import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { errorEnvelope, JSON_CONTENT_TYPE, PHRASES, type ErrorStatus } from '../functions/http';
import { ROUTE_PHRASES, ROUTES } from '../functions/routes';

/** One API Gateway response type, answered with the error envelope. */
export interface GatewayError {
  readonly type: ResponseType;
  readonly status: ErrorStatus;
  readonly phrase: string;
}

/** The one route that takes a body (POST /api/passwordstrength/evaluate), which the phrases below name. */
const [BODY_ROUTE] = ROUTES.filter((route) => route.method === 'POST');

/**
 * The phrases only API Gateway produces (the shared ones live in functions/http.ts, and those naming
 * routes in functions/routes.ts). Templates do simple $context substitution only; the authorizer puts its
 * Deny reason in its context as `reason`.
 */
export const GATEWAY_PHRASES = {
  accessDenied: '$context.authorizer.reason',
  badRequest: `The request could not be read; check its query parameters and, for ${BODY_ROUTE!.path}, its JSON body.`,
  unsupportedMediaType: `The request content type is not supported; send GET requests with no body, and ${BODY_ROUTE!.method} ${BODY_ROUTE!.path} an application/json body.`,
  wafFiltered: 'The request was blocked by the firewall of this API.',
  clientError: 'The request could not be processed; check the path, the method and the headers.',
} as const;

/** Every response type API Gateway defines, with our status and phrase. */
export const GATEWAY_ERRORS: readonly GatewayError[] = [
  { type: ResponseType.UNAUTHORIZED, status: 401, phrase: ROUTE_PHRASES.unauthorized },
  { type: ResponseType.ACCESS_DENIED, status: 403, phrase: GATEWAY_PHRASES.accessDenied },
  // API Gateway answers an unknown path with 403 "Missing Authentication Token"; it is a 404.
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, status: 404, phrase: ROUTE_PHRASES.notFound },
  { type: ResponseType.RESOURCE_NOT_FOUND, status: 404, phrase: ROUTE_PHRASES.notFound },
  { type: ResponseType.THROTTLED, status: 429, phrase: PHRASES.throttled },
  { type: ResponseType.QUOTA_EXCEEDED, status: 429, phrase: PHRASES.throttled },
  { type: ResponseType.BAD_REQUEST_PARAMETERS, status: 400, phrase: GATEWAY_PHRASES.badRequest },
  { type: ResponseType.BAD_REQUEST_BODY, status: 400, phrase: GATEWAY_PHRASES.badRequest },
  { type: ResponseType.REQUEST_TOO_LARGE, status: 413, phrase: PHRASES.tooLarge },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, status: 415, phrase: GATEWAY_PHRASES.unsupportedMediaType },
  { type: ResponseType.INVALID_API_KEY, status: 403, phrase: ROUTE_PHRASES.forbidden },
  { type: ResponseType.INVALID_SIGNATURE, status: 403, phrase: ROUTE_PHRASES.forbidden },
  { type: ResponseType.EXPIRED_TOKEN, status: 403, phrase: ROUTE_PHRASES.forbidden },
  { type: ResponseType.WAF_FILTERED, status: 403, phrase: GATEWAY_PHRASES.wafFiltered },
  // The authorizer could not decide (it threw, or timed out: the credentials table unreadable). API Gateway
  // reports an authorizer that throws as AuthorizerConfigurationException; both are an unavailable service.
  { type: ResponseType.AUTHORIZER_FAILURE, status: 503, phrase: PHRASES.credentialsUnavailable },
  { type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR, status: 503, phrase: PHRASES.credentialsUnavailable },
  { type: ResponseType.API_CONFIGURATION_ERROR, status: 500, phrase: PHRASES.internal },
  // The function did not answer in time or failed outright: the service behind the API is unavailable.
  { type: ResponseType.INTEGRATION_FAILURE, status: 503, phrase: PHRASES.unavailable },
  { type: ResponseType.INTEGRATION_TIMEOUT, status: 503, phrase: PHRASES.unavailable },
  // Fallbacks for any type not listed; a fixed status, because the message must be its reason phrase.
  { type: ResponseType.DEFAULT_4XX, status: 400, phrase: GATEWAY_PHRASES.clientError },
  { type: ResponseType.DEFAULT_5XX, status: 500, phrase: PHRASES.internal },
];

/** Gateway response bodies are templates: anything but a plain $context reference would be misread. */
export function assertPlainTemplate(body: string): string {
  const stripped = body.replace(/\$context(\.[A-Za-z0-9_]+)+/g, '');
  if (/[$#]/.test(stripped)) throw new Error(`A response template must not hold '$' or '#' outside a $context reference: ${body}`);
  return body;
}

/** Adds every gateway response of GATEWAY_ERRORS to the API. */
export function addGatewayResponses(api: RestApi): void {
  for (const { type, status, phrase } of GATEWAY_ERRORS) {
    api.addGatewayResponse(responseId(type), {
      type,
      statusCode: String(status),
      responseHeaders: { 'Content-Type': `'${JSON_CONTENT_TYPE}'` },
      templates: { 'application/json': assertPlainTemplate(errorEnvelope(status, phrase)) },
    });
  }
}

/** UNAUTHORIZED -> UnauthorizedResponse: a readable, stable construct id. */
function responseId(type: ResponseType): string {
  const words = type.responseType.toLowerCase().split('_');
  return `${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Response`;
}
