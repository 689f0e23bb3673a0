import * as z from 'zod/mini';
import { COMPLIANCE_LEVELS } from './compliance-levels';
import { field, fold, policyResource, problem, type PolicyResource } from './policy-collection';
import { matchedLength, refusedCharacter, type RefusedCharacter, type RefusedCharacterKind } from './unicode-text';

/** length;numeric;casing;symbol: four non-negative integers summing to 100. */
export const DEFAULT_CALCULATION_WEIGHTINGS = '50;15;15;20';

/**
 * BannedWords: the words this organization does not allow in a password (docs/evaluation.md#evaluation-in-context),
 * set through the policy files of `npm run policy`. Stored with the policy after the specification's fields, and
 * never served: the list and search answers keep exactly the specification's fields.
 */
const BANNED_WORDS = { field: 'BannedWords', maxWords: 1000, minLength: 3, maxLength: 64 } as const;

/**
 * The rules a list of BannedWords is held to. `write`, every rule: what every policy file, put, apply, rollback
 * and seed is checked against. `stored`, the rules of the words already in the tables, which the functions
 * read with: before the characters a word may hold were restricted and its length was counted after NFKC.
 * A rule added later must not take a stored policy out of service on the next read (the repository leaves an
 * invalid record out); `npm run policy -- lint` names such a word, and the next write of the policy must
 * correct it (docs/decisions.md#policy-data).
 */
type WordRules = 'write' | 'stored';

/** Why a word may not be banned, naming the character by its code point and place, never showing it. */
const REFUSED_CHARACTER: Record<RefusedCharacterKind, (c: RefusedCharacter) => string> = {
  'control character': (c) => `must not contain control characters (character ${c.position} is ${c.codePoint})`,
  'unpaired surrogate': (c) =>
    `must be valid Unicode text (character ${c.position} is ${c.codePoint}, an unpaired surrogate)`,
  'format character': (c) =>
    `must not contain invisible format characters, such as bidirectional controls and zero-width spaces (character ${c.position} is ${c.codePoint})`,
  noncharacter: (c) => `must not contain Unicode noncharacters (character ${c.position} is ${c.codePoint})`,
};

/**
 * Up to maxWords words of minLength to maxLength characters, none twice (ignoring case and width). Written,
 * a word is counted as sent and after NFKC (matchedLength, as UserInputs are) and holds none of the
 * characters UserInputs refuse (controls, unpaired surrogates) nor format characters or noncharacters;
 * stored, it is counted in code points as sent, as it was when written.
 */
function bannedWords(rules: WordRules) {
  return z.array(z.string()).check(
    z.superRefine((words, ctx) => {
      const issue = (path: (string | number)[], message: string, input: unknown) =>
        (ctx.issues as z.core.$ZodRawIssue[]).push({ code: 'custom', path, message, input });
      if (words.length > BANNED_WORDS.maxWords)
        issue([], `must hold at most ${BANNED_WORDS.maxWords} words (it holds ${words.length})`, words);
      const seen = new Map<string, number>();
      words.forEach((word, i) => {
        const sent = [...word].length;
        const length = rules === 'write' ? matchedLength(word) : sent;
        if (length < BANNED_WORDS.minLength || length > BANNED_WORDS.maxLength) {
          issue(
            [i],
            `must have ${BANNED_WORDS.minLength} to ${BANNED_WORDS.maxLength} characters (it has ${sent}${length > sent ? `, ${length} after NFKC normalization` : ''})`,
            word,
          );
        }
        const refused = rules === 'write' ? refusedCharacter(word) : undefined;
        if (refused !== undefined) issue([i], REFUSED_CHARACTER[refused.kind](refused), word);
        const first = seen.get(fold(word));
        if (first !== undefined)
          issue([i], `repeats ${BANNED_WORDS.field}[${first}] (words are compared ignoring case)`, word);
        else seen.set(fold(word), i);
      });
    }),
  );
}

function strengthPolicyShape(rules: WordRules) {
  return z.strictObject({
    PasswordStrengthPolicyID: field.id(),
    PolicyName: field.text(1, 100),
    PolicyDescription: field.text(0, 1000),
    MinimumLowerCaseCharacters: field.int(0, 64),
    MinimumNumericCharacters: field.int(0, 64),
    MinimumSymbolCharacters: field.int(0, 64),
    MinimumUpperCaseCharacters: field.int(0, 64),
    PreferredPasswordLength: field.int(4, 256),
    RequiresUpperAndLowerCase: field.bool(),
    CalculationWeightings: z
      .string()
      .check(
        z.regex(
          /^\d{1,3};\d{1,3};\d{1,3};\d{1,3}$/,
          'must be four integers separated by ";" (length;numeric;casing;symbol)',
        ),
      ),
    PasswordStrengthCompliance: field.int(0, COMPLIANCE_LEVELS.length - 1),
    ComplianceMandatory: field.bool(),
    [BANNED_WORDS.field]: z.optional(bannedWords(rules)),
  });
}

const writtenShape = strengthPolicyShape('write');

/** A password strength policy: the fields of the specification, in its order, and the BannedWords it may store. */
export type StrengthPolicy = z.infer<typeof writtenShape>;

/** The schema of a shape, with the rule across fields: the four weights sum to 100. */
function withWeightsRule<S extends z.ZodMiniType<StrengthPolicy>>(shape: S) {
  return shape.check(
    z.superRefine((p: StrengthPolicy, ctx) => {
      const weights = p.CalculationWeightings.split(';').map(Number);
      const sum = weights.reduce((a, b) => a + b, 0);
      if (sum !== 100)
        problem(
          ctx,
          'CalculationWeightings',
          `must sum to 100 (the four weights sum to ${sum})`,
          p.CalculationWeightings,
        );
    }),
  );
}

export const strengthPolicies: PolicyResource<StrengthPolicy> = policyResource(
  'strength policy',
  writtenShape,
  withWeightsRule(writtenShape),
  { idField: 'PasswordStrengthPolicyID', nameField: 'PolicyName', descriptionField: 'PolicyDescription' },
  [BANNED_WORDS.field],
  withWeightsRule(strengthPolicyShape('stored')),
);
