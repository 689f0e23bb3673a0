import {
  CLAUSES,
  DEFAULT_LINT_CONTEXT,
  DEFAULT_PWNED_PASSWORDS_CHECK,
  ENTROPY_BOUND_BITS,
  formatFinding,
  generatedLengths,
  GUESSABILITY_MIN_LENGTH,
  lintDeployment,
  lintGeneratorPolicy,
  lintPolicies,
  lintStrengthPolicy,
  lintSummary,
  shortestCompliantLength,
  type Finding,
  type LintContext,
} from '../../admin/policy-lint';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { entropyBits, generatePassword } from '../../functions/domain/password-generator';
import { guessabilityScore, scoreBand } from '../../functions/domain/compliance-levels';
import {
  compositionFailures,
  evaluatePassword,
  strengthScore,
} from '../../functions/domain/evaluation/strength-evaluator';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { WORD_LIST } from '../../functions/domain/word-list';
import { STAGE_PRESETS } from '../../lib/settings';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';
import { NO_CONTEXT_WORDS } from '../support/lint-wording';
import { useSeedPolicies } from '../support/seed-policies';
import { seeded } from '../../testkit/seeded-random';

const SEED = useSeedPolicies();

const MULTI_FACTOR: LintContext = { ...DEFAULT_LINT_CONTEXT, multiFactor: true };
/** What a finding says, without the sentences: field, value, severity and the clauses it cites. */
const gist = (f: Finding) => ({
  field: f.field,
  value: f.value,
  severity: f.severity,
  clauses: f.clauses.map((c) => c.ref),
});

/** The clauses a composition rule breaks, and a length under the minimum, by their references. */
const COMPOSITION_CLAUSES = ['NIST SP 800-63B-4 §3.1.1.2 item 5', 'OWASP ASVS 5.0.0 6.2.5 (L1)'];
const LENGTH_CLAUSES = ['NIST SP 800-63B-4 §3.1.1.2 item 1', 'OWASP ASVS 5.0.0 6.2.1 (L1)'];
/** The clause a generated password's entropy is held to, by its reference. */
const ENTROPY_CLAUSES = ['OWASP ASVS 5.0.0 6.5.2 (L2), on look-up secrets'];

/** A length under 8 characters, even with --multi-factor: it breaks the SHALL, citing the multi-factor clause first. */
const breaksMultiFactorLength = (finding: Finding, field: string, value: number) => {
  expect(gist(finding)).toEqual({ field, value, severity: 'shall', clauses: LENGTH_CLAUSES });
  expect(finding.clauses[0]).toBe(CLAUSES.multiFactorLength);
};

/** A strength policy the lint has nothing to say about: no composition rule, mandatory, Excellent, length-weighted, with context-specific words. */
const LENGTH_ONLY = strengthPolicy({
  MinimumLowerCaseCharacters: 0,
  MinimumNumericCharacters: 0,
  MinimumSymbolCharacters: 0,
  MinimumUpperCaseCharacters: 0,
  RequiresUpperAndLowerCase: false,
  PreferredPasswordLength: 18,
  CalculationWeightings: '100;0;0;0',
  PasswordStrengthCompliance: 4,
  ComplianceMandatory: true,
  BannedWords: ['Acme', 'Contoso', 'Roadrunner'],
});

