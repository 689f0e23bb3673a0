/**
 * The credentials CLI where no local store can stand in: finding the table from a deployed stack's outputs
 * (CloudFormation mocked), and how AWS failures are reported (one sentence, never a key).
 */
// The commands admin/usage-plans.ts sends, each mocked or asserted below.
import * as apiGatewaySdk from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBDocumentClient, GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { failureMessage, main, redact } from '../../admin/credentials-cli';
import { runCli, type CliRun } from '../support/cli-output';
import { inOperatorEnvironment } from '../support/operator-environment';

const cloudFormation = mockClient(CloudFormationClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const apiGateway = mockClient(apiGatewaySdk.APIGatewayClient);

beforeEach(() => {
  cloudFormation.reset();
  dynamo.reset();
  apiGateway.reset();
});

const run = (...argv: string[]): Promise<CliRun> => runCli(main, argv);

const stackWith = (outputs: { OutputKey: string; OutputValue: string }[]) => ({
  Stacks: [
    {
      StackName: 'PasswordPolicyService',
      CreationTime: new Date(),
      StackStatus: 'CREATE_COMPLETE' as const,
      Outputs: outputs,
    },
  ],
});

describe('--stack', () => {
  it('reads the CredentialsTableName output of PasswordPolicyService by default, and uses that table', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(
      stackWith([
        { OutputKey: 'ApiUrl', OutputValue: 'https://x' },
        { OutputKey: 'CredentialsTableName', OutputValue: 'Pps-CredentialsTable-1' },
      ]),
    );
    dynamo.on(ScanCommand).resolves({ Items: [] });

    const result = await run('list', '--region', 'eu-west-1');

    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('Users (0):') });
    expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]!.args[0].input).toEqual({
      StackName: 'PasswordPolicyService',
    });
    expect(dynamo.commandCalls(ScanCommand)[0]!.args[0].input).toMatchObject({ TableName: 'Pps-CredentialsTable-1' });
  });

  it('reads a named stack; --table skips CloudFormation', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .resolves(stackWith([{ OutputKey: 'CredentialsTableName', OutputValue: 'Other-Creds' }]));
    dynamo.on(ScanCommand).resolves({ Items: [] });

    expect((await run('list', '--stack', 'Staging', '--region', 'eu-west-1')).code).toBe(0);
    expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]!.args[0].input).toEqual({ StackName: 'Staging' });

    expect((await run('list', '--table', 'Direct-Creds', '--region', 'eu-west-1')).code).toBe(0);
    expect(cloudFormation.commandCalls(DescribeStacksCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(ScanCommand)[1]!.args[0].input).toMatchObject({ TableName: 'Direct-Creds' });
  });

  it('a stack that does not exist is one sentence (exit 1)', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(Object.assign(new Error('Stack with id Nope does not exist'), { name: 'ValidationError' }));
    const result = await run('list', '--stack', 'Nope', '--region', 'eu-west-1');
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Stack "Nope" does not exist in this account and region; pass --stack NAME, --region REGION or --table NAME.\n',
    });
  });

  it('a stack without the output is one sentence (exit 1)', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith([{ OutputKey: 'ApiUrl', OutputValue: 'https://x' }]));
    const result = await run('user', 'disable', '--user-id', 'alice', '--region', 'eu-west-1');
    expect(result).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Stack "PasswordPolicyService" has no CredentialsTableName output;.*\n$/),
    });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('an invalid user id fails before any AWS call (exit 1)', async () => {
    const result = await run('user', 'issue-key', '--user-id', 'has space', '--region', 'eu-west-1');
    expect(result).toMatchObject({
      code: 1,
      stderr: 'A user id must be 1 to 128 printable ASCII characters without spaces or commas.\n',
    });
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('--stack with --endpoint, or a malformed name, is a usage error (exit 2)', async () => {
    expect(await run('list', '--stack', 'S', '--endpoint', 'http://127.0.0.1:8000')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--stack reads a deployed stack'),
    });
    expect(await run('list', '--stack', '1bad_name')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--stack must be a stack name'),
    });
    expect(await run('list', '--table', 'x')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--table must be 3 to 255'),
    });
    expect(await run('list', '--endpoint', 'ftp://host')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--endpoint must be an http or https URL'),
    });
  });
});

