/**
 * npm run policy -- lint, passwordrules and report (docs/administration.md#the-standards-lint-passwordrules-report) against the local
 * store, seeded as `npm start` seeds it, and plan's findings of the policies it would change.
 */
import { readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { main } from '../../admin/policy';
import {
  DEFAULT_LINT_CONTEXT,
  formatFindings,
  lintPolicies,
  lintStrengthPolicy,
  type Finding,
} from '../../admin/policy-lint';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { TABLE_NAMES } from '../../local/start';
import { runCli, type CliRun } from '../support/cli-output';
import { startSeededStore, type SeededStore } from '../support/seeded-store';
import { meetsRules, parsePasswordRules } from '../support/password-rules-parser';
import { generatorPolicy } from '../../testkit/policy-fixtures';
import { SEED_GENERATOR, SEED_STRENGTH, type SeedCollection } from '../support/seed-reference';

let store: SeededStore;

beforeAll(async () => {
  store = await startSeededStore('policy-standards-');
});

afterAll(() => store.close());

const cli = (...argv: string[]): Promise<CliRun> => runCli(main, [...argv, '--endpoint', store.endpoint]);

/** What lint prints on stdout for a seed collection: the findings of admin/policy-lint.ts (unit-tested there), each under its policy's heading. */
function seedFindings(
  collection: 'generator' | 'strength',
  seed: SeedCollection,
  context = DEFAULT_LINT_CONTEXT,
): string {
  const names = new Map(seed.policies.map((p) => [p[seed.idField], p[seed.nameField]]));
  const heading = (f: Finding) =>
    f.id === undefined ? 'The deployment' : `${collection} policy ${f.id} ${JSON.stringify(names.get(f.id))}`;
  return formatFindings(lintPolicies(collection, seed.policies, context), heading);
}

describe('lint', () => {
  it("the seed strength policies: each one's composition rules break NIST SP 800-63B-4 §3.1.1.2 item 5; the summary is the failure on stderr, exit 1", async () => {
    const run = await cli('lint', '--collection', 'strength');
    expect(run).toEqual({
      code: 1,
      stdout: seedFindings('strength', SEED_STRENGTH),
      stderr: 'Lint: 10 strength policy(s), 62 finding(s): 51 break a SHALL, 10 depart from a SHOULD, 1 advice.\n',
    });
    const blocks = run.stdout.split(/\n(?=\S)/);
    for (const policy of SEED_STRENGTH.policies) {
      const heading = `strength policy ${policy.PasswordStrengthPolicyID} ${JSON.stringify(policy.PolicyName)}`;
      const block = blocks.find((b) => b.startsWith(`${heading}\n`));
      expect(block).toBeDefined();
      expect(block).toMatch(
        /\[breaks a SHALL\] (Minimum\w+Characters: [1-9]\d*|RequiresUpperAndLowerCase: true)\. .*\n {6}NIST SP 800-63B-4 §3\.1\.1\.2 item 5: "Verifiers and CSPs SHALL NOT impose other composition rules/,
      );
    }
    expect(blocks.some((b) => b.startsWith('The deployment\n  [advice] pwnedPasswordsCheck: false.'))).toBe(true);
  });

  it('the generator policies; --pwned-passwords-check true and --multi-factor change what is assumed', async () => {
    expect(await cli('lint', '--collection', 'generator')).toEqual({
      code: 1,
      stdout: seedFindings('generator', SEED_GENERATOR),
      stderr: 'Lint: 12 generator policy(s), 31 finding(s): 5 break a SHALL, 8 depart from a SHOULD, 18 advice.\n',
    });
    const told = await cli('lint', '--collection', 'strength', '--pwned-passwords-check', 'true', '--multi-factor');
    const context = { multiFactor: true, pwnedPasswordsCheck: true, pwnedPasswordsCheckAssumed: false };
    // No deployment finding, and the four policies whose shortest Compliant password has 9 or 14 characters
    // (2, 4, 5, 8) depart from a SHOULD instead of breaking a SHALL; with the 10 policies without BannedWords, 14.
    expect(told).toEqual({
      code: 1,
      stdout: seedFindings('strength', SEED_STRENGTH, context),
      stderr: 'Lint: 10 strength policy(s), 61 finding(s): 47 break a SHALL, 14 depart from a SHOULD, 0 advice.\n',
    });
    expect(told.stdout).not.toContain('pwnedPasswordsCheck');
  });

  it('--dir lints the files of an export without the store; a directory of clean policies exits 0', async () => {
    const dir = path.join(store.dir, 'generator');
    expect((await cli('export', '--collection', 'generator', '--dir', dir)).code).toBe(0);
    for (const name of await readdir(dir))
      if (name !== '3.json' && name !== 'versions.json') await unlink(path.join(dir, name));
    // No --endpoint: the store is not read at all.
    const run = await runCli(main, ['lint', '--collection', 'generator', '--dir', dir]);
    expect(run).toEqual({
      code: 0,
      stdout: 'Lint: 1 generator policy(s), 0 finding(s): 0 break a SHALL, 0 depart from a SHOULD, 0 advice.\n',
      stderr: '',
    });
  });
});

describe('passwordrules', () => {
  it("prints each seed policy's descriptor, which the independent parser reads; notes go to stderr", async () => {
    for (const [collection, seed] of [
      ['strength', SEED_STRENGTH],
      ['generator', SEED_GENERATOR],
    ] as const) {
      for (const policy of seed.policies) {
        const run = await cli('passwordrules', '--collection', collection, '--id', String(policy[seed.idField]));
        expect(run.code).toBe(0);
        expect(run.stdout.endsWith('\n') && !run.stdout.trimEnd().includes('\n')).toBe(true);
        const rules = parsePasswordRules(run.stdout.trimEnd());
        expect(rules.required.length).toBeGreaterThan(0);
        for (const line of run.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^note: /);
      }
    }
    const one = await cli('passwordrules', '--collection', 'strength', '--id', '1');
    expect(one).toEqual({
      code: 0,
      stdout:
        'required: upper; required: lower; required: digit; required: special; allowed: ascii-printable; minlength: 7; maxlength: 256\n',
      stderr: '',
    });
    const rules = parsePasswordRules(one.stdout.trim());
    expect([meetsRules(rules, 'Aa1!xyz'), meetsRules(rules, 'aa1!xyz')]).toEqual([true, false]);
    expect(await cli('passwordrules', '--collection', 'generator', '--id', '8')).toEqual({
      code: 0,
      stdout: 'required: digit; allowed: digit; minlength: 6; maxlength: 8\n',
      stderr: '',
    });
  });

  it('an unknown policy exits 1', async () => {
    expect(await cli('passwordrules', '--collection', 'generator', '--id', '99')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'There is no generator policy 99.\n',
    });
  });
});