describe('strength policies', () => {
  it('every seed strength policy: each composition rule breaks NIST SP 800-63B-4 §3.1.1.2 item 5 (and ASVS 6.2.5), and lint would exit 1', () => {
    for (const policy of SEED.strength) {
      const composition = lintStrengthPolicy(policy, DEFAULT_LINT_CONTEXT).filter((f) =>
        f.clauses.includes(CLAUSES.composition),
      );
      const expected = [
        ...(
          [
            'MinimumLowerCaseCharacters',
            'MinimumNumericCharacters',
            'MinimumSymbolCharacters',
            'MinimumUpperCaseCharacters',
          ] as const
        )
          .filter((field) => policy[field] > 0)
          .map((field) => [field, policy[field]]),
        ...(policy.RequiresUpperAndLowerCase ? [['RequiresUpperAndLowerCase', true]] : []),
      ];
      expect(expected.length).toBeGreaterThan(0);
      expect(composition.map((f) => [f.field, f.value])).toEqual(expected);
      for (const f of composition)
        expect(gist(f)).toEqual({
          field: f.field,
          value: f.value,
          severity: 'shall',
          clauses: COMPOSITION_CLAUSES,
        });
    }
  });

  it('the default policy: its five composition rules, an advisory compliance, and a 7-character Compliant password', () => {
    const findings = lintStrengthPolicy(SEED.strength[0]!, DEFAULT_LINT_CONTEXT);
    expect(findings.map(gist)).toEqual([
      { field: 'MinimumLowerCaseCharacters', value: 1, severity: 'shall', clauses: COMPOSITION_CLAUSES },
      { field: 'MinimumNumericCharacters', value: 1, severity: 'shall', clauses: COMPOSITION_CLAUSES },
      { field: 'MinimumSymbolCharacters', value: 1, severity: 'shall', clauses: COMPOSITION_CLAUSES },
      { field: 'MinimumUpperCaseCharacters', value: 1, severity: 'shall', clauses: COMPOSITION_CLAUSES },
      { field: 'RequiresUpperAndLowerCase', value: true, severity: 'shall', clauses: COMPOSITION_CLAUSES },
      { field: 'ComplianceMandatory', value: false, severity: 'shall', clauses: ['NIST SP 800-63B-4 §3.1.1.2 item 1'] },
      { field: 'PreferredPasswordLength', value: 12, severity: 'shall', clauses: LENGTH_CLAUSES },
      {
        field: 'BannedWords',
        value: [],
        severity: 'should',
        clauses: ['OWASP ASVS 5.0.0 6.2.11 (L2)', 'OWASP ASVS 5.0.0 6.1.2 (L2)'],
      },
    ]);
    expect(findings.at(-2)!.message).toBe(
      'A password of 7 characters can be Compliant (Average): PreferredPasswordLength is scored, not required.',
    );
    expect(findings.at(-2)!.fix).toBe(
      'The length weighting (50 of 100) is too small for length to decide compliance: raise it, then PreferredPasswordLength.',
    );
  });

  it('a policy of length alone, mandatory and Excellent, has no finding; the fix for policy 2 is the PreferredPasswordLength that gives 15', () => {
    expect(shortestCompliantLength(LENGTH_ONLY)).toBe(15);
    expect(lintStrengthPolicy(LENGTH_ONLY, DEFAULT_LINT_CONTEXT)).toEqual([]);
    const policy2 = lintStrengthPolicy(SEED.strength[1]!, DEFAULT_LINT_CONTEXT).find(
      (f) => f.field === 'PreferredPasswordLength',
    )!;
    expect(policy2.fix).toBe(
      'Set PreferredPasswordLength to 71 (the shortest Compliant password then has 15 characters or more).',
    );
    expect(shortestCompliantLength({ ...SEED.strength[1]!, PreferredPasswordLength: 71 })).toBe(15);
    expect(shortestCompliantLength({ ...SEED.strength[1]!, PreferredPasswordLength: 70 })).toBe(14);
  });

  it('mandatory below Strong is advice citing the blocklist clause; Strong or more says nothing', () => {
    const average = lintStrengthPolicy({ ...LENGTH_ONLY, PasswordStrengthCompliance: 2 }, DEFAULT_LINT_CONTEXT).find(
      (f) => f.field === 'PasswordStrengthCompliance',
    );
    expect(gist(average!)).toEqual({
      field: 'PasswordStrengthCompliance',
      value: 2,
      severity: 'advice',
      clauses: ['NIST SP 800-63B-4 §3.1.1.2, blocklist'],
    });
    expect(
      lintStrengthPolicy(
        { ...LENGTH_ONLY, PasswordStrengthCompliance: 3, PreferredPasswordLength: 24 },
        DEFAULT_LINT_CONTEXT,
      ).map((f) => f.field),
    ).toEqual([]);
  });

  it("with --multi-factor, 8 to 14 characters depart from ASVS 6.2.1's recommendation; under 8 still breaks the SHALL", () => {
    const ten = { ...LENGTH_ONLY, PreferredPasswordLength: 12 };
    // The score reaches Excellent at 10 characters; zxcvbn-ts needs 11 for its score of 4.
    expect(shortestCompliantLength(ten)).toBe(11);
    expect(lintStrengthPolicy(ten, MULTI_FACTOR).map(gist)).toEqual([
      { field: 'PreferredPasswordLength', value: 12, severity: 'should', clauses: ['OWASP ASVS 5.0.0 6.2.1 (L1)'] },
    ]);
    expect(lintStrengthPolicy(ten, DEFAULT_LINT_CONTEXT).map((f) => f.severity)).toEqual(['shall']);
    const seven = SEED.strength[0]!;
    const finding = lintStrengthPolicy(seven, MULTI_FACTOR).find((f) => f.field === 'PreferredPasswordLength')!;
    breaksMultiFactorLength(finding, 'PreferredPasswordLength', 12);
  });
});

