import { Match } from 'aws-cdk-lib/assertions';
import { TABLES, type TableKind } from '../../functions/repositories/tables';
import { resourcesOfType, synth } from './synth';

const KINDS = Object.keys(TABLES) as TableKind[];

describe('DynamoDB tables', () => {
  const { stack, template, logicalId } = synth();

  it('creates exactly the tables of TABLES', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', KINDS.length);
  });

  it.each(KINDS)('%s: key schema from TABLES, on demand, point-in-time recovery, AWS-managed encryption', (kind) => {
    const spec = TABLES[kind];
    const table = resourcesOfType(template, 'AWS::DynamoDB::Table')[logicalId(stack.tables[kind])];
    expect(table?.Properties).toEqual(
      expect.objectContaining({
        KeySchema: [{ AttributeName: spec.partitionKey, KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: spec.partitionKey, AttributeType: spec.keyType }],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      }),
    );
    // AWS_MANAGED: the aws/dynamodb key, not a customer key.
    expect(table?.Properties.SSESpecification.KMSMasterKeyId).toBeUndefined();
  });

  it('gives the policy tables a Number key (policy IDs are integers) and the credentials table a String key', () => {
    const keyType = (kind: TableKind): unknown =>
      resourcesOfType(template, 'AWS::DynamoDB::Table')[logicalId(stack.tables[kind])]?.Properties.AttributeDefinitions[0].AttributeType;
    expect({ generator: keyType('generator'), strength: keyType('strength'), credentials: keyType('credentials') }).toEqual({ generator: 'N', strength: 'N', credentials: 'S' });
  });

  it('retains every table, protected from deletion, by default', () => {
    const tables = resourcesOfType(template, 'AWS::DynamoDB::Table');
    for (const table of Object.values(tables)) {
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    }
  });

  it.each([['true'], [true]])('destroys every table with context dev=%p', (dev) => {
    const tables = resourcesOfType(synth({ dev }).template, 'AWS::DynamoDB::Table');
    expect(Object.keys(tables)).toHaveLength(KINDS.length);
    for (const table of Object.values(tables)) {
      expect(table.DeletionPolicy).toBe('Delete');
      expect(table.UpdateReplacePolicy).toBe('Delete');
      expect(table.Properties.DeletionProtectionEnabled).toBe(false);
    }
  });

  it('keeps the tables with dev=false and rejects a dev value that is not a boolean', () => {
    synth({ dev: 'false' }).template.allResources('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
    expect(() => synth({ dev: 'yes' })).toThrow(/dev must be true or false/);
  });

  it('names no table in the template, so CloudFormation makes the names unique per stack', () => {
    template.allResourcesProperties('AWS::DynamoDB::Table', { TableName: Match.absent() });
  });
});
