import * as path from 'node:path';
import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { SubnetType, type IVpc, type ISecurityGroup } from 'aws-cdk-lib/aws-ec2';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SERVICE_METRICS } from '../functions/runtime';
import { BUNDLE_ALIASES, BUNDLE_ASSETS, BUNDLE_OPTIONS, PROJECT_ROOT } from '../bundling/bundling';

/** What Powertools reads (functions/runtime.ts, where the names live with the metric names). */
export const POWERTOOLS = {
  serviceName: SERVICE_METRICS.serviceName,
  metricsNamespace: SERVICE_METRICS.namespace,
} as const;

/** BUNDLE_OPTIONS (the one esbuild configuration, shared with the local gateway) in NodejsFunction's terms. */
export const NODEJS_BUNDLING: BundlingOptions = {
  format: BUNDLE_OPTIONS.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
  target: BUNDLE_OPTIONS.target,
  minify: BUNDLE_OPTIONS.minify,
  sourceMap: BUNDLE_OPTIONS.sourcemap,
  mainFields: [...BUNDLE_OPTIONS.mainFields],
  banner: BUNDLE_OPTIONS.banner,
  esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
  // Bundle the AWS SDK too, as the local build does: the deployed code runs the lockfile's SDK version.
  externalModules: [],
  // The local esbuild from node_modules; there is no Docker.
  forceDockerBundling: false,
};

/** A path as one word of a POSIX shell. */
const shellWord = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** NODEJS_BUNDLING for one entry file, the files its bundle reads beside itself (BUNDLE_ASSETS) copied next to it. */
function bundlingOf(entry: string): BundlingOptions {
  const assets = BUNDLE_ASSETS[entry] ?? [];
  if (assets.length === 0) return NODEJS_BUNDLING;
  return {
    ...NODEJS_BUNDLING,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_inputDir, outputDir) => assets.map((asset) => `cp ${shellWord(asset)} ${shellWord(outputDir)}`),
    },
  };
}

export interface LambdaFunctionProps {
  /** Entry file, relative to the project root (functions/routes.ts names each). */
  readonly entry: string;
  readonly description: string;
  readonly timeout: Duration;
  /** Memory in MiB, and so the CPU share (lib/deployment.ts, memoryOf). */
  readonly memoryMiB: number;
  readonly environment: Record<string, string>;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
  /** Applied to the log group, like the tables: kept unless the stack is a development stack. */
  readonly removalPolicy: RemovalPolicy;
  /** X-Ray active tracing (context `tracing`). */
  readonly tracing: boolean;
  /** Run in these isolated subnets with this security group; absent, outside any VPC (Lambda's own internet egress). */
  readonly network?: { readonly vpc: IVpc; readonly securityGroup: ISecurityGroup };
}

/** A function of the service, with every Lambda default held once: runtime, architecture, memory, bundling, Powertools, tracing, its own log group. */
export class LambdaFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: LambdaFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMiB,
      timeout: props.timeout,
      logGroup: this.logGroup,
      // Active tracing samples requests itself, so traces exist even when no upstream header asks for one.
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      bundling: bundlingOf(props.entry),
      ...(props.network
        ? {
            vpc: props.network.vpc,
            vpcSubnets: { subnetType: SubnetType.PRIVATE_ISOLATED },
            securityGroups: [props.network.securityGroup],
          }
        : {}),
      environment: {
        POWERTOOLS_SERVICE_NAME: POWERTOOLS.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: POWERTOOLS.metricsNamespace,
        POWERTOOLS_LOG_LEVEL: props.logLevel,
        ...props.environment,
      },
    });
  }
}