describe('BannedWords (ASVS 6.2.11, as the evaluator reads them)', () => {
  it('none, absent or empty, departs from ASVS 6.2.11: the exact finding', () => {
    const expected: Finding = {
      collection: 'strength',
      id: 1,
      field: 'BannedWords',
      value: [],
      severity: 'should',
      ...NO_CONTEXT_WORDS,
      clauses: [CLAUSES.asvsContextWords, CLAUSES.asvsContextWordList],
    };
    const { BannedWords: _, ...absent } = LENGTH_ONLY;
    expect(lintStrengthPolicy(absent, DEFAULT_LINT_CONTEXT)).toEqual([expected]);
    expect(lintStrengthPolicy({ ...LENGTH_ONLY, BannedWords: [] }, DEFAULT_LINT_CONTEXT)).toEqual([expected]);
    expect(CLAUSES.asvsContextWords).toEqual({
      ref: 'OWASP ASVS 5.0.0 6.2.11 (L2)',
      quote:
        'Verify that the documented list of context specific words is used to prevent easy to guess passwords being created.',
    });
    // Every seed strength policy has none.
    for (const policy of SEED.strength)
      expect(lintStrengthPolicy(policy, DEFAULT_LINT_CONTEXT).filter((f) => f.field.startsWith('BannedWords'))).toEqual(
        [{ ...expected, id: policy.PasswordStrengthPolicyID }],
      );
  });

  it('an entry that is an earlier one once NFKC, case and l33t are read is advice naming both; one changed, reversed or longer is no finding', () => {
    const words = ['Acme', 'Contoso', '@CM3', 'Kontoso', 'emca', 'AcmeCorp', 'CONT0S0', 'c0nt0s0'];
    const findings = lintStrengthPolicy({ ...LENGTH_ONLY, BannedWords: words }, DEFAULT_LINT_CONTEXT);
    const repeat = (index: number, of: number): Finding => ({
      collection: 'strength',
      id: 1,
      field: `BannedWords[${index}]`,
      value: words[index],
      severity: 'advice',
      message: `Reads as BannedWords[${of}] ${JSON.stringify(words[of])} once NFKC, case and l33t are read: the evaluator keeps one term of the two, and already tries these permutations itself.`,
      clauses: [CLAUSES.asvsContextWordList],
      fix: `Delete BannedWords[${index}].`,
    });
    expect(findings).toEqual([repeat(2, 0), repeat(6, 1), repeat(7, 1)]);
  });

  it('an entry NFKC composes to fewer than 3 characters never matches: advice under ASVS 6.2.11', () => {
    // Three code points (validation counts them), two characters once the combining diaeresis is composed.
    const composed = 'a\u0308b';
    expect([...composed].length).toBe(3);
    expect(lintStrengthPolicy({ ...LENGTH_ONLY, BannedWords: ['Acme', composed] }, DEFAULT_LINT_CONTEXT)).toEqual([
      {
        collection: 'strength',
        id: 1,
        field: 'BannedWords[1]',
        value: composed,
        severity: 'advice',
        message:
          'Has 2 character(s) once NFKC composes it; the evaluator ignores terms of fewer than 3, so it never matches.',
        clauses: [CLAUSES.asvsContextWords],
        fix: 'Write BannedWords[1] with 3 characters or more after NFKC, or delete it.',
      },
    ]);
  });

  it('the findings say what the evaluator does: a repeat adds no match, an ignored entry makes none, a kept one fails a password built on it', () => {
    const estimate = guessEstimator();
    const rules = (bannedWords: string[], password: string) =>
      evaluatePassword({ ...LENGTH_ONLY, BannedWords: bannedWords }, password, estimate).Failures.map((f) => f.Rule);
    // Built on "Acme" however it is spelt: the repeat "@CM3" changes nothing.
    for (const password of ['Acme2026!', '@cm3#2026', 'ACME-2026']) {
      expect(rules(['Acme'], password)).toContain('BannedWord');
      expect(rules(['Acme', '@CM3'], password)).toEqual(rules(['Acme'], password));
    }
    expect(rules(['a\u0308b'], 'äb2026!äb')).not.toContain('BannedWord');
    expect(rules(['äbc'], 'äbc2026!')).toContain('BannedWord');
  });

  it('1,000 distinct words: no finding', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `term${i.toString(36)}x${(i * 7919).toString(36)}`);
    expect(lintStrengthPolicy({ ...LENGTH_ONLY, BannedWords: words }, DEFAULT_LINT_CONTEXT)).toEqual([]);
  });
});

