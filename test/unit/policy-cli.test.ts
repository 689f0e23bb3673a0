import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describePolicy, main } from '../../admin/policy';
import { runCli, type CliRun } from '../support/cli-output';
import { inOperatorEnvironment } from '../support/operator-environment';
import { exportedStrengthPolicy } from '../support/policy-directory';
import { FOUR_WORDS_THEN_DIGITS_AND_SPECIALS } from '../support/policy-examples';
import { generatorPolicy } from '../../testkit/policy-fixtures';

const run = (...argv: string[]): Promise<CliRun> => runCli(main, argv);

describe('npm run policy -- explain', () => {
  it('--id 1 prints one line for the default policy', async () => {
    const { code, stdout, stderr } = await run('explain', '--id', '1');
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toBe(
      'Policy 1 "Default Password Generator Policy": 12 to 16 characters of lower-case, upper-case, digits and special (!@#$%^&*-_=+?), ' +
        'more letters than not, no ambiguous characters; entropy ≥ 62.1 bits; feasible\n',
    );
  });

  it('--all prints every policy of the seed file, each feasible', async () => {
    const { code, stdout } = await run('explain', '--all');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(12);
    lines.forEach((line, i) =>
      expect(line).toMatch(new RegExp(`^Policy ${i + 1} ".+": .+; entropy ≥ \\d+\\.\\d bits; feasible$`)),
    );
    expect(lines[9]).toContain('the pattern u{2}l{4}d{3}s{2}: 11 characters');
  });

  it('--file explains another file and reports infeasible policies with the reason', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'policy-cli-'));
    try {
      const file = path.join(dir, 'p.json');
      await writeFile(
        file,
        JSON.stringify([
          generatorPolicy({
            PasswordGeneratorID: 7,
            GeneratorName: 'Tight',
            MinLength: 4,
            MaxLength: 4,
            BracketChars: true,
            HigherAlphaRatio: false,
          }),
        ]),
      );
      const { code, stdout } = await run('explain', '--id', '7', '--file', file);
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /^Policy 7 "Tight": 4 characters of .*; entropy ≥ 0\.0 bits; infeasible: 5 character classes must each appear once, but MinLength is 4\.\n$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an unknown id exits 1', async () => {
    const { code, stdout, stderr } = await run('explain', '--id', '99');
    expect([code, stdout]).toEqual([1, '']);
    expect(stderr).toMatch(/^No policy has PasswordGeneratorID 99 in .*generator-policies\.json\.\n$/);
  });

  it('an invalid or missing file exits 1', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'policy-cli-'));
    try {
      const file = path.join(dir, 'p.json');
      await writeFile(file, JSON.stringify([{ ...generatorPolicy(), MaxLength: 300 }]));
      expect(await run('explain', '--all', '--file', file)).toEqual({
        code: 1,
        stdout: '',
        stderr: `${file} record #0: MaxLength: must be at most 256\n`,
      });
      expect((await run('explain', '--all', '--file', path.join(dir, 'none.json'))).code).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [[], 'A command is required.'],
    [['explain'], 'Give exactly one of --id N and --all.'],
    [['explain', '--id', '1', '--all'], 'Give exactly one of --id N and --all.'],
    [['explain', '--id', 'one'], '--id must be a whole number of at least 1.'],
    [['generate', '--id', '1'], 'Unknown command "generate".'],
    [['explain', 'extra', '--all'], 'Unexpected argument after the command (options start with --).'],
  ])('usage error %j exits 2', async (argv, message) => {
    const { code, stdout, stderr } = await run(...argv);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr.startsWith(`${message}\n\nUsage: npm run policy -- <command>`)).toBe(true);
  });

  it('an unknown option exits 2', async () => {
    expect((await run('explain', '--all', '--bogus')).code).toBe(2);
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await run('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Exit status: 0 done, 1');
  });
});

