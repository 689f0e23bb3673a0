import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { main, parseSeedArgs } from '../../seed/load';
import { runCli } from '../support/cli-output';
import { inOperatorEnvironment } from '../support/operator-environment';

describe('parseSeedArgs', () => {
  const tables = ['--generator-table', 'GenPolicies', '--strength-table', 'StrPolicies', '--history-table', 'History'];

  it('reads every option', () => {
    expect(
      parseSeedArgs([
        ...tables,
        ...[
          '--endpoint',
          'http://127.0.0.1:8000',
          '--region',
          'eu-west-1',
          '--generator-file',
          'g.json',
          '--strength-file',
          's.json',
          '--create-tables',
          '--credentials-table',
          'Creds',
        ],
        ...['--overwrite', '--actor', 'alice'],
      ]),
    ).toEqual({
      generatorTable: 'GenPolicies',
      strengthTable: 'StrPolicies',
      historyTable: 'History',
      overwrite: true,
      actor: 'alice',
      credentialsTable: 'Creds',
      endpoint: 'http://127.0.0.1:8000',
      region: 'eu-west-1',
      generatorFile: 'g.json',
      strengthFile: 's.json',
      createTables: true,
    });
  });

  it('needs only the three table names, for a real deployment through the SDK credential chain; overwrites nothing by default', () => {
    expect(parseSeedArgs(tables)).toMatchObject({
      generatorTable: 'GenPolicies',
      strengthTable: 'StrPolicies',
      historyTable: 'History',
      endpoint: undefined,
      createTables: false,
      overwrite: false,
    });
  });

  it('answers help before checking anything else', () => {
    expect(parseSeedArgs(['--help'])).toBe('help');
    expect(parseSeedArgs(['-h'])).toBe('help');
  });

  it.each([
    [['--strength-table', 'StrPolicies', '--history-table', 'History'], '--generator-table is required'],
    [['--generator-table', 'GenPolicies', '--history-table', 'History'], '--strength-table is required'],
    [['--generator-table', 'GenPolicies', '--strength-table', 'StrPolicies'], '--history-table is required'],
    [[...tables, '--actor', 'alice', '--region', 'eu-west-1'], '--actor is for a local store (--endpoint)'],
    [[...tables, 'extra'], 'Unexpected argument'],
    [[...tables, '--endpoint', 'ftp://host'], '--endpoint must be an http or https URL'],
    [[...tables, '--credentials-table', 'Creds'], '--credentials-table is only used with --create-tables'],
    [
      ['--generator-table', 'has space', '--strength-table', 'StrPolicies', '--history-table', 'History'],
      '--generator-table must be 3 to 255',
    ],
  ])('rejects %j', (args, message) => {
    expect(() => parseSeedArgs(args)).toThrow(message);
  });
});

describe('where the tables are, without --endpoint', () => {
  const tables = ['--generator-table', 'GenPolicies', '--strength-table', 'StrPolicies', '--history-table', 'History'];
  const noStoreFile = path.join(tmpdir(), `seed-load-${process.pid}-none.json`);

  it("no region and no npm start: the sentence every CLI says, naming --endpoint and the banner's line (exit 1)", async () => {
    expect(await inOperatorEnvironment(noStoreFile, {}, () => runCli(main, tables))).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'No AWS region is configured and npm start is not running: pass --region REGION (or set AWS_REGION) for AWS, or --endpoint URL for a local store (npm start prints it as "DynamoDB endpoint").\n',
    });
  });

  it('--actor when the store found is AWS (AWS_REGION): a usage error (exit 2), before anything is read', async () => {
    const result = await inOperatorEnvironment(noStoreFile, { AWS_REGION: 'eu-west-1' }, () =>
      runCli(main, [...tables, '--actor', 'alice']),
    );
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(
      result.stderr.startsWith(
        "--actor is for a local store (--endpoint); on AWS the history records the caller's IAM ARN\n\nUsage: npm run seed",
      ),
    ).toBe(true);
  });
});
