import type { GeneratorPolicy } from '../functions/domain/generator-policy';
import type { StrengthPolicy } from '../functions/domain/strength-policy';

/**
 * A valid generator policy in the specification's field order; override fields per test. Its keys are the tests'
 * one copy of that order: policy-schemas.test.ts holds the schema's fields to them.
 */
export function generatorPolicy(overrides: Partial<GeneratorPolicy> = {}): GeneratorPolicy {
  return {
    PasswordGeneratorID: 1,
    GeneratorName: 'Default Password Generator Policy',
    GeneratorDescription: 'The default for password lists without a specific policy.',
    IncludeAlphaSpecial: true,
    IncludeWordPhrases: false,
    MinLength: 12,
    MaxLength: 16,
    LowerCaseChars: true,
    UpperCaseChars: true,
    NumericChars: true,
    HigherAlphaRatio: true,
    AmbiguousChars: false,
    SpecialChars: true,
    BracketChars: false,
    SpecialCharsText: '!@#$%^&*',
    BracketCharsText: '[]{}()<>',
    NumberOfWords: 0,
    MaximumWordLength: 8,
    PrefixAppendWords: 'A',
    SeparateWordsWith: 'D',
    ExcludeChars: '',
    GeneratePattern: false,
    Pattern: '',
    ...overrides,
  };
}

/**
 * A valid strength policy in the specification's field order; override fields per test. Its keys are the tests'
 * one copy of that order: policy-schemas.test.ts holds the schema's fields to them.
 */
export function strengthPolicy(overrides: Partial<StrengthPolicy> = {}): StrengthPolicy {
  return {
    PasswordStrengthPolicyID: 1,
    PolicyName: 'Default Password Strength Policy',
    PolicyDescription: 'The default for password lists without a specific policy.',
    MinimumLowerCaseCharacters: 1,
    MinimumNumericCharacters: 1,
    MinimumSymbolCharacters: 1,
    MinimumUpperCaseCharacters: 1,
    PreferredPasswordLength: 12,
    RequiresUpperAndLowerCase: true,
    CalculationWeightings: '50;15;15;20',
    PasswordStrengthCompliance: 3,
    ComplianceMandatory: false,
    ...overrides,
  };
}
