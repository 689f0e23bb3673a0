import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { UsagePlan } from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { AUTHORIZER, FUNCTIONS, resourcePaths, type RouteFunction, type UsagePlanName } from '../functions/routes';
import { ENV } from '../functions/runtime';
import { CREDENTIAL_ATTRIBUTES } from '../functions/repositories/credentials';
import { ServiceAlarms } from './alarms';
import { ServiceDashboard } from './dashboard';
import { DefaultPolicies } from './default-policies';
import { dynamodbBudget, memoryOf, pwnedPasswordsEnvironment, STACK_OUTPUTS, TIME_BUDGET } from './deployment';
import { IsolatedNetwork } from './isolated-network';
import { addNagSuppressions, type NagSubject } from './nag-suppressions';
import { PolicyApi } from './policy-api';
import { PolicyTables } from './policy-tables';
import { LambdaFunction } from './lambda-function';
import { readSettings, type StackSettings } from './settings';
import { RateLimitFirewall } from './waf';

type FunctionId = RouteFunction['id'];

/** One stack holding the REST API, the authorizer, the functions and the tables (docs/architecture.md). */
export class PasswordPolicyStack extends Stack implements NagSubject {
  readonly settings: StackSettings;
  readonly tables: PolicyTables['byKind'];
  /** The function of each FUNCTIONS entry, by its id. */
  readonly functions: Record<FunctionId, IFunction>;
  readonly authorizer: IFunction;
  readonly api: PolicyApi;
  /** Present unless context waf=false. */
  readonly firewall?: RateLimitFirewall;
  /** Present unless context alarms=false. */
  readonly alarms?: ServiceAlarms;
  /** EvaluatePassword's network without egress: present unless context pwnedPasswordsCheck=true. */
  readonly evaluationNetwork?: IsolatedNetwork;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const settings = (this.settings = readSettings((key) => this.node.tryGetContext(key)));
    const removalPolicy = settings.dev ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const functionDefaults = {
      logLevel: settings.logLevel,
      logRetention: settings.logRetentionDays,
      removalPolicy,
      tracing: settings.tracing,
    };

    // The policy history table is granted to no function: only operators (the policy CLI) read and append to it.
    const tables = (this.tables = new PolicyTables(this, 'Tables', { removalPolicy }).byKind);

    // EvaluatePassword sees plaintext passwords: it gets internet egress only where it must ask Have I Been
    // Pwned; otherwise it runs in a network with no route out (docs/operations.md#egress).
    const evaluation = settings.pwnedPasswordsCheck
      ? { environment: pwnedPasswordsEnvironment() }
      : {
          network: (this.evaluationNetwork = new IsolatedNetwork(this, 'EvaluationNetwork', {
            table: tables.strength,
            logRetention: settings.logRetentionDays,
            removalPolicy,
          })),
        };

    const functions = (this.functions = {} as Record<FunctionId, IFunction>);
    for (const spec of Object.values(FUNCTIONS) as RouteFunction[]) {
      const table = tables[spec.table];
      const isEvaluation = spec.id === FUNCTIONS.evaluatePassword.id;
      const { function: fn } = new LambdaFunction(this, spec.id, {
        ...functionDefaults,
        entry: spec.entry,
        description: `${spec.description}: ${routesOf(spec).join(', ')}`,
        timeout: Duration.seconds(TIME_BUDGET.functions.lambdaTimeoutSeconds),
        memoryMiB: memoryOf(spec.id),
        environment: {
          [ENV.policyTable]: table.tableName,
          [ENV.policyCacheTtl]: String(settings.policyCacheTtlSeconds),
          ...dynamodbBudget(TIME_BUDGET.functions),
          ...(isEvaluation ? evaluation.environment : {}),
        },
        ...(isEvaluation && evaluation.network ? { network: evaluation.network } : {}),
      });
      // Least privilege: each function reads its own table whole with Scan (functions/repositories/policies.ts), and nothing else.
      table.grant(fn, 'dynamodb:Scan');
      functions[spec.id] = fn;
    }

