import type { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogField, AccessLogFormat, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/**
 * One JSON object per request. Only $context values API Gateway itself determines: never a header (the
 * APIKey and UserID headers are credentials), never the raw path, the query string or a body. principalId is set only
 * once the authorizer has recognised the caller: a UserID or `strength-key:<key id>`, the non-secret part.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: AccessLogField.contextRequestId(),
  ip: AccessLogField.contextIdentitySourceIp(),
  requestTime: AccessLogField.contextRequestTime(),
  requestTimeEpoch: AccessLogField.contextRequestTimeEpoch(),
  httpMethod: AccessLogField.contextHttpMethod(),
  // The resource path (`/api/passwordstrength`), never the raw path: a client may send a key as a path segment.
  resourcePath: AccessLogField.contextResourcePath(),
  status: AccessLogField.contextStatus(),
  protocol: AccessLogField.contextProtocol(),
  responseLength: AccessLogField.contextResponseLength(),
  responseLatency: AccessLogField.contextResponseLatency(),
  integrationLatency: AccessLogField.contextIntegrationLatency(),
  integrationStatus: AccessLogField.contextIntegrationStatus(),
  authorizerStatus: AccessLogField.contextAuthorizerStatus(),
  authorizerLatency: AccessLogField.contextAuthorizerLatency(),
  authorizerError: AccessLogField.contextAuthorizerError(),
  principalId: AccessLogField.contextAuthorizerPrincipalId(),
  errorResponseType: AccessLogField.contextErrorResponseType(),
  errorMessage: AccessLogField.contextErrorMessage(),
  wafResponseCode: AccessLogField.contextWafResponseCode(),
  xrayTraceId: AccessLogField.contextXrayTraceId(),
} as const;

/** Every value quoted: a field API Gateway leaves empty is written as "-", which would break unquoted JSON. */
export function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS));
}

export interface ApiLogGroupsProps {
  readonly retention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/** The API's two log groups, both with the stack's retention and removal policy. */
export class ApiLogGroups extends Construct {
  /** The stage's access log (ACCESS_LOG_FIELDS). */
  readonly access: logs.LogGroup;
  private readonly props: ApiLogGroupsProps;

  constructor(scope: Construct, id: string, props: ApiLogGroupsProps) {
    super(scope, id);
    this.props = props;
    this.access = new logs.LogGroup(this, 'Access', { retention: props.retention, removalPolicy: props.removalPolicy });
  }

  /**
   * The execution log group API Gateway writes to, created here first: left to API Gateway it would keep
   * its logs forever and outlive the stack. The stage must depend on it, so it exists before logging starts.
   */
  addExecutionLogs(api: RestApi, stageName: string): logs.LogGroup {
    const group = new logs.LogGroup(this, 'Execution', {
      // The plain stage name, not the stage's Ref: the stage depends on this group.
      logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${stageName}`,
      retention: this.props.retention,
      removalPolicy: this.props.removalPolicy,
    });
    api.deploymentStage.node.addDependency(group);
    return group;
  }
}
