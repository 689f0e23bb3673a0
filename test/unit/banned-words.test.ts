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
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import { strengthPolicies, type StrengthPolicy } from '../../functions/domain/strength-policy';
import type { ProxyHandler } from '../../functions/http';
import { getEvent, loadEntry, loadEvaluateEntry, proxyEvent } from '../support/entry-points';
import { exportedStrengthPolicy } from '../support/policy-directory';
import { strengthPolicy } from '../../testkit/policy-fixtures';
import { SEED_STRENGTH_POLICIES } from '../support/seed-reference';

/** The specification's fields, in its order: the fixture's (policy-schemas.test.ts holds the schema to it). */
const SPEC_FIELDS = Object.keys(strengthPolicy());
const WORDS = ['Acme', 'Contoso', 'Passwordstate'];
const SEED = [...SEED_STRENGTH_POLICIES];
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
    [
      'a word twice, in another case',
      ['Acme', 'Contoso', 'ACME'],
      ['BannedWords[2]: repeats BannedWords[0] (words are compared ignoring case)'],
    ],
    ['a number', ['Acme', 42], ['BannedWords[1]: must be a string']],
    [
      '1,001 words',
      Array.from({ length: 1001 }, (_, i) => `word${i}`),
      ['BannedWords: must hold at most 1000 words (it holds 1001)'],
    ],
    ['a string, not a list', 'Acme', ['BannedWords: must be an array']],
    // Counted as UserInputs are, as sent and after NFKC (the form matched): U+2A0C is four characters after it.
    ['16 x U+2A0C: 16 characters as sent, 64 after NFKC', ['\u2A0C'.repeat(16)], []],
    [
      '17 x U+2A0C: 17 characters as sent, 68 after NFKC',
      ['Acme', '\u2A0C'.repeat(17)],
      ['BannedWords[1]: must have 3 to 64 characters (it has 17, 68 after NFKC normalization)'],
    ],
    [
      'U+FDFA x 4: 4 characters as sent, 72 after NFKC',
      ['\uFDFA'.repeat(4)],
      ['BannedWords[0]: must have 3 to 64 characters (it has 4, 72 after NFKC normalization)'],
    ],
    // NFKC shortens e + U+0301 to é: the larger count, as sent, is the one bounded (lint says the evaluator reads 2).
    ['e + U+0301 + e: 3 characters as sent, 2 after NFKC', ['e\u0301e'], []],
  ])('%s', (_what, words, expected) => {
    expect(problems({ ...strengthPolicy(), BannedWords: words })).toEqual(expected);
  });
});

/** The issue's words: each was applied with exit status 0, and lint raised nothing. */
const ISSUE_WORDS = ['ab\u0000c', '\ud800abc', '\u202eEmca', 'Con\u200btoso'];
const ISSUE_PROBLEMS = [
  'BannedWords[0]: must not contain control characters (character 3 is U+0000)',
  'BannedWords[1]: must be valid Unicode text (character 1 is U+D800, an unpaired surrogate)',
  'BannedWords[2]: must not contain invisible format characters, such as bidirectional controls and zero-width spaces (character 1 is U+202E)',
  'BannedWords[3]: must not contain invisible format characters, such as bidirectional controls and zero-width spaces (character 4 is U+200B)',
];

/** A word's problem, by what it holds at the position (1-based) and code point (hex) given. */
const control = (at: number, hex: string) => `must not contain control characters (character ${at} is U+${hex})`;
const surrogate = (at: number, hex: string) =>
  `must be valid Unicode text (character ${at} is U+${hex}, an unpaired surrogate)`;
const format = (at: number, hex: string) =>
  `must not contain invisible format characters, such as bidirectional controls and zero-width spaces (character ${at} is U+${hex})`;
const noncharacter = (at: number, hex: string) =>
  `must not contain Unicode noncharacters (character ${at} is U+${hex})`;

/** Any character a terminal must not be handed raw, a line feed excepted: none may be printed. */
const RAW = /[\p{Cc}\p{Cf}\p{Cs}]/u;

