import type { RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface IsolatedNetworkProps {
  /** The one table the function in this network reads (with Scan). */
  readonly table: ITable;
  readonly logRetention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * Where EvaluatePassword runs while its Pwned Passwords check is off (docs/operations.md#egress): a VPC of
 * isolated subnets only (no internet gateway, no NAT, no route out), whose one way anywhere is a DynamoDB
 * gateway endpoint that admits a Scan of the function's own table and nothing else. A Lambda function
 * outside a VPC can reach the whole internet; in here, the function that sees plaintext passwords has no
 * route to send one anywhere, even if its code or a dependency were subverted. One channel is left: the
 * VPC's DNS resolver answers any name (and no security group filters it), so subverted code could still
 * leak data in the names it looks up; a Route 53 Resolver DNS Firewall would close it, and is not built
 * here (docs/operations.md#egress). Gateway endpoints, isolated subnets and the function's network
 * interfaces cost nothing; the flow log costs its CloudWatch Logs ingestion.
 */
export class IsolatedNetwork extends Construct {
  readonly vpc: ec2.Vpc;
  readonly securityGroup: ec2.SecurityGroup;
  readonly dynamodbEndpoint: ec2.GatewayVpcEndpoint;

  constructor(scope: Construct, id: string, props: IsolatedNetworkProps) {
    super(scope, id);
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      // Two zones, so the function keeps running when one zone fails.
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'Isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
      // Nothing runs in the default security group; its default rules are left as they are rather than
      // removed by one more custom resource (a Lambda function of CDK's) in every stack.
      restrictDefaultSecurityGroup: false,
    });
    this.dynamodbEndpoint = this.vpc.addGatewayEndpoint('DynamoDB', {
      service: ec2.GatewayVpcEndpointAwsService.DYNAMODB,
    });
    // The endpoint's policy replaces its default allow-all: nothing in this network can use it to write to
    // (or read) any other table, in this account or another one.
    this.dynamodbEndpoint.addToPolicy(
      new iam.PolicyStatement({
        principals: [new iam.AnyPrincipal()],
        actions: ['dynamodb:Scan'],
        resources: [props.table.tableArn],
      }),
    );
    // Rejected traffic only: in a network with one allowed destination, a rejection is the news.
    this.vpc.addFlowLog('RejectedFlows', {
      trafficType: ec2.FlowLogTrafficType.REJECT,
      destination: ec2.FlowLogDestination.toCloudWatchLogs(
        new logs.LogGroup(this, 'FlowLogs', { retention: props.logRetention, removalPolicy: props.removalPolicy }),
      ),
    });
    this.securityGroup = new ec2.SecurityGroup(this, 'FunctionSecurityGroup', {
      vpc: this.vpc,
      description: 'EvaluatePassword: HTTPS out only; the route tables lead nowhere but the DynamoDB gateway endpoint',
      allowAllOutbound: false,
    });
    // The DynamoDB prefix list's id cannot be known at synth in an environment-agnostic stack; the route
    // tables already confine port 443 to DynamoDB's addresses.
    this.securityGroup.addEgressRule(
      ec2.Peer.anyIpv4(),
      ec2.Port.tcp(443),
      'HTTPS to DynamoDB through the gateway endpoint, the only route',
    );
  }
}
