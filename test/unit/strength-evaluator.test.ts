/**
 * The password strength evaluator (functions/domain/evaluation/strength-evaluator.ts) against its documented formula.
 *
 * Every expected Score below is derived BY HAND from the module header's formula and the row's character
 * counts (the arithmetic is the comment above each row); it was not produced by running the evaluator. The
 * zxcvbn-ts score cannot be derived by hand, so it is pinned per row (`guess`) and asserted against the real
 * estimator (a zxcvbn upgrade that changes it fails here, not silently elsewhere); ComplianceLevel is then
 * derived by hand as min(band(Score), guess).
 *
 * Policies used (seed/strength-policies.json), with the targets the formula uses (each minimum, at least 1):
 *   1 Default            P=12  U=L=N=S=1   weights 50;15;15;20  both cases required  compliance 2, advisory
 *   3 Service Accounts   P=32  U=L=N=S=2   weights 60;10;10;20  both cases required  compliance 4, mandatory
 *   7 PIN Codes          P=6   N=6, U=L=S=1 (minimums 0)  weights 40;60;0;0          compliance 1, advisory
 *   8 Passphrases        P=24  L=12, U=N=S=1 (minimums 0) weights 80;5;5;10          compliance 3, advisory
 *
 * Run: npx jest test/unit/strength-evaluator
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { answeredGuessesLog10, guessabilityScore, scoreBand } from '../../functions/domain/compliance-levels';
import {
  compositionFailures,
  countCharacters,
  evaluatePassword,
  scoreParts,
  strengthScore,
  type CompositionFailure,
} from '../../functions/domain/evaluation/strength-evaluator';
import type { GuessabilityEstimator } from '../../functions/domain/evaluation/estimate/guessability';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { renderMessage, type MessageKey } from '../../functions/domain/evaluation/messages/catalogue';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { strengthPolicy } from '../../testkit/policy-fixtures';

const SEED: StrengthPolicy[] = JSON.parse(
  readFileSync(path.join(__dirname, '..', '..', 'seed', 'strength-policies.json'), 'utf8'),
);
const seedPolicy = (id: number): StrengthPolicy => {
  const policy = SEED.find((p) => p.PasswordStrengthPolicyID === id);
  if (!policy) throw new Error(`seed strength policy ${id} is missing`);
  return policy;
};

/** The level names, written out here rather than imported. */
const LEVEL_NAMES = ['Very Poor', 'Weak', 'Average', 'Strong', 'Excellent'];

let zxcvbn: GuessabilityEstimator;
beforeAll(() => {
  zxcvbn = guessEstimator();
});

/** An estimate of guesses (log10) for each guessability score 0 to 4. */
const GUESSES_OF_SCORE = [1, 4, 7, 9, 11];
/** A stub estimator: fixed guesses, of a given score, and fixed feedback. */
const stub =
  (score: number, feedback: MessageKey[] = []): GuessabilityEstimator =>
  () => ({ guessesLog10: GUESSES_OF_SCORE[score]!, feedback });
/** The guessability score an estimator gives a password. */
const scoreOf = (estimator: GuessabilityEstimator, password: string) =>
  guessabilityScore(estimator(password).guessesLog10);

// ---------------------------------------------------------------------------------------------------------
// The failures of the table and the compositionFailures tests, written out in full (Rule, Required, Found, Message).

/** A failure of one rule, its four fields written out in full. */
const failureOf =
  (Rule: CompositionFailure['Rule']) =>
  (Required: number, Found: number, Message: string): CompositionFailure => ({ Rule, Required, Found, Message });
const lower = failureOf('MinimumLowerCaseCharacters');
const numeric = failureOf('MinimumNumericCharacters');
const symbol = failureOf('MinimumSymbolCharacters');
const upper = failureOf('MinimumUpperCaseCharacters');
/** RequiresUpperAndLowerCase requires 2 cases; Found is how many the password has. */
const both = (found: number, message: string) => failureOf('RequiresUpperAndLowerCase')(2, found, message);

const L1_0 = lower(1, 0, 'At least 1 lower-case letter is required; the password has 0.');
const N1_0 = numeric(1, 0, 'At least 1 numeric character is required; the password has 0.');
const S1_0 = symbol(1, 0, 'At least 1 symbol is required; the password has 0.');
const U1_0 = upper(1, 0, 'At least 1 upper-case letter is required; the password has 0.');
const BOTH_NONE = both(
  0,
  'Both upper-case and lower-case letters are required; the password has no upper-case or lower-case letters.',
);
const BOTH_LOWER = both(
  1,
  'Both upper-case and lower-case letters are required; the password has only lower-case letters.',
);
const BOTH_UPPER = both(
  1,
  'Both upper-case and lower-case letters are required; the password has only upper-case letters.',
);