describe('failureMessage', () => {
  it.each([
    [
      { name: 'CredentialsProviderError', message: 'Could not load credentials from any providers' },
      /^No AWS credentials were found;/,
    ],
    [
      { name: 'Error', message: 'Region is missing' },
      /^No AWS region is configured: pass --region REGION \(or set AWS_REGION\) for AWS, or --endpoint URL for a local store \(npm start prints it as "DynamoDB endpoint"\)\.$/,
    ],
    [
      {
        name: 'AccessDeniedException',
        message: 'User: arn:aws:sts::1:assumed-role/x is not authorized to perform: dynamodb:UpdateItem\n  more',
      },
      /^The operation failed: AccessDeniedException: User: arn.*dynamodb:UpdateItem$/,
    ],
  ])('%j', (error, expected) => {
    expect(failureMessage(Object.assign(new Error(error.message), { name: error.name }))).toMatch(expected);
  });

  it('masks anything shaped like a key or a digest', () => {
    const message = failureMessage(
      new Error(`Invalid value ppg_0123456789ab_${'x'.repeat(43)} with ${'f'.repeat(64)}`),
    );
    expect(message).toBe('The operation failed: Error: Invalid value <key> with <digest>');
    expect(redact('pps_0123456789ab_a-b_c')).toBe('<key>');
  });
});

