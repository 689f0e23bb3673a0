import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLES, type TableKind, type TableSpec } from '../functions/repositories/tables';

export interface PolicyTablesProps {
  /** RETAIN for a real stack, DESTROY for a development stack. */
  readonly removalPolicy: RemovalPolicy;
}

/** One table per entry of TABLES (the local store creates the same ones). */
export class PolicyTables extends Construct {
  readonly byKind: Record<TableKind, dynamodb.Table>;

  constructor(scope: Construct, id: string, props: PolicyTablesProps) {
    super(scope, id);
    const build = (kind: TableKind): dynamodb.Table => {
      const spec: TableSpec = TABLES[kind];
      return new dynamodb.Table(this, spec.logicalName, {
        partitionKey: { name: spec.partitionKey, type: attributeType(spec.keyType) },
        ...(spec.sortKey !== undefined
          ? { sortKey: { name: spec.sortKey, type: attributeType(spec.sortKeyType!) } }
          : {}),
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        encryption: dynamodb.TableEncryption.AWS_MANAGED,
        // A retained table is also protected from deletion outside CloudFormation.
        deletionProtection: props.removalPolicy === RemovalPolicy.RETAIN,
        removalPolicy: props.removalPolicy,
      });
    };
    this.byKind = {
      generator: build('generator'),
      strength: build('strength'),
      credentials: build('credentials'),
      history: build('history'),
    };
  }
}

function attributeType(keyType: 'S' | 'N'): dynamodb.AttributeType {
  return keyType === 'N' ? dynamodb.AttributeType.NUMBER : dynamodb.AttributeType.STRING;
}