describe('the schema refuses, as UserInputs do and more: controls, unpaired surrogates, format characters and noncharacters', () => {
  it('the issue’s four words, each named by its index and its code point, never shown raw', () => {
    const found = problems({ ...strengthPolicy(), BannedWords: ISSUE_WORDS });
    expect(found).toEqual(ISSUE_PROBLEMS);
    for (const line of found) expect(line).not.toMatch(RAW);
  });

  it.each([
    ['DEL', 'Acme\u007f', control(5, '007F')],
    ['a C1 control (NEL)', 'Ac\u0085me', control(3, '0085')],
    ['a line feed', 'Acme\n', control(5, '000A')],
    ['a lone low surrogate', 'Acme\udc00', surrogate(5, 'DC00')],
    ['U+200E (left-to-right mark)', '\u200eAcme', format(1, '200E')],
    ['U+200F (right-to-left mark)', 'Acme\u200f', format(5, '200F')],
    ['U+202A (left-to-right embedding)', '\u202aAcme', format(1, '202A')],
    ['U+2066 (left-to-right isolate)', 'Ac\u2066me', format(3, '2066')],
    ['U+2069 (pop directional isolate)', 'Acme\u2069', format(5, '2069')],
    ['U+200D (zero-width joiner)', 'Ac\u200dme', format(3, '200D')],
    ['U+FEFF (zero-width no-break space)', '\ufeffAcme', format(1, 'FEFF')],
    ['U+00AD (soft hyphen)', 'Ac\u00adme', format(3, '00AD')],
    ['U+FDD0 (noncharacter)', 'Acme\ufdd0', noncharacter(5, 'FDD0')],
    ['U+FDEF (noncharacter)', '\ufdefAcme', noncharacter(1, 'FDEF')],
    ['U+FFFE (noncharacter)', 'Ac\ufffeme', noncharacter(3, 'FFFE')],
    ['U+FFFF (noncharacter)', 'Acme\uffff', noncharacter(5, 'FFFF')],
    ['U+1FFFE (noncharacter)', `Acme${String.fromCodePoint(0x1fffe)}`, noncharacter(5, '1FFFE')],
    ['U+10FFFF (noncharacter)', `Acme${String.fromCodePoint(0x10ffff)}`, noncharacter(5, '10FFFF')],
    ['the first of two: a control before a format character', 'A\u0001c\u202eme', control(2, '0001')],
  ])('%s', (_what, word, problem) => {
    expect(problems({ ...strengthPolicy(), BannedWords: ['Contoso', word] })).toEqual([`BannedWords[1]: ${problem}`]);
  });

  it.each([
    ['letters of any script, and marks', ['Zürich', 'Ελλάδα', 'Москва', '東京都', 'नमस्ते', 'e\u0301te']],
    ['spaces, digits, punctuation, symbols and emoji', ['Acme Corp', 'Team-42', 'O’Brien', '🔑🔑🔑']],
    [
      'the code points beside the noncharacters',
      ['Acme\ufdcf', 'Acme\ufdf0', 'Acme\ufffd', `Acme${String.fromCodePoint(0x1fffd)}`],
    ],
  ])('accepts %s', (_what, words) => {
    expect(problems({ ...strengthPolicy(), BannedWords: words })).toEqual([]);
  });
});

describe('the list and search answers: exactly the specification fields, the same body and ETag whatever the BannedWords', () => {
  const records = (words: string[] | undefined) =>
    SEED.map((p) => (words && p.PasswordStrengthPolicyID === 2 ? { ...p, BannedWords: words } : p));

  it('buildCollection: the same body and entity tag with and without BannedWords', () => {
    const validated = (words: string[] | undefined) =>
      records(words).map((r) => (validatePolicy(strengthPolicies, r) as { ok: true; policy: StrengthPolicy }).policy);
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
  ])(
    'GET /api/passwordstrength, %s: the same status, headers and body as without BannedWords',
    async (_what, query) => {
      const answer = async (words: string[] | undefined) => {
        const loaded = loadEntry<{ handler: ProxyHandler }>('../../functions/api/strength-policies', {
          POLICY_TABLE_NAME: 'strength-table',
          POWERTOOLS_METRICS_DISABLED: 'true',
        });
        loaded.dynamo.on(loaded.lib.ScanCommand).resolves({ Items: records(words).map((r) => ({ ...r, Version: 3 })) });
        return loaded.module.handler(getEvent('/api/passwordstrength', query));
      };
      const without = await answer(undefined);
      const withWords = await answer(WORDS);
      expect(without.statusCode).toBe(200);
      expect(withWords).toEqual(without);
      expect(withWords.body).not.toContain('Contoso');
    },
  );
});