describe('shortestCompliantLength is the shortest Compliant password', () => {
  const estimate = guessEstimator();
  const CLASSES = {
    upper: 'ABCDEFGHJKMNPQRSTUVWXYZ',
    lower: 'abcdefghijkmnpqrstuvwxyz',
    numeric: '23456789',
    symbol: '!#$%&*+=?@^_~',
  };

  type Counts = { length: number; upper: number; lower: number; numeric: number; symbol: number };
  /** Every count of the four classes with `length` characters in all (the rest of no class), checked exhaustively: a compliant one, if any. */
  function compliantCounts(policy: StrengthPolicy, length: number): Counts | undefined {
    if (length < GUESSABILITY_MIN_LENGTH[policy.PasswordStrengthCompliance]!) return undefined;
    for (let upper = 0; upper <= length; upper += 1)
      for (let lower = 0; upper + lower <= length; lower += 1)
        for (let numeric = 0; upper + lower + numeric <= length; numeric += 1)
          for (let symbol = 0; upper + lower + numeric + symbol <= length; symbol += 1) {
            const counts = { length, upper, lower, numeric, symbol };
            if (
              compositionFailures(policy, counts).length === 0 &&
              scoreBand(strengthScore(policy, counts)) >= policy.PasswordStrengthCompliance
            )
              return counts;
          }
    return undefined;
  }

  it('for every seed policy: no mix of characters one shorter can comply (exhaustively), and a random password of that length does (the real evaluator)', () => {
    const random = seeded(7);
    for (const policy of SEED.strength) {
      const shortest = shortestCompliantLength(policy)!;
      expect(compliantCounts(policy, shortest - 1)).toBeUndefined();
      const counts = compliantCounts(policy, shortest)!;
      expect(counts).toBeDefined();
      // A witness: those counts in random characters (the rest digits and symbols, which only add), rated by the real estimator.
      let compliant = false;
      for (let attempt = 0; attempt < 50 && !compliant; attempt += 1) {
        const chars = (['upper', 'lower', 'numeric', 'symbol'] as const).flatMap((key) =>
          Array.from({ length: counts[key] }, () => CLASSES[key][random.int(CLASSES[key].length)]!),
        );
        const rest = CLASSES.numeric + CLASSES.symbol;
        while (chars.length < shortest) chars.push(rest[random.int(rest.length)]!);
        for (let k = chars.length - 1; k > 0; k -= 1) {
          const j = random.int(k + 1);
          [chars[k], chars[j]] = [chars[j]!, chars[k]!];
        }
        compliant = evaluatePassword(policy, chars.join(''), estimate).Compliant;
      }
      expect({ id: policy.PasswordStrengthPolicyID, shortest, compliant }).toEqual({
        id: policy.PasswordStrengthPolicyID,
        shortest,
        compliant: true,
      });
    }
  });

  it('GUESSABILITY_MIN_LENGTH holds to zxcvbn-ts: one character fewer never reaches the score, that many random characters do', () => {
    const random = seeded(11);
    const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789!#$%&*+=?@';
    const randomString = (n: number) => Array.from({ length: n }, () => alphabet[random.int(alphabet.length)]).join('');
    for (let score = 1; score <= 4; score += 1) {
      const n = GUESSABILITY_MIN_LENGTH[score]!;
      const below = Array.from({ length: 40 }, () => guessabilityScore(estimate(randomString(n - 1)).guessesLog10));
      const at = Array.from({ length: 40 }, () => guessabilityScore(estimate(randomString(n)).guessesLog10));
      expect({ score, below: Math.max(...below) < score, at: at.some((s) => s >= score) }).toEqual({
        score,
        below: true,
        at: true,
      });
    }
  });
});

