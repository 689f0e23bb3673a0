/**
 * EvaluatePassword's network (docs/operations.md#egress), read off the template for both values of context
 * pwnedPasswordsCheck: off (the default of both presets), the function that sees plaintext passwords runs in
 * an isolated VPC whose one way anywhere is a DynamoDB gateway endpoint for a Scan of its own table; on, it
 * runs outside any VPC with Lambda's own internet egress, and its environment turns the check on.
 */
import { build } from 'esbuild';
import { bundleOptions } from '../../bundling/build';
import { FUNCTIONS } from '../../functions/routes';
import { ENV } from '../../functions/runtime';
import { TIME_BUDGET } from '../../lib/deployment';
import { readSettings, STAGE_PRESETS } from '../../lib/settings';
import { referencedIds, resourcesOfType, roleOfFunction, synth, type Synthesized } from './synth';

const functionsOf = (s: Synthesized) => resourcesOfType(s.template, 'AWS::Lambda::Function');
const evaluation = (s: Synthesized) => functionsOf(s)[s.logicalId(s.stack.functions.EvaluatePassword)]!.Properties;
const count = (s: Synthesized, type: string) => Object.keys(resourcesOfType(s.template, type)).length;

/** Every resource type through which a VPC can reach beyond itself, besides a gateway endpoint. */
const WAYS_OUT = [
  'AWS::EC2::InternetGateway',
  'AWS::EC2::VPCGatewayAttachment',
  'AWS::EC2::EgressOnlyInternetGateway',
  'AWS::EC2::NatGateway',
  'AWS::EC2::EIP',
  'AWS::EC2::Route',
  'AWS::EC2::VPNGateway',
  'AWS::EC2::TransitGatewayAttachment',
  'AWS::EC2::VPCPeeringConnection',
];

