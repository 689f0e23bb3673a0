import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CfnResource, CustomResource } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import {
  AwsCustomResource,
  AwsCustomResourcePolicy,
  PhysicalResourceId,
  type AwsSdkCall,
} from 'aws-cdk-lib/custom-resources';
import { marshall } from '@aws-sdk/util-dynamodb';
import { Construct } from 'constructs';
import { generatorPolicies } from '../functions/domain/generator-policy';
import {
  DEFAULT_POLICY_ID,
  defaultPolicyProblem,
  validatePolicy,
  type PolicyResource,
} from '../functions/domain/policy-collection';
import { strengthPolicies } from '../functions/domain/strength-policy';
import { TABLES } from '../functions/repositories/tables';
import { PROJECT_ROOT } from '../bundling/bundling';
import { SEED_FILES } from '../store/seed-files';

/** The two policy collections: where their defaults come from and how they are validated. */
export const DEFAULT_POLICY_SOURCES = {
  generator: { resource: generatorPolicies, seedFile: path.relative(PROJECT_ROOT, SEED_FILES.generator) },
  strength: { resource: strengthPolicies, seedFile: path.relative(PROJECT_ROOT, SEED_FILES.strength) },
} as const;

export type PolicyTableKind = keyof typeof DEFAULT_POLICY_SOURCES;

export interface DefaultPoliciesProps {
  readonly tables: Record<PolicyTableKind, ITable>;
  /** A value that changes per synth, so the puts run on every deploy and bring back a deleted default. */
  readonly deployNonce: string;
  readonly logGroup: ILogGroup;
}

/**
 * Every deploy guarantees that policy 1 exists in each collection, with a conditional put
 * that never overwrites a policy 1 an operator has changed.
 */
export class DefaultPolicies extends Construct {
  constructor(scope: Construct, id: string, props: DefaultPoliciesProps) {
    super(scope, id);
    for (const kind of Object.keys(DEFAULT_POLICY_SOURCES) as PolicyTableKind[]) {
      const { resource, seedFile } = DEFAULT_POLICY_SOURCES[kind];
      const table = props.tables[kind];
      const policy = readDefaultPolicy(resource as PolicyResource<object>, seedFile);
      const put: AwsSdkCall = {
        service: 'DynamoDB',
        action: 'putItem',
        parameters: {
          TableName: table.tableName,
          Item: marshall(policy),
          ConditionExpression: `attribute_not_exists(${TABLES[kind].partitionKey})`,
        },
        physicalResourceId: PhysicalResourceId.of(`${TABLES[kind].logicalName}-${DEFAULT_POLICY_ID}`),
        // The policy is already there: leave it as the operator has it.
        ignoreErrorCodesMatching: 'ConditionalCheckFailedException',
      };
      const custom = new AwsCustomResource(this, TABLES[kind].logicalName, {
        resourceType: 'Custom::DefaultPolicy',
        onCreate: put,
        onUpdate: put,
        policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [table.tableArn] }),
        // The SDK of the Lambda runtime suffices; installing the latest needs the network at deploy time.
        installLatestAwsSdk: false,
        logGroup: props.logGroup,
      });
      // A changed property makes CloudFormation send Update, so the conditional put runs on every deploy.
      const cfn = (custom.node.findChild('Resource') as CustomResource).node.defaultChild as CfnResource;
      cfn.addPropertyOverride('DeployNonce', props.deployNonce);
    }
  }
}

/** The record with ID 1 of a seed file (relative to the project root), validated; a clear synth-time error otherwise. */
export function readDefaultPolicy<T extends object>(resource: PolicyResource<T>, seedFile: string): T {
  const file = path.resolve(PROJECT_ROOT, seedFile);
  const records: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(records)) throw new Error(`${seedFile}: expected a JSON array of ${resource.title} records`);
  const record = records.find(
    (r: unknown) =>
      typeof r === 'object' && r !== null && (r as Record<string, unknown>)[resource.idField] === DEFAULT_POLICY_ID,
  );
  if (record === undefined)
    throw new Error(
      `${seedFile}: no ${resource.title} with ${resource.idField} ${DEFAULT_POLICY_ID} (the default policy)`,
    );
  const result = validatePolicy(resource, record);
  if (!result.ok)
    throw new Error(
      `${seedFile}: the default ${resource.title} (${resource.idField} ${DEFAULT_POLICY_ID}) is invalid: ${result.problems.join('; ')}`,
    );
  if (defaultPolicyProblem(resource, result.policy) !== undefined) {
    throw new Error(
      `${seedFile}: the description of ${resource.title} ${DEFAULT_POLICY_ID} must say it is the default`,
    );
  }
  return result.policy;
}