describe('npm run policy -- lint --dir: a policy file is checked as apply checks it, reading no store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'policy-cli-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('BannedWords holding a control character, an unpaired surrogate, a bidirectional control or a zero-width space: exit 1, each named by file and index, none printed raw', async () => {
    const { policy, file } = await exportedStrengthPolicy(dir);
    // The words: applied with exit status 0 before, and lint raised nothing.
    await writeFile(
      file,
      JSON.stringify(
        {
          ...policy,
          BannedWords: ['ab\u0000c', '\ud800abc', '\u202eEmca', 'Con\u200btoso'],
        },
        null,
        2,
      ),
    );
    const format = 'must not contain invisible format characters, such as bidirectional controls and zero-width spaces';
    expect(await run('lint', '--collection', 'strength', '--dir', dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        `${file}: BannedWords[0]: must not contain control characters (character 3 is U+0000)`,
        `${file}: BannedWords[1]: must be valid Unicode text (character 1 is U+D800, an unpaired surrogate)`,
        `${file}: BannedWords[2]: ${format} (character 1 is U+202E)`,
        `${file}: BannedWords[3]: ${format} (character 4 is U+200B)`,
        '',
      ].join('\n'),
    });
  });
});

describe('a name given twice in one object of a policy file, at any depth: exit 1, naming the file, the name and where', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'policy-cli-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A policy's JSON with one more member written after `after`, as an editor would leave it. */
  const withMember = (policy: object, after: string, member: string) =>
    JSON.stringify(policy, null, 2).replace(new RegExp(`("${after}": [^\\n]*,)\\n`), `$1\n  ${member},\n`);

  it('lint --dir: BannedWords twice in a strength policy file (JSON.parse would keep the last)', async () => {
    const { policy, file } = await exportedStrengthPolicy(dir);
    await writeFile(
      file,
      '{"BannedWords":["Harmless"],' + JSON.stringify({ ...policy, BannedWords: ['Acme'] }).slice(1),
    );
    expect(await run('lint', '--collection', 'strength', '--dir', dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: `${file}: "BannedWords" is given twice in one object (at $); give it once (a JSON reader keeps only the last)\n`,
    });
  });

  it('lint --dir: a version given twice in versions.json, the name written once with an escape', async () => {
    await exportedStrengthPolicy(dir);
    const manifest = path.join(dir, 'versions.json');
    await writeFile(manifest, '{"collection":"strength","versions":{"2":1,"\\u0032":7}}');
    expect(await run('lint', '--collection', 'strength', '--dir', dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: `${manifest}: "2" is given twice in one object (at $.versions); give it once (a JSON reader keeps only the last)\n`,
    });
  });

  it('explain --file: MinLength twice in the second policy of a file; a name holding a bidirectional control is shown escaped', async () => {
    const file = path.join(dir, 'p.json');
    const second = withMember(generatorPolicy({ PasswordGeneratorID: 2 }), 'MinLength', '"MinLength": 4');
    await writeFile(file, `[${JSON.stringify(generatorPolicy())},${second}]`);
    expect(await run('explain', '--all', '--file', file)).toEqual({
      code: 1,
      stdout: '',
      stderr: `${file}: "MinLength" is given twice in one object (at $[1]); give it once (a JSON reader keeps only the last)\n`,
    });
    await writeFile(file, '[{"a b":{"x\u202e":1,"x\u202e":2}}]');
    expect((await run('explain', '--all', '--file', file)).stderr).toBe(
      `${file}: "x\\u{202E}" is given twice in one object (at $[0]["a b"]); give it once (a JSON reader keeps only the last)\n`,
    );
  });
});

describe('describePolicy (semantics 7)', () => {
  it.each([
    [
      generatorPolicy({ SpecialCharsText: '!@#' }),
      '12 to 16 characters of lower-case, upper-case, digits and special (!@#), more letters than not, no ambiguous characters',
    ],
    [
      generatorPolicy({ ...FOUR_WORDS_THEN_DIGITS_AND_SPECIALS, AmbiguousChars: true, SpecialCharsText: '!#' }),
      "4 words of up to 8 letters joined by '-', then 2 random characters (digits, special (!#))",
    ],
    [
      generatorPolicy({
        IncludeAlphaSpecial: false,
        IncludeWordPhrases: true,
        NumberOfWords: 1,
        SeparateWordsWith: 'N',
        MaximumWordLength: 5,
      }),
      '1 word of up to 5 letters run together',
    ],
    [
      generatorPolicy({ GeneratePattern: true, Pattern: 'u{2}l{4}d{3}s{2}', AmbiguousChars: true }),
      'the pattern u{2}l{4}d{3}s{2}: 11 characters',
    ],
    [
      generatorPolicy({ GeneratePattern: true, Pattern: 'w{3}d', AmbiguousChars: true }),
      'the pattern w{3}d: 3 words of up to 8 letters and 1 character',
    ],
  ])('%#', (policy, text) => {
    expect(describePolicy(policy)).toBe(text);
  });
});

