/**
 * Properties of the password strength evaluator (functions/domain/evaluation/strength-evaluator.ts), with fast-check:
 * policies generated over the whole schema (minimums 0..64, preferred length 4..256, four non-negative
 * integer weights summing to 100) and passwords mixing every character class, in and beyond ASCII.
 *
 *   1. adding a character of a class never lowers that class's part of the score, the length part, any other
 *      part, nor the total score;
 *   2. the score is an integer in 0..100, for any valid policy and any password (and any counts);
 *   3. Compliant implies Failures is empty (and is exactly "no failure and level >= PasswordStrengthCompliance");
 *   4. ComplianceLevel <= band(Score) and <= the estimator's score (a stub with a random score, then the real
 *      zxcvbn-ts estimator on short strings);
 *   5. Suggestions never contain the password when it is 6 or more characters of random printable text
 *      (real estimator); the length suggestion comes first exactly when the password is shorter than preferred;
 *   6. the evaluation is deterministic: the same twice, and the same with a second, separately built estimator.
 *
 * Seed: FC_SEED=<n> replays a run (printed on failure); FC_NUM_RUNS overrides the number of cases.
 * Run: npx jest test/reliability/strength-evaluator
 */
import fc from 'fast-check';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { guessabilityScore, scoreBand } from '../../functions/domain/compliance-levels';
import {
  countCharacters,
  evaluatePassword,
  scoreParts,
  strengthScore,
  type CharacterCounts,
  type Part,
  type StrengthEvaluation,
} from '../../functions/domain/evaluation/strength-evaluator';
import type { GuessabilityEstimator } from '../../functions/domain/evaluation/estimate/guessability';
import { renderMessage, type MessageKey } from '../../functions/domain/evaluation/messages/catalogue';
import { strengthPolicies, type StrengthPolicy } from '../../functions/domain/strength-policy';
import { strengthPolicy } from '../../testkit/policy-fixtures';
import { assertProperty, clip, shown } from '../support/property';
import { remembered } from '../../testkit/remembered-estimator';

/**
 * The run counts, sized for CI (docs/testing.md#property-run-counts); a fresh seed each run, FC_RUNS_FACTOR runs
 * deeper. With the stub estimator a case costs well under a millisecond: RUNS is cheap (a defect confined to 1
 * case in 200 is found with 99% odds a run). With the real zxcvbn-ts a case costs 5 to 25 ms, and the counts
 * are what finds defects planted in what these properties guard (each put back for a moment, seeds 1 to 6):
 *   - 5 (no suggestion quotes the password), REAL_RUNS: zxcvbn-ts's warning sent with the password in it was
 *     found after 68, 69, 77, 291 and 866 cases and not within 1,000 once: within 300 in 4 seeds of 6, as
 *     within 500;
 *   - 6 (deterministic), REAL_RUNS: a `g` flag on a character-class regex (its lastIndex carried from one call
 *     to the next) was found after 2 to 48 cases on the evaluator's UPPER; on the word check's LETTER, after
 *     121 and 135 cases and not within 1,000 in 3 seeds of 5: within 300 in 2 seeds of 5, as within 500;
 *   - 4 with the real estimator, REAL_LEVEL_RUNS (asks zxcvbn-ts once a case, remembered): the estimate taken
 *     of the trimmed password was found after 278 to 781 cases (10 seeds, not within 900 in 3): within 600
 *     in 3 seeds of 10.
 */
const RUNS = 1_000;
const REAL_RUNS = 300;
const REAL_LEVEL_RUNS = 600;

let zxcvbn: GuessabilityEstimator;
let zxcvbnAgain: GuessabilityEstimator;
beforeAll(() => {
  zxcvbn = guessEstimator();
  zxcvbnAgain = guessEstimator();
});

// ---------------------------------------------------------------------------------------------------------
// Arbitraries.

