import { type Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { allowHeader, errorEnvelope, JSON_CONTENT_TYPE, methodNotAllowedPhrase } from '../functions/http';
import {
  CREDENTIAL_SCHEMES,
  ROUTES,
  resourcePaths,
  type CredentialScheme,
  type RouteFunction,
  type RouteMethod,
  type UsagePlanName,
} from '../functions/routes';
import { USAGE_PLANS } from './deployment';
import { accessLogFormat, ApiLogGroups } from './api-logging';
import { addGatewayResponses, assertPlainTemplate } from './gateway-responses';

export interface PolicyApiProps {
  /** The function of each FUNCTIONS entry, by its id. */
  readonly functions: Readonly<Record<RouteFunction['id'], IFunction>>;
  /** The one authorizer function behind every authorizer definition. */
  readonly authorizer: IFunction;
  readonly authorizerCacheTtl: Duration;
  readonly stageName: string;
  readonly throttlingRateLimit: number;
  readonly throttlingBurstLimit: number;
  /** X-Ray tracing on the stage. */
  readonly tracing: boolean;
  /** Retention and removal policy of the access and execution logs. */
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  /** Create the account-level CloudWatch Logs role that API Gateway logging needs (one per account and region). */
  readonly accountCloudWatchRole: boolean;
}

/** Content types the 405 mock answers; with passthrough NEVER, any other body type gets the 415 envelope. */
const MOCK_CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/xml',
  'text/xml',
];

/** The REST API (docs/api.md), built from the route table in functions/routes.ts. */
export class PolicyApi extends Construct {
  readonly api: apigateway.RestApi;
  readonly authorizers: Record<CredentialScheme['name'], apigateway.RequestAuthorizer>;
  readonly logs: ApiLogGroups;
  /** Validates the declared query parameters of the route methods. */
  readonly requestValidator: apigateway.RequestValidator;
  /** The per-credential usage plans, by name (lib/deployment.ts, USAGE_PLANS). */
  readonly usagePlans: Record<UsagePlanName, apigateway.UsagePlan>;