describe('report', () => {
  it('writes one page of every policy of both collections', async () => {
    const file = path.join(store.dir, 'report.html');
    const run = await cli('report', '--out', file);
    expect(run).toEqual({ code: 0, stdout: `Wrote ${file}: 22 policies, 15 breaking a SHALL.\n`, stderr: '' });
    const html = await readFile(file, 'utf8');
    expect([...html.matchAll(/<article class="card/g)]).toHaveLength(22);
    for (const policy of SEED_GENERATOR.policies)
      expect(html).toContain(`id="generator-${policy.PasswordGeneratorID}"`);
    for (const policy of SEED_STRENGTH.policies)
      expect(html).toContain(`id="strength-${policy.PasswordStrengthPolicyID}"`);
  });
});

describe('plan', () => {
  it('lists the findings of the policies it would change, as information: it still exits 0; --multi-factor as lint takes it', async () => {
    const dir = path.join(store.dir, 'strength');
    expect((await cli('export', '--collection', 'strength', '--dir', dir)).code).toBe(0);
    const file = path.join(dir, '2.json');
    const changed = { ...(JSON.parse(await readFile(file, 'utf8')) as StrengthPolicy), MinimumNumericCharacters: 0 };
    await writeFile(file, `${JSON.stringify(changed, null, 2)}\n`);
    const plan =
      '~ change strength policy 2 "Domain User Accounts" (version 1 → 2)\n    MinimumNumericCharacters: 1 → 0\nPlan: 0 to create, 1 to change, 0 to delete, 9 unchanged.\n';
    const lintHeading =
      '\nLint of the policies this plan creates or changes (information; apply does not refuse for it):\n';
    const findings = (context = DEFAULT_LINT_CONTEXT) =>
      formatFindings(lintStrengthPolicy(changed, context), () => 'strength policy 2 "Domain User Accounts"');
    const run = await cli('plan', '--collection', 'strength', '--dir', dir);
    expect(run).toEqual({ code: 0, stdout: `${plan}${lintHeading}${findings()}`, stderr: '' });
    expect(findings()).toContain('[breaks a SHALL] MinimumLowerCaseCharacters: 1.');
    expect(findings()).not.toContain('MinimumNumericCharacters');
    expect(findings()).toContain('[breaks a SHALL] PreferredPasswordLength: 14.');
    const multiFactor = await cli('plan', '--collection', 'strength', '--dir', dir, '--multi-factor');
    expect(multiFactor).toEqual({
      code: 0,
      stdout: `${plan}${lintHeading}${findings({ ...DEFAULT_LINT_CONTEXT, multiFactor: true })}`,
      stderr: '',
    });
    expect(multiFactor.stdout).toContain('[departs from a SHOULD] PreferredPasswordLength: 14.');
  });
});

describe('usage errors exit 2', () => {
  it.each([
    [['report'], '--out is required.'],
    [['report', '--collection', 'generator', '--out', 'x.html'], '--collection is not an option of "report".'],
    [
      ['lint', '--collection', 'strength', '--pwned-passwords-check', 'maybe'],
      '--pwned-passwords-check must be true or false.',
    ],
    [['passwordrules', '--collection', 'strength'], '--id is required.'],
    [
      ['passwordrules', '--collection', 'strength', '--id', '1', '--multi-factor'],
      '--multi-factor is not an option of "passwordrules".',
    ],
    [
      ['plan', '--collection', 'strength', '--dir', 'd', '--pwned-passwords-check', 'true'],
      '--pwned-passwords-check is not an option of "plan".',
    ],
    [['lint', '--collection', 'both'], '--collection must be generator or strength.'],
  ])('%j', async (argv, message) => {
    const usage = (await runCli(main, ['--help'])).stdout;
    expect(await runCli(main, argv)).toEqual({ code: 2, stdout: '', stderr: `${message}\n\n${usage}` });
  });
});

describe('a stored record that is not a valid policy', () => {
  it('lint names it on stderr before the summary and exits 1; report leaves it out and names it', async () => {
    const { documents } = store;
    // Written past the CLI, which would refuse it: MaxLength above 256.
    await documents.send(
      new PutCommand({
        TableName: TABLE_NAMES.generator,
        Item: generatorPolicy({ PasswordGeneratorID: 50, MaxLength: 300 }),
      }),
    );
    try {
      const invalid = 'generator policy 50 is invalid, not linted: MaxLength: must be at most 256\n';
      expect(await cli('lint', '--collection', 'generator')).toEqual({
        code: 1,
        stdout: seedFindings('generator', SEED_GENERATOR),
        stderr: `${invalid}Lint: 12 generator policy(s), 31 finding(s): 5 break a SHALL, 8 depart from a SHOULD, 18 advice.\n`,
      });
      const file = path.join(store.dir, 'with-invalid.html');
      expect(await cli('report', '--out', file)).toEqual({
        code: 0,
        stdout: `Wrote ${file}: 22 policies, 15 breaking a SHALL.\n`,
        stderr: invalid,
      });
    } finally {
      await documents.send(new DeleteCommand({ TableName: TABLE_NAMES.generator, Key: { PasswordGeneratorID: 50 } }));
    }
  });
});
