import * as z from 'zod/mini';
import { field, policyResource, problem, type PolicyResource } from './policy-collection';

/** SeparateWordsWith: S a space, D a dash, N nothing. */
export const SEPARATORS = { S: ' ', D: '-', N: '' } as const;

/** The characters that AmbiguousChars=false keeps out of a generated password. */
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
  ExcludeChars: z
    .string()
    .check(z.maxLength(256), z.regex(/^[^\p{Cc}\p{Cs}]*$/u, 'must hold only printable characters')),
  GeneratePattern: field.bool(),
  Pattern: z.string().check(z.maxLength(256)),
});

/** A password generator policy: exactly the fields of the specification, in its order. */
export type GeneratorPolicy = z.infer<typeof generatorPolicyShape>;

/** The characters no generated password may hold anywhere, words included: ExcludeChars, and the ambiguous set unless allowed. */
export function removedCharacters(p: Pick<GeneratorPolicy, 'ExcludeChars' | 'AmbiguousChars'>): ReadonlySet<string> {
  return new Set(p.ExcludeChars + (p.AmbiguousChars ? '' : AMBIGUOUS_CHARS));
}

/**
 * The longest password a policy may generate, in characters. It bounds an answer: 100 passwords of at most
 * this many characters, each at most 6 bytes in JSON, stay far below Lambda's 6 MB response limit. Only a
 * pattern can reach it; the other modes stop at 256 (MaxLength) and about 530 (20 words of 20 letters).
 */
export const MAX_GENERATED_LENGTH = 1024;

/** The characters each class may draw from once ExcludeChars (and the ambiguous set, unless allowed) are removed. */
export function characterClasses(
  p: GeneratorPolicy,
): Record<'l' | 'u' | 'd' | 's' | 'b', { on: boolean; field: string; chars: string }> {
  const removed = removedCharacters(p);
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
    if (p.MinLength > p.MaxLength)
      problem(ctx, 'MaxLength', `must be at least MinLength (${p.MinLength})`, p.MaxLength);
    if (!p.IncludeAlphaSpecial && !p.IncludeWordPhrases && !p.GeneratePattern) {
      problem(
        ctx,
        'IncludeAlphaSpecial',
        'at least one of IncludeAlphaSpecial, IncludeWordPhrases, GeneratePattern must be true',
        false,
      );
    }
    const classes = Object.values(characterClasses(p));
    if (p.SpecialChars && p.SpecialCharsText === '')
      problem(ctx, 'SpecialCharsText', 'must not be empty when SpecialChars is on', '');
    if (p.BracketChars && p.BracketCharsText === '')
      problem(ctx, 'BracketCharsText', 'must not be empty when BracketChars is on', '');
    if (p.IncludeAlphaSpecial) {
      if (!classes.some((c) => c.on))
        problem(ctx, 'IncludeAlphaSpecial', 'needs at least one character class switched on', true);
      if (p.HigherAlphaRatio && !p.LowerCaseChars && !p.UpperCaseChars) {
        problem(
          ctx,
          'HigherAlphaRatio',
          'needs LowerCaseChars or UpperCaseChars on (letters must be more than half the characters)',
          true,
        );
      }
      for (const c of classes) {
        if (c.on && c.chars === '')
          problem(ctx, c.field, 'has no character left after ExcludeChars and the ambiguous set are removed', true);
      }
    }
    if (p.IncludeWordPhrases && p.NumberOfWords < 1)
      problem(ctx, 'NumberOfWords', 'must be at least 1 when IncludeWordPhrases is on', p.NumberOfWords);
    // The separator is part of the password too, so ExcludeChars must leave it (a space, a dash) in.
    const separator = SEPARATORS[p.SeparateWordsWith];
    if (p.IncludeWordPhrases && separator !== '' && p.ExcludeChars.includes(separator)) {
      problem(
        ctx,
        'SeparateWordsWith',
        `joins words with ${JSON.stringify(separator)}, which ExcludeChars removes`,
        p.SeparateWordsWith,
      );
    }
    if (!p.GeneratePattern && p.Pattern !== '')
      problem(ctx, 'Pattern', 'must be empty unless GeneratePattern is on', p.Pattern);
    if (p.GeneratePattern) {
      const error = checkPattern(p);
      if (error) problem(ctx, 'Pattern', error, p.Pattern);
    }
  }),
);