    const authorizer = (this.authorizer = new LambdaFunction(this, AUTHORIZER.id, {
      ...functionDefaults,
      entry: AUTHORIZER.entry,
      description: AUTHORIZER.description,
      timeout: Duration.seconds(TIME_BUDGET.authorizer.lambdaTimeoutSeconds),
      memoryMiB: memoryOf(AUTHORIZER.id),
      environment: { [ENV.credentialsTable]: tables.credentials.tableName, ...dynamodbBudget(TIME_BUDGET.authorizer) },
    }).function);
    // The authorizer looks one credential item up by its key; it never scans or queries.
    tables.credentials.grant(authorizer, 'dynamodb:GetItem');
    // It records last-used dates, and IAM limits that write to the LastUsed attribute: never a digest or a role.
    authorizer.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [tables.credentials.tableArn],
        conditions: {
          'ForAllValues:StringEquals': {
            'dynamodb:Attributes': [CREDENTIAL_ATTRIBUTES.credentialId, CREDENTIAL_ATTRIBUTES.lastUsed],
          },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
        },
      }),
    );

    this.api = new PolicyApi(this, 'Api', {
      functions,
      authorizer,
      authorizerCacheTtl: Duration.seconds(settings.authorizerCacheTtlSeconds),
      stageName: settings.stageName,
      throttlingRateLimit: settings.throttlingRateLimit,
      throttlingBurstLimit: settings.throttlingBurstLimit,
      tracing: settings.tracing,
      logRetention: settings.logRetentionDays,
      removalPolicy,
      accountCloudWatchRole: settings.apiGatewayCloudWatchRole,
    });
    const stage = this.api.api.deploymentStage;
    if (settings.waf)
      this.firewall = new RateLimitFirewall(this, 'Firewall', { stage, rateLimit: settings.wafRateLimit });
    if (settings.alarms) {
      this.alarms = new ServiceAlarms(this, 'Alarms', {
        stage,
        functions,
        authorizer,
        topic: settings.alarmTopic,
        pwnedPasswordsCheck: settings.pwnedPasswordsCheck,
      });
    }

    if (settings.dashboard) {
      new ServiceDashboard(this, 'Dashboard', {
        stage,
        functions,
        authorizer,
        alarms: this.alarms?.alarms ?? [],
      });
    }

    new DefaultPolicies(this, 'DefaultPolicies', {
      tables: { generator: tables.generator, strength: tables.strength },
      deployNonce: settings.deployNonce,
      logGroup: new logs.LogGroup(this, 'DefaultPoliciesLogs', { retention: settings.logRetentionDays, removalPolicy }),
    });

    new CfnOutput(this, STACK_OUTPUTS.apiUrl, {
      value: this.api.api.url,
      description: 'Base URL of the API (the stage URL)',
    });
    new CfnOutput(this, STACK_OUTPUTS.generatorPolicyTable, { value: tables.generator.tableName });
    new CfnOutput(this, STACK_OUTPUTS.strengthPolicyTable, { value: tables.strength.tableName });
    new CfnOutput(this, STACK_OUTPUTS.credentialsTable, { value: tables.credentials.tableName });
    for (const [name, plan] of Object.entries(this.api.usagePlans) as [UsagePlanName, UsagePlan][]) {
      new CfnOutput(this, STACK_OUTPUTS.usagePlans[name], {
        value: plan.usagePlanId,
        description: `The "${name}" usage plan (per-credential rate limit), for the credentials CLI`,
      });
    }
    new CfnOutput(this, STACK_OUTPUTS.policyHistoryTable, {
      value: tables.history.tableName,
      description: 'Every policy change, written by the policy CLI (docs/administration.md)',
    });
    if (this.alarms?.topic)
      new CfnOutput(this, STACK_OUTPUTS.alarmTopic, {
        value: this.alarms.topic.topicArn,
        description: 'The SNS topic the alarms notify',
      });

    addNagSuppressions(this);
  }
}

/** The methods and API paths bound to a function, for its description ("GET /api/passwordstrength"). */
function routesOf(fn: RouteFunction): string[] {
  return resourcePaths()
    .filter((r) => r.function.id === fn.id)
    .map((r) => `${r.methods.join('|')} ${r.path}`);
}