describe('usage plans on a deployed stack (API Gateway mocked)', () => {
  const outputs = [
    { OutputKey: 'CredentialsTableName', OutputValue: 'Creds' },
    { OutputKey: 'UsagePlanStandardId', OutputValue: 'plan-std' },
    { OutputKey: 'UsagePlanHighId', OutputValue: 'plan-high' },
  ];
  beforeEach(() => {
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith(outputs));
    dynamo.on(UpdateCommand).resolves({});
  });

  it('a new key gets its API key, valued as the authorizer names it, on the default plan', async () => {
    dynamo.on(GetCommand).resolves({ Item: { CredentialID: 'GENERATOR_KEYS', Keys: {} } });
    apiGateway.on(apiGatewaySdk.CreateApiKeyCommand).resolves({ id: 'ak-1' });
    const result = await run('generator-key', 'issue', '--region', 'eu-west-1');
    expect(result.code).toBe(0);
    const keyId = /^ppa_([0-9a-f]{12})_/.exec(result.stdout)![1]!;
    expect(apiGateway.commandCalls(apiGatewaySdk.CreateApiKeyCommand)[0]!.args[0].input).toMatchObject({
      name: `password-policy-${keyId}`,
      value: `pp-usage-${keyId}`,
      enabled: true,
    });
    expect(apiGateway.commandCalls(apiGatewaySdk.CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan-std',
      keyId: 'ak-1',
      keyType: 'API_KEY',
    });
    expect(result.stdout).not.toContain('pp-usage');
    // The table and the plans come from one read of the stack's outputs.
    expect(cloudFormation.commandCalls(DescribeStacksCommand)).toHaveLength(1);
  });

  it('usage-plan set moves the API key to the plan and records the plan on the key', async () => {
    dynamo
      .on(ScanCommand)
      .resolves({ Items: [{ CredentialID: 'USER#alice', Keys: { aaaaaaaaaaaa: { Digest: 'd' } } }] });
    apiGateway
      .on(apiGatewaySdk.GetApiKeysCommand)
      .resolves({ items: [{ id: 'ak-9', name: 'password-policy-aaaaaaaaaaaa' }] });
    const result = await run(
      'usage-plan',
      'set',
      '--key-id',
      'aaaaaaaaaaaa',
      '--plan',
      'high',
      '--region',
      'eu-west-1',
    );
    expect(result).toEqual({ code: 0, stdout: 'Key id aaaaaaaaaaaa is on the usage plan "high".\n', stderr: '' });
    expect(dynamo.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: { CredentialID: 'USER#alice' },
      UpdateExpression: 'SET #keys.#keyId.UsagePlan = :plan',
      ExpressionAttributeValues: { ':plan': 'high' },
    });
    expect(apiGateway.commandCalls(apiGatewaySdk.DeleteUsagePlanKeyCommand).map((c) => c.args[0].input)).toEqual([
      { usagePlanId: 'plan-std', keyId: 'ak-9' },
    ]);
    expect(apiGateway.commandCalls(apiGatewaySdk.CreateUsagePlanKeyCommand).map((c) => c.args[0].input)).toEqual([
      { usagePlanId: 'plan-high', keyId: 'ak-9', keyType: 'API_KEY' },
    ]);
  });

  it('usage-plan set refuses an unknown plan (exit 2) and an unknown key id (exit 1)', async () => {
    expect(await run('usage-plan', 'set', '--key-id', 'aaaaaaaaaaaa', '--plan', 'gold')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--plan must be one of standard, high.'),
    });
    dynamo.on(ScanCommand).resolves({ Items: [] });
    expect(
      await run('usage-plan', 'set', '--key-id', 'bbbbbbbbbbbb', '--plan', 'high', '--region', 'eu-west-1'),
    ).toMatchObject({ code: 1, stderr: 'There is no key with id bbbbbbbbbbbb.\n' });
    expect(apiGateway.calls()).toHaveLength(0);
  });

  it('a revoked key loses its API key', async () => {
    dynamo
      .on(GetCommand)
      .resolves({ Item: { CredentialID: 'STRENGTH_KEYS', Keys: { cccccccccccc: { Digest: 'd' } } } });
    apiGateway
      .on(apiGatewaySdk.GetApiKeysCommand)
      .resolves({ items: [{ id: 'ak-3', name: 'password-policy-cccccccccccc' }] });
    expect((await run('strength-key', 'revoke', '--key-id', 'cccccccccccc', '--region', 'eu-west-1')).code).toBe(0);
    expect(apiGateway.commandCalls(apiGatewaySdk.DeleteApiKeyCommand).map((c) => c.args[0].input)).toEqual([
      { apiKey: 'ak-3' },
    ]);
  });
});