const L2_0 = lower(2, 0, 'At least 2 lower-case letters are required; the password has 0.');
const L2_1 = lower(2, 1, 'At least 2 lower-case letters are required; the password has 1.');
const N2_1 = numeric(2, 1, 'At least 2 numeric characters are required; the password has 1.');
const S2_0 = symbol(2, 0, 'At least 2 symbols are required; the password has 0.');
const S2_1 = symbol(2, 1, 'At least 2 symbols are required; the password has 1.');
const U2_0 = upper(2, 0, 'At least 2 upper-case letters are required; the password has 0.');
const U2_1 = upper(2, 1, 'At least 2 upper-case letters are required; the password has 1.');

const N6_0 = numeric(6, 0, 'At least 6 numeric characters are required; the password has 0.');
const N6_2 = numeric(6, 2, 'At least 6 numeric characters are required; the password has 2.');
const N6_4 = numeric(6, 4, 'At least 6 numeric characters are required; the password has 4.');

/** A policy's four minimums, in the specification's field order. */
const minimums = (lower: number, numeric: number, symbol: number, upper: number) => ({
  MinimumLowerCaseCharacters: lower,
  MinimumNumericCharacters: numeric,
  MinimumSymbolCharacters: symbol,
  MinimumUpperCaseCharacters: upper,
});
/** No minimum: no composition rule but RequiresUpperAndLowerCase can fail. */
const NO_MINIMUMS = minimums(0, 0, 0, 0);

const L12_0 = lower(12, 0, 'At least 12 lower-case letters are required; the password has 0.');
const L12_8 = lower(12, 8, 'At least 12 lower-case letters are required; the password has 8.');

// ---------------------------------------------------------------------------------------------------------
// The table, a row a line: row(p, pw, c, score, band, guess, level, ok, failures), where p = the seed policy;
// pw = the password; c = hand counts [length (code points), upper, lower, numeric, symbol]; band = band(score);
// guess = zxcvbn-ts 4.2.0's score (pinned); level = min(band, guess); ok = Compliant; failures = the composition
// failures, in full.

interface Row {
  readonly p: 1 | 3 | 7 | 8;
  readonly pw: string;
  readonly c: readonly [number, number, number, number, number];
  readonly score: number;
  readonly band: number;
  readonly guess: number;
  readonly level: number;
  readonly ok: boolean;
  readonly failures: readonly CompositionFailure[];
}
const row = (
  p: Row['p'],
  pw: string,
  c: Row['c'],
  score: number,
  band: number,
  guess: number,
  level: number,
  ok: boolean,
  failures: readonly CompositionFailure[],
): Row => ({ p, pw, c, score, band, guess, level, ok, failures });