/** Any policy the schema accepts. The weights are the gaps between three sorted cut points in 0..100. */
const policyArb: fc.Arbitrary<StrengthPolicy> = fc
  .record({
    minimums: fc.tuple(
      fc.integer({ min: 0, max: 64 }),
      fc.integer({ min: 0, max: 64 }),
      fc.integer({ min: 0, max: 64 }),
      fc.integer({ min: 0, max: 64 }),
    ),
    preferred: fc.integer({ min: 4, max: 256 }),
    cuts: fc.tuple(
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 100 }),
    ),
    both: fc.boolean(),
    compliance: fc.integer({ min: 0, max: 4 }),
    mandatory: fc.boolean(),
  })
  .map(({ minimums: [lower, numeric, symbol, upper], preferred, cuts, both, compliance, mandatory }) => {
    const [a, b, c] = [...cuts].sort((x, y) => x - y) as [number, number, number];
    const weights = `${a};${b - a};${c - b};${100 - c}`;
    const policy = strengthPolicy({
      MinimumLowerCaseCharacters: lower,
      MinimumNumericCharacters: numeric,
      MinimumSymbolCharacters: symbol,
      MinimumUpperCaseCharacters: upper,
      PreferredPasswordLength: preferred,
      RequiresUpperAndLowerCase: both,
      CalculationWeightings: weights,
      PasswordStrengthCompliance: compliance,
      ComplianceMandatory: mandatory,
    });
    return shown(
      policy,
      `{L${lower} N${numeric} S${symbol} U${upper} P${preferred} W${weights}${both ? ' both' : ''} C${compliance}}`,
    );
  });

type CharClass = 'upper' | 'lower' | 'numeric' | 'symbol' | 'other';

/** Characters of each class, ASCII and beyond (astral letters, non-ASCII digits, emoji, spaces, marks, CJK). */
const CLASS_CHARS: Record<CharClass, readonly string[]> = {
  upper: ['A', 'Q', 'Z', '\u00c9', '\u00c4', '\u1e9e', '\u03a9', '\u0416', '\u{1d400}'],
  lower: ['a', 'q', 'z', '\u00e9', '\u00df', '\u03c9', '\u0436', '\u{1d41b}'],
  numeric: ['0', '5', '9', '\u0663', '\u096d', '\uff17'],
  symbol: ['!', '@', '#', '~', ' ', '\u00a0', '\u20ac', '\u2014', '😀', '🇫'],
  other: ['密', '\u0301', '\u200d', '\u01c5', '\u00bd', '\u216b', '\t', '\ufe0f'],
};
const CLASSES = Object.keys(CLASS_CHARS) as CharClass[];

const classCharArb = (cls: CharClass): fc.Arbitrary<string> => fc.constantFrom(...CLASS_CHARS[cls]);
const anyClassCharArb = fc.oneof(...CLASSES.map(classCharArb));

/** Passwords: runs of class characters (up to 300 code points, beyond any preferred length), or any text. */
const passwordArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.array(anyClassCharArb, { maxLength: 300 }).map((chars) => chars.join('')), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 80 }), weight: 1 },
);

