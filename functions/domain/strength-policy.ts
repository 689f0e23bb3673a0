import * as z from 'zod/mini';
import { field, policyResource, problem, type PolicyResource } from './policy-collection';

/** length;numeric;casing;symbol: four non-negative integers summing to 100. */
export const DEFAULT_CALCULATION_WEIGHTINGS = '50;15;15;20';
export const COMPLIANCE_LEVELS = ['Very Poor', 'Weak', 'Average', 'Strong', 'Excellent'] as const;

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
});

/** A password strength policy: exactly the fields of the specification, in its order. */
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
});
