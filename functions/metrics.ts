/**
 * The one place that names the service's custom metrics: the namespace and `service` dimension Powertools
 * writes (EMF), and each metric name. The functions count them (observability.ts); the stack sets the
 * environment from them and alarms on them. It imports nothing, so it adds only these strings to a bundle.
 */
export const SERVICE_METRICS = {
  /** POWERTOOLS_METRICS_NAMESPACE */
  namespace: 'PasswordPolicyService',
  /** POWERTOOLS_SERVICE_NAME; Powertools adds it to every metric as the `service` dimension. */
  serviceName: 'password-policy-service',
  /** The exact dimension set of every custom metric: an alarm matches a metric only on all of its dimensions. */
  dimensions: { service: 'password-policy-service' },
  names: {
    /** Records left out of a response because they failed validation (design.md §5). */
    invalidPolicyRecords: 'InvalidPolicyRecords',
    /** The authorizer's outcomes, one count per decision. */
    authorizerAllow: 'AuthorizerAllow',
    authorizerDeny: 'AuthorizerDeny',
    authorizerUnauthorized: 'AuthorizerUnauthorized',
    /** The authorizer failed other than by rejecting credentials (API Gateway answers 500). */
    authorizerFailure: 'AuthorizerFailure',
    /** The policy cache of the route-bound functions. */
    policyCacheHit: 'PolicyCacheHit',
    policyCacheMiss: 'PolicyCacheMiss',
    staleCollectionServed: 'StaleCollectionServed',
  },
} as const;

export type ServiceMetricName = (typeof SERVICE_METRICS.names)[keyof typeof SERVICE_METRICS.names];