const ROWS: readonly Row[] = [
  // ---- Policy 1 (Default): 50;15;15;20, P=12, every target 1. Score = floor(len k/12*50 + num + case + sym).
  // len 0/12*50=0, num 0, case (0+0)/2*15=0, sym 0 -> 0
  row(1, '', [0, 0, 0, 0, 0], 0, 0, 0, 0, false, [L1_0, N1_0, S1_0, U1_0, BOTH_NONE]),
  // len 1/12*50=4.17, num 1/1*15=15, case 0, sym 0 -> 19.17 -> 19 (band boundary 19)
  row(1, '1', [1, 0, 0, 1, 0], 19, 0, 0, 0, false, [L1_0, S1_0, U1_0, BOTH_NONE]),
  // len 3/12*50=12.5, num 0, case (0+1)/2*15=7.5, sym 0 -> 20 (band boundary 20)
  row(1, 'abc', [3, 0, 3, 0, 0], 20, 1, 0, 0, false, [N1_0, S1_0, U1_0, BOTH_LOWER]),
  // len 4/12*50=16.67, num 15, case (0+1)/2*15=7.5, sym 0 -> 39.17 -> 39 (band boundary 39)
  row(1, 'q7zx', [4, 0, 3, 1, 0], 39, 1, 1, 1, false, [S1_0, U1_0, BOTH_LOWER]),
  // len 6/12*50=25, num 0, case (1+1)/2*15=15, sym 0 -> 40 (band boundary 40; no digit)
  row(1, 'kQzWmP', [6, 3, 3, 0, 0], 40, 2, 1, 1, false, [N1_0, S1_0]),
  // len 7/12*50=29.17, num 15, case 15, sym 0 -> 59.17 -> 59 (band boundary 59; only the symbol missing)
  row(1, 'Tqm4Zxr', [7, 2, 4, 1, 0], 59, 2, 2, 2, false, [S1_0]),
  // len 6/12*50=25, num 15, case 0, sym 20 -> 60 (no letters); the Markov model's estimate (about 10^3 guesses) rates it 0
  row(1, '12345!', [6, 0, 0, 5, 1], 60, 3, 0, 0, false, [L1_0, U1_0, BOTH_NONE]),
  // len 9/12*50=37.5, num 15, case (0+1)/2*15=7.5, sym 0 -> 60 (band boundary 60, level = band)
  row(1, 'zqxvbnm4k', [9, 0, 8, 1, 0], 60, 3, 3, 3, false, [S1_0, U1_0, BOTH_LOWER]),
  // len 7/12*50=29.17, num 15, case 15, sym 20 -> 79.17 -> 79 (band boundary 79); level 2 >= 2, compliant
  row(1, 'Xq7!mzR', [7, 2, 3, 1, 1], 79, 3, 2, 2, true, []),
  // len 9/12*50=37.5, num 15, case (0+1)/2*15=7.5, sym 20 -> 80 (band boundary 80; upper missing)
  row(1, 'purple42!', [9, 0, 6, 2, 1], 80, 4, 1, 1, false, [U1_0, BOTH_LOWER]),
  // exactly the preferred length: len 12/12*50=50, num 15, case 15, sym 0 -> 80
  row(1, 'Mx3kVb9Qz7Lp', [12, 4, 5, 3, 0], 80, 4, 4, 4, false, [S1_0]),
  // longer than preferred: len min(13,12)/12*50=50, num 15, case 15, sym 0 -> 80; two common words with a digit
  // between them: the rule model's estimate (about 10^5.6 guesses) rates it 1
  row(1, 'Correct7Horse', [13, 2, 10, 1, 0], 80, 4, 1, 1, false, [S1_0]),
  // len 11/12*50=45.83, num 15, case 15, sym 20 -> 95.83 -> 95; xkcd 936's example, among the first guesses of
  // every attacker (bundling/dictionaries.ts's FAMOUS_PASSWORDS, rank 1): 10^0.48 guesses, 0
  row(1, 'Tr0ub4dor&3', [11, 1, 6, 3, 1], 95, 4, 0, 0, false, []),
  // common password: len 10/12*50=41.67, num 15, case 15, sym 20 -> 91.67 -> 91; Excellent band, zxcvbn 1, and the
  // rule model's estimate (the commonest word, capitalised, with `1!`: 40 guesses) 0 -> Very Poor
  row(1, 'Password1!', [10, 1, 7, 1, 1], 91, 4, 0, 0, false, []),
  // common password: len 8/12*50=33.33, num 15, case 15, sym 20 -> 83.33 -> 83; zxcvbn 0 -> Very Poor
  row(1, 'P@ssw0rd', [8, 1, 5, 1, 1], 83, 4, 0, 0, false, []),
  // passphrase (spaces are symbols): len min(28,12)/12*50=50, num 0, case (0+1)/2*15=7.5, sym 20 -> 77.5 -> 77
  row(1, 'correct horse battery staple', [28, 0, 25, 0, 3], 77, 3, 4, 3, false, [N1_0, U1_0, BOTH_LOWER]),
  // "Éclair été 9" (NFC): É upper, é lower; len 12/12*50=50, num 15, case 15, sym 20 -> 100; two French words: 3
  row(1, '\u00c9clair \u00e9t\u00e9 9', [12, 1, 8, 1, 2], 100, 4, 3, 3, true, []),
  // "Straße": ß is lower case; len 6/12*50=25, num 0, case 15, sym 0 -> 40; a German word: 0
  row(1, 'Stra\u00dfe', [6, 1, 5, 0, 0], 40, 2, 0, 0, false, [N1_0, S1_0]),
  // "ÄÖÜ123": upper only; len 6/12*50=25, num 15, case (1+0)/2*15=7.5, sym 0 -> 47.5 -> 47
  row(1, '\u00c4\u00d6\u00dc123', [6, 3, 0, 3, 0], 47, 2, 1, 1, false, [L1_0, S1_0, BOTH_UPPER]),
  // CJK counts only in length: len 7/12*50=29.17 -> 29
  row(1, '密码安全很重要', [7, 0, 0, 0, 0], 29, 1, 2, 1, false, [L1_0, N1_0, S1_0, U1_0, BOTH_NONE]),
  // 4 CJK + A b 1 !: len 8/12*50=33.33, num 15, case 15, sym 20 -> 83.33 -> 83
  row(1, '密码密码Ab1!', [8, 1, 1, 1, 1], 83, 4, 2, 2, true, []),
  // emoji and 3 spaces are symbols; the emoji is 1 code point (2 UTF-16 units): len 10/12*50=41.67, num 15, case 15, sym 20 -> 91.67 -> 91
  row(1, 'ab 😀 CD 12', [10, 2, 2, 2, 4], 91, 4, 4, 4, true, []),
  // only upper: len min(16,12)/12*50=50, num 15, case (1+0)/2*15=7.5, sym 20 -> 92.5 -> 92; non-compliant; two
  // common words in upper case, a space and a year: the rule model's estimate (about 10^8.9 guesses) rates it 3
  row(1, 'HELLO WORLD 2024', [16, 10, 0, 4, 2], 92, 4, 3, 3, false, [L1_0, BOTH_UPPER]),
  // "ñandú gruñón": len 12/12*50=50, num 0, case (0+1)/2*15=7.5, sym 20 -> 77.5 -> 77
  row(1, '\u00f1and\u00fa gru\u00f1\u00f3n', [12, 0, 11, 0, 1], 77, 3, 4, 3, false, [N1_0, U1_0, BOTH_LOWER]),

  // ---- Policy 3 (Service Accounts): 60;10;10;20, P=32, every target 2.
  //      Score = floor(len k/32*60 + num min(d,2)/2*10 + case (min(u,2)/2 + min(l,2)/2)/2*10 + sym min(s,2)/2*20).
  // exactly 32, 8 of each class: len 60, num 10, case 10, sym 20 -> 100
  row(3, 'Xk9#mQ2$vL8@pR4!tN7%wZ3&yB6*cD5^', [32, 8, 8, 8, 8], 100, 4, 4, 4, true, []),
  // minimums of 2 unmet (1 each, 13 lower): len 16/32*60=30, num 1/2*10=5, case (1/2+2/2)/2*10=7.5, sym 1/2*20=10 -> 52.5 -> 52
  row(3, 'Aa1!bcdefghijklm', [16, 1, 13, 1, 1], 52, 2, 2, 2, false, [N2_1, S2_1, U2_1]),
  // minimums of 2 met exactly: len 8/32*60=15, num 10, case 10, sym 20 -> 55; Average < Excellent
  row(3, 'AB12!@cd', [8, 2, 2, 2, 2], 55, 2, 2, 2, false, []),
  // exactly 32, lower + 2 digits: len 60, num 10, case (0/2+2/2)/2*10=5, sym 0 -> 75; xkcd 936's passphrase in
  // two famous halves and a word: the rule model's 10^5.6 guesses, 1
  row(3, 'correcthorsebatterystaplezebra42', [32, 0, 30, 2, 0], 75, 3, 1, 1, false, [S2_0, U2_0, BOTH_LOWER]),
  // common pattern: len 24/32*60=45, num 10, case 10, sym 20 -> 85; zxcvbn 1 -> Weak
  row(3, 'Password123!Password123!', [24, 2, 14, 6, 2], 85, 4, 1, 1, false, []),
  // len 16/32*60=30, num 10, case 10, sym 20 -> 70
  row(3, 'jR8#vQ2@wL5!kN9$', [16, 4, 4, 4, 4], 70, 3, 4, 3, false, []),
  // only upper: len 16/32*60=30, num 10, case (2/2+0/2)/2*10=5, sym 20 -> 65
  row(3, 'HELLO WORLD 2024', [16, 10, 0, 4, 2], 65, 3, 3, 3, false, [L2_0, BOTH_UPPER]),
  // longer than preferred (46): len 32/32*60=60, num 10, case 10, sym 20 -> 100
  row(3, 'Zebra-Crossing-Lantern-Quartz-Velvet-Mosaic-42', [46, 6, 32, 2, 6], 100, 4, 4, 4, true, []),
  // one of each, every minimum of 2 unmet: len 4/32*60=7.5, num 1/2*10=5, case (1/2+1/2)/2*10=5, sym 1/2*20=10 -> 27.5 -> 27
  row(3, 'Aa1!', [4, 1, 1, 1, 1], 27, 1, 1, 1, false, [L2_1, N2_1, S2_1, U2_1]),

  // ---- Policy 7 (PIN Codes): 40;60;0;0, P=6, N=6. Score = floor(len k/6*40 + num min(d,6)/6*60).
  // len 6/6*40=40, num 6/6*60=60 -> 100; zxcvbn 0 -> Very Poor < Weak
  row(7, '123456', [6, 0, 0, 6, 0], 100, 4, 0, 0, false, []),
  // len 40, num 60 -> 100; zxcvbn 1 -> Weak >= Weak, compliant
  row(7, '847291', [6, 0, 0, 6, 0], 100, 4, 1, 1, true, []),
  // len 4/6*40=26.67, num 4/6*60=40 -> 66.67 -> 66
  row(7, '1234', [4, 0, 0, 4, 0], 66, 3, 0, 0, false, [N6_4]),
  // longer than preferred: len min(8,6)/6*40=40, num min(8,6)/6*60=60 -> 100
  row(7, '12345678', [8, 0, 0, 8, 0], 100, 4, 0, 0, false, []),
  // len 3/6*40=20, num 0 -> 20 (band boundary 20)
  row(7, 'abc', [3, 0, 3, 0, 0], 20, 1, 0, 0, false, [N6_0]),
  // len 6/6*40=40, num 0 -> 40 (band boundary 40)
  row(7, 'abcdef', [6, 0, 6, 0, 0], 40, 2, 0, 0, false, [N6_0]),
  // len 40, num 2/6*60=20 -> 60 (band boundary 60); the Markov model's estimate (about 10^1.7 guesses) rates it 0
  row(7, 'abcd12', [6, 0, 4, 2, 0], 60, 3, 0, 0, false, [N6_2]),
  // len 40, num 4/6*60=40 -> 80 (band boundary 80)
  row(7, 'ab1234', [6, 0, 2, 4, 0], 80, 4, 1, 1, false, [N6_4]),
  // Arabic-Indic digits are \p{Nd}: len 40, num 60 -> 100
  row(7, '\u0663\u0664\u0665\u0666\u0667\u0668', [6, 0, 0, 6, 0], 100, 4, 0, 0, false, []),
  // space is a symbol (weight 0 here): len 5/6*40=33.33, num 4/6*60=40 -> 73.33 -> 73
  row(7, '12 34', [5, 0, 0, 4, 1], 73, 3, 1, 1, false, [N6_4]),

  // ---- Policy 8 (Passphrases): 80;5;5;10, P=24, L=12, U=N=S=1.
  //      Score = floor(len k/24*80 + num [d]*5 + case (min(u,1)/1 + min(l,12)/12)/2*5 + sym [s]*10).
  // len min(28,24)/24*80=80, num 0, case (0+12/12)/2*5=2.5, sym 10 -> 92.5 -> 92
  row(8, 'correct horse battery staple', [28, 0, 25, 0, 3], 92, 4, 4, 4, true, []),
  // len 23/24*80=76.67, num 5, case (1+12/12)/2*5=5, sym 10 -> 96.67 -> 96
  row(8, 'Correct-Horse-Battery-7', [23, 3, 16, 1, 3], 96, 4, 4, 4, true, []),
  // len 8/24*80=26.67, num 0, case (0+8/12)/2*5=1.67, sym 0 -> 28.33 -> 28
  row(8, 'sunshine', [8, 0, 8, 0, 0], 28, 1, 0, 0, false, [L12_8]),
  // len 24/24*80=80, num 0, case (1+0/12)/2*5=2.5, sym 10 -> 92.5 -> 92; Excellent, non-compliant (composition)
  row(8, 'ALL CAPS PASSPHRASE HERE', [24, 21, 0, 0, 3], 92, 4, 4, 4, false, [L12_0]),
  // len 16/24*80=53.33, num 5, case (0+8/12)/2*5=1.67, sym 0 -> exactly 60 (1280+120+40 = 1440/24); the naive float sum is 59.999...
  row(8, 'mountain7東京大阪京都奈', [16, 0, 8, 1, 0], 60, 3, 4, 3, false, [L12_8]),
  // len 23/24*80=76.67, num 5, case (0+12/12)/2*5=2.5, sym 10 -> 94.17 -> 94
  row(8, 'river otter 42 quietly!', [23, 0, 17, 2, 4], 94, 4, 4, 4, true, []),
  // CJK passphrase: len 12/24*80=40, rest 0 -> 40; the Markov model reads each of its characters as one symbol,
  // OTHER (about 10^9.4 guesses): 3
  row(8, '我的密码是一首很长的诗歌', [12, 0, 0, 0, 0], 40, 2, 3, 2, false, [L12_0]),
];