describe('generator policies', () => {
  it('the default generator policy: 12 characters break the 15-character SHALL, MaxLength 16 departs from the 64 SHOULD, 62.1 bits and the ambiguous set are advice', () => {
    const findings = lintGeneratorPolicy(SEED.generator[0]!, DEFAULT_LINT_CONTEXT);
    expect(findings.map(gist)).toEqual([
      { field: 'MinLength', value: 12, severity: 'shall', clauses: LENGTH_CLAUSES },
      {
        field: 'MaxLength',
        value: 16,
        severity: 'should',
        clauses: ['NIST SP 800-63B-4 §3.1.1.2 item 2', 'OWASP ASVS 5.0.0 6.2.9 (L2)'],
      },
      { field: 'MinLength', value: 12, severity: 'advice', clauses: ENTROPY_CLAUSES },
      { field: 'AmbiguousChars', value: false, severity: 'advice', clauses: ['NIST SP 800-63B-4 §3.1.1.2 item 3'] },
    ]);
    expect(findings.map((f) => f.fix)).toEqual([
      'Set MinLength to 15.',
      'Set MaxLength to 64 or more, where the system that takes these passwords permits it.',
      'Set MinLength and MaxLength to at least 21.',
      'Set AmbiguousChars to true, unless people read these passwords off paper or a screen and type them.',
    ]);
    expect(findings[2]!.message).toBe(
      'Entropy ≥ 62.1 bits, below 112: a stolen fast hash of such a password can be searched.',
    );
    expect(findings[3]!.message).toBe(
      'Never generates 0 O o 1 l I |: the alphabet has 69 characters instead of 75, 1.4 bits less.',
    );
  });

  it('each fix does what it says: the suggested MinLength reaches 15 characters and 112 bits', () => {
    const policy = SEED.generator[0]!;
    expect(entropyBits({ ...policy, MinLength: 21, MaxLength: 21 }, WORD_LIST)).toBeGreaterThanOrEqual(
      ENTROPY_BOUND_BITS,
    );
    expect(entropyBits({ ...policy, MinLength: 20, MaxLength: 20 }, WORD_LIST)).toBeLessThan(ENTROPY_BOUND_BITS);
  });

  it('seed policy 3 (32 to 64 characters of all five classes) has no finding', () => {
    expect(lintGeneratorPolicy(SEED.generator[2]!, DEFAULT_LINT_CONTEXT)).toEqual([]);
  });

  it('generatedLengths agrees with what the generator makes, for every seed policy', () => {
    const random = seeded(3);
    for (const policy of SEED.generator) {
      const lengths = Array.from({ length: 2000 }, () => [...generatePassword(policy, WORD_LIST, random)].length);
      const { shortest, longest } = generatedLengths(policy);
      expect({ id: policy.PasswordGeneratorID, within: lengths.every((n) => n >= shortest && n <= longest) }).toEqual({
        id: policy.PasswordGeneratorID,
        within: true,
      });
      // The bounds are reached (a phrase's extremes are rare: only the alpha and pattern bounds are hit in 2,000 draws).
      if (policy.IncludeWordPhrases === false)
        expect([Math.min(...lengths), Math.max(...lengths)]).toEqual([shortest, longest]);
    }
  });

  it('a phrase names NumberOfWords and the fix adds words; a pattern names Pattern', () => {
    const phrase = lintGeneratorPolicy(SEED.generator[6]!, DEFAULT_LINT_CONTEXT);
    expect(phrase.map(gist)).toEqual([
      { field: 'NumberOfWords', value: 5, severity: 'advice', clauses: ENTROPY_CLAUSES },
    ]);
    expect(phrase[0]!.fix).toBe('Set NumberOfWords to 9.');
    expect(entropyBits({ ...SEED.generator[6]!, NumberOfWords: 9 }, WORD_LIST)).toBeGreaterThanOrEqual(
      ENTROPY_BOUND_BITS,
    );
    const pattern = lintGeneratorPolicy(SEED.generator[9]!, DEFAULT_LINT_CONTEXT);
    expect(pattern.map((f) => [f.field, f.severity, f.fix])).toEqual([
      ['Pattern', 'shall', 'Lengthen the pattern to 15 characters or more.'],
      ['Pattern', 'advice', 'Lengthen the pattern (each "a" or "w" adds the most).'],
      [
        'AmbiguousChars',
        'advice',
        'Set AmbiguousChars to true, unless people read these passwords off paper or a screen and type them.',
      ],
    ]);
  });

  it('ExcludeChars is a finding only when it removes a character the policy would draw', () => {
    const base = generatorPolicy({ MinLength: 24, MaxLength: 64, AmbiguousChars: true, HigherAlphaRatio: false });
    expect(lintGeneratorPolicy(base, DEFAULT_LINT_CONTEXT)).toEqual([]);
    // "~" is not in SpecialCharsText: nothing is lost.
    expect(lintGeneratorPolicy({ ...base, ExcludeChars: '~' }, DEFAULT_LINT_CONTEXT)).toEqual([]);
    const excluding = lintGeneratorPolicy({ ...base, ExcludeChars: '!@#' }, DEFAULT_LINT_CONTEXT);
    expect(excluding.map(gist)).toEqual([
      { field: 'ExcludeChars', value: '!@#', severity: 'should', clauses: ['NIST SP 800-63B-4 §3.1.1.2 item 3'] },
    ]);
    expect(excluding[0]!.message).toMatch(
      /^Never generates "!@#": the alphabet has 67 characters instead of 70, \d+\.\d bits less\./,
    );
  });

  it('with --multi-factor a 10-character generator departs from ASVS 6.2.1 only; a 6-character one breaks the 8-character SHALL', () => {
    const ten = generatorPolicy({
      MinLength: 10,
      MaxLength: 64,
      AmbiguousChars: true,
      HigherAlphaRatio: false,
      SpecialCharsText: '!@#$%^&*()-_=+[]{};:,.<>/?~',
    });
    expect(
      lintGeneratorPolicy(ten, MULTI_FACTOR)
        .filter((f) => f.clauses.some((c) => c.ref.includes('6.2.1')))
        .map(gist),
    ).toEqual([{ field: 'MinLength', value: 10, severity: 'should', clauses: ['OWASP ASVS 5.0.0 6.2.1 (L1)'] }]);
    const six = lintGeneratorPolicy(SEED.generator[7]!, MULTI_FACTOR)[0]!;
    breaksMultiFactorLength(six, 'MinLength', 6);
    expect(six.fix).toBe('Set MinLength to 8.');
  });
});

