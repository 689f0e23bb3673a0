/**
 * Properties of the evaluation against guessing (docs/evaluation.md#what-the-evaluation-refuses), with fast-check,
 * evaluated as the service does (the shipped estimator and the breached-password filter), under seed policies 1 and 2:
 *
 *   1. a dictionary word (zxcvbn-ts's English words and first names), capitalised as people do, with a year and a
 *      symbol in either order, is never Strong and never Compliant;
 *   2. a l33t spelling of such a word (up to 4 characters that read two ways), with or without a digit or
 *      symbol after it, is never Strong and never Compliant;
 *   3. controls: passwords from every seed generator policy of 11 characters or more keep the level zxcvbn-ts
 *      alone gives them, Strong or better (the PIN and 8-character policies rate below Strong anyway, and a
 *      generated PIN that is in a breach list is rightly refused), and a passphrase of five random EFF words
 *      keeps Strong or better under policies 1, 2 and 8;
 *   4. the evaluation never contains the password;
 *   5. the rule families of `npm run bench:accuracy` (one common word under any of the rules, a pair of the 100
 *      commonest words, a common digit run, a keyboard walk of 2 to 4 runs), with the affixes a cracker tries
 *      within 10^8 guesses (1 or 2 random digits, a year or a digit run, one of the symbols !@#$), are never
 *      Strong under policy 2; and uniformly random passwords of 12 to 20 printable characters always are.
 *
 * Seed: FC_SEED=<n> replays a run (printed on failure); FC_NUM_RUNS overrides the number of cases.
 */
import fc from 'fast-check';
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import { families, familyWords } from '../../bench/accuracy';
import { seededRandom } from '../../bundling/guess-model';
import { STRONG } from '../../functions/domain/compliance-levels';
import type { AdjacencyGraph } from '../../functions/domain/evaluation/text/keyboards';
import { BREACHED_PASSWORDS } from '../../functions/domain/evaluation/estimate/breached-password-list';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import type { GuessabilityEstimator } from '../../functions/domain/evaluation/estimate/guessability';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { seedStrengthPolicy } from '../support/seed-reference';
import { testControls } from '../support/control-passwords';
import { assertProperty } from '../support/property';
import { remembered } from '../../testkit/remembered-estimator';
import { L33T_SPELLINGS } from '../../testkit/l33t-spellings';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

/**
 * The run counts (docs/testing.md#property-run-counts), sized for CI: every case runs zxcvbn-ts, the guess
 * models and the pattern checks, 5 to 30 ms for the constructions and up to about 250 ms for a generated
 * 32-character password (two estimators; times on a loaded 2-core machine). A fresh seed each run, so a defect
 * rarer than a count can find turns up over successive runs; FC_RUNS_FACTOR runs them deeper.
 * RUNS: a construction has 6 shapes (3 capitalisations, symbol before or after the year) and 15 symbols; a
 * defect confined to one shape is missed by 100 cases with odds of 1 in 10^8, one confined to one symbol in
 * one order (1 case in 30) with odds of 1 in 30.
 * FAMILY_RUNS: 50 cases of each of the 9 families find a defect confined to 1 case in 20 of a family with 92%
 * odds a run (1 in 10: 99.5%). Planted, seeds 1 and 2: the guess models switched off, families 5 to 8 fail
 * after 1 or 2 cases; the pattern check switched off, the word + year + symbol property fails after 1 to 5,
 * the l33t one and family 3 now and then (after 61 and 29 in one seed of 2); families 0, 1, 2 and 4 are held
 * by both.
 * The repeat read through l33t that CI's family 3 found (`A@@44444#`) is 3 cases in 50,000 drawn: no count CI
 * can afford finds it in one run; a fresh seed every run, and FC_RUNS_FACTOR, do.
 * The controls guard against a pattern check or model misfiring on random text: 10 passwords for each of 10
 * generator policies catch a misfire on 1 generated password in 30 with 97% odds a run, 30 passphrases one on
 * 1 passphrase in 10 with 96%, and 100 random passwords one on 1 in 30 with 97%.
 */
