import * as z from 'zod/mini';
import { field, problem, type PolicyResource } from './policy-resource';
import { checkPattern } from './pattern';

/** design.md §5: the characters that AmbiguousChars=false keeps out. */
export const AMBIGUOUS_CHARS = '0Oo1lI|';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

/** Printable ASCII without letters, digits or space, each character once (SpecialCharsText, BracketCharsText). */
const symbolSet = () =>
  z.string().check(
    z.maxLength(94),
    z.regex(/^[!-/:-@[-`{-~]*$/, 'must hold only printable ASCII symbols (no letters, digits or spaces)'),
    z.refine((s) => new Set(s).size === s.length, 'must not repeat a character'),
  );

const generatorPolicyShape = z.strictObject({
  PasswordGeneratorID: field.id(),
  GeneratorName: field.text(1, 100),
  GeneratorDescription: field.text(0, 1000),
  IncludeAlphaSpecial: field.bool(),
  IncludeWordPhrases: field.bool(),
  MinLength: field.int(4, 256),
  MaxLength: field.int(4, 256),
  LowerCaseChars: field.bool(),
  UpperCaseChars: field.bool(),
  NumericChars: field.bool(),
  HigherAlphaRatio: field.bool(),
  AmbiguousChars: field.bool(),
  SpecialChars: field.bool(),
  BracketChars: field.bool(),
  SpecialCharsText: symbolSet(),
  BracketCharsText: symbolSet(),
  NumberOfWords: field.int(0, 20),
  MaximumWordLength: field.int(3, 20),
  PrefixAppendWords: z.enum(['P', 'A', 'I']),
  SeparateWordsWith: z.enum(['S', 'D', 'N']),
  ExcludeChars: z.string().check(z.maxLength(256), z.regex(/^[^\p{Cc}\p{Cs}]*$/u, 'must hold only printable characters')),
  GeneratePattern: field.bool(),
  Pattern: z.string().check(z.maxLength(256)),
});

/** A password generator policy, exactly the fields of spec.md in its order. */
export type GeneratorPolicy = z.infer<typeof generatorPolicyShape>;

/** The characters each class may draw from once ExcludeChars (and the ambiguous set, unless allowed) are removed. */
export function characterClasses(p: GeneratorPolicy): Record<'l' | 'u' | 'd' | 's' | 'b', { on: boolean; field: string; chars: string }> {
  const removed = new Set(p.ExcludeChars + (p.AmbiguousChars ? '' : AMBIGUOUS_CHARS));
  const keep = (chars: string) => [...chars].filter((c) => !removed.has(c)).join('');
  return {
    l: { on: p.LowerCaseChars, field: 'LowerCaseChars', chars: keep(LOWER) },
    u: { on: p.UpperCaseChars, field: 'UpperCaseChars', chars: keep(UPPER) },
    d: { on: p.NumericChars, field: 'NumericChars', chars: keep(DIGITS) },
    s: { on: p.SpecialChars, field: 'SpecialChars', chars: keep(p.SpecialCharsText) },
    b: { on: p.BracketChars, field: 'BracketChars', chars: keep(p.BracketCharsText) },
  };
}

const generatorPolicySchema = generatorPolicyShape.check(
  z.superRefine((p, ctx) => {
    if (p.MinLength > p.MaxLength) problem(ctx, 'MaxLength', `must be at least MinLength (${p.MinLength})`, p.MaxLength);
    if (!p.IncludeAlphaSpecial && !p.IncludeWordPhrases && !p.GeneratePattern) {
      problem(ctx, 'IncludeAlphaSpecial', 'at least one of IncludeAlphaSpecial, IncludeWordPhrases, GeneratePattern must be true', false);
    }
    const classes = Object.values(characterClasses(p));
    if (p.SpecialChars && p.SpecialCharsText === '') problem(ctx, 'SpecialCharsText', 'must not be empty when SpecialChars is on', '');
    if (p.BracketChars && p.BracketCharsText === '') problem(ctx, 'BracketCharsText', 'must not be empty when BracketChars is on', '');
    if (p.IncludeAlphaSpecial) {
      if (!classes.some((c) => c.on)) problem(ctx, 'IncludeAlphaSpecial', 'needs at least one character class switched on', true);
      if (p.HigherAlphaRatio && !p.LowerCaseChars && !p.UpperCaseChars) {
        problem(ctx, 'HigherAlphaRatio', 'needs LowerCaseChars or UpperCaseChars on (letters must be more than half the characters)', true);
      }
      for (const c of classes) {
        if (c.on && c.chars === '') problem(ctx, c.field, 'has no character left after ExcludeChars and the ambiguous set are removed', true);
      }
    }
    if (p.IncludeWordPhrases && p.NumberOfWords < 1) problem(ctx, 'NumberOfWords', 'must be at least 1 when IncludeWordPhrases is on', p.NumberOfWords);
    if (!p.GeneratePattern && p.Pattern !== '') problem(ctx, 'Pattern', 'must be empty unless GeneratePattern is on', p.Pattern);
    if (p.GeneratePattern) {
      const error = checkPattern(p.Pattern, characterClasses(p));
      if (error) problem(ctx, 'Pattern', error, p.Pattern);
    }
  }),
);

export const generatorPolicies: PolicyResource<GeneratorPolicy> = {
  title: 'generator policy',
  schema: generatorPolicySchema,
  fields: Object.keys(generatorPolicyShape.shape) as (keyof GeneratorPolicy)[],
  idField: 'PasswordGeneratorID',
  nameField: 'GeneratorName',
  descriptionField: 'GeneratorDescription',
};