describe('the evaluation reads the stored policy’s BannedWords', () => {
  it('POST /api/passwordstrength/evaluate: BannedWord for a password built on one, the evaluator’s own answer', async () => {
    const loaded = loadEvaluateEntry();
    const stored = SEED.map((p) => (p.PasswordStrengthPolicyID === 2 ? { ...p, BannedWords: WORDS, Version: 2 } : p));
    loaded.dynamo.on(loaded.lib.ScanCommand).resolves({ Items: stored });
    const post = (body: object) =>
      loaded.module.handler(
        proxyEvent('POST', '/api/passwordstrength/evaluate', {
          headers: { 'Content-Type': ['application/json'] },
          body: JSON.stringify(body),
        }),
      );
    const estimate = guessEstimator();

    const built = JSON.parse((await post({ PasswordStrengthPolicyID: 2, Password: 'Contoso#2026' })).body);
    expect(built).toEqual(evaluatePassword({ ...SEED[1]!, BannedWords: WORDS }, 'Contoso#2026', estimate));
    expect(built).toMatchObject({
      ComplianceLevel: 1,
      Compliant: false,
      Failures: [{ Rule: 'BannedWord', Required: 0, Found: 1 }],
    });
    // Policy 1 bans nothing: the same password is Strong and Compliant there.
    expect(JSON.parse((await post({ PasswordStrengthPolicyID: 1, Password: 'Contoso#2026' })).body)).toMatchObject({
      ComplianceLevel: 3,
      Compliant: true,
      Failures: [],
    });
  });
});

describe('the policy CLI keeps BannedWords', () => {
  it('checkPolicy keeps them after the specification fields', () => {
    expect(checkPolicy('strength', { ...strengthPolicy({ PasswordStrengthPolicyID: 2 }), BannedWords: WORDS })).toEqual(
      { ok: true, policy: { ...strengthPolicy({ PasswordStrengthPolicyID: 2 }), BannedWords: WORDS } },
    );
  });

  it('the plan shows the words added and removed, not both lists', () => {
    const before = {
      ...strengthPolicy({ PasswordStrengthPolicyID: 2, PolicyName: 'Domain User Accounts' }),
      BannedWords: ['Acme', 'Initech'],
    };
    const after = { ...before, BannedWords: ['Acme', 'Contoso', 'Passwordstate'] };
    expect(fieldDiff(before, after)).toEqual(['BannedWords: + "Contoso", + "Passwordstate", - "Initech"']);
    expect(fieldDiff(strengthPolicy(), { ...strengthPolicy(), BannedWords: ['Acme'] })).toEqual([
      'BannedWords: + "Acme"',
    ]);
    expect(fieldDiff({ ...strengthPolicy(), BannedWords: ['Acme'] }, strengthPolicy())).toEqual([
      'BannedWords: - "Acme"',
    ]);
    expect(
      fieldDiff(
        { ...strengthPolicy(), BannedWords: ['Acme', 'Contoso'] },
        { ...strengthPolicy(), BannedWords: ['Contoso', 'Acme'] },
      ),
    ).toEqual(['BannedWords: the same words, in another order']);
    expect(fieldDiff(strengthPolicy(), { ...strengthPolicy(), BannedWords: [] })).toEqual([
      'BannedWords: (absent) → []',
    ]);

    const plan = makePlan(
      'strength',
      new Map([[2, after]]),
      new Map([[2, 4]]),
      new Map([[2, { policy: before, version: 4 }]]),
    );
    expect(formatPlan(plan, 'PolicyName')).toBe(
      [
        '~ change strength policy 2 "Domain User Accounts" (version 4 → 5)',
        '    BannedWords: + "Contoso", + "Passwordstate", - "Initech"',
        'Plan: 0 to create, 1 to change, 0 to delete, 0 unchanged.',
        '',
      ].join('\n'),
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
      expect(text.endsWith('  "BannedWords": [\n    "Acme",\n    "Contoso",\n    "Passwordstate"\n  ]\n}\n')).toBe(
        true,
      );
      expect((await readPolicyDirectory(dir, 'strength')).policies.get(2)).toEqual(policy);
    });

    /** What reading the directory refuses once the policy's file holds these words, and the path of that file. */
    const refusal = async (words: readonly string[]) => {
      const { policy, file } = await exportedStrengthPolicy(dir);
      await writeFile(file, JSON.stringify({ ...policy, BannedWords: words }));
      const error = await readPolicyDirectory(dir, 'strength').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PolicyAdminError);
      return { file, problems: (error as PolicyAdminError).problems };
    };

    it('the issue’s words are refused, each naming the file and the entry’s index, none shown raw', async () => {
      const { file, problems } = await refusal(['Harmless', ...ISSUE_WORDS]);
      expect(problems).toEqual(ISSUE_PROBLEMS.map((p, i) => `${file}: ${p.replace(`[${i}]`, `[${i + 1}]`)}`));
      for (const line of problems) expect(line).not.toMatch(RAW);
    });

    it('a bad word is refused, naming the file and the entry’s index', async () => {
      const { file, problems } = await refusal(['Acme', 'ab', 'Contoso', 'acme']);
      expect(problems).toEqual([
        `${file}: BannedWords[1]: must have 3 to 64 characters (it has 2)`,
        `${file}: BannedWords[3]: repeats BannedWords[0] (words are compared ignoring case)`,
      ]);
    });
  });
});