describe('EvaluatePassword egress (context pwnedPasswordsCheck)', () => {
  const off = synth({ stage: 'prod' });
  const dev = synth({ stage: 'dev' });
  const on = synth({ stage: 'prod', pwnedPasswordsCheck: 'true' });

  it('the check is off in both presets and without context', () => {
    expect(STAGE_PRESETS.prod.pwnedPasswordsCheck).toBe(false);
    expect(STAGE_PRESETS.dev.pwnedPasswordsCheck).toBe(false);
    expect(readSettings(() => undefined).pwnedPasswordsCheck).toBe(false);
    for (const s of [off, dev]) expect(s.stack.evaluationNetwork).toBeDefined();
    expect(on.stack.evaluationNetwork).toBeUndefined();
  });

  describe('off: an isolated network with no route out', () => {
    const network = off.stack.evaluationNetwork!;
    const subnetIds = network.vpc.isolatedSubnets.map((subnet) =>
      off.stack.getLogicalId(subnet.node.defaultChild as never),
    );

    it('EvaluatePassword runs in the two isolated subnets (two zones) with its own security group; no other function is in a VPC', () => {
      expect(network.vpc.publicSubnets).toEqual([]);
      expect(network.vpc.privateSubnets).toEqual([]);
      expect(subnetIds).toHaveLength(2);
      const vpcConfig = evaluation(off).VpcConfig;
      expect(vpcConfig.SubnetIds.map((id: unknown) => [...referencedIds(id)][0]).sort()).toEqual([...subnetIds].sort());
      expect(vpcConfig.SecurityGroupIds).toEqual([{ 'Fn::GetAtt': [off.logicalId(network.securityGroup), 'GroupId'] }]);
      const inAVpc = Object.entries(functionsOf(off))
        .filter(([, fn]) => fn.Properties.VpcConfig !== undefined)
        .map(([id]) => id);
      expect(inAVpc).toEqual([off.logicalId(off.stack.functions.EvaluatePassword)]);
    });

    it('nothing leads out: no internet, NAT, egress-only, VPN, transit or peering gateway, no route of any kind; the subnets give no public address', () => {
      for (const type of WAYS_OUT) expect([type, count(off, type)]).toEqual([type, 0]);
      off.template.allResourcesProperties('AWS::EC2::Subnet', { MapPublicIpOnLaunch: false });
      expect(count(off, 'AWS::EC2::VPC')).toBe(1);
    });

    it('its one endpoint is DynamoDB, a gateway on every route table, admitting a Scan of the strength table and nothing else', () => {
      const endpoints = Object.values(resourcesOfType(off.template, 'AWS::EC2::VPCEndpoint'));
      expect(endpoints).toHaveLength(1);
      const endpoint = endpoints[0]!.Properties;
      expect(endpoint.VpcEndpointType).toBe('Gateway');
      expect(JSON.stringify(endpoint.ServiceName)).toMatch(/\.dynamodb"/);
      const routeTables = Object.keys(resourcesOfType(off.template, 'AWS::EC2::RouteTable'));
      expect(routeTables).toHaveLength(2);
      expect(endpoint.RouteTableIds.map((id: unknown) => [...referencedIds(id)][0]).sort()).toEqual(routeTables.sort());
      expect(endpoint.PolicyDocument).toEqual({
        Version: '2012-10-17',
        Statement: [
          {
            Action: 'dynamodb:Scan',
            Effect: 'Allow',
            Principal: { AWS: '*' },
            Resource: { 'Fn::GetAtt': [off.logicalId(off.stack.tables.strength), 'Arn'] },
          },
        ],
      });
    });

    it('the security group lets HTTPS out and nothing in', () => {
      const group = resourcesOfType(off.template, 'AWS::EC2::SecurityGroup')[off.logicalId(network.securityGroup)]!
        .Properties;
      expect(group.SecurityGroupEgress).toEqual([
        {
          CidrIp: '0.0.0.0/0',
          IpProtocol: 'tcp',
          FromPort: 443,
          ToPort: 443,
          Description: 'HTTPS to DynamoDB through the gateway endpoint, the only route',
        },
      ]);
      expect(group.SecurityGroupIngress).toBeUndefined();
      expect(count(off, 'AWS::EC2::SecurityGroupIngress')).toBe(0);
    });

    it("rejected flows are logged, kept for the stage's log retention", () => {
      const flowLogs = Object.values(resourcesOfType(off.template, 'AWS::EC2::FlowLog'));
      expect(
        flowLogs.map((f) => [f.Properties.ResourceType, f.Properties.TrafficType, f.Properties.LogDestinationType]),
      ).toEqual([['VPC', 'REJECT', 'cloud-watch-logs']]);
      const group = resourcesOfType(off.template, 'AWS::Logs::LogGroup')[
        [...referencedIds(flowLogs[0]!.Properties.LogGroupName)][0]!
      ];
      expect(group?.Properties.RetentionInDays).toBe(90);
    });

    it('its code calls no AWS service but DynamoDB: metrics are EMF lines on stdout, and no tracer, parameter, secret or KMS client is bundled', async () => {
      // With no route out, any other AWS call (CloudWatch PutMetricData, X-Ray's API, SSM, KMS) would hang until
      // the Lambda timeout: the bundle must not carry a client for one.
      const { metafile } = await build({
        ...bundleOptions(FUNCTIONS.evaluatePassword.entry),
        write: false,
        metafile: true,
        outfile: 'bundle.mjs',
      });
      const packages = new Set(
        Object.keys(metafile.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []),
      );
      expect([...packages].filter((name) => name.startsWith('@aws-sdk/client-')).sort()).toEqual([
        '@aws-sdk/client-dynamodb',
      ]);
      expect([...packages].filter((name) => name.startsWith('@aws-lambda-powertools/')).sort()).toEqual([
        '@aws-lambda-powertools/commons',
        '@aws-lambda-powertools/logger',
        '@aws-lambda-powertools/metrics',
      ]);
      expect([...packages].filter((name) => /xray|opentelemetry/i.test(name))).toEqual([]);
    }, 30_000);

    it('the function is not told to check (no PWNED_PASSWORDS_* variable)', () => {
      expect(
        Object.keys(evaluation(off).Environment.Variables).filter((name) => name.startsWith('PWNED_PASSWORDS')),
      ).toEqual([]);
    });
  });

  describe('on: outside any VPC, with the check in its environment', () => {
    it('no VPC, subnet, endpoint, security group or flow log; no function in a VPC', () => {
      for (const type of [
        'AWS::EC2::VPC',
        'AWS::EC2::Subnet',
        'AWS::EC2::VPCEndpoint',
        'AWS::EC2::SecurityGroup',
        'AWS::EC2::FlowLog',
        ...WAYS_OUT,
      ]) {
        expect([type, count(on, type)]).toEqual([type, 0]);
      }
      for (const fn of Object.values(functionsOf(on))) expect(fn.Properties.VpcConfig).toBeUndefined();
    });

    it('PWNED_PASSWORDS_CHECK=true and the lookup bound of TIME_BUDGET; no other URL than the real API', () => {
      const variables = evaluation(on).Environment.Variables;
      expect(variables).toEqual(
        expect.objectContaining({
          [ENV.pwnedPasswordsCheck]: 'true',
          [ENV.pwnedPasswordsTimeout]: String(TIME_BUDGET.functions.pwnedPasswordsTimeoutMs),
        }),
      );
      expect(TIME_BUDGET.functions.pwnedPasswordsTimeoutMs).toBe(1000);
      expect(variables[ENV.pwnedPasswordsUrl]).toBeUndefined();
    });

    it('its role has only the basic execution managed policy', () => {
      const role = resourcesOfType(on.template, 'AWS::IAM::Role')[
        roleOfFunction(on.template, on.logicalId(on.stack.functions.EvaluatePassword))
      ]!;
      expect(JSON.stringify(role.Properties.ManagedPolicyArns)).not.toContain('VPCAccess');
      expect(role.Properties.ManagedPolicyArns).toHaveLength(1);
    });

    it('every other function is exactly as with the check off', () => {
      const others = (s: Synthesized) =>
        [
          ...Object.values(s.stack.functions).filter((fn) => fn !== s.stack.functions.EvaluatePassword),
          s.stack.authorizer,
        ].map((fn) => functionsOf(s)[s.logicalId(fn)]);
      expect(others(on)).toEqual(others(off));
    });
  });
});