describe('evaluatePassword: the hand-derived table', () => {
  test('the table covers at least 30 rows, 4 seed policies and every band boundary', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ROWS.map((r) => r.p))).toEqual(new Set([1, 3, 7, 8]));
    const scores = new Set(ROWS.map((r) => r.score));
    for (const boundary of [19, 20, 39, 40, 59, 60, 79, 80]) expect(scores).toContain(boundary);
    // the hand columns agree with each other: level = min(band, guess)
    for (const r of ROWS) expect([r.pw, r.level]).toEqual([r.pw, Math.min(r.band, r.guess)]);
    // the non-ASCII rows are written in NFC (escapes), so "é" is one code point
    for (const r of ROWS) expect(r.pw.normalize('NFC')).toBe(r.pw);
  });

  test.each(ROWS.map((r) => [r.p, JSON.stringify(r.pw), r]))('policy %i, %s', (_p, _shown, r) => {
    const policy = seedPolicy(r.p);
    const [length, up, low, num, sym] = r.c;

    // the hand counts
    expect(countCharacters(r.pw)).toEqual({ length, upper: up, lower: low, numeric: num, symbol: sym });
    // the pinned zxcvbn-ts score (an input of the formula)
    const guess = zxcvbn(r.pw);
    expect(guessabilityScore(guess.guessesLog10)).toBe(r.guess);

    const result = evaluatePassword(policy, r.pw, zxcvbn);
    expect(scoreBand(result.Score)).toBe(r.band);
    // Every field, in the order the API answers with them: the object's keys are that order, checked here as the
    // values are (the tests' copy of the order is this literal's).
    const answer = {
      PasswordStrengthPolicyID: r.p,
      Score: r.score,
      ComplianceLevel: r.level,
      ComplianceLevelName: LEVEL_NAMES[r.level],
      Compliant: r.ok,
      Mandatory: r.p === 3,
      Failures: r.failures,
      Suggestions: expect.any(Array),
      GuessesLog10: answeredGuessesLog10(guess.guessesLog10),
    };
    expect(result).toEqual(answer);
    expect(Object.keys(result)).toEqual(Object.keys(answer));

    // Suggestions: the length suggestion first when shorter than preferred, then zxcvbn's feedback, deduplicated
    const lengthSuggestion = `Use ${policy.PreferredPasswordLength} characters or more.`;
    const feedback = guess.feedback.map((key) => renderMessage('en', key));
    const expected = [...(length < policy.PreferredPasswordLength ? [lengthSuggestion] : []), ...feedback];
    expect(result.Suggestions).toEqual([...new Set(expected)]);
    expect(new Set(result.Suggestions).size).toBe(result.Suggestions.length);
  });

  test('Password1! is not Excellent under the Default policy, however high its score', () => {
    const result = evaluatePassword(seedPolicy(1), 'Password1!', zxcvbn);
    expect(result.Score).toBe(91);
    expect(result.ComplianceLevelName).not.toBe('Excellent');
    expect(result.Suggestions[0]).toBe('Use 12 characters or more.');
    expect(result.Suggestions).toContain('This is similar to a commonly used password.');
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('countCharacters', () => {
  const counts = (length: number, upper: number, lower: number, numeric: number, symbol: number) => ({
    length,
    upper,
    lower,
    numeric,
    symbol,
  });

  test('ASCII classes', () => {
    expect(countCharacters('Aa1!')).toEqual(counts(4, 1, 1, 1, 1));
    expect(countCharacters('')).toEqual(counts(0, 0, 0, 0, 0));
    expect(countCharacters('~`|\\ ')).toEqual(counts(5, 0, 0, 0, 5));
  });

  test('code points: an emoji is one character (and a symbol), not two UTF-16 units', () => {
    expect('😀'.length).toBe(2);
    expect(countCharacters('😀')).toEqual(counts(1, 0, 0, 0, 1));
    // a ZWJ family is 5 code points: 3 emoji (symbols) and 2 zero-width joiners (no class)
    expect(countCharacters('👨\u200d👩\u200d👧')).toEqual(counts(5, 0, 0, 0, 3));
    // a flag is two regional indicators, each a symbol
    expect(countCharacters('🇫🇷')).toEqual(counts(2, 0, 0, 0, 2));
    // astral letters count by their category
    expect(countCharacters('\u{1d400}\u{1d41b}')).toEqual(counts(2, 1, 1, 0, 0));
  });

  test('combining marks count only in length', () => {
    expect(countCharacters('e\u0301')).toEqual(counts(2, 0, 1, 0, 0));
    expect(countCharacters('\u00e9')).toEqual(counts(1, 0, 1, 0, 0));
    expect(countCharacters('E\u0301\u0323')).toEqual(counts(3, 1, 0, 0, 0));
    expect(countCharacters('Cafe\u0301 1!')).toEqual(counts(8, 1, 3, 1, 2));
  });

  test('non-ASCII letters, digits and spaces; other characters count only in length', () => {
    expect(countCharacters('\u00c9\u00c4\u1e9e')).toEqual(counts(3, 3, 0, 0, 0)); // É Ä ẞ upper
    expect(countCharacters('\u00e9\u00e4\u00df')).toEqual(counts(3, 0, 3, 0, 0)); // é ä ß lower
    expect(countCharacters('\u0663\u096d')).toEqual(counts(2, 0, 0, 2, 0)); // Arabic-Indic 3, Devanagari 7: \p{Nd}
    expect(countCharacters('\u00bd\u00b2\u216b')).toEqual(counts(3, 0, 0, 0, 0)); // ½ ² Ⅻ are No/Nl, not Nd
    expect(countCharacters('\u01c5')).toEqual(counts(1, 0, 0, 0, 0)); // ǅ is title case (Lt): no class
    expect(countCharacters('密码')).toEqual(counts(2, 0, 0, 0, 0)); // CJK (Lo): length only
    expect(countCharacters(' \u00a0\u3000')).toEqual(counts(3, 0, 0, 0, 3)); // space, NBSP, ideographic space: \p{Zs}
    expect(countCharacters('\t\n')).toEqual(counts(2, 0, 0, 0, 0)); // controls (Cc): no class
    expect(countCharacters('\u20ac\u2014\u00a9')).toEqual(counts(3, 0, 0, 0, 3)); // € — © symbols and punctuation
    expect(countCharacters('\ud800')).toEqual(counts(1, 0, 0, 0, 0)); // a lone surrogate is one code unit, no class
  });
});

describe('compositionFailures', () => {
  test('no failure when every minimum is met exactly', () => {
    const policy = seedPolicy(3);
    expect(compositionFailures(policy, countCharacters('AB12!@cd'))).toEqual([]);
  });

  test('minimums of 0 and RequiresUpperAndLowerCase false never fail', () => {
    const policy = strengthPolicy({
      ...NO_MINIMUMS,
      RequiresUpperAndLowerCase: false,
    });
    expect(compositionFailures(policy, countCharacters(''))).toEqual([]);
    expect(compositionFailures(policy, countCharacters('ONLYUPPER'))).toEqual([]);
  });

  test("every rule, in the specification's field order, with singular and plural messages", () => {
    const policy = strengthPolicy(minimums(3, 1, 2, 1));
    expect(compositionFailures(policy, countCharacters('ab'))).toEqual([
      lower(3, 2, 'At least 3 lower-case letters are required; the password has 2.'),
      N1_0,
      S2_0,
      U1_0,
      BOTH_LOWER,
    ]);
  });

  test('RequiresUpperAndLowerCase with only upper, only lower, no letters, and both', () => {
    const policy = strengthPolicy({
      ...NO_MINIMUMS,
      RequiresUpperAndLowerCase: true,
    });
    expect(compositionFailures(policy, countCharacters('\u00c4BC'))).toEqual([BOTH_UPPER]);
    expect(compositionFailures(policy, countCharacters('\u00dfbc'))).toEqual([BOTH_LOWER]);
    expect(compositionFailures(policy, countCharacters('密码 123'))).toEqual([BOTH_NONE]);
    expect(compositionFailures(policy, countCharacters('\u00c9\u00e9'))).toEqual([]);
  });
});

describe('scoreBand', () => {
  test.each([
    [0, 0],
    [19, 0],
    [20, 1],
    [39, 1],
    [40, 2],
    [59, 2],
    [60, 3],
    [79, 3],
    [80, 4],
    [99, 4],
    [100, 4],
  ])('score %i is band %i', (score, band) => {
    expect(scoreBand(score)).toBe(band);
  });
});

describe('exact integer arithmetic', () => {
  /** The score computed the naive way, in floating point: weight * part, summed. */
  function floatSum(policy: StrengthPolicy, password: string): number {
    const [wl = 0, wn = 0, wc = 0, ws = 0] = policy.CalculationWeightings.split(';').map(Number);
    const c = countCharacters(password);
    const [U, L, N, S] = [
      policy.MinimumUpperCaseCharacters,
      policy.MinimumLowerCaseCharacters,
      policy.MinimumNumericCharacters,
      policy.MinimumSymbolCharacters,
    ].map((m) => Math.max(m, 1)) as [number, number, number, number];
    const P = policy.PreferredPasswordLength;
    return (
      wl * (Math.min(c.length, P) / P) +
      wn * (Math.min(c.numeric, N) / N) +
      wc * ((Math.min(c.upper, U) / U + Math.min(c.lower, L) / L) / 2) +
      ws * (Math.min(c.symbol, S) / S)
    );
  }

  test('seed policy 8, 16 characters with 8 lower and a digit: exactly 60 (Strong), where floats give 59.999...', () => {
    // len 16/24*80 = 1280/24, num 1/1*5 = 120/24, case (0/1 + 8/12)/2*5 = 40/24, sym 0 -> 1440/24 = 60
    const policy = seedPolicy(8);
    const password = 'mountain7東京大阪京都奈';
    expect(floatSum(policy, password)).toBeLessThan(60);
    expect(strengthScore(policy, countCharacters(password))).toBe(60);
    expect(scoreBand(strengthScore(policy, countCharacters(password)))).toBe(3);
  });

  test('seed policy 6 (minimums 3, thirds): exactly 60, where floats give 59.999...', () => {
    // 22 characters: A, 1, !, 19 CJK. len 22/24*50 = 1100/24, num 1/3*15 = 120/24, case (1/3 + 0/3)/2*15 = 60/24,
    // sym 1/3*20 = 160/24 -> 1440/24 = 60
    const policy = seedPolicy(6);
    const password = `A1!${'密'.repeat(19)}`;
    expect(floatSum(policy, password)).toBeLessThan(60);
    expect(strengthScore(policy, countCharacters(password))).toBe(60);
  });

  test('88;0;0;12 with P=22: 15 letters score exactly 88*15/22 = 60, where 88*(15/22) is 59.999...', () => {
    const policy = strengthPolicy({
      PreferredPasswordLength: 22,
      CalculationWeightings: '88;0;0;12',
      ...NO_MINIMUMS,
    });
    expect(88 * (15 / 22)).toBeLessThan(60);
    expect(strengthScore(policy, countCharacters('abcdefghijklmno'))).toBe(60);
    // 90;..;..;10 with P=10: 7 characters give 63 (90*(7/10) is 62.999...)
    const ninety = strengthPolicy({ PreferredPasswordLength: 10, CalculationWeightings: '90;0;0;10' });
    expect(90 * (7 / 10)).toBeLessThan(63);
    expect(strengthScore(ninety, countCharacters('ABCDEFG'))).toBe(63);
  });

  test('the largest denominators stay exact: minimums 64, preferred 256', () => {
    const policy = strengthPolicy({
      ...minimums(64, 64, 64, 64),
      PreferredPasswordLength: 256,
      CalculationWeightings: '1;33;33;33',
    });
    const full = { length: 256, upper: 64, lower: 64, numeric: 64, symbol: 64 };
    expect(strengthScore(policy, full)).toBe(100);
    // 1*255/256 + 33*63/64 + 33*(63/64 + 64/64)/2 + 33*64/64 = 0.996 + 32.484 + 32.742 + 33 = 99.22 -> 99
    expect(strengthScore(policy, { length: 255, upper: 63, lower: 64, numeric: 63, symbol: 64 })).toBe(99);
    const parts = scoreParts(policy, { length: 255, upper: 63, lower: 64, numeric: 63, symbol: 64 });
    expect(parts.casing).toEqual({ numerator: 63 * 64 + 64 * 64, denominator: 2 * 64 * 64 });
  });
});

describe('evaluatePassword with a stub estimator', () => {
  const policy = seedPolicy(1);

  test('a breached password: the BreachedPassword failure after the composition failures, at most Weak, never Compliant', () => {
    const breachedFailure = {
      Rule: 'BreachedPassword',
      Required: 0,
      Found: 1,
      Message: 'This password appears in lists of breached passwords.',
    };
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(4), true)).toMatchObject({
      ComplianceLevel: 1,
      ComplianceLevelName: 'Weak',
      Compliant: false,
      Failures: [breachedFailure],
    });
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(0), true).ComplianceLevel).toBe(0);
    expect(evaluatePassword(policy, 'tr0ub4dor&3', stub(4), true).Failures.map((f) => f.Rule)).toEqual([
      'MinimumUpperCaseCharacters',
      'RequiresUpperAndLowerCase',
      'BreachedPassword',
    ]);
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(4), false)).toEqual(
      evaluatePassword(policy, 'Tr0ub4dor&3', stub(4)),
    );
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(4)).ComplianceLevel).toBe(4);
    // The PIN policy asks for Weak: the failure alone makes a breached PIN non-compliant.
    expect(evaluatePassword(seedPolicy(7), '847291', stub(1), true)).toMatchObject({
      ComplianceLevel: 1,
      Compliant: false,
    });
  });

  test('the estimator lowers the level, never raises it', () => {
    // 'Tr0ub4dor&3' scores 95 (see the table): band 4
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(0)).ComplianceLevel).toBe(0);
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(3)).ComplianceLevel).toBe(3);
    // 'q7zx' scores 39: band 1, an estimator score of 4 leaves it at 1
    expect(evaluatePassword(policy, 'q7zx', stub(4)).ComplianceLevel).toBe(1);
  });

  test('Compliant needs the level and no failure; Mandatory echoes ComplianceMandatory', () => {
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(2)).Compliant).toBe(true);
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(1)).Compliant).toBe(false);
    expect(evaluatePassword(policy, 'Mx3kVb9Qz7Lp', stub(4)).Compliant).toBe(false); // no symbol
    expect(evaluatePassword(policy, 'Tr0ub4dor&3', stub(2)).Mandatory).toBe(false);
    expect(evaluatePassword(seedPolicy(3), 'Tr0ub4dor&3', stub(2)).Mandatory).toBe(true);
  });

  test('Suggestions: the length suggestion first, then the feedback, deduplicated', () => {
    const feedback: MessageKey[] = [
      'zxcvbn.suggestions.anotherWord',
      'suggestion.PreferredPasswordLength',
      'zxcvbn.suggestions.anotherWord',
      'zxcvbn.suggestions.dates',
    ];
    expect(evaluatePassword(policy, 'short', stub(4, feedback)).Suggestions).toEqual([
      'Use 12 characters or more.',
      'Add more words that are less common.',
      'Avoid dates and years that are associated with you.',
    ]);
    expect(evaluatePassword(policy, 'Mx3kVb9Qz7Lp', stub(4, ['zxcvbn.suggestions.dates'])).Suggestions).toEqual([
      'Avoid dates and years that are associated with you.',
    ]);
    expect(evaluatePassword(policy, 'Mx3kVb9Qz7Lp', stub(4)).Suggestions).toEqual([]);
  });
});