const RUNS = 100;
const FAMILY_RUNS = 50;
const RANDOM_RUNS = 100;
const GENERATED_RUNS = 10;
const PASSPHRASE_RUNS = 30;
const POLICIES = [seedStrengthPolicy(1), seedStrengthPolicy(2)];

// Each case evaluates one password under several policies: remembered, zxcvbn-ts runs once per password.
let shipped: GuessabilityEstimator;
let zxcvbnAlone: GuessabilityEstimator;
beforeAll(() => {
  shipped = remembered(guessEstimator());
  zxcvbnAlone = remembered(guessEstimator(undefined, false));
});

const asTheServiceDoes = (p: StrengthPolicy, password: string) =>
  evaluatePassword(p, password, shipped, BREACHED_PASSWORDS.has(password));

/** The 5,000 most common English words and the 2,000 most common first names of zxcvbn-ts, letters only, 4 or more. */
const WORDS = (['commonWords-en', 'firstnames-en'] as const).flatMap((name, i) =>
  englishDictionary[name].slice(0, i === 0 ? 5000 : 2000).filter((word) => /^[a-z]{4,}$/.test(word)),
);
const wordArb = fc.constantFrom(...WORDS);
const capitalised = (word: string, style: number) =>
  [word, word[0]!.toUpperCase() + word.slice(1), word.toUpperCase()][style]!;
const SYMBOLS = [...'!@#$%^&*?_-.+=~'];

const neverStrongNorCompliant = (password: string) => {
  for (const p of POLICIES) {
    const result = asTheServiceDoes(p, password);
    if (result.ComplianceLevel >= STRONG || result.Compliant)
      throw new Error(
        `policy ${p.PasswordStrengthPolicyID}: level ${result.ComplianceLevel}, Compliant ${result.Compliant}`,
      );
    if (JSON.stringify(result).includes(password)) throw new Error('the evaluation quotes the password');
  }
};

/** The l33t spellings people use, per letter; 1, !, | and 7 read two ways. */
const L33T: Readonly<Record<string, readonly string[]>> = { ...L33T_SPELLINGS, t: ['7', '+'], l: ['1', '|'] };
const AMBIGUOUS = new Set(['1', '!', '|', '7']);

/** A word + a year + a symbol, in either order, capitalised as people do. */
const wordYearSymbol = fc
  .tuple(
    wordArb,
    fc.integer({ min: 0, max: 2 }),
    fc.integer({ min: 1950, max: 2035 }),
    fc.constantFrom(...SYMBOLS),
    fc.boolean(),
  )
  .map(
    ([word, style, year, symbol, symbolFirst]) =>
      capitalised(word, style) + (symbolFirst ? `${symbol}${year}` : `${year}${symbol}`),
  );

/** The word with half the letters that have a l33t spelling spelled so (`choices` picks which, and how); undefined if none is. */
function spelledL33t(word: string, choices: readonly number[]): string | undefined {
  let ambiguous = 0;
  let substituted = 0;
  const l33t = [...word]
    .map((letter, i) => {
      const options = L33T[letter];
      const choice = choices[i % choices.length]!;
      // Half the letters that have a l33t spelling take one; at most 4 of them read two ways (MAX_READINGS).
      if (!options || choice % 2 === 0) return letter;
      const spelled = options[choice % options.length]!;
      if (AMBIGUOUS.has(spelled) && ++ambiguous > 4) return letter;
      substituted++;
      return spelled;
    })
    .join('');
  return substituted > 0 ? l33t : undefined;
}

/** A l33t spelling of a word (at least one letter spelled), with or without a digit or a symbol after it. */
const l33tWord = fc
  .tuple(
    wordArb,
    fc.integer({ min: 0, max: 1 }),
    fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
    fc.constantFrom('', '1', '!', '7', '#'),
  )
  .map(([word, style, choices, suffix]) => {
    const l33t = spelledL33t(word, choices);
    return l33t === undefined ? undefined : capitalised(l33t, style) + suffix;
  })
  .filter((password): password is string => password !== undefined);

