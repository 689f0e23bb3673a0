import { generatorPolicies } from '../../functions/domain/generator-policy';
import { validatePolicy } from '../../functions/domain/policy-collection';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';

// The specification's fields, in its order: the fixtures are written in that order, and are the tests' one copy of it.
const GENERATOR_FIELDS = Object.keys(generatorPolicy());
const STRENGTH_FIELDS = Object.keys(strengthPolicy());

const problemsOfGenerator = (overrides: Record<string, unknown>) => {
  const result = validatePolicy(generatorPolicies, { ...generatorPolicy(), ...overrides });
  return result.ok ? [] : result.problems;
};
const problemsOfStrength = (overrides: Record<string, unknown>) => {
  const result = validatePolicy(strengthPolicies, { ...strengthPolicy(), ...overrides });
  return result.ok ? [] : result.problems;
};

describe('resource field sets (the specification)', () => {
  it('lists exactly the generator policy fields in spec order', () => {
    expect(generatorPolicies.fields).toEqual(GENERATOR_FIELDS);
  });

  it('lists exactly the strength policy fields in spec order', () => {
    expect(strengthPolicies.fields).toEqual(STRENGTH_FIELDS);
  });

  it('re-emits a record in spec order whatever the stored attribute order', () => {
    const shuffled = Object.fromEntries(Object.entries(generatorPolicy()).reverse());
    const result = validatePolicy(generatorPolicies, shuffled);
    expect(result.ok && Object.keys(result.policy)).toEqual(GENERATOR_FIELDS);
    expect(result.ok && JSON.stringify(result.policy)).toBe(JSON.stringify(generatorPolicy()));
  });

  it.each([
    ['generator', generatorPolicies, generatorPolicy()],
    ['strength', strengthPolicies, strengthPolicy()],
  ] as const)('rejects a %s record with a missing field, naming it', (_, resource, record) => {
    for (const field of resource.fields) {
      const { [field]: _removed, ...rest } = record as unknown as Record<string, unknown>;
      const result = validatePolicy(resource as never, rest);
      expect(result).toEqual({ ok: false, problems: expect.arrayContaining([`${field}: is missing`]) });
    }
  });

  it('rejects unknown fields rather than passing them to clients', () => {
    expect(problemsOfStrength({ Extra: 1 })).toEqual(['(record): unknown field(s) Extra']);
  });
});

describe('JSON types: integers are integers and booleans are booleans, never strings', () => {
  it.each([
    [{ PasswordGeneratorID: '1' }, 'PasswordGeneratorID: must be an integer'],
    [{ MinLength: 12.5 }, 'MinLength: must be an integer'],
    [{ IncludeAlphaSpecial: 'true' }, 'IncludeAlphaSpecial: must be a boolean'],
    [{ GeneratorName: 7 }, 'GeneratorName: must be a string'],
  ])('generator %j', (overrides, problem) => {
    expect(problemsOfGenerator(overrides)).toContain(problem);
  });

  it.each([
    [{ PasswordStrengthPolicyID: 1.5 }, 'PasswordStrengthPolicyID: must be an integer'],
    [{ ComplianceMandatory: 1 }, 'ComplianceMandatory: must be a boolean'],
  ])('strength %j', (overrides, problem) => {
    expect(problemsOfStrength(overrides)).toContain(problem);
  });
});