export const generatorPolicies: PolicyResource<GeneratorPolicy> = policyResource(
  'generator policy',
  generatorPolicyShape,
  generatorPolicySchema,
  {
    idField: 'PasswordGeneratorID',
    nameField: 'GeneratorName',
    descriptionField: 'GeneratorDescription',
  },
);

// ---------------------------------------------------------------------------------------------------------
// The pattern syntax (GeneratePattern)
// ---------------------------------------------------------------------------------------------------------

/**
 * A pattern is a sequence of placeholders, each optionally followed by {n} (1 <= n <= 256): l u d s b a w,
 * or \x for the literal x (docs/generation.md).
 */
export type PatternToken =
  | { kind: 'l' | 'u' | 'd' | 's' | 'b' | 'a' | 'w'; count: number }
  | { kind: 'literal'; char: string; count: number };

export function parsePattern(pattern: string): PatternToken[] | string {
  const tokens: PatternToken[] = [];
  const chars = [...pattern];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    let token: PatternToken;
    if (c === '\\') {
      const literal = chars[i + 1];
      if (literal === undefined) return 'ends with a lone "\\"';
      token = { kind: 'literal', char: literal, count: 1 };
      i += 2;
    } else if ('ludsbaw'.includes(c)) {
      token = { kind: c as 'l', count: 1 };
      i += 1;
    } else {
      return `has an unknown placeholder "${c}" at position ${i + 1}`;
    }
    if (chars[i] === '{') {
      const close = chars.indexOf('}', i);
      const digits = close < 0 ? '' : chars.slice(i + 1, close).join('');
      if (!/^[0-9]{1,3}$/.test(digits) || Number(digits) < 1 || Number(digits) > 256) {
        return `has an invalid repeat at position ${i + 1} (use {n} with 1 <= n <= 256)`;
      }
      token.count = Number(digits);
      i = close + 1;
    }
    tokens.push(token);
  }
  return tokens.length > 0 ? tokens : 'must not be empty when GeneratePattern is on';
}

/**
 * Why the policy's pattern is invalid, or undefined when it is valid: a placeholder whose set is empty, a
 * literal that the policy removes (it would put an excluded or ambiguous character in every password), or
 * passwords that could be longer than MAX_GENERATED_LENGTH (a word counted at MaximumWordLength letters).
 */
function checkPattern(p: GeneratorPolicy): string | undefined {
  const tokens = parsePattern(p.Pattern);
  if (typeof tokens === 'string') return tokens;
  const classes = characterClasses(p);
  const removed = removedCharacters(p);
  const anyChars = Object.values(classes)
    .filter((c) => c.on)
    .map((c) => c.chars)
    .join('');
  for (const token of tokens) {
    if (token.kind === 'literal') {
      if (removed.has(token.char))
        return `has the literal "${token.char}", which ExcludeChars${p.AmbiguousChars ? '' : ' or the ambiguous set'} removes`;
      continue;
    }
    if (token.kind === 'w') continue;
    const set = token.kind === 'a' ? anyChars : classes[token.kind].chars;
    if (set === '') return `uses "${token.kind}", whose character set is empty for this policy`;
  }
  const longest = tokens.reduce((length, t) => length + t.count * (t.kind === 'w' ? p.MaximumWordLength : 1), 0);
  return longest > MAX_GENERATED_LENGTH
    ? `generates up to ${longest} characters; a generated password has at most ${MAX_GENERATED_LENGTH}`
    : undefined;
}