/** Short passwords for the real estimator. */
const shortPasswordArb: fc.Arbitrary<string> = fc.oneof(
  fc.array(anyClassCharArb, { maxLength: 16 }).map((chars) => chars.join('')),
  fc.string({ maxLength: 16 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

/** A stub estimator: guesses (log10) of the given guessability score, and fixed feedback. */
const stubEstimator =
  (score: number, feedback: readonly MessageKey[] = []): GuessabilityEstimator =>
  () => ({ guessesLog10: [1, 4, 7, 9, 11][score]!, feedback });

/** a <= b for fractions in [0, 1], exactly. */
const atMost = (a: Part, b: Part): boolean => a.numerator * b.denominator <= b.numerator * a.denominator;

/** The part a class's character adds to (other characters count only in length). */
const PART_OF: Record<CharClass, 'length' | 'numeric' | 'casing' | 'symbol'> = {
  upper: 'casing',
  lower: 'casing',
  numeric: 'numeric',
  symbol: 'symbol',
  other: 'length',
};

const countKey: Record<CharClass, keyof CharacterCounts | undefined> = {
  upper: 'upper',
  lower: 'lower',
  numeric: 'numeric',
  symbol: 'symbol',
  other: undefined,
};

// ---------------------------------------------------------------------------------------------------------

/** A property of the evaluation of any password under any policy, the estimator's score drawn in 0..4 (the stub's). */
const withStubEstimate = (check: (result: StrengthEvaluation, policy: StrengthPolicy, guess: number) => void) =>
  fc.property(policyArb, passwordArb, fc.integer({ min: 0, max: 4 }), (policy, password, guess) =>
    check(evaluatePassword(policy, password, stubEstimator(guess)), policy, guess),
  );

describe('strength evaluator properties', () => {
  test('the generated policies satisfy the schema', async () => {
    await assertProperty(
      'generated policies are valid',
      fc.property(policyArb, (policy) => {
        expect(strengthPolicies.schema.safeParse(policy).success).toBe(true);
      }),
      RUNS,
    );
  });

  test('1. adding a character of a class never lowers its part, any part, nor the score', async () => {
    const insertionArb = fc
      .constantFrom(...CLASSES)
      .chain((cls) => fc.record({ cls: fc.constant(cls), ch: classCharArb(cls), at: fc.nat() }));
    await assertProperty(
      'adding a character is monotonic',
      fc.property(policyArb, passwordArb, insertionArb, (policy, password, { cls, ch, at }) => {
        const points = Array.from(password);
        points.splice(at % (points.length + 1), 0, ch);
        const longer = points.join('');
        const before = countCharacters(password);
        const after = countCharacters(longer);
        // the insertion added exactly one character of that class
        expect(after.length).toBe(before.length + 1);
        const key = countKey[cls];
        if (key) expect(after[key]).toBe(before[key] + 1);

        const partsBefore = scoreParts(policy, before);
        const partsAfter = scoreParts(policy, after);
        expect(atMost(partsBefore[PART_OF[cls]], partsAfter[PART_OF[cls]])).toBe(true);
        for (const part of ['length', 'numeric', 'casing', 'symbol'] as const)
          expect(atMost(partsBefore[part], partsAfter[part])).toBe(true);
        expect(strengthScore(policy, after)).toBeGreaterThanOrEqual(strengthScore(policy, before));
      }),
      RUNS,
    );
  });

  test('2. the score is an integer in 0..100 for any valid policy and any password', async () => {
    await assertProperty(
      'score within 0..100 (passwords)',
      fc.property(policyArb, passwordArb, (policy, password) => {
        const score = strengthScore(policy, countCharacters(password));
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
      }),
      RUNS,
    );
    // any counts, including those far beyond every target (each class at most the length)
    const countsArb = fc
      .integer({ min: 0, max: 100_000 })
      .chain((length) =>
        fc
          .tuple(
            fc.integer({ min: 0, max: length }),
            fc.integer({ min: 0, max: length }),
            fc.integer({ min: 0, max: length }),
            fc.integer({ min: 0, max: length }),
          )
          .map(([upper, lower, numeric, symbol]) => ({ length, upper, lower, numeric, symbol })),
      );
    await assertProperty(
      'score within 0..100 (counts)',
      fc.property(policyArb, countsArb, (policy, counts) => {
        const score = strengthScore(policy, counts);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
      }),
      RUNS,
    );
  });

  test('3. Compliant implies Failures is empty', async () => {
    await assertProperty(
      'Compliant implies no failure',
      withStubEstimate((result, policy) => {
        if (result.Compliant) expect(result.Failures).toEqual([]);
        expect(result.Compliant).toBe(
          result.Failures.length === 0 && result.ComplianceLevel >= policy.PasswordStrengthCompliance,
        );
        expect(result.Mandatory).toBe(policy.ComplianceMandatory);
      }),
      RUNS,
    );
  });

  test('4. ComplianceLevel <= band(Score) and <= the estimator score (stub estimator)', async () => {
    await assertProperty(
      'level bounded by band and stub estimator',
      withStubEstimate((result, _policy, guess) => {
        expect(result.ComplianceLevel).toBeLessThanOrEqual(scoreBand(result.Score));
        expect(result.ComplianceLevel).toBeLessThanOrEqual(guess);
        expect(result.ComplianceLevel).toBe(Math.min(scoreBand(result.Score), guess));
        expect(result.ComplianceLevelName).toBe(
          ['Very Poor', 'Weak', 'Average', 'Strong', 'Excellent'][result.ComplianceLevel],
        );
      }),
      RUNS,
    );
  });

  test('4. ComplianceLevel <= band(Score) and <= the estimator score (real zxcvbn-ts, short strings)', async () => {
    await assertProperty(
      'level bounded by band and zxcvbn',
      fc.property(policyArb, shortPasswordArb, (policy, password) => {
        // The evaluator's own question about this password is answered again from memory, not by a second zxcvbn-ts run.
        const estimate = remembered(zxcvbn);
        const result = evaluatePassword(policy, password, estimate);
        const guess = guessabilityScore(estimate(password).guessesLog10);
        expect(result.ComplianceLevel).toBeLessThanOrEqual(scoreBand(result.Score));
        expect(result.ComplianceLevel).toBeLessThanOrEqual(guess);
        expect(result.ComplianceLevel).toBe(Math.min(scoreBand(result.Score), guess));
      }),
      REAL_LEVEL_RUNS,
    );
  });

  test('5. Suggestions never contain a password of 6 or more random printable characters', async () => {
    const printableArb = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', minLength: 6, maxLength: 40 }),
      fc
        .array(fc.constantFrom(...CLASSES.flatMap((c) => (c === 'other' ? ['密'] : CLASS_CHARS[c]))), {
          minLength: 6,
          maxLength: 40,
        })
        .map((chars) => chars.join('')),
    );
    await assertProperty(
      'suggestions do not quote the password',
      fc.property(policyArb, printableArb, (policy, password) => {
        const result = evaluatePassword(policy, password, zxcvbn);
        for (const suggestion of result.Suggestions) {
          if (suggestion.includes(password))
            throw new Error(
              `suggestion ${JSON.stringify(suggestion)} contains the password ${JSON.stringify(clip(password))}`,
            );
        }
      }),
      REAL_RUNS,
    );
  });

  test('5. the length suggestion comes first exactly when shorter than preferred; no duplicates', async () => {
    await assertProperty(
      'length suggestion and deduplication',
      fc.property(
        policyArb,
        passwordArb,
        fc.array(
          fc.constantFrom<MessageKey>(
            'zxcvbn.suggestions.anotherWord',
            'zxcvbn.suggestions.dates',
            'suggestion.PreferredPasswordLength',
          ),
          { maxLength: 5 },
        ),
        (policy, password, feedback) => {
          const result = evaluatePassword(policy, password, stubEstimator(4, feedback));
          const english = (key: MessageKey) => renderMessage('en', key, { count: policy.PreferredPasswordLength });
          const lengthSuggestion = `Use ${policy.PreferredPasswordLength} characters or more.`;
          const short = Array.from(password).length < policy.PreferredPasswordLength;
          if (short) expect(result.Suggestions[0]).toBe(lengthSuggestion);
          else expect(result.Suggestions).toEqual([...new Set(feedback)].map(english));
          expect(new Set(result.Suggestions).size).toBe(result.Suggestions.length);
          for (const f of feedback) expect(result.Suggestions).toContain(english(f));
        },
      ),
      RUNS,
    );
  });

  test('6. the evaluation is deterministic', async () => {
    await assertProperty(
      'deterministic evaluation',
      fc.property(policyArb, shortPasswordArb, (policy, password) => {
        const first = evaluatePassword(policy, password, zxcvbn);
        expect(evaluatePassword(policy, password, zxcvbn)).toEqual(first);
        expect(evaluatePassword(policy, password, zxcvbnAgain)).toEqual(first);
      }),
      REAL_RUNS,
    );
  });
});
