import { CfnResource } from 'aws-cdk-lib';
import type { Method } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsCustomResource } from 'aws-cdk-lib/custom-resources';
import { NagSuppressions, type NagPackSuppression } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import type { RouteFunction } from '../functions/routes';
import type { IsolatedNetwork } from './isolated-network';
import type { PolicyApi } from './policy-api';
import type { StackSettings } from './settings';
import type { RateLimitFirewall } from './waf';

/** The AWS-managed policy every Lambda role gets from CDK, as cdk-nag names it. */
const BASIC_EXECUTION = 'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole';
/** The one CDK adds to a function in a VPC. */
const VPC_ACCESS = 'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole';
const API_GATEWAY_LOGS =
  'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs';

/**
 * Every AwsSolutions finding this stack accepts, each on the resources it concerns, with the rule and the
 * reason (docs/operations.md lists them). Anything else cdk-nag reports fails the infrastructure tests.
 */
export const NAG_SUPPRESSIONS = {
  lambdaBasicExecution: {
    id: 'AwsSolutions-IAM4',
    appliesTo: [BASIC_EXECUTION],
    reason:
      'AWSLambdaBasicExecutionRole only lets the function write its own CloudWatch logs; table access is granted separately, per table.',
  },
  lambdaVpcAccess: {
    id: 'AwsSolutions-IAM4',
    appliesTo: [VPC_ACCESS],
    reason:
      "AWSLambdaVPCAccessExecutionRole lets Lambda manage the function's network interfaces in its isolated subnets (the EC2 network-interface actions take no narrower resource) and write its logs; it grants no data access.",
  },
  lambdaRuntime: {
    id: 'AwsSolutions-L1',
    reason:
      'Node.js 22 is a current, supported Lambda runtime (the service runs on 22 or 24); the bundles target node22 and the local gateway runs the same target.',
  },
  xrayWildcard: {
    id: 'AwsSolutions-IAM5',
    appliesTo: ['Resource::*'],
    reason:
      'X-Ray active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so CDK grants them on *.',
  },
  apiGatewayLogsRole: {
    id: 'AwsSolutions-IAM4',
    appliesTo: [API_GATEWAY_LOGS],
    reason:
      "AmazonAPIGatewayPushToCloudWatchLogs is the AWS-documented policy of API Gateway's account-level logging role.",
  },
  customAuthorizer: {
    id: 'AwsSolutions-COG4',
    reason:
      'Callers authenticate with Passwordstate-style UserID/APIKey headers, checked by the Lambda REQUEST authorizer by design; there are no Cognito users.',
  },
  methodNotAllowedMock: {
    id: 'AwsSolutions-APIG4',
    reason:
      'The ANY method is a mock that only answers 405 Method Not Allowed; it reaches no integration and returns no data.',
  },
  mockCognito: {
    id: 'AwsSolutions-COG4',
    reason: 'The ANY method is a mock that only answers 405 Method Not Allowed; it has no caller to authenticate.',
  },
  wafDisabled: {
    id: 'AwsSolutions-APIG3',
    reason: 'WAF is turned off by context (waf=false, the dev preset); the stage throttling still applies.',
  },
} as const satisfies Record<string, NagPackSuppression>;

/**
 * What the suppressions read of the stack: its functions and authorizer, its REST API, and whether tracing,
 * the firewall and EvaluatePassword's isolated network are there. PasswordPolicyStack implements it, so this
 * file needs nothing of the stack's (which calls addNagSuppressions) and no import cycle joins the two.
 */
export interface NagSubject extends IConstruct {
  readonly functions: Readonly<Record<RouteFunction['id'], IFunction>>;
  readonly authorizer: IFunction;
  readonly settings: Pick<StackSettings, 'tracing'>;
  readonly api: Pick<PolicyApi, 'api'>;
  readonly firewall?: RateLimitFirewall;
  readonly evaluationNetwork?: IsolatedNetwork;
}

/** Adds the suppressions of NAG_SUPPRESSIONS that apply to this stack's configuration, each on the one resource it concerns. */
export function addNagSuppressions(stack: NagSubject): void {
  const s = NAG_SUPPRESSIONS;
  const suppress = (construct: IConstruct, ...suppressions: NagPackSuppression[]): void =>
    NagSuppressions.addResourceSuppressions(resourceOf(construct), suppressions);

  for (const fn of [...Object.values(stack.functions), stack.authorizer]) {
    suppress(fn, s.lambdaRuntime);
    suppress(fn.role!, s.lambdaBasicExecution);
    const policy = fn.role!.node.tryFindChild('DefaultPolicy');
    if (stack.settings.tracing && policy) suppress(policy, s.xrayWildcard);
  }
  // EvaluatePassword in its isolated network (the Pwned Passwords check off) has the VPC access policy too.
  if (stack.evaluationNetwork) suppress(stack.functions.EvaluatePassword.role!, s.lambdaVpcAccess);
  // The singleton function behind the default-policies custom resource (CDK's own AwsCustomResource).
  const provider = stack.node.tryFindChild(`AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`) as
    | IFunction
    | undefined;
  if (provider?.role) suppress(provider.role, s.lambdaBasicExecution);

  const api = stack.api.api;
  const cloudWatchRole = api.node.tryFindChild('CloudWatchRole');
  if (cloudWatchRole) suppress(cloudWatchRole, s.apiGatewayLogsRole);
  // Every route method (GET, POST) is behind a REQUEST authorizer; every ANY is a 405 mock.
  const routeMethods: Method[] = api.methods.filter((m) => m.httpMethod !== 'ANY');
  for (const method of routeMethods) suppress(method, s.customAuthorizer);
  for (const method of api.methods.filter((m) => m.httpMethod === 'ANY'))
    suppress(method, s.methodNotAllowedMock, s.mockCognito);
  if (!stack.firewall) suppress(api.deploymentStage, s.wafDisabled);
}

/** The CloudFormation resource of an L2 construct: a suppression there covers that resource and nothing else. */
function resourceOf(construct: IConstruct): CfnResource {
  const resource = construct.node.defaultChild;
  if (!(resource instanceof CfnResource))
    throw new Error(`${construct.node.path} has no CloudFormation resource to suppress a finding on`);
  return resource;
}
