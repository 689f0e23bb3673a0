import { parseSeedArgs } from '../../seed/load';

describe('parseSeedArgs', () => {
  const tables = ['--generator-table', 'GenPolicies', '--strength-table', 'StrPolicies'];

  it('reads every option', () => {
    expect(
      parseSeedArgs([...tables, '--endpoint', 'http://127.0.0.1:8000', '--region', 'eu-west-1', '--generator-file', 'g.json', '--strength-file', 's.json', '--create-tables', '--credentials-table', 'Creds']),
    ).toEqual({
      generatorTable: 'GenPolicies',
      strengthTable: 'StrPolicies',
      credentialsTable: 'Creds',
      endpoint: 'http://127.0.0.1:8000',
      region: 'eu-west-1',
      generatorFile: 'g.json',
      strengthFile: 's.json',
      createTables: true,
    });
  });

  it('needs only the two table names, for a real deployment through the SDK credential chain', () => {
    expect(parseSeedArgs(tables)).toMatchObject({ generatorTable: 'GenPolicies', strengthTable: 'StrPolicies', endpoint: undefined, createTables: false });
  });

  it('answers help before checking anything else', () => {
    expect(parseSeedArgs(['--help'])).toBe('help');
    expect(parseSeedArgs(['-h'])).toBe('help');
  });

  it.each([
    [['--strength-table', 'StrPolicies'], '--generator-table is required'],
    [['--generator-table', 'GenPolicies'], '--strength-table is required'],
    [[...tables, 'extra'], 'Unexpected argument'],
    [[...tables, '--endpoint', 'ftp://host'], '--endpoint must be an http or https URL'],
    [[...tables, '--credentials-table', 'Creds'], '--credentials-table is only used with --create-tables'],
    [['--generator-table', 'has space', '--strength-table', 'StrPolicies'], '--generator-table must be 3 to 255'],
  ])('rejects %j', (args, message) => {
    expect(() => parseSeedArgs(args)).toThrow(message);
  });
});