describe('generator policy value domains (docs/decisions.md#value-domains)', () => {
  it('accepts the reference policy', () => {
    expect(problemsOfGenerator({})).toEqual([]);
  });

  it.each([
    [{ PasswordGeneratorID: 0 }, 'PasswordGeneratorID: must be at least 1'],
    [{ GeneratorName: '' }, 'GeneratorName: must have at least 1 characters'],
    [{ GeneratorName: 'x'.repeat(101) }, 'GeneratorName: must have at most 100 characters'],
    [{ GeneratorDescription: 'x'.repeat(1001) }, 'GeneratorDescription: must have at most 1000 characters'],
    [{ MinLength: 3 }, 'MinLength: must be at least 4'],
    [{ MaxLength: 257 }, 'MaxLength: must be at most 256'],
    [{ MinLength: 20, MaxLength: 16 }, 'MaxLength: must be at least MinLength (20)'],
    [
      { IncludeAlphaSpecial: false, IncludeWordPhrases: false, GeneratePattern: false },
      'IncludeAlphaSpecial: at least one of IncludeAlphaSpecial, IncludeWordPhrases, GeneratePattern must be true',
    ],
    [
      { LowerCaseChars: false, UpperCaseChars: false, NumericChars: false, SpecialChars: false, BracketChars: false },
      'IncludeAlphaSpecial: needs at least one character class switched on',
    ],
    [
      { HigherAlphaRatio: true, LowerCaseChars: false, UpperCaseChars: false },
      'HigherAlphaRatio: needs LowerCaseChars or UpperCaseChars on (letters must be more than half the characters)',
    ],
    [
      { ExcludeChars: '0123456789' },
      'NumericChars: has no character left after ExcludeChars and the ambiguous set are removed',
    ],
    [{ SpecialCharsText: '' }, 'SpecialCharsText: must not be empty when SpecialChars is on'],
    [{ SpecialCharsText: '!!' }, 'SpecialCharsText: must not repeat a character'],
    [
      { SpecialCharsText: '!a' },
      'SpecialCharsText: must hold only printable ASCII symbols (no letters, digits or spaces)',
    ],
    [
      { BracketCharsText: '[ ]' },
      'BracketCharsText: must hold only printable ASCII symbols (no letters, digits or spaces)',
    ],
    [{ NumberOfWords: 21 }, 'NumberOfWords: must be at most 20'],
    [{ IncludeWordPhrases: true, NumberOfWords: 0 }, 'NumberOfWords: must be at least 1 when IncludeWordPhrases is on'],
    [{ MaximumWordLength: 2 }, 'MaximumWordLength: must be at least 3'],
    [{ PrefixAppendWords: 'X' }, 'PrefixAppendWords: must be one of "P", "A", "I"'],
    [{ SeparateWordsWith: 'space' }, 'SeparateWordsWith: must be one of "S", "D", "N"'],
    [{ ExcludeChars: 'a\u0007' }, 'ExcludeChars: must hold only printable characters'],
    [{ Pattern: 'ul' }, 'Pattern: must be empty unless GeneratePattern is on'],
  ])('%j is rejected', (overrides, problem) => {
    expect(problemsOfGenerator(overrides)).toContain(problem);
  });

  it('counts the ambiguous set out of a class when AmbiguousChars is false, not when true', () => {
    const onlyAmbiguousSymbol = { SpecialCharsText: '|' };
    expect(problemsOfGenerator({ ...onlyAmbiguousSymbol, AmbiguousChars: false })).toContain(
      'SpecialChars: has no character left after ExcludeChars and the ambiguous set are removed',
    );
    expect(problemsOfGenerator({ ...onlyAmbiguousSymbol, AmbiguousChars: true })).toEqual([]);
  });

  it('ignores a class that is switched off, even when it would be empty', () => {
    expect(problemsOfGenerator({ BracketChars: false, BracketCharsText: '' })).toEqual([]);
  });
});

describe('the word separator is part of the password (found by test/reliability/generation.property.test.ts)', () => {
  const phrase = { IncludeWordPhrases: true, NumberOfWords: 3 };
  it.each([
    ['S', ' '],
    ['D', '-'],
  ])('refuses SeparateWordsWith %s when ExcludeChars removes %j', (code, separator) => {
    expect(problemsOfGenerator({ ...phrase, SeparateWordsWith: code, ExcludeChars: `#${separator}` })).toEqual([
      `SeparateWordsWith: joins words with ${JSON.stringify(separator)}, which ExcludeChars removes`,
    ]);
  });

  it('accepts it when words are off or nothing separates them', () => {
    expect(problemsOfGenerator({ SeparateWordsWith: 'S', ExcludeChars: ' ' })).toEqual([]);
    expect(problemsOfGenerator({ ...phrase, SeparateWordsWith: 'N', ExcludeChars: ' -' })).toEqual([]);
  });
});

