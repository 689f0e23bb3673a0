import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { headerValues, type EventHeaders } from '../http/headers';
import { SERVICE_METRICS } from '../metrics';
import { countMetric, instrumented, logger } from '../observability';
import { createDocumentClient } from '../store/dynamodb-policy-store';
import { ENV, schemeForPath, type CredentialScheme } from '../routes';
import { authorize, type Decision, type HeaderLookup } from './authorize';
import { DynamoDbCredentialStore } from './credential-store';

/** One authorizer function behind both API Gateway authorizer definitions; the path picks the scheme. */
const store = new DynamoDbCredentialStore(createDocumentClient(), process.env[ENV.credentialsTable] ?? '');

const OUTCOME_METRICS = {
  allow: SERVICE_METRICS.names.authorizerAllow,
  deny: SERVICE_METRICS.names.authorizerDeny,
  unauthorized: SERVICE_METRICS.names.authorizerUnauthorized,
} as const;

export const handler = instrumented(async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const scheme = schemeForPath(event.resource ?? event.path ?? '');
  if (!scheme) throw new Error('Unauthorized');
  let decision: Decision;
  try {
    decision = await authorize(scheme, headerLookup(event), store);
  } catch (error) {
    // A real failure (the credentials table unreadable): API Gateway answers 500. Lambda's Errors metric
    // cannot tell these from 401s, which are thrown too, so the authorizer counts them itself.
    countMetric(SERVICE_METRICS.names.authorizerFailure);
    logger.error('Authorizer failed', { error: error instanceof Error ? error.name : typeof error });
    throw new Error('Authorizer failure');
  }
  countMetric(OUTCOME_METRICS[decision.outcome]);
  if (decision.outcome === 'unauthorized') {
    logger.info('Credentials rejected', { routeGroup: scheme.pathPrefix });
    // The exact message API Gateway maps to its 401 UNAUTHORIZED response.
    throw new Error('Unauthorized');
  }
  const effect = decision.outcome === 'allow' ? 'Allow' : 'Deny';
  return {
    principalId: decision.principalId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: routeGroupArn(event.methodArn, scheme) }] },
    context: decision.outcome === 'allow' ? decision.context : { reason: decision.reason },
  };
});

/**
 * The policy covers every method of the caller's route group, not just this request's methodArn, because
 * API Gateway caches it per identity and reuses it for the group's other routes.
 */
export function routeGroupArn(methodArn: string, scheme: CredentialScheme): string {
  // arn:aws:execute-api:<region>:<account>:<apiId>/<stage>/<METHOD>/<path...>
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/*${scheme.pathPrefix}*`;
}

/** Case-insensitive header access; a header given twice (or with a comma-joined value) is a duplicate. */
export function headerLookup(event: EventHeaders): HeaderLookup {
  return (name) => {
    const values = headerValues(event, name);
    if (values.length > 1 || values.some((v) => v.includes(','))) return 'duplicate';
    return values[0];
  };
}