describe('where the store is, without --endpoint: AWS when a region is configured, else the store npm start names in its file', () => {
  const cloudFormation = mockClient(CloudFormationClient);
  let dir: string;
  let storeFile: string;
  beforeEach(async () => {
    cloudFormation.reset();
    dir = await mkdtemp(path.join(tmpdir(), 'policy-cli-store-'));
    storeFile = path.join(dir, 'store.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  afterAll(() => cloudFormation.restore());

  const runWith = (overrides: Record<string, string>, ...argv: string[]) =>
    inOperatorEnvironment(storeFile, overrides, () => run(...argv));
  const NOT_CONFIGURED =
    'No AWS region is configured and npm start is not running: pass --region REGION (or set AWS_REGION) for AWS, or --endpoint URL for a local store (npm start prints it as "DynamoDB endpoint").\n';
  /** A port nothing listens on: a store file left by an npm start that was killed. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it("no region and no npm start: one sentence naming --region, --endpoint and the banner's line, before any AWS call (exit 1)", async () => {
    expect(await runWith({}, 'list', '--collection', 'generator')).toEqual({
      code: 1,
      stdout: '',
      stderr: NOT_CONFIGURED,
    });
    expect(await runWith({}, 'report', '--out', path.join(dir, 'report.html'))).toEqual({
      code: 1,
      stdout: '',
      stderr: NOT_CONFIGURED,
    });
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('commands that read no store need none', async () => {
    expect(await runWith({}, 'explain', '--id', '1')).toMatchObject({ code: 0, stderr: '' });
  });

  it('a stale file (its store does not answer): the CLI says which store it tried and what to do (exit 1)', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    await writeFile(
      storeFile,
      JSON.stringify({
        endpoint,
        tables: {
          generator: 'GeneratorPolicies',
          strength: 'StrengthPolicies',
          credentials: 'Credentials',
          history: 'PolicyHistory',
        },
        pid: 1,
      }),
    );
    expect(await runWith({}, 'list', '--collection', 'strength')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Using npm start's local store at ${endpoint} (${storeFile}).\n` +
        `npm start's local store at ${endpoint} (named in ${storeFile}) does not answer: start npm start again, or delete ${storeFile} if npm start was stopped without removing it; --region REGION or --endpoint URL picks another store.\n`,
    });
  }, 20_000);

  it('AWS_REGION wins over the file: the deployed stack is read, and nothing is said about npm start', async () => {
    await writeFile(
      storeFile,
      JSON.stringify({
        endpoint: 'http://127.0.0.1:8000',
        tables: { generator: 'G', strength: 'S', credentials: 'C', history: 'H' },
        pid: 1,
      }),
    );
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(
        Object.assign(new Error('Stack with id PasswordPolicyService does not exist'), { name: 'ValidationError' }),
      );
    expect(await runWith({ AWS_REGION: 'eu-west-1' }, 'list', '--collection', 'generator')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Stack "PasswordPolicyService" does not exist in this account and region; pass --stack NAME or --region REGION.\n',
    });
    expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]!.args[0].input).toEqual({
      StackName: 'PasswordPolicyService',
    });
  });

  it('--actor is for a local store: refused (exit 2) when the store found is AWS, as when --region says so', async () => {
    const message =
      "--actor is for a local store (--endpoint); on AWS the history records the caller's IAM ARN.\n\nUsage: npm run policy -- <command>";
    const deleteAsMe = ['delete', '--collection', 'generator', '--id', '5', '--actor', 'me'];
    const configured = await runWith({ AWS_REGION: 'eu-west-1' }, ...deleteAsMe);
    expect([configured.code, configured.stdout, configured.stderr.startsWith(message)]).toEqual([2, '', true]);
    const given = await runWith({}, ...deleteAsMe, '--region', 'eu-west-1');
    expect([given.code, given.stdout, given.stderr.startsWith(message)]).toEqual([2, '', true]);
    expect(cloudFormation.calls()).toHaveLength(0);
  });
});