  constructor(scope: Construct, id: string, props: PolicyApiProps) {
    super(scope, id);
    this.logs = new ApiLogGroups(this, 'Logs', { retention: props.logRetention, removalPolicy: props.removalPolicy });
    this.api = new apigateway.RestApi(this, 'RestApi', {
      // The stack's name, so the AWS/ApiGateway metrics (ApiName, Stage) of two stacks never mix.
      restApiName: Stack.of(this).stackName,
      description: 'Password policy retrieval: generator policies (/userapi/) and strength policies (/api/)',
      endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
      // Usage plans meter the API key the authorizer names (usageIdentifierKey); no client sends x-api-key.
      apiKeySourceType: apigateway.ApiKeySourceType.AUTHORIZER,
      // Logging needs the account's CloudWatch role; kept on stack deletion, since other APIs may rely on it.
      cloudWatchRole: props.accountCloudWatchRole,
      ...(props.accountCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      deployOptions: {
        stageName: props.stageName,
        throttlingRateLimit: props.throttlingRateLimit,
        throttlingBurstLimit: props.throttlingBurstLimit,
        tracingEnabled: props.tracing,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.logs.access),
        accessLogFormat: accessLogFormat(),
        // Errors only, and never the data trace: it would log request headers (API keys) and bodies.
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
      },
    });
    this.logs.addExecutionLogs(this.api, props.stageName);
    // The stage turns logging on, which API Gateway refuses until the account's role is set.
    const account = this.api.node.tryFindChild('Account');
    if (account) this.api.deploymentStage.node.addDependency(account);
    // Parameters and body both: no method declares a body model (the POST handler validates its JSON body
    // itself), so body validation has nothing to check today, and a model added later is enforced at once.
    this.requestValidator = this.api.addRequestValidator('RequestValidator', {
      validateRequestParameters: true,
      validateRequestBody: true,
    });
    // The stack outputs the URL once, as ApiUrl; the RestApi's own unnamed copy would only confuse.
    this.api.node.tryRemoveChild('Endpoint');
    this.authorizers = {
      generatorUser: this.requestAuthorizer(CREDENTIAL_SCHEMES.generatorUser, props),
      generatorKey: this.requestAuthorizer(CREDENTIAL_SCHEMES.generatorKey, props),
      strengthKey: this.requestAuthorizer(CREDENTIAL_SCHEMES.strengthKey, props),
    };

    for (const route of resourcePaths()) {
      const resource = this.api.root.resourceForPath(route.path);
      const integration = new apigateway.LambdaIntegration(props.functions[route.function.id], { proxy: true });
      for (const httpMethod of route.methods) {
        resource.addMethod(httpMethod, integration, {
          authorizer: this.authorizers[route.credentials.name],
          // Each credential's own usage plan applies (rate, burst, daily quota); over it API Gateway answers 429.
          apiKeyRequired: true,
          // search stays optional; unknown or repeated parameters are the handler's 400 (API Gateway cannot refuse them).
          requestParameters: queryParameters(route.path, httpMethod),
          // No body model: the handler validates the body (the local gateway could not emulate a model's messages).
          requestValidator: this.requestValidator,
        });
      }
      // API Gateway prefers a specific method over ANY, so ANY answers only the others, naming this path's.
      resource.addMethod('ANY', methodNotAllowed(route.methods), {
        authorizationType: apigateway.AuthorizationType.NONE,
        methodResponses: [
          {
            statusCode: '405',
            responseParameters: { 'method.response.header.Allow': true, 'method.response.header.Content-Type': true },
          },
        ],
      });
    }
    addGatewayResponses(this.api);
    this.usagePlans = Object.fromEntries(
      Object.entries(USAGE_PLANS).map(([name, plan]) => [
        name,
        this.api.addUsagePlan(`UsagePlan-${name}`, {
          name: `${Stack.of(this).stackName}-${name}`,
          description: `Per-credential limit "${name}": ${plan.rateLimit} requests/s, bursts of ${plan.burstLimit}, ${plan.quotaPerDay} a day`,
          throttle: { rateLimit: plan.rateLimit, burstLimit: plan.burstLimit },
          quota: { limit: plan.quotaPerDay, period: apigateway.Period.DAY },
          apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
        }),
      ]),
    ) as Record<UsagePlanName, apigateway.UsagePlan>;
  }

  /** One REQUEST authorizer per credential scheme, all sharing the one authorizer function. */
  private requestAuthorizer(scheme: CredentialScheme, props: PolicyApiProps): apigateway.RequestAuthorizer {
    const name = `${scheme.name.charAt(0).toUpperCase()}${scheme.name.slice(1)}Authorizer`;
    return new apigateway.RequestAuthorizer(this, name, {
      authorizerName: name,
      handler: props.authorizer,
      identitySources: scheme.headers.map((header) => apigateway.IdentitySource.header(header)),
      resultsCacheTtl: props.authorizerCacheTtl,
    });
  }
}

/** The optional query parameters of a path's method: those that select one of its routes (search). */
function queryParameters(path: string, method: RouteMethod): Record<string, boolean> {
  const names = new Set(ROUTES.filter((r) => r.path === path && r.method === method).flatMap((r) => r.query));
  return Object.fromEntries([...names].map((name) => [`method.request.querystring.${name}`, false]));
}

/** A mock answering 405 with `Allow: <the path's methods>` and the error envelope, without invoking anything. */
function methodNotAllowed(allowed: readonly RouteMethod[]): apigateway.MockIntegration {
  return new apigateway.MockIntegration({
    passthroughBehavior: apigateway.PassthroughBehavior.NEVER,
    requestTemplates: Object.fromEntries(MOCK_CONTENT_TYPES.map((type) => [type, '{"statusCode": 405}'])),
    integrationResponses: [
      {
        statusCode: '405',
        responseParameters: {
          'method.response.header.Allow': `'${allowHeader(allowed)}'`,
          'method.response.header.Content-Type': `'${JSON_CONTENT_TYPE}'`,
        },
        responseTemplates: {
          'application/json': assertPlainTemplate(errorEnvelope(405, methodNotAllowedPhrase(allowed))),
        },
      },
    ],
  });
}
