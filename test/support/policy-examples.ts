import type { GeneratorPolicy } from '../../functions/domain/generator-policy';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';

/**
 * Valid policies that differ in what a listing and a search read of them: the identifier, the name and the
 * description (the rest is the fixture's, with any overrides).
 */
export const namedGeneratorPolicy = (
  id: number,
  name: string,
  description: string,
  overrides: Partial<GeneratorPolicy> = {},
): GeneratorPolicy =>
  generatorPolicy({ PasswordGeneratorID: id, GeneratorName: name, GeneratorDescription: description, ...overrides });

export const namedStrengthPolicy = (id: number, name: string, description: string): StrengthPolicy =>
  strengthPolicy({ PasswordStrengthPolicyID: id, PolicyName: name, PolicyDescription: description });

/**
 * A phrase of 4 words, then random characters drawn from the digits and specials alone: no letters among them, so
 * no letter ratio either. Spread into generatorPolicy, with the specials and where the characters go.
 */
export const FOUR_WORDS_THEN_DIGITS_AND_SPECIALS = {
  IncludeWordPhrases: true,
  NumberOfWords: 4,
  LowerCaseChars: false,
  UpperCaseChars: false,
  HigherAlphaRatio: false,
} as const satisfies Partial<GeneratorPolicy>;
