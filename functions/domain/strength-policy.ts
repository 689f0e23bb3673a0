import * as z from 'zod/mini';
import { field, fold, policyResource, problem, type PolicyResource } from './policy-collection';

/** length;numeric;casing;symbol: four non-negative integers summing to 100. */
export const DEFAULT_CALCULATION_WEIGHTINGS = '50;15;15;20';
export const COMPLIANCE_LEVELS = ['Very Poor', 'Weak', 'Average', 'Strong', 'Excellent'] as const;

/**
 * BannedWords: the words this organization does not allow in a password (docs/evaluation.md#evaluation-in-context),
 * set through the policy files of `npm run policy`. Stored with the policy after the specification's fields, and
 * never served: the list and search answers keep exactly the specification's fields.
 */
const BANNED_WORDS = { field: 'BannedWords', maxWords: 1000, minLength: 3, maxLength: 64 } as const;

/** Up to maxWords words of minLength to maxLength characters (code points), none twice (ignoring case and width). */
const bannedWords = z.array(z.string()).check(
  z.superRefine((words, ctx) => {
    const issue = (path: (string | number)[], message: string, input: unknown) => (ctx.issues as z.core.$ZodRawIssue[]).push({ code: 'custom', path, message, input });
    if (words.length > BANNED_WORDS.maxWords) issue([], `must hold at most ${BANNED_WORDS.maxWords} words (it holds ${words.length})`, words);
    const seen = new Map<string, number>();
    words.forEach((word, i) => {
      const length = [...word].length;
      if (length < BANNED_WORDS.minLength || length > BANNED_WORDS.maxLength) issue([i], `must have ${BANNED_WORDS.minLength} to ${BANNED_WORDS.maxLength} characters (it has ${length})`, word);
      const first = seen.get(fold(word));
      if (first !== undefined) issue([i], `repeats ${BANNED_WORDS.field}[${first}] (words are compared ignoring case)`, word);
      else seen.set(fold(word), i);
    });
  }),
);

const strengthPolicyShape = z.strictObject({
  PasswordStrengthPolicyID: field.id(),
  PolicyName: field.text(1, 100),
  PolicyDescription: field.text(0, 1000),
  MinimumLowerCaseCharacters: field.int(0, 64),
  MinimumNumericCharacters: field.int(0, 64),
  MinimumSymbolCharacters: field.int(0, 64),
  MinimumUpperCaseCharacters: field.int(0, 64),
  PreferredPasswordLength: field.int(4, 256),
  RequiresUpperAndLowerCase: field.bool(),
  CalculationWeightings: z.string().check(z.regex(/^\d{1,3};\d{1,3};\d{1,3};\d{1,3}$/, 'must be four integers separated by ";" (length;numeric;casing;symbol)')),
  PasswordStrengthCompliance: field.int(0, COMPLIANCE_LEVELS.length - 1),
  ComplianceMandatory: field.bool(),
  [BANNED_WORDS.field]: z.optional(bannedWords),
});

/** A password strength policy: the fields of the specification, in its order, and the BannedWords it may store. */
export type StrengthPolicy = z.infer<typeof strengthPolicyShape>;

const strengthPolicySchema = strengthPolicyShape.check(
  z.superRefine((p, ctx) => {
    const weights = p.CalculationWeightings.split(';').map(Number);
    const sum = weights.reduce((a, b) => a + b, 0);
    if (sum !== 100) problem(ctx, 'CalculationWeightings', `must sum to 100 (the four weights sum to ${sum})`, p.CalculationWeightings);
  }),
);

export const strengthPolicies: PolicyResource<StrengthPolicy> = policyResource('strength policy', strengthPolicyShape, strengthPolicySchema, {
  idField: 'PasswordStrengthPolicyID',
  nameField: 'PolicyName',
  descriptionField: 'PolicyDescription',
}, [BANNED_WORDS.field]);
