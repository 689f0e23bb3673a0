import {
  characterClasses,
  parsePattern,
  SEPARATORS,
  type GeneratorPolicy,
  type PatternToken,
} from '../functions/domain/generator-policy';
import { classesOn, eligibleWords, generationMode } from '../functions/domain/password-generator';
import { MAX_PASSWORD_LENGTH } from '../functions/domain/evaluation';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { WORD_LIST } from '../functions/domain/word-list';
import { generatedLengths, requiredCounts, shortestCompliantLength } from './policy-lint';

/**
 * A policy in Apple's password-rules language (the `passwordrules` attribute; docs/administration.md#passwordrules):
 * `required: upper; required: digit; allowed: lower; minlength: 14; maxlength: 20`. Pure: a policy in, the
 * descriptor out, with notes on what the language cannot say. test/support/password-rules-parser.ts reads
 * it back, independently of this file. A strength policy's BannedWords have no rule in the language (it has
 * none for words) and no note: they do not change what the composition rules accept.
 */

export interface PasswordRules {
  /** The value of the `passwordrules` attribute. */
  readonly descriptor: string;
  /** What the policy asks that the language cannot say, one sentence each. */
  readonly notes: readonly string[];
}

/** The ASCII printable characters, space to tilde: the language's `ascii-printable`. */
const PRINTABLE = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i));
const range = (from: string, to: string) => PRINTABLE.filter((c) => c >= from && c <= to);

/** The language's named classes, in the order it writes them; `special` is every printable that is not a letter or digit, space included. */
const NAMED_CLASSES: readonly (readonly [string, readonly string[]])[] = [
  ['upper', range('A', 'Z')],
  ['lower', range('a', 'z')],
  ['digit', range('0', '9')],
  ['special', PRINTABLE.filter((c) => !/[A-Za-z0-9]/.test(c))],
];

/**
 * A set of characters as property values: `ascii-printable` for all of them, else each named class it holds
 * whole, then the rest as one custom class (`-` first and `]` last, where the language wants them).
 */
export function characterClassValues(chars: Iterable<string>): string[] {
  const set = new Set(chars);
  const outside = [...set].filter((c) => !PRINTABLE.includes(c));
  if (outside.length > 0)
    throw new Error(
      `Apple's password rules hold ASCII printable characters only, not ${JSON.stringify(outside.join(''))}.`,
    );
  if (set.size === PRINTABLE.length) return ['ascii-printable'];
  const values: string[] = [];
  const rest = new Set(set);
  for (const [name, members] of NAMED_CLASSES) {
    if (members.every((c) => set.has(c))) {
      values.push(name);
      members.forEach((c) => rest.delete(c));
    }
  }
  if (rest.size > 0) {
    const ordered = PRINTABLE.filter((c) => rest.has(c) && c !== '-' && c !== ']');
    values.push(`[${rest.has('-') ? '-' : ''}${ordered.join('')}${rest.has(']') ? ']' : ''}]`);
  }
  return values;
}

/** A rule list as the attribute's value: `required: a; required: b; allowed: c; minlength: n; maxlength: m`. */
function describe(
  required: readonly (readonly string[])[],
  allowed: Iterable<string>,
  minLength: number,
  maxLength: number,
): string {
  const rules = [
    ...required.map((set) => `required: ${characterClassValues(set).join(', ')}`),
    `allowed: ${characterClassValues(allowed).join(', ')}`,
    `minlength: ${minLength}`,
    `maxlength: ${maxLength}`,
  ];
  return rules.join('; ');
}

const repeat = <T>(item: T, times: number): T[] => Array.from({ length: times }, () => item);

const CLASS_CHARS = {
  upper: NAMED_CLASSES[0]![1],
  lower: NAMED_CLASSES[1]![1],
  numeric: NAMED_CLASSES[2]![1],
  symbol: NAMED_CLASSES[3]![1],
};

/**
 * What a strength policy accepts: one `required:` rule for each character its composition rules demand (a
 * minimum of 2 digits is two `required: digit` rules), every printable ASCII character allowed, and the
 * lengths from the shortest password it can rate Compliant to the longest it evaluates (256).
 */
export function strengthPasswordRules(p: StrengthPolicy): PasswordRules {
  const counts = requiredCounts(p);
  const required = (['upper', 'lower', 'numeric', 'symbol'] as const).flatMap((key) =>
    repeat(CLASS_CHARS[key], counts[key]),
  );
  const shortest = shortestCompliantLength(p);
  const notes = [
    ...(Object.values(counts).some((n) => n > 1)
      ? [
          'A minimum above 1 is written as that many `required:` rules; a password manager that reads each rule as "at least one" and merges repeats may generate fewer.',
        ]
      : []),
    ...(shortest === undefined
      ? [
          `No password of up to ${MAX_PASSWORD_LENGTH} characters can be Compliant, so minlength is the most the evaluation takes.`,
        ]
      : []),
  ];
  return { descriptor: describe(required, PRINTABLE, shortest ?? MAX_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH), notes };
}

/** The letters the policy's eligible words are made of. */
function wordLetters(p: GeneratorPolicy): Set<string> {
  return new Set(eligibleWords(WORD_LIST, p).flatMap((w) => [...w]));
}

/**
 * What a generator policy generates: a `required:` rule for each character it always places (one of each
 * class switched on; each placeholder of a pattern; each segment's classes and the word letters and
 * separators of a phrase), the characters it may use, and its shortest and longest password.
 */
export function generatorPasswordRules(p: GeneratorPolicy): PasswordRules {
  const on = classesOn(p);
  const required: (readonly string[])[] = [];
  const allowed = new Set<string>();
  const notes: string[] = [];
  const use = (chars: Iterable<string>, times = 1) => {
    const set = [...new Set(chars)];
    set.forEach((c) => allowed.add(c));
    required.push(...repeat(set, times));
  };
  switch (generationMode(p)) {
    case 'alpha':
      on.forEach((c) => use(c.chars));
      on.forEach((c) => c.chars.forEach((ch) => allowed.add(ch)));
      if (p.HigherAlphaRatio)
        notes.push(
          'HigherAlphaRatio (letters are more than half) cannot be said in the language: a password manager may generate fewer letters.',
        );
      break;
    case 'words':
    case 'words+alpha': {
      const segments = !p.IncludeAlphaSpecial ? 0 : p.PrefixAppendWords === 'I' ? p.NumberOfWords - 1 : 1;
      use(wordLetters(p));
      on.forEach((c) => use(c.chars, segments));
      const separator = SEPARATORS[p.SeparateWordsWith];
      if (separator !== '') use([separator], p.NumberOfWords + segments - 1);
      notes.push(
        'The language has no words: a password manager generates random characters from the same set, not a phrase.',
      );
      break;
    }
    case 'pattern': {
      const classes = characterClasses(p);
      const anyClass = on.flatMap((c) => c.chars);
      for (const token of parsePattern(p.Pattern) as PatternToken[]) {
        if (token.kind === 'literal') use([token.char], token.count);
        else if (token.kind === 'w') use(wordLetters(p), token.count);
        else use(token.kind === 'a' ? anyClass : classes[token.kind].chars, token.count);
      }
      notes.push("The language has no order: a password manager may place the pattern's characters anywhere.");
      break;
    }
    case 'none':
      throw new Error(
        'A generator policy with IncludeAlphaSpecial, IncludeWordPhrases and GeneratePattern all off generates nothing.',
      );
  }
  const { shortest, longest } = generatedLengths(p);
  return { descriptor: describe(required, allowed, shortest, longest), notes };
}