describe('without --endpoint, --stack, --table or a region: the store npm start names in its store file', () => {
  let dir: string;
  let storeFile: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'credentials-cli-store-'));
    storeFile = path.join(dir, 'store.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const note = (endpoint: string) => ({
    endpoint,
    tables: {
      generator: 'GeneratorPolicies',
      strength: 'StrengthPolicies',
      credentials: 'Creds-Of-The-File',
      history: 'PolicyHistory',
    },
    pid: 4242,
  });
  const runWith = (overrides: Record<string, string>, ...argv: string[]) =>
    inOperatorEnvironment(storeFile, overrides, () => run(...argv));

  it("uses the file's endpoint and credentials table, and says so on stderr", async () => {
    await writeFile(storeFile, JSON.stringify(note('http://127.0.0.1:8000')));
    dynamo.on(ScanCommand).resolves({ Items: [] });
    const result = await runWith({}, 'list', '--json');
    expect(result).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ users: [], generatorKeys: [], strengthKeys: [] }, null, 2)}\n`,
      stderr: `Using npm start's local store at http://127.0.0.1:8000 (${storeFile}).\n`,
    });
    expect(dynamo.commandCalls(ScanCommand)[0]!.args[0].input).toMatchObject({ TableName: 'Creds-Of-The-File' });
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it.each([
    ['AWS_REGION', { AWS_REGION: 'eu-west-1' }],
    ["AWS_DEFAULT_REGION (the AWS CLI's)", { AWS_DEFAULT_REGION: 'eu-west-1' }],
  ])('%s wins over the file: the deployed stack, as before', async (_name, region) => {
    await writeFile(storeFile, JSON.stringify(note('http://127.0.0.1:8000')));
    cloudFormation
      .on(DescribeStacksCommand)
      .resolves(stackWith([{ OutputKey: 'CredentialsTableName', OutputValue: 'Pps-CredentialsTable-1' }]));
    dynamo.on(ScanCommand).resolves({ Items: [] });
    expect(await runWith(region, 'list')).toMatchObject({ code: 0, stderr: '' });
    expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]!.args[0].input).toEqual({
      StackName: 'PasswordPolicyService',
    });
    // The region the clients were given: AWS_DEFAULT_REGION is the AWS CLI's, which the SDK alone ignores.
    expect(await (cloudFormation.send.getCall(0).thisValue as CloudFormationClient).config.region()).toBe('eu-west-1');
    expect(dynamo.commandCalls(ScanCommand)[0]!.args[0].input).toMatchObject({ TableName: 'Pps-CredentialsTable-1' });
  });

  it("a profile's region in the AWS config file wins over the file", async () => {
    await writeFile(storeFile, JSON.stringify(note('http://127.0.0.1:8000')));
    const config = path.join(dir, 'config');
    await writeFile(config, '[default]\nregion = eu-central-1\n');
    cloudFormation
      .on(DescribeStacksCommand)
      .resolves(stackWith([{ OutputKey: 'CredentialsTableName', OutputValue: 'Pps-CredentialsTable-1' }]));
    dynamo.on(ScanCommand).resolves({ Items: [] });
    expect(await runWith({ AWS_CONFIG_FILE: config }, 'list')).toMatchObject({ code: 0, stderr: '' });
    expect(cloudFormation.calls()).toHaveLength(1);
  });

  it('--stack or --table names AWS tables: never the file; without a region, the error names --endpoint', async () => {
    await writeFile(storeFile, JSON.stringify(note('http://127.0.0.1:8000')));
    const noRegion =
      'No AWS region is configured: pass --region REGION (or set AWS_REGION) for AWS, or --endpoint URL for a local store (npm start prints it as "DynamoDB endpoint").\n';
    expect(await runWith({}, 'list', '--stack', 'Staging')).toEqual({ code: 1, stdout: '', stderr: noRegion });
    expect(await runWith({}, 'list', '--table', 'Direct-Creds')).toEqual({ code: 1, stdout: '', stderr: noRegion });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it("no file and no region: one sentence naming --region, --endpoint and the banner's line (exit 1)", async () => {
    expect(await runWith({}, 'list')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'No AWS region is configured and npm start is not running: pass --region REGION (or set AWS_REGION) for AWS, or --endpoint URL for a local store (npm start prints it as "DynamoDB endpoint").\n',
    });
    expect(cloudFormation.calls()).toHaveLength(0);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('a file whose store does not answer (npm start killed): one sentence naming the file (exit 1)', async () => {
    await writeFile(storeFile, JSON.stringify(note('http://127.0.0.1:9')));
    dynamo
      .on(ScanCommand)
      .rejects(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }));
    expect(await runWith({}, 'list')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Using npm start's local store at http://127.0.0.1:9 (${storeFile}).\n` +
        `npm start's local store at http://127.0.0.1:9 (named in ${storeFile}) does not answer: start npm start again, or delete ${storeFile} if npm start was stopped without removing it; --region REGION or --endpoint URL picks another store.\n`,
    });
  });

  it('a file that is not one npm start wrote is named, not used (exit 1)', async () => {
    await writeFile(storeFile, '{"endpoint": 8000}');
    expect(await runWith({}, 'list')).toEqual({
      code: 1,
      stdout: '',
      stderr: `${storeFile} is not a store file npm start wrote; delete it (npm start writes it again), or pass --endpoint URL.\n`,
    });
    expect(dynamo.calls()).toHaveLength(0);
  });
});