describe('pattern syntax (docs/decisions.md#pattern-syntax)', () => {
  const withPattern = (Pattern: string, overrides: Record<string, unknown> = {}) =>
    problemsOfGenerator({ GeneratePattern: true, Pattern, ...overrides });

  it.each(['ulds', 'u{2}l{4}d{3}s{2}', 'w\\-w\\-d{4}', 'a{256}', '\\{l\\}', 'b'])('accepts %s', (pattern) => {
    expect(withPattern(pattern, { BracketChars: true })).toEqual([]);
  });

  const INVALID_REPEAT = 'Pattern: has an invalid repeat at position 2 (use {n} with 1 <= n <= 256)';
  it.each([
    ['', 'Pattern: must not be empty when GeneratePattern is on'],
    ['x', 'Pattern: has an unknown placeholder "x" at position 1'],
    ['l{0}', INVALID_REPEAT],
    ['l{257}', INVALID_REPEAT],
    ['l{3', INVALID_REPEAT],
    ['l\\', 'Pattern: ends with a lone "\\"'],
  ])('rejects %j', (pattern, problem) => {
    expect(withPattern(pattern)).toContain(problem);
  });

  it('rejects a literal that the policy removes, since it would be in every password', () => {
    expect(withPattern('u{4}\\#d{4}', { ExcludeChars: '#' })).toEqual([
      'Pattern: has the literal "#", which ExcludeChars or the ambiguous set removes',
    ]);
    expect(withPattern('u{4}\\0d{4}', { AmbiguousChars: false })).toEqual([
      'Pattern: has the literal "0", which ExcludeChars or the ambiguous set removes',
    ]);
    expect(withPattern('u{4}\\0d{4}', { AmbiguousChars: true })).toEqual([]);
    expect(withPattern('u{4}\\#d{4}', { AmbiguousChars: true, ExcludeChars: '#' })).toEqual([
      'Pattern: has the literal "#", which ExcludeChars removes',
    ]);
  });

  it('bounds the generated length at 1024 characters, a word counted at MaximumWordLength', () => {
    // 4 x 256 = 1024 characters: the most a pattern may generate.
    expect(withPattern('a{256}a{256}a{256}a{256}')).toEqual([]);
    expect(withPattern('a{256}a{256}a{256}a{256}d')).toEqual([
      'Pattern: generates up to 1025 characters; a generated password has at most 1024',
    ]);
    // w{128} of up to 8 letters is 1024; of up to 9, 1152. The 7.5 MB answer of w{256} repeated cannot be stored.
    expect(withPattern('w{128}', { MaximumWordLength: 8 })).toEqual([]);
    expect(withPattern('w{128}', { MaximumWordLength: 9 })).toEqual([
      'Pattern: generates up to 1152 characters; a generated password has at most 1024',
    ]);
    expect(withPattern('w{256}w{256}')).toEqual([
      'Pattern: generates up to 4096 characters; a generated password has at most 1024',
    ]);
  });

  it('rejects a placeholder whose set is empty after exclusions', () => {
    expect(withPattern('d', { ExcludeChars: '0123456789', NumericChars: false })).toContain(
      'Pattern: uses "d", whose character set is empty for this policy',
    );
    expect(
      withPattern('a', {
        IncludeAlphaSpecial: false,
        LowerCaseChars: false,
        UpperCaseChars: false,
        NumericChars: false,
        SpecialChars: false,
      }),
    ).toContain('Pattern: uses "a", whose character set is empty for this policy');
  });
});

describe('strength policy value domains (docs/decisions.md#value-domains)', () => {
  it('accepts the reference policy', () => {
    expect(problemsOfStrength({})).toEqual([]);
  });

  it.each([
    [{ PolicyName: '' }, 'PolicyName: must have at least 1 characters'],
    [{ MinimumSymbolCharacters: 65 }, 'MinimumSymbolCharacters: must be at most 64'],
    [{ MinimumLowerCaseCharacters: -1 }, 'MinimumLowerCaseCharacters: must be at least 0'],
    [{ PreferredPasswordLength: 3 }, 'PreferredPasswordLength: must be at least 4'],
    [{ PasswordStrengthCompliance: 5 }, 'PasswordStrengthCompliance: must be at most 4'],
    [
      { CalculationWeightings: '50;15;15' },
      'CalculationWeightings: must be four integers separated by ";" (length;numeric;casing;symbol)',
    ],
    [
      { CalculationWeightings: '50;15;-15;20' },
      'CalculationWeightings: must be four integers separated by ";" (length;numeric;casing;symbol)',
    ],
    [{ CalculationWeightings: '50;15;15;25' }, 'CalculationWeightings: must sum to 100 (the four weights sum to 105)'],
  ])('%j is rejected', (overrides, problem) => {
    expect(problemsOfStrength(overrides)).toContain(problem);
  });
});
