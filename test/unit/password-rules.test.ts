/**
 * Apple's password-rules descriptors of admin/password-rules.ts, read back by the independent parser of
 * test/support/password-rules-parser.ts. The round trip: passwords a password manager would make from each
 * descriptor meet the policy, and (for a generator policy) what the policy generates meets the descriptor.
 */
import {
  characterClassValues,
  generatorPasswordRules,
  strengthPasswordRules,
  type PasswordRules,
} from '../../admin/password-rules';
import { shortestCompliantLength } from '../../admin/policy-lint';
import {
  parsePattern,
  removedCharacters,
  SEPARATORS,
  type GeneratorPolicy,
} from '../../functions/domain/generator-policy';
import { generatePassword } from '../../functions/domain/password-generator';
import { compositionFailures, countCharacters } from '../../functions/domain/evaluation/strength-evaluator';
import { WORD_LIST } from '../../functions/domain/word-list';
import {
  generateFromRules,
  meetsRules,
  parsePasswordRules,
  PasswordRulesSyntaxError,
} from '../support/password-rules-parser';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';
import { useSeedPolicies } from '../support/seed-policies';
import { seeded } from '../../testkit/seeded-random';

const SEED = useSeedPolicies();

const PASSWORDS = 500;
const chars = (from: string, to: string) =>
  Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) =>
    String.fromCharCode(from.charCodeAt(0) + i),
  );

describe('the parser (the language as Apple documents it)', () => {
  it('reads named classes, custom classes, repeated rules and lengths', () => {
    const rules = parsePasswordRules(
      'required: upper; required: digit, [-!]; allowed: lower; minlength: 8; minlength: 12; maxlength: 64; maxlength: 20; max-consecutive: 3',
    );
    expect(rules.required.map((set) => [...set].sort().join(''))).toEqual([
      chars('A', 'Z').join(''),
      ['!', '-', ...chars('0', '9')].join(''),
    ]);
    expect(rules.allowed.size).toBe(26 + 26 + 10 + 2);
    expect([rules.minLength, rules.maxLength, rules.maxConsecutive]).toEqual([12, 20, 3]);
  });

  it('a "]" is a member only last, written "]]"; a "-" only first; "special" holds the space; no property allows all printable ASCII', () => {
    expect([...parsePasswordRules('allowed: [-a]]').allowed].sort()).toEqual(['-', ']', 'a']);
    expect(() => parsePasswordRules('allowed: [a-b]')).toThrow(PasswordRulesSyntaxError);
    expect(parsePasswordRules('required: special').required[0]!.has(' ')).toBe(true);
    expect(parsePasswordRules('').allowed.size).toBe(95);
    // Class names are case-insensitive; property names are not (Apple's parser does not know "REQUIRED").
    expect(parsePasswordRules('required: Upper').required[0]!.size).toBe(26);
    expect(() => parsePasswordRules('REQUIRED: upper')).toThrow(PasswordRulesSyntaxError);
  });

  it('refuses what it cannot read', () => {
    for (const bad of [
      'required upper',
      'required: vowels',
      'minlength: x',
      'allowed: [abc',
      'colour: red',
      'required: upper,',
    ]) {
      expect(() => parsePasswordRules(bad)).toThrow(PasswordRulesSyntaxError);
    }
  });

  it('meetsRules wants a character of its own for each required rule', () => {
    const twoDigits = parsePasswordRules('required: digit; required: digit; allowed: lower');
    expect(meetsRules(twoDigits, 'abc1')).toBe(false);
    expect(meetsRules(twoDigits, 'a1b2')).toBe(true);
    expect(meetsRules(parsePasswordRules('required: digit, upper; required: digit'), 'A1')).toBe(true);
    expect(meetsRules(parsePasswordRules('allowed: digit; minlength: 4'), '123')).toBe(false);
  });
});

describe('character sets as property values', () => {
  it('whole named classes by name, the rest as one custom class with "-" first and "]" last', () => {
    expect(characterClassValues(chars(' ', '~'))).toEqual(['ascii-printable']);
    expect(characterClassValues([...chars('a', 'z'), ...chars('0', '9')])).toEqual(['lower', 'digit']);
    expect(characterClassValues(['_', ']', 'x', '-', '['])).toEqual(['[-[_x]]']);
    expect(() => characterClassValues(['é'])).toThrow('ASCII printable characters only');
  });
});

