import { Match } from 'aws-cdk-lib/assertions';
import { TABLES, type TableKind, type TableSpec } from '../../functions/repositories/tables';
import { FUNCTIONS } from '../../functions/routes';
import { ENV } from '../../functions/runtime';
import { referencedIds, resourcesOfType, roleOfFunction, statementsOfRole, synth } from './synth';

const KINDS = Object.keys(TABLES) as TableKind[];

describe('DynamoDB tables', () => {
  const { stack, template, logicalId } = synth();

  it('creates exactly the tables of TABLES', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', KINDS.length);
  });

  it.each(KINDS)('%s: key schema from TABLES, on demand, point-in-time recovery, AWS-managed encryption', (kind) => {
    const spec: TableSpec = TABLES[kind];
    const table = resourcesOfType(template, 'AWS::DynamoDB::Table')[logicalId(stack.tables[kind])];
    const sort = spec.sortKey !== undefined ? [{ name: spec.sortKey, type: spec.sortKeyType }] : [];
    expect(table?.Properties).toEqual(
      expect.objectContaining({
        KeySchema: [
          { AttributeName: spec.partitionKey, KeyType: 'HASH' },
          ...sort.map((k) => ({ AttributeName: k.name, KeyType: 'RANGE' })),
        ],
        AttributeDefinitions: [
          { AttributeName: spec.partitionKey, AttributeType: spec.keyType },
          ...sort.map((k) => ({ AttributeName: k.name, AttributeType: k.type })),
        ],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      }),
    );
    // AWS_MANAGED: the aws/dynamodb key, not a customer key.
    expect(table?.Properties.SSESpecification.KMSMasterKeyId).toBeUndefined();
  });

  it('gives the policy tables a Number key (policy IDs are integers), the credentials and history tables a String key', () => {
    const keyType = (kind: TableKind): unknown =>
      resourcesOfType(template, 'AWS::DynamoDB::Table')[logicalId(stack.tables[kind])]?.Properties
        .AttributeDefinitions[0].AttributeType;
    expect({
      generator: keyType('generator'),
      strength: keyType('strength'),
      credentials: keyType('credentials'),
      history: keyType('history'),
    }).toEqual({
      generator: 'N',
      strength: 'N',
      credentials: 'S',
      history: 'S',
    });
  });

  it('the policy history table: keyed by policy and version, with point-in-time recovery', () => {
    const table = resourcesOfType(template, 'AWS::DynamoDB::Table')[logicalId(stack.tables.history)];
    expect(table?.Properties.KeySchema).toEqual([
      { AttributeName: 'PolicyKey', KeyType: 'HASH' },
      { AttributeName: 'Version', KeyType: 'RANGE' },
    ]);
    expect(table?.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  it('grants no function of the service (nor the authorizer) anything on the policy history table, nor names it to one', () => {
    const historyId = logicalId(stack.tables.history);
    const functions = [...Object.values(FUNCTIONS).map((f) => stack.functions[f.id]), stack.authorizer];
    expect(functions).toHaveLength(Object.keys(FUNCTIONS).length + 1);
    for (const fn of functions) {
      const fnId = logicalId(fn);
      const statements = statementsOfRole(template, roleOfFunction(template, fnId));
      expect(statements.length).toBeGreaterThan(0);
      expect(referencedIds(statements).has(historyId)).toBe(false);
      const environment = resourcesOfType(template, 'AWS::Lambda::Function')[fnId]?.Properties.Environment.Variables;
      expect(referencedIds(environment).has(historyId)).toBe(false);
    }
    // The check itself: each service table is referenced by the function that reads it.
    const generatorFn = logicalId(stack.functions[FUNCTIONS.generatorPolicies.id]);
    expect(
      referencedIds(statementsOfRole(template, roleOfFunction(template, generatorFn))).has(
        logicalId(stack.tables.generator),
      ),
    ).toBe(true);
    expect(
      ENV.policyTable in
        resourcesOfType(template, 'AWS::Lambda::Function')[generatorFn]!.Properties.Environment.Variables,
    ).toBe(true);
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
