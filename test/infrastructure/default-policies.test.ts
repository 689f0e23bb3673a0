import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { TABLES } from '../../functions/repositories/tables';
import { DEFAULT_POLICY_SOURCES, readDefaultPolicy, type PolicyTableKind } from '../../lib/default-policies';
import { PROJECT_ROOT } from '../../bundling/bundling';
import { joinedString, referencedIds, resourcesOfType, roleOfFunction, statementsOfRole, synth } from './synth';

const KINDS = Object.keys(DEFAULT_POLICY_SOURCES) as PolicyTableKind[];

/** The seed record with ID 1, straight from the file. */
function seedDefault(kind: PolicyTableKind): Record<string, unknown> {
  const { resource, seedFile } = DEFAULT_POLICY_SOURCES[kind];
  const records = JSON.parse(readFileSync(path.join(PROJECT_ROOT, seedFile), 'utf8')) as Record<string, unknown>[];
  return records.find((r) => r[resource.idField] === 1)!;
}

describe('default policies custom resource', () => {
  const { stack, template, logicalId } = synth();
  const customResources = resourcesOfType(template, 'AWS::CloudFormation::CustomResource');
  const defaults = resourcesOfType(template, 'Custom::DefaultPolicy');
  const tableId = (kind: PolicyTableKind): string => logicalId(stack.tables[kind]);
  /** The default-policy resource whose put targets a table, with its Create and Update calls parsed. */
  const callsFor = (kind: PolicyTableKind) => {
    const found = Object.values(defaults).find((r) => referencedIds(r.Properties.Create).has(tableId(kind)))!;
    return {
      resource: found,
      create: JSON.parse(joinedString(found.Properties.Create)),
      update: JSON.parse(joinedString(found.Properties.Update)),
    };
  };

  it('has one default-policy resource per policy table, and no other custom resource', () => {
    expect(Object.keys(defaults)).toHaveLength(KINDS.length);
    expect(Object.keys(customResources)).toHaveLength(0);
  });

  it.each(KINDS)('%s: puts policy 1 from the seed file on create and on update, only if absent', (kind) => {
    const { create, update } = callsFor(kind);
    expect(update).toEqual(create);
    const pk = TABLES[kind].partitionKey;
    expect(create).toEqual({
      service: 'DynamoDB',
      action: 'putItem',
      parameters: {
        TableName: `{{${tableId(kind)}}}`,
        Item: marshall(seedDefault(kind)),
        ConditionExpression: `attribute_not_exists(${pk})`,
      },
      physicalResourceId: { id: expect.any(String) },
      ignoreErrorCodesMatching: 'ConditionalCheckFailedException',
    });
    const item = unmarshall(create.parameters.Item);
    expect(item[pk]).toBe(1);
    expect(item).toEqual(seedDefault(kind));
  });

  it('stores the item in DynamoDB JSON with native types (numbers N, booleans BOOL)', () => {
    const item = callsFor('generator').create.parameters.Item;
    expect(item.PasswordGeneratorID).toEqual({ N: '1' });
    expect(item.IncludeAlphaSpecial).toEqual({ BOOL: expect.any(Boolean) });
    expect(item.ExcludeChars).toEqual({ S: expect.any(String) });
  });

  it('runs on every deploy: a nonce property from context, the Lambda runtime SDK', () => {
    template.allResourcesProperties('Custom::DefaultPolicy', { DeployNonce: 'test-nonce', InstallLatestAwsSdk: false });
    const other = resourcesOfType(synth({ deployNonce: 'another' }).template, 'Custom::DefaultPolicy');
    for (const r of Object.values(other)) expect(r.Properties.DeployNonce).toBe('another');
  });

  it('defaults the nonce to the synth time', () => {
    const s = synth({ deployNonce: undefined });
    const nonces = Object.values(resourcesOfType(s.template, 'Custom::DefaultPolicy')).map(
      (r) => r.Properties.DeployNonce as string,
    );
    for (const nonce of nonces) expect(Date.parse(nonce)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('may only PutItem, and only on the two policy tables', () => {
    const serviceTokens = new Set(
      Object.values(defaults).flatMap((r) => [...referencedIds(r.Properties.ServiceToken)]),
    );
    expect(serviceTokens.size).toBe(1);
    const role = roleOfFunction(template, [...serviceTokens][0]!);
    const statements = statementsOfRole(template, role);
    expect(new Set(statements.flatMap((s) => [s.Action].flat()))).toEqual(new Set(['dynamodb:PutItem']));
    const resources = statements.flatMap((s) => [s.Resource].flat()).map((r) => JSON.stringify(r));
    expect(resources.sort()).toEqual(
      KINDS.map((kind) => JSON.stringify({ 'Fn::GetAtt': [tableId(kind), 'Arn'] })).sort(),
    );
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: [Match.objectLike({ Action: 'dynamodb:PutItem', Resource: Match.anyValue() })] },
    });
  });

  it('logs the provider function to a log group with the configured retention', () => {
    const serviceToken = [...referencedIds(Object.values(defaults)[0]!.Properties.ServiceToken)][0]!;
    const provider = resourcesOfType(template, 'AWS::Lambda::Function')[serviceToken]!;
    const logGroup = resourcesOfType(template, 'AWS::Logs::LogGroup')[
      [...referencedIds(provider.Properties.LoggingConfig.LogGroup)][0]!
    ];
    expect(logGroup?.Properties.RetentionInDays).toBe(90);
  });

  describe('validation of the default records at synth time', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'default-policies-'));
    const write = (name: string, records: unknown): string => {
      const file = path.join(dir, name);
      writeFileSync(file, JSON.stringify(records));
      return file;
    };
    const valid = seedDefault('generator');

    it('accepts the seed default and returns exactly its fields', () => {
      expect(readDefaultPolicy(generatorPolicies, write('ok.json', [valid]))).toEqual(valid);
    });

    it('rejects an invalid default, naming the file and the field', () => {
      const file = write('bad.json', [{ ...valid, MaxLength: 999 }]);
      expect(() => readDefaultPolicy(generatorPolicies, file)).toThrow(
        /bad\.json: the default generator policy \(PasswordGeneratorID 1\) is invalid: MaxLength/,
      );
    });

    it('rejects a file without policy 1', () => {
      const file = write('none.json', [{ ...valid, PasswordGeneratorID: 2 }]);
      expect(() => readDefaultPolicy(generatorPolicies, file)).toThrow(
        /none\.json: no generator policy with PasswordGeneratorID 1/,
      );
    });

    it('rejects a default whose description does not say it is the default', () => {
      const file = write('plain.json', [{ ...valid, GeneratorDescription: 'Twelve characters.' }]);
      expect(() => readDefaultPolicy(generatorPolicies, file)).toThrow(/must say it is the default/);
    });
  });
});