describe('strength policies: what they accept', () => {
  it('the default policy: one required rule per composition rule, all printable ASCII, from its shortest Compliant password to 256', () => {
    expect(strengthPasswordRules(SEED.strength[0]!)).toEqual({
      descriptor:
        'required: upper; required: lower; required: digit; required: special; allowed: ascii-printable; minlength: 7; maxlength: 256',
      notes: [],
    });
  });

  it('a minimum of 3 is three required rules, with a note that a password manager may merge them', () => {
    const rules = strengthPasswordRules(
      strengthPolicy({
        MinimumNumericCharacters: 3,
        MinimumLowerCaseCharacters: 0,
        MinimumUpperCaseCharacters: 0,
        MinimumSymbolCharacters: 0,
        RequiresUpperAndLowerCase: false,
      }),
    );
    expect(rules.descriptor).toMatch(
      /^required: digit; required: digit; required: digit; allowed: ascii-printable; minlength: \d+; maxlength: 256$/,
    );
    expect(rules.notes).toEqual([
      'A minimum above 1 is written as that many `required:` rules; a password manager that reads each rule as "at least one" and merges repeats may generate fewer.',
    ]);
  });

  it('round trip, every seed strength policy: passwords made from the parsed descriptor break no composition rule and are at least the shortest Compliant length', () => {
    const random = seeded(21);
    for (const policy of SEED.strength) {
      const rules = parsePasswordRules(strengthPasswordRules(policy).descriptor);
      expect(rules.minLength).toBe(shortestCompliantLength(policy));
      const failures = Array.from({ length: PASSWORDS }, () => generateFromRules(rules, random)).flatMap((password) => {
        const counts = countCharacters(password);
        return [
          ...compositionFailures(policy, counts).map((f) => f.Rule),
          ...(counts.length < rules.minLength! ? ['too short'] : []),
        ];
      });
      expect({ id: policy.PasswordStrengthPolicyID, failures }).toEqual({
        id: policy.PasswordStrengthPolicyID,
        failures: [],
      });
    }
  });

  it('the round trip can fail: a descriptor with one rule too few makes passwords that break the composition rules', () => {
    const policy = SEED.strength[4]!; // two digits, two of each case, one symbol
    const descriptor = strengthPasswordRules(policy).descriptor.replace('required: digit; ', '');
    const rules = parsePasswordRules(descriptor);
    const random = seeded(5);
    const broken = Array.from({ length: PASSWORDS }, () => generateFromRules(rules, random)).filter(
      (p) => compositionFailures(policy, countCharacters(p)).length > 0,
    );
    expect(broken.length).toBeGreaterThan(0);
  });
});

/**
 * Whether a password fits a generator policy's character rules, read from its fields (not from the descriptor):
 * no removed character; only characters the policy draws (its classes, its words' letters, its separator, its
 * literals); every class it always places; a length in its range.
 */
function fitsGeneratorPolicy(p: GeneratorPolicy, password: string, lengths: { min: number; max: number }): string[] {
  const problems: string[] = [];
  const list = [...password];
  const removed = removedCharacters(p);
  const letters = (from: string, to: string) => chars(from, to).filter((c) => !removed.has(c));
  const classes = {
    l: p.LowerCaseChars ? letters('a', 'z') : [],
    u: p.UpperCaseChars ? letters('A', 'Z') : [],
    d: p.NumericChars ? letters('0', '9') : [],
    s: p.SpecialChars ? [...p.SpecialCharsText].filter((c) => !removed.has(c)) : [],
    b: p.BracketChars ? [...p.BracketCharsText].filter((c) => !removed.has(c)) : [],
  };
  const drawn = new Set<string>(Object.values(classes).flat());
  if (p.IncludeWordPhrases || p.Pattern.includes('w')) letters('a', 'z').forEach((c) => drawn.add(c));
  if (p.IncludeWordPhrases) drawn.add(SEPARATORS[p.SeparateWordsWith]);
  const pattern = p.GeneratePattern ? parsePattern(p.Pattern) : [];
  if (typeof pattern === 'string') throw new Error(pattern);
  for (const token of pattern) {
    if (token.kind === 'literal') drawn.add(token.char);
    if (token.kind === 'l' || token.kind === 'u' || token.kind === 'd')
      classes[token.kind].forEach((c) => drawn.add(c));
  }
  if (list.some((c) => removed.has(c))) problems.push('a removed character');
  if (list.some((c) => !drawn.has(c)))
    problems.push(`a character the policy never draws: ${JSON.stringify(list.filter((c) => !drawn.has(c)).join(''))}`);
  if (list.length < lengths.min || list.length > lengths.max) problems.push(`length ${list.length}`);
  // Classes it always places: every class on in alpha mode and in phrase segments; each placeholder of a pattern.
  const always = p.GeneratePattern
    ? pattern.flatMap((t) => (t.kind in classes && t.kind !== 'a' ? [t.kind as keyof typeof classes] : []))
    : p.IncludeAlphaSpecial
      ? (Object.keys(classes) as (keyof typeof classes)[]).filter((k) => classes[k].length > 0)
      : [];
  for (const kind of new Set(always))
    if (!list.some((c) => classes[kind].includes(c))) problems.push(`no character of class ${kind}`);
  return problems;
}

