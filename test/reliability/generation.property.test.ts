/**
 * Generation properties (docs/generation.md), in process over the code the handler runs: a seed policy as the
 * base, fast-check-generated settings applied to it (applySettings), the one-off policy validated
 * (validatePolicy) and checked (checkFeasibility), and passwords generated with the real randomInt. For every
 * policy that is valid and feasible, each password:
 *
 *   1. holds no character of ExcludeChars anywhere, words included;
 *   2. holds none of 0 O o 1 l I | anywhere when AmbiguousChars is false;
 *   3. has at most 1,024 characters;
 *   4. with random characters alone: has a length in [MinLength, MaxLength] and a character of every class on;
 *   5. with words: is made of words of 3 to MaximumWordLength letters, and segments as the policy says.
 * The stored seed policies themselves are the case with no setting given.
 *
 * Seed: FC_SEED=<n> replays a run (printed on failure); FC_NUM_RUNS overrides the number of cases.
 * Run: npx jest test/reliability/generation
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { applySettings, type SettingValues } from '../../functions/domain/generator-settings';
import { checkFeasibility, generatePassword } from '../../functions/domain/password-generator';
import { validatePolicy } from '../../functions/domain/policy-collection';
import { WORD_LIST } from '../../functions/domain/word-list';
import { PROJECT_ROOT } from '../support/local-service';
import { assertProperty, clip } from '../support/property';

const RUNS = 400;
const PASSWORDS_PER_POLICY = 20;
const SEED = JSON.parse(
  readFileSync(path.join(PROJECT_ROOT, 'seed', 'generator-policies.json'), 'utf8'),
) as GeneratorPolicy[];

// The reference rules, written out here rather than taken from the code under test.
const AMBIGUOUS = '0Oo1lI|';
const CLASSES = {
  LowerCaseChars: 'abcdefghijklmnopqrstuvwxyz',
  UpperCaseChars: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  NumericChars: '0123456789',
} as const;

const bool = fc.constantFrom('true', 'false', 'True', 'False', '');
const wholeNumber = (min: number, max: number) => fc.oneof(fc.integer({ min, max }).map(String), fc.constant(''));
/** Characters users exclude: letters (which thin the word list), digits, symbols, a space. */
const excluded = fc.oneof(
  fc.constant(''),
  fc.string({ unit: fc.constantFrom(...'aeiostnrOl01|!@#$%*-_ '), maxLength: 6 }),
);

/** Settings as the clients send them, by the policy field each sets; empty values mean "not given". */
const settings: fc.Arbitrary<SettingValues> = fc.record(
  {
    IncludeAlphaSpecial: bool,
    IncludeWordPhrases: bool,
    MinLength: wholeNumber(4, 40),
    MaxLength: wholeNumber(4, 60),
    LowerCaseChars: bool,
    UpperCaseChars: bool,
    NumericChars: bool,
    HigherAlphaRatio: bool,
    AmbiguousChars: bool,
    SpecialChars: bool,
    SpecialCharsText: fc.constantFrom('', '!@#$%^&*', '-_=+', '?'),
    BracketChars: bool,
    BracketCharsText: fc.constantFrom('', '[]{}()<>', '()'),
    NumberOfWords: wholeNumber(1, 8),
    MaximumWordLength: wholeNumber(3, 12),
    PrefixAppendWords: fc.constantFrom('P', 'A', 'I', ''),
    SeparateWordsWith: fc.constantFrom('S', 'D', 'N', ''),
    ExcludeChars: excluded,
    GeneratePattern: fc.constantFrom('false', '', 'true'),
    Pattern: fc.constantFrom('', 'ulds', 'u{2}l{4}d{3}s{2}', 'w\\-w\\-d{2}', 'a{16}', 'w{3}', '\\#l{8}'),
  },
  { requiredKeys: [] },
);

/** What is wrong with one password of a valid, feasible policy; undefined when nothing is. */
function violation(p: GeneratorPolicy, password: string): string | undefined {
  const chars = [...password];
  const excludedHere = chars.filter((c) => p.ExcludeChars.includes(c));
  if (excludedHere.length > 0) return `holds excluded ${JSON.stringify(excludedHere.join(''))}`;
  if (!p.AmbiguousChars && chars.some((c) => AMBIGUOUS.includes(c))) return 'holds an ambiguous character';
  if (chars.length > 1024) return `has ${chars.length} characters`;
  if (p.GeneratePattern) return undefined;
  if (!p.IncludeWordPhrases) {
    if (chars.length < p.MinLength || chars.length > p.MaxLength)
      return `length ${chars.length} outside ${p.MinLength}..${p.MaxLength}`;
    for (const [field, set] of Object.entries(CLASSES)) {
      if (p[field as keyof typeof CLASSES] && !chars.some((c) => set.includes(c))) return `no character of ${field}`;
    }
    return undefined;
  }
  const separator = { S: ' ', D: '-', N: '' }[p.SeparateWordsWith];
  if (separator !== '' && !p.IncludeAlphaSpecial) {
    const words = password.split(separator);
    if (words.length !== p.NumberOfWords) return `${words.length} words, not ${p.NumberOfWords}`;
    const bad = words.find(
      (w) => !/^[a-z]+$/.test(w) || w.length < 3 || w.length > p.MaximumWordLength || !WORD_LIST.includes(w),
    );
    if (bad !== undefined) return `"${bad}" is not a word of 3 to ${p.MaximumWordLength} letters of the list`;
  }
  return undefined;
}

describe('every password from a valid, feasible policy keeps every rule, words included', () => {
  it('the seed policies, 1,000 passwords each', () => {
    for (const policy of SEED) {
      const bad = Array.from({ length: 1000 }, () => generatePassword(policy, WORD_LIST))
        .map((pw) => violation(policy, pw))
        .filter(Boolean);
      expect([policy.PasswordGeneratorID, bad.slice(0, 3)]).toEqual([policy.PasswordGeneratorID, []]);
    }
  });

  it('settings on a seed policy', async () => {
    let generated = 0;
    const { numRuns } = await assertProperty(
      'settings keep every rule',
      fc.property(fc.constantFrom(...SEED), settings, (base, values) => {
        const applied = applySettings(base, values);
        if (!applied.ok) return;
        const validated = validatePolicy(generatorPolicies, applied.policy);
        if (!validated.ok || !checkFeasibility(validated.policy, WORD_LIST).ok) return;
        generated += 1;
        for (let i = 0; i < PASSWORDS_PER_POLICY; i += 1) {
          const password = generatePassword(validated.policy, WORD_LIST);
          const problem = violation(validated.policy, password);
          if (problem) throw new Error(`${clip(JSON.stringify(password))} ${problem}`);
        }
      }),
      RUNS,
    );
    // The property must have generated from most cases, or it proves little.
    expect(generated).toBeGreaterThan(numRuns / 4);
  });
});
