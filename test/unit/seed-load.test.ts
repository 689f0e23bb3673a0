import { parseSeedArgs } from '../../seed/load';

describe('parseSeedArgs', () => {
  const tables = ['--generator-table', 'GenPolicies', '--strength-table', 'StrPolicies', '--history-table', 'History'];

  it('reads every option', () => {
    expect(
      parseSeedArgs([
        ...tables,
        ...['--endpoint', 'http://127.0.0.1:8000', '--region', 'eu-west-1', '--generator-file', 'g.json', '--strength-file', 's.json', '--create-tables', '--credentials-table', 'Creds'],
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
    expect(parseSeedArgs(tables)).toMatchObject({ generatorTable: 'GenPolicies', strengthTable: 'StrPolicies', historyTable: 'History', endpoint: undefined, createTables: false, overwrite: false });
  });

  it('answers help before checking anything else', () => {
    expect(parseSeedArgs(['--help'])).toBe('help');
    expect(parseSeedArgs(['-h'])).toBe('help');
  });

  it.each([
    [['--strength-table', 'StrPolicies', '--history-table', 'History'], '--generator-table is required'],
    [['--generator-table', 'GenPolicies', '--history-table', 'History'], '--strength-table is required'],
    [['--generator-table', 'GenPolicies', '--strength-table', 'StrPolicies'], '--history-table is required'],
    [[...tables, '--actor', 'alice'], '--actor is for a local store (--endpoint)'],
    [[...tables, 'extra'], 'Unexpected argument'],
    [[...tables, '--endpoint', 'ftp://host'], '--endpoint must be an http or https URL'],
    [[...tables, '--credentials-table', 'Creds'], '--credentials-table is only used with --create-tables'],
    [['--generator-table', 'has space', '--strength-table', 'StrPolicies', '--history-table', 'History'], '--generator-table must be 3 to 255'],
  ])('rejects %j', (args, message) => {
    expect(() => parseSeedArgs(args)).toThrow(message);
  });
});