describe('generator policies: what they generate', () => {
  it('seed policies 1, 7 and 10 as descriptors', () => {
    const [one, seven, ten] = [SEED.generator[0]!, SEED.generator[6]!, SEED.generator[9]!].map(
      generatorPasswordRules,
    ) as [PasswordRules, PasswordRules, PasswordRules];
    expect(one).toEqual({
      descriptor:
        'required: [abcdefghijkmnpqrstuvwxyz]; required: [ABCDEFGHJKLMNPQRSTUVWXYZ]; required: [23456789]; required: [-!#$%&*+=?@^_]; allowed: [-!#$%&*+23456789=?@ABCDEFGHJKLMNPQRSTUVWXYZ^_abcdefghijkmnpqrstuvwxyz]; minlength: 12; maxlength: 16',
      notes: [
        'HigherAlphaRatio (letters are more than half) cannot be said in the language: a password manager may generate fewer letters.',
      ],
    });
    expect(seven.descriptor).toBe(
      'required: lower; required: [ ]; required: [ ]; required: [ ]; required: [ ]; allowed: lower, [ ]; minlength: 19; maxlength: 49',
    );
    expect(ten.descriptor).toBe(
      `${['[ABCDEFGHJKLMNPQRSTUVWXYZ]', '[ABCDEFGHJKLMNPQRSTUVWXYZ]', ...Array(4).fill('[abcdefghijkmnpqrstuvwxyz]'), ...Array(3).fill('[23456789]'), '[!#$%?@]', '[!#$%?@]'].map((v) => `required: ${v}`).join('; ')}; allowed: [!#$%23456789?@ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz]; minlength: 11; maxlength: 11`,
    );
  });

  it('round trip, every seed generator policy: what the policy generates meets its parsed descriptor, and what a password manager makes from it fits the policy', () => {
    const random = seeded(42);
    for (const policy of SEED.generator) {
      const rules = parsePasswordRules(generatorPasswordRules(policy).descriptor);
      const generated = Array.from({ length: PASSWORDS }, () => generatePassword(policy, WORD_LIST, random));
      expect({ id: policy.PasswordGeneratorID, outside: generated.filter((p) => !meetsRules(rules, p)) }).toEqual({
        id: policy.PasswordGeneratorID,
        outside: [],
      });
      const made = Array.from({ length: PASSWORDS }, () =>
        generateFromRules(rules, random, rules.maxLength! - rules.minLength!),
      );
      const lengths = { min: rules.minLength!, max: rules.maxLength! };
      const misfits = made
        .map((p) => fitsGeneratorPolicy(policy, p, lengths))
        .filter((problems) => problems.length > 0);
      expect({ id: policy.PasswordGeneratorID, misfits: misfits.slice(0, 3) }).toEqual({
        id: policy.PasswordGeneratorID,
        misfits: [],
      });
    }
  });

  it('the round trip can fail: a descriptor allowing an excluded character makes passwords that do not fit', () => {
    const policy = generatorPolicy({ ExcludeChars: '!', SpecialCharsText: '!@#' });
    const descriptor = generatorPasswordRules(policy).descriptor.replace('allowed: [', 'allowed: [!');
    const rules = parsePasswordRules(descriptor);
    const random = seeded(9);
    const misfits = Array.from({ length: PASSWORDS }, () => generateFromRules(rules, random)).filter(
      (p) => fitsGeneratorPolicy(policy, p, { min: 12, max: 32 }).length > 0,
    );
    expect(misfits.length).toBeGreaterThan(0);
  });
});