describe('guessable constructions are never Strong nor Compliant under policies 1 and 2', () => {
  it.each([
    ['a word + a year + a symbol, in either order, capitalised as people do', 'word + year + symbol', wordYearSymbol],
    ['a l33t spelling of a word, with or without a digit or a symbol after it', 'l33t word', l33tWord],
  ] as const)('%s', async (_title, name, passwords) => {
    await assertProperty(name, fc.property(passwords, neverStrongNorCompliant), RUNS);
  });
});

// Policy 10's pattern (two upper-case letters, four lower-case, three digits, two symbols) still makes a walk-shaped
// zigzag of 4 to 6 neighbouring keys on one keyboard (`RDcxsy479?!` on QWERTZ, `FRddsa574!%`) in about 9 of 20,000
// passwords (47 in 100,000; 42 with QWERTY alone, before a step back began a new run and `MNhuhy876@?` stopped being
// one), which the walk cap rates Weak: a run of 10 cases meets one about once in 210 runs (the seed is printed).
// Reading a walk's direction would end it.
describe('controls keep their levels', () => {
  /**
   * Under each policy: Strong or better, never above the level zxcvbn-ts alone gives (the estimate is the fewest
   * guesses of every model), and the password nowhere in the evaluation. Not always equal to it: a generated
   * password may spell two common words (`LUgski327$$`: lug, ski), which a rule attack reaches in 10^9.96
   * guesses, Strong where zxcvbn-ts alone says Excellent.
   */
  const keepsItsLevel = (password: string, policies: readonly StrengthPolicy[]) => {
    for (const p of policies) {
      const result = asTheServiceDoes(p, password);
      expect(result.ComplianceLevel).toBeLessThanOrEqual(evaluatePassword(p, password, zxcvbnAlone).ComplianceLevel);
      expect(result.ComplianceLevel).toBeGreaterThanOrEqual(STRONG);
      expect(JSON.stringify(result)).not.toContain(password);
    }
  };

  testControls({
    what: 'Strong or better, at most the level zxcvbn-ts alone gives',
    keepsItsLevel,
    policies: POLICIES,
    generators: { minLength: 11, ids: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11], runs: GENERATED_RUNS },
    passphraseRuns: PASSPHRASE_RUNS,
  });
});

describe('the rule families stay below Strong under policy 2; random passwords stay Strong', () => {
  const policy2 = seedStrengthPolicy(2);
  let members: ReturnType<typeof families>;
  beforeAll(async () => {
    const { baseWords, top100 } = await familyWords();
    members = families(baseWords, top100, adjacencyGraphs.qwerty as unknown as AdjacencyGraph, {
      maxDigits: 2,
      symbols: [...'!@#$'],
    });
  });

  it('covers the nine families of the accuracy benchmark', () => {
    expect(members.map((family) => family.name)).toHaveLength(9);
  });

  it.each(Array.from({ length: 9 }, (_, i) => [i]))(
    'family %i: never Strong nor Compliant under policy 2, never quoted',
    async (index) => {
      const family = members[index]!;
      await assertProperty(
        family.name,
        fc.property(fc.integer(), (seed) => {
          const password = family.make(seededRandom(seed));
          const result = asTheServiceDoes(policy2, password);
          if (result.ComplianceLevel >= STRONG || result.Compliant)
            throw new Error(`${family.name}: level ${result.ComplianceLevel}, GuessesLog10 ${result.GuessesLog10}`);
          if (JSON.stringify(result).includes(password)) throw new Error('the evaluation quotes the password');
        }),
        FAMILY_RUNS,
      );
    },
  );

  it('uniformly random passwords of 12 to 20 printable ASCII characters are Strong or better under policy 2', async () => {
    await assertProperty(
      'random passwords',
      fc.property(fc.integer(), fc.integer({ min: 12, max: 20 }), (seed, length) => {
        const random = seededRandom(seed);
        const password = Array.from({ length }, () => String.fromCharCode(33 + Math.floor(random() * 94))).join('');
        const result = asTheServiceDoes(policy2, password);
        if (result.ComplianceLevel < STRONG)
          throw new Error(`level ${result.ComplianceLevel}, GuessesLog10 ${result.GuessesLog10}`);
      }),
      RANDOM_RUNS,
    );
  });
});
