/**
 * A strength policy's BannedWords (functions/domain/strength-policy.ts, docs/administration.md#bannedwords): its
 * bounds, checked with the index of the entry; stored with the record after the specification's fields; never in
 * a list or search body, nor in its ETag; kept by the policy CLI's checks, plan and files; and read by the
 * evaluation from the stored policy.
 *
 * Run: npx jest test/unit/banned-words
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { readPolicyDirectory, writeExport } from '../../admin/policy-files';
import { formatPlan, makePlan } from '../../admin/policy-plan';
import { checkPolicy, fieldDiff, PolicyAdminError } from '../../store/policy-store';
import { buildCollection, validatePolicy } from '../../functions/domain/policy-collection';
import { zxcvbnEstimator } from '../../functions/domain/guessability';
import { evaluatePassword } from '../../functions/domain/strength-evaluator';
import { strengthPolicies, type StrengthPolicy } from '../../functions/domain/strength-policy';
import type { ProxyHandler } from '../../functions/http';
import { getEvent, loadEntry, proxyEvent } from '../support/entry-points';
import { strengthPolicy } from '../support/policy-fixtures';
import { SEED_STRENGTH } from '../support/seed-reference';

const SPEC_FIELDS = [
  'PasswordStrengthPolicyID',
  'PolicyName',
  'PolicyDescription',
  'MinimumLowerCaseCharacters',
  'MinimumNumericCharacters',
  'MinimumSymbolCharacters',
  'MinimumUpperCaseCharacters',
  'PreferredPasswordLength',
  'RequiresUpperAndLowerCase',
  'CalculationWeightings',
  'PasswordStrengthCompliance',
  'ComplianceMandatory',
];
const WORDS = ['Acme', 'Contoso', 'Passwordstate'];
const SEED = SEED_STRENGTH.policies as unknown as StrengthPolicy[];
const problems = (record: unknown) => {
  const result = validatePolicy(strengthPolicies, record);
  return result.ok ? [] : result.problems;
};

describe('the schema: up to 1,000 words of 3 to 64 characters, none twice', () => {
  it('is a stored field: validated and kept after the specification fields, never one of the served fields', () => {
    expect(strengthPolicies.fields).toEqual(SPEC_FIELDS);
    expect(strengthPolicies.storedFields).toEqual(['BannedWords']);
    // Written first in the record, it still comes last: the files and the store keep one order.
    const result = validatePolicy(strengthPolicies, { BannedWords: WORDS, ...strengthPolicy() });
    expect(result).toEqual({ ok: true, policy: { ...strengthPolicy(), BannedWords: WORDS } });
    expect(Object.keys((result as { policy: object }).policy)).toEqual([...SPEC_FIELDS, 'BannedWords']);
    expect(validatePolicy(strengthPolicies, strengthPolicy())).toEqual({ ok: true, policy: strengthPolicy() });
  });

  it.each([
    ['an empty list', [], []],
    ['3 and 64 characters (code points: an emoji is one)', ['abc', 'x'.repeat(64), '🔑🔑🔑'], []],
    ['1,000 words', Array.from({ length: 1000 }, (_, i) => `word${i}`), []],
    ['2 characters', ['Acme', 'ab'], ['BannedWords[1]: must have 3 to 64 characters (it has 2)']],
    ['65 characters', ['x'.repeat(65)], ['BannedWords[0]: must have 3 to 64 characters (it has 65)']],
    ['a word twice, in another case', ['Acme', 'Contoso', 'ACME'], ['BannedWords[2]: repeats BannedWords[0] (words are compared ignoring case)']],
    ['a number', ['Acme', 42], ['BannedWords[1]: must be a string']],
    ['1,001 words', Array.from({ length: 1001 }, (_, i) => `word${i}`), ['BannedWords: must hold at most 1000 words (it holds 1001)']],
    ['a string, not a list', 'Acme', ['BannedWords: must be an array']],
  ])('%s', (_what, words, expected) => {
    expect(problems({ ...strengthPolicy(), BannedWords: words })).toEqual(expected);
  });
});

describe('the list and search answers: exactly the specification fields, the same body and ETag whatever the BannedWords', () => {
  const records = (words: string[] | undefined) => SEED.map((p) => (words && p.PasswordStrengthPolicyID === 2 ? { ...p, BannedWords: words } : p));

  it('buildCollection: the same body and entity tag with and without BannedWords', () => {
    const validated = (words: string[] | undefined) => records(words).map((r) => (validatePolicy(strengthPolicies, r) as { ok: true; policy: StrengthPolicy }).policy);
    const without = buildCollection(strengthPolicies, validated(undefined));
    const withWords = buildCollection(strengthPolicies, validated(WORDS));
    expect(withWords.policies[1]!.BannedWords).toEqual(WORDS);
    expect(withWords.body).toBe(without.body);
    expect(withWords.etag).toBe(without.etag);
    expect(withWords.body).not.toContain('BannedWords');
    for (const element of JSON.parse(withWords.body) as object[]) expect(Object.keys(element)).toEqual(SPEC_FIELDS);
  });

  it.each([
    ['the list', undefined],
    ['a search', { search: ['domain'] }],
  ])('GET /api/passwordstrength, %s: the same status, headers and body as without BannedWords', async (_what, query) => {
    const answer = async (words: string[] | undefined) => {
      const loaded = loadEntry<{ handler: ProxyHandler }>('../../functions/api/strength-policies', { POLICY_TABLE_NAME: 'strength-table', POWERTOOLS_METRICS_DISABLED: 'true' });
      loaded.dynamo.on(loaded.lib.ScanCommand).resolves({ Items: records(words).map((r) => ({ ...r, Version: 3 })) });
      return loaded.module.handler(getEvent('/api/passwordstrength', query));
    };
    const without = await answer(undefined);
    const withWords = await answer(WORDS);
    expect(without.statusCode).toBe(200);
    expect(withWords).toEqual(without);
    expect(withWords.body).not.toContain('Contoso');
  });
});

describe('the evaluation reads the stored policy’s BannedWords', () => {
  it('POST /api/passwordstrength/evaluate: BannedWord for a password built on one, the evaluator’s own answer', async () => {
    const loaded = loadEntry<{ handler: ProxyHandler }>('../../functions/api/evaluate-password', { POLICY_TABLE_NAME: 'strength-table', POWERTOOLS_METRICS_DISABLED: 'true' });
    const stored = SEED.map((p) => (p.PasswordStrengthPolicyID === 2 ? { ...p, BannedWords: WORDS, Version: 2 } : p));
    loaded.dynamo.on(loaded.lib.ScanCommand).resolves({ Items: stored });
    const post = (body: object) => loaded.module.handler(proxyEvent('POST', '/api/passwordstrength/evaluate', { headers: { 'Content-Type': ['application/json'] }, body: JSON.stringify(body) }));
    const estimate = zxcvbnEstimator();

    const built = JSON.parse((await post({ PasswordStrengthPolicyID: 2, Password: 'Contoso#2026' })).body);
    expect(built).toEqual(evaluatePassword({ ...SEED[1]!, BannedWords: WORDS }, 'Contoso#2026', estimate));
    expect(built).toMatchObject({ ComplianceLevel: 1, Compliant: false, Failures: [{ Rule: 'BannedWord', Required: 0, Found: 1 }] });
    // Policy 1 bans nothing: the same password is Strong and Compliant there.
    expect(JSON.parse((await post({ PasswordStrengthPolicyID: 1, Password: 'Contoso#2026' })).body)).toMatchObject({ ComplianceLevel: 3, Compliant: true, Failures: [] });
  });
});

describe('the policy CLI keeps BannedWords', () => {
  it('checkPolicy keeps them after the specification fields', () => {
    expect(checkPolicy('strength', { ...strengthPolicy({ PasswordStrengthPolicyID: 2 }), BannedWords: WORDS })).toEqual({ ok: true, policy: { ...strengthPolicy({ PasswordStrengthPolicyID: 2 }), BannedWords: WORDS } });
  });

  it('the plan shows the words added and removed, not both lists', () => {
    const before = { ...strengthPolicy({ PasswordStrengthPolicyID: 2, PolicyName: 'Domain User Accounts' }), BannedWords: ['Acme', 'Initech'] };
    const after = { ...before, BannedWords: ['Acme', 'Contoso', 'Passwordstate'] };
    expect(fieldDiff(before, after)).toEqual(['BannedWords: + "Contoso", + "Passwordstate", - "Initech"']);
    expect(fieldDiff(strengthPolicy(), { ...strengthPolicy(), BannedWords: ['Acme'] })).toEqual(['BannedWords: + "Acme"']);
    expect(fieldDiff({ ...strengthPolicy(), BannedWords: ['Acme'] }, strengthPolicy())).toEqual(['BannedWords: - "Acme"']);
    expect(fieldDiff({ ...strengthPolicy(), BannedWords: ['Acme', 'Contoso'] }, { ...strengthPolicy(), BannedWords: ['Contoso', 'Acme'] })).toEqual(['BannedWords: the same words, in another order']);
    expect(fieldDiff(strengthPolicy(), { ...strengthPolicy(), BannedWords: [] })).toEqual(['BannedWords: (absent) → []']);

    const plan = makePlan('strength', new Map([[2, after]]), new Map([[2, 4]]), new Map([[2, { policy: before, version: 4 }]]));
    expect(formatPlan(plan, 'PolicyName')).toBe(
      ['~ change strength policy 2 "Domain User Accounts" (version 4 → 5)', '    BannedWords: + "Contoso", + "Passwordstate", - "Initech"', 'Plan: 0 to create, 1 to change, 0 to delete, 0 unchanged.', ''].join('\n'),
    );
  });

  describe('policy files', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'banned-words-'));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('an export writes them after the specification fields, and a directory reads them back', async () => {
      const policy = { ...strengthPolicy({ PasswordStrengthPolicyID: 2 }), BannedWords: WORDS };
      await writeExport(dir, 'strength', new Map([[2, { policy, version: 3 }]]));
      const text = await readFile(path.join(dir, '2.json'), 'utf8');
      expect(Object.keys(JSON.parse(text))).toEqual([...SPEC_FIELDS, 'BannedWords']);
      expect(text.endsWith('  "BannedWords": [\n    "Acme",\n    "Contoso",\n    "Passwordstate"\n  ]\n}\n')).toBe(true);
      expect((await readPolicyDirectory(dir, 'strength')).policies.get(2)).toEqual(policy);
    });

    it('a bad word is refused, naming the file and the entry’s index', async () => {
      await writeExport(dir, 'strength', new Map([[2, { policy: strengthPolicy({ PasswordStrengthPolicyID: 2 }), version: 1 }]]));
      const file = path.join(dir, '2.json');
      await writeFile(file, JSON.stringify({ ...strengthPolicy({ PasswordStrengthPolicyID: 2 }), BannedWords: ['Acme', 'ab', 'Contoso', 'acme'] }));
      const error = await readPolicyDirectory(dir, 'strength').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PolicyAdminError);
      expect((error as PolicyAdminError).problems).toEqual([
        `${file}: BannedWords[1]: must have 3 to 64 characters (it has 2)`,
        `${file}: BannedWords[3]: repeats BannedWords[0] (words are compared ignoring case)`,
      ]);
    });
  });
});