describe('the deployment', () => {
  it('the Pwned Passwords check off is advice under ASVS 6.2.12, said to be assumed when not given; on, nothing', () => {
    expect(lintDeployment(DEFAULT_LINT_CONTEXT).map(gist)).toEqual([
      { field: 'pwnedPasswordsCheck', value: false, severity: 'advice', clauses: ['OWASP ASVS 5.0.0 6.2.12 (L2)'] },
    ]);
    expect(lintDeployment(DEFAULT_LINT_CONTEXT)[0]!.message).toContain(
      '(assumed: the stack default; --pwned-passwords-check true says otherwise)',
    );
    expect(lintDeployment({ ...DEFAULT_LINT_CONTEXT, pwnedPasswordsCheckAssumed: false })[0]!.message).not.toContain(
      'assumed',
    );
    expect(
      lintDeployment({ ...DEFAULT_LINT_CONTEXT, pwnedPasswordsCheck: true, pwnedPasswordsCheckAssumed: false }),
    ).toEqual([]);
  });

  it("the assumed default is the stack's, in both stage presets", () => {
    expect(Object.values(STAGE_PRESETS).map((preset) => preset.pwnedPasswordsCheck)).toEqual([
      DEFAULT_PWNED_PASSWORDS_CHECK,
      DEFAULT_PWNED_PASSWORDS_CHECK,
    ]);
  });

  it("lintPolicies adds the deployment's findings to the strength collection only", () => {
    expect(lintPolicies('strength', [LENGTH_ONLY], DEFAULT_LINT_CONTEXT).map((f) => f.field)).toEqual([
      'pwnedPasswordsCheck',
    ]);
    expect(lintPolicies('generator', [SEED.generator[2]!], DEFAULT_LINT_CONTEXT)).toEqual([]);
  });
});

describe('text', () => {
  it('a finding: severity, field and value, message, each clause quoted, the fix', () => {
    const finding = lintStrengthPolicy(SEED.strength[6]!, DEFAULT_LINT_CONTEXT)[0]!;
    expect(formatFinding(finding)).toBe(
      [
        '  [breaks a SHALL] MinimumNumericCharacters: 6. Requires at least 6 digit(s): a composition rule.',
        '      NIST SP 800-63B-4 §3.1.1.2 item 5: "Verifiers and CSPs SHALL NOT impose other composition rules (e.g., requiring mixtures of different character types) for passwords."',
        '      OWASP ASVS 5.0.0 6.2.5 (L1): "There must be no requirement for a minimum number of upper or lower case characters, numbers, or special characters."',
        '      Fix: Set MinimumNumericCharacters to 0.',
      ].join('\n'),
    );
    expect(lintSummary(lintPolicies('strength', SEED.strength, DEFAULT_LINT_CONTEXT), 10, 'strength policy')).toBe(
      'Lint: 10 strength policy(s), 62 finding(s): 51 break a SHALL, 10 depart from a SHOULD, 1 advice.',
    );
  });
});