describe('the bounds on zxcvbn-ts (guess-estimator.ts) keep what it finds', () => {
  // l33t spellings of common passwords and words: zxcvbn-ts alone with 3 readings rates these as with its defaults.
  const L33T = [
    'P4$$w0rd',
    '@dm1n1str@t0r',
    '5up3rm4n',
    'P@55w0rd123',
    '$3cur1ty!',
    'M0nk3y$',
    'Dr@g0nf1y',
    '1l0v3y0u!',
    'P@$$w0rd!1',
    'ch@ng3m3',
    '5h@d0w!',
    'B@$3b@ll1',
    'l3tm31n!',
  ];
  let defaults: GuessabilityEstimator;
  let alone: GuessabilityEstimator;
  beforeAll(() => {
    defaults = guessEstimator({ maxLength: 256, l33tMaxSubstitutions: 100 }, false);
    alone = guessEstimator(undefined, false);
  });
  test.each(L33T)(
    '%s is rated at most 1 (Weak), by zxcvbn-ts alone with 3 readings as with the defaults (100)',
    (password) => {
      expect(scoreOf(zxcvbn, password)).toBeLessThanOrEqual(1);
      expect(scoreOf(alone, password)).toBe(scoreOf(defaults, password));
    },
  );

  test.each([
    ['J3nn1f3r!', 0],
    ['S@v@nn@h1', 1],
  ])(
    '%s: 3 readings are not enough for zxcvbn-ts alone (3, defaults 1); the word check holds it at 1, the rule model at %i',
    (password, shipped) => {
      expect([scoreOf(alone, password), scoreOf(defaults, password), scoreOf(zxcvbn, password)]).toEqual([
        3,
        1,
        shipped,
      ]);
    },
  );

  test('only the first 64 characters are estimated: a weak start rates the whole password', () => {
    expect(scoreOf(zxcvbn, `${'password'.repeat(8)}xK9#mQ2$vL8@pW4!`)).toBe(0);
    expect(scoreOf(zxcvbn, 'xK9#mQ2$vL8@pW4!'.repeat(16))).toBe(4);
  });
});
