import { randomBytes } from 'node:crypto';
import {
  AMBIGUOUS_CHARS,
  characterClasses,
  parsePattern,
  type GeneratorPolicy,
} from '../../functions/domain/generator-policy';
import {
  checkFeasibility,
  cryptoRandom,
  eligibleWords,
  entropyBits,
  generatePassword,
  InfeasiblePolicyError,
  type RandomSource,
} from '../../functions/domain/password-generator';
import { WORD_LIST } from '../../functions/domain/word-list';

const wordsUpTo = (maxLength: number) =>
  eligibleWords(WORD_LIST, { MaximumWordLength: maxLength, ExcludeChars: '', AmbiguousChars: true });
import { generatorPolicy } from '../../testkit/policy-fixtures';
import { seeded } from '../../testkit/seeded-random';
import { FOUR_WORDS_THEN_DIGITS_AND_SPECIALS } from '../support/policy-examples';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { DEFAULT_GENERATOR_FILE, readSeedFile, SeedValidationError } from '../../seed/seed-data';

/** The modulo-biased source the uniformity test must reject: one random byte reduced mod n. */
function moduloBiased(): RandomSource {
  let buffer = randomBytes(65536);
  let at = 0;
  return {
    int(n: number) {
      if (at === buffer.length) {
        buffer = randomBytes(65536);
        at = 0;
      }
      return buffer[at++]! % n; // same distribution as randomBytes(1)[0] % n, fetched in bulk for speed
    },
  };
}

const N = 10_000;
const many = (policy: GeneratorPolicy, random: RandomSource, count = N, words: readonly string[] = WORD_LIST) =>
  Array.from({ length: count }, () => generatePassword(policy, words, random));

const setOf = (s: string) => new Set([...s]);
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const isLetter = (c: string) => /[A-Za-z]/.test(c);

const wordSets = new Map<readonly string[], Map<string, Set<string>>>();
function wordSetOf(words: readonly string[], max: number, removed: Set<string>): Set<string> {
  const byKey = wordSets.get(words) ?? new Map<string, Set<string>>();
  wordSets.set(words, byKey);
  const key = `${max} ${[...removed].join('')}`;
  if (!byKey.has(key))
    byKey.set(
      key,
      new Set(
        words.filter(
          (w) => /^[a-z]+$/.test(w) && w.length >= 3 && w.length <= max && ![...w].some((c) => removed.has(c)),
        ),
      ),
    );
  return byKey.get(key)!;
}

/**
 * Checks one password against its policy's rules (a test oracle, written independently of the generator).
 * Returns a problem, or undefined.
 */
function violation(p: GeneratorPolicy, pw: string, words: readonly string[] = WORD_LIST): string | undefined {
  const cls = characterClasses(p);
  const on = (Object.keys(cls) as (keyof typeof cls)[]).filter((k) => cls[k].on);
  const removed = setOf(p.ExcludeChars + (p.AmbiguousChars ? '' : AMBIGUOUS_CHARS));
  const wordSet = wordSetOf(words, p.MaximumWordLength, removed);
  // The exclusions hold over the whole password: random characters, words and a pattern's literals.
  for (const c of pw) if (removed.has(c)) return `contains the removed character ${c}`;
  const checkSegment = (seg: string): string | undefined => {
    if (seg.length !== on.length) return `segment ${seg} should have ${on.length} characters`;
    for (const k of on)
      if ([...seg].filter((c) => cls[k].chars.includes(c)).length !== 1) return `segment ${seg} lacks exactly one ${k}`;
    return undefined;
  };
  if (p.GeneratePattern) {
    const tokens = parsePattern(p.Pattern);
    if (typeof tokens === 'string') return tokens;
    const esc = (s: string) => s.replace(/[\\\]^-]/g, '\\$&');
    const anyChars = on.map((k) => cls[k].chars).join('');
    const re = tokens
      .map((t) => {
        const one =
          t.kind === 'literal'
            ? esc(t.char).replace(/^([.*+?(){}|$/])$/, '\\$1')
            : t.kind === 'w'
              ? `([a-z]{3,${p.MaximumWordLength}})`
              : `[${esc(t.kind === 'a' ? anyChars : cls[t.kind].chars)}]`;
        return t.kind === 'literal' ? one.repeat(t.count) : t.kind === 'w' ? one.repeat(t.count) : `${one}{${t.count}}`;
      })
      .join('');
    const m = new RegExp(`^${re}$`).exec(pw);
    if (!m) return `does not match the pattern ${p.Pattern}`;
    for (const w of m.slice(1)) if (!wordSet.has(w!)) return `word ${w} not in the list`;
    return undefined;
  }
  if (p.IncludeWordPhrases) {
    const sep = { S: ' ', D: '-', N: '' }[p.SeparateWordsWith];
    if (sep === '') return undefined; // not splittable here; covered by the N test below
    const parts = pw.split(sep);
    let wordParts = parts;
    if (p.IncludeAlphaSpecial) {
      if (p.PrefixAppendWords === 'P') wordParts = parts.slice(1);
      if (p.PrefixAppendWords === 'A') wordParts = parts.slice(0, -1);
      if (p.PrefixAppendWords === 'I') wordParts = parts.filter((_, i) => i % 2 === 0);
      const segs =
        p.PrefixAppendWords === 'P'
          ? parts.slice(0, 1)
          : p.PrefixAppendWords === 'A'
            ? parts.slice(-1)
            : parts.filter((_, i) => i % 2 === 1);
      const expected = p.PrefixAppendWords === 'I' ? p.NumberOfWords - 1 : 1;
      if (segs.length !== expected) return `expected ${expected} segments`;
      for (const s of segs) {
        const problem = checkSegment(s);
        if (problem) return problem;
      }
    }
    if (wordParts.length !== p.NumberOfWords) return `expected ${p.NumberOfWords} words, got ${wordParts.length}`;
    for (const w of wordParts) if (!wordSet.has(w)) return `word ${w} not in the list or too long`;
    return undefined;
  }
  const chars = [...pw];
  if (chars.length < p.MinLength || chars.length > p.MaxLength) return `length ${chars.length} out of range`;
  const all = on.map((k) => cls[k].chars).join('');
  for (const c of chars) if (!all.includes(c)) return `character ${c} not allowed`;
  for (const k of on) if (!chars.some((c) => cls[k].chars.includes(c))) return `no ${k} character`;
  if (p.HigherAlphaRatio && chars.filter(isLetter).length * 2 <= chars.length) return 'letters not more than half';
  return undefined;
}

function expectAllValid(policy: GeneratorPolicy, passwords: readonly string[]): void {
  const bad = passwords.map((pw) => [pw, violation(policy, pw)]).filter(([, v]) => v !== undefined);
  expect(bad.slice(0, 3)).toEqual([]);
}

// ------------------------------------------------------------------------------------------------------
describe('alpha-special (semantics 2)', () => {
  const policy = generatorPolicy(); // 12..16, l u d s, HigherAlphaRatio, no ambiguous
  const passwords = many(policy, seeded(1));

  it('keeps every length within bounds and uses every length of the range', () => {
    const lengths = new Set(passwords.map((p) => p.length));
    expect([...lengths].sort((a, b) => a - b)).toEqual([12, 13, 14, 15, 16]);
  });

  it('has every class, only allowed characters, more letters than not', () => {
    expectAllValid(policy, passwords);
    for (const pw of passwords) {
      expect([...pw].filter(isLetter).length).toBeGreaterThan(pw.length / 2);
      expect(/[a-z]/.test(pw) && /[A-Z]/.test(pw) && /[0-9]/.test(pw) && /[!@#$%^&*]/.test(pw)).toBe(true);
    }
  });

  it('never contains an ambiguous character when AmbiguousChars is false, and sometimes does when true', () => {
    const ambiguous = setOf(AMBIGUOUS_CHARS + '|');
    expect(passwords.some((pw) => [...pw].some((c) => ambiguous.has(c)))).toBe(false);
    const allowing = generatorPolicy({ AmbiguousChars: true, SpecialCharsText: '!@#|' });
    const withAmbiguous = many(allowing, seeded(2));
    expectAllValid(allowing, withAmbiguous);
    for (const c of AMBIGUOUS_CHARS) expect(withAmbiguous.some((pw) => pw.includes(c))).toBe(true);
  });

  it('never contains an excluded character', () => {
    const excluding = generatorPolicy({
      ExcludeChars: 'aeiouAEIOU2468!@',
      BracketChars: true,
      MinLength: 8,
      MaxLength: 40,
    });
    const pws = many(excluding, seeded(3));
    expectAllValid(excluding, pws);
    for (const pw of pws) expect(pw).not.toMatch(/[aeiouAEIOU2468!@]/);
    expect(new Set(pws.map((p) => p.length)).size).toBe(33);
    expect(pws.every((pw) => /[[\]{}()<>]/.test(pw))).toBe(true);
  });

  it('fills the tightest HigherAlphaRatio policy exactly (upper, digits, special at length 5)', () => {
    const tight = generatorPolicy({ LowerCaseChars: false, MinLength: 5, MaxLength: 5, SpecialCharsText: '#$@' });
    expect(checkFeasibility(tight, WORD_LIST)).toEqual({ ok: true });
    const pws = many(tight, seeded(4));
    expectAllValid(tight, pws);
    for (const pw of pws) expect(pw.replace(/[^A-Z]/g, '')).toHaveLength(3);
  });

  it('without HigherAlphaRatio still has one character of each class (even at MinLength = number of classes)', () => {
    const five = generatorPolicy({ HigherAlphaRatio: false, BracketChars: true, MinLength: 5, MaxLength: 6 });
    const pws = many(five, seeded(5));
    expectAllValid(five, pws);
    expect(pws.some((pw) => [...pw].filter(isLetter).length * 2 <= pw.length)).toBe(true);
  });
});

describe('word phrases (semantics 3)', () => {
  const phrase = generatorPolicy({
    IncludeAlphaSpecial: false,
    IncludeWordPhrases: true,
    NumberOfWords: 4,
    MaximumWordLength: 6,
    SeparateWordsWith: 'S',
  });

  it.each([
    ['S', ' '],
    ['D', '-'],
  ] as const)('draws NumberOfWords words of the list, within MaximumWordLength, joined by %s', (code, sep) => {
    const policy = { ...phrase, SeparateWordsWith: code };
    const pws = many(policy, seeded(6));
    expectAllValid(policy, pws);
    const used = new Set(pws.flatMap((pw) => pw.split(sep)));
    for (const w of used) expect(w.length).toBeLessThanOrEqual(6);
    // 40,000 draws: every one of the 1,429 eligible words occurs (a miss has probability below 1e-9).
    expect(used).toEqual(new Set(eligibleWords(WORD_LIST, policy)));
    expect(used.size).toBe(1429);
    expect(Math.max(...[...used].map((w) => w.length))).toBe(6);
  });

  it('with N runs the same words together, and ignores Min/MaxLength', () => {
    const spaced = many({ ...phrase, MinLength: 200, MaxLength: 256 }, seeded(7), 1000);
    const joined = many({ ...phrase, SeparateWordsWith: 'N', MinLength: 4, MaxLength: 4 }, seeded(7), 1000);
    expect(joined).toEqual(spaced.map((pw) => pw.replace(/ /g, '')));
  });

  it('draws with replacement (a word can repeat within a phrase)', () => {
    // 20 words from 1,429: a phrase repeats a word with probability about 1 in 8.
    const long = { ...phrase, NumberOfWords: 20 };
    const pws = many(long, seeded(8), 1000);
    expect(pws.filter((pw) => new Set(pw.split(' ')).size < 20).length).toBeGreaterThan(50);
  });
});

describe('word phrases with random characters (semantics 4)', () => {
  const base = generatorPolicy({
    ...FOUR_WORDS_THEN_DIGITS_AND_SPECIALS,
    MaximumWordLength: 8,
    SpecialCharsText: '!#$%&*?',
    SeparateWordsWith: 'D',
  });

  it.each(['P', 'A', 'I'] as const)('places segments with %s', (where) => {
    const policy = { ...base, PrefixAppendWords: where };
    const pws = many(policy, seeded(9));
    expectAllValid(policy, pws);
    const parts = pws[0]!.split('-');
    expect(parts).toHaveLength(where === 'I' ? 7 : 5);
    const seg = /^(?:[2-9][!#$%&*?]|[!#$%&*?][2-9])$/;
    if (where === 'P') expect(parts[0]).toMatch(seg);
    if (where === 'A') expect(parts[4]).toMatch(seg);
    if (where === 'I') expect([parts[1], parts[3], parts[5]].every((s) => seg.test(s!))).toBe(true);
    // Both orders of a segment occur (it is shuffled).
    expect(pws.some((pw) => /-[0-9][^a-z0-9-]/.test(pw) || /^[0-9][^a-z0-9-]-/.test(pw))).toBe(true);
    expect(pws.some((pw) => /-[^a-z0-9-][0-9]/.test(pw) || /^[^a-z0-9-][0-9]-/.test(pw))).toBe(true);
  });

  it('with a space separator, and a segment of every class (including letters) appended', () => {
    const policy = {
      ...base,
      SeparateWordsWith: 'S' as const,
      LowerCaseChars: true,
      UpperCaseChars: true,
      BracketChars: true,
      PrefixAppendWords: 'A' as const,
    };
    const pws = many(policy, seeded(10));
    expectAllValid(policy, pws);
    expect(pws.every((pw) => pw.split(' ').at(-1)!.length === 5)).toBe(true);
  });

  it('I with one word has no segment', () => {
    const policy = { ...base, NumberOfWords: 1, PrefixAppendWords: 'I' as const };
    for (const pw of many(policy, seeded(11), 1000)) expect(pw).toMatch(/^[a-z]{3,8}$/);
  });
});

describe('patterns (semantics 1)', () => {
  it('draws each position from its set, ignoring Min/MaxLength', () => {
    const policy = generatorPolicy({
      IncludeAlphaSpecial: false,
      GeneratePattern: true,
      Pattern: 'u{2}l{4}d{3}s{2}',
      MinLength: 40,
      MaxLength: 50,
    });
    const pws = many(policy, seeded(12));
    expectAllValid(policy, pws);
    for (const pw of pws) expect(pw).toMatch(/^[A-HJ-NP-Z]{2}[a-km-np-z]{4}[2-9]{3}[!@#$%^&*]{2}$/);
  });

  it('handles a, w, literals and repeats', () => {
    const policy = generatorPolicy({
      GeneratePattern: true,
      Pattern: 'w\\-d{2}\\{a{3}\\}b',
      LowerCaseChars: false,
      UpperCaseChars: true,
      NumericChars: false,
      SpecialChars: false,
      BracketChars: false,
      AmbiguousChars: true,
      MaximumWordLength: 5,
    });
    const pws = many(policy, seeded(13));
    expectAllValid(policy, pws);
    for (const pw of pws) expect(pw).toMatch(/^[a-z]{3,5}-[0-9]{2}\{[A-Z]{3}\}[[\]{}()<>]$/);
    // `a` uses only the classes switched on; `b` draws from BracketCharsText whether or not BracketChars is on.
    expect(new Set(pws.map((pw) => pw.at(-1))).size).toBe(8);
  });

  it('excludes characters from pattern placeholders too', () => {
    const policy = generatorPolicy({ GeneratePattern: true, Pattern: 'a{20}', ExcludeChars: 'xyzXYZ' });
    for (const pw of many(policy, seeded(14))) expect(pw).toMatch(/^[^xyzXYZ0O1lI|o]{20}$/);
  });
});

// ------------------------------------------------------------------------------------------------------
// Uniformity: chi-squared goodness of fit.
// ------------------------------------------------------------------------------------------------------
const Z_P001 = 3.090232; // upper-tail standard normal quantile for p = 0.001
const Z_P1E9 = 5.997807; // for p = 1e-9
/** Wilson–Hilferty approximation of the chi-squared critical value with df degrees of freedom. */
const critical = (df: number, z: number) => df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
function chiSquared(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}
/** Counts per (position, character): one chi-squared statistic over all positions (df = positions * (k - 1)). */
function positionalChiSquared(
  passwords: readonly string[],
  alphabet: string,
): { stat: number; df: number; charStat: number } {
  const len = passwords[0]!.length;
  const table = Array.from({ length: len }, () => new Array<number>(alphabet.length).fill(0));
  const overall = new Array<number>(alphabet.length).fill(0);
  for (const pw of passwords) {
    for (let i = 0; i < len; i += 1) {
      const k = alphabet.indexOf(pw[i]!);
      table[i]![k]! += 1;
      overall[k]! += 1;
    }
  }
  return {
    stat: table.reduce((s, row) => s + chiSquared(row), 0),
    df: len * (alphabet.length - 1),
    charStat: chiSquared(overall),
  };
}

describe('uniformity', () => {
  it('sanity: the Wilson–Hilferty critical values match the tables', () => {
    expect(critical(9, Z_P001)).toBeCloseTo(27.88, 0);
    expect(critical(25, Z_P001)).toBeCloseTo(52.62, 0);
    expect(critical(72, Z_P001)).toBeCloseTo(114.82, 0);
  });

  const digits8 = generatorPolicy({
    LowerCaseChars: false,
    UpperCaseChars: false,
    SpecialChars: false,
    HigherAlphaRatio: false,
    AmbiguousChars: true,
    MinLength: 8,
    MaxLength: 8,
  });

  it('digits-only length 8: positions and digits are uniform (seeded source, p = 0.001)', () => {
    const { stat, df, charStat } = positionalChiSquared(many(digits8, seeded(20)), DIGITS);
    expect(df).toBe(72);
    expect(stat).toBeLessThan(critical(72, Z_P001));
    expect(charStat).toBeLessThan(critical(9, Z_P001));
  });

  it('the shuffle puts the class characters in every order equally often (24 orders of 4 classes)', () => {
    const four = generatorPolicy({ HigherAlphaRatio: false, MinLength: 4, MaxLength: 4 });
    const classOf = (c: string) => (LOWER.includes(c) ? 'l' : UPPER.includes(c) ? 'u' : DIGITS.includes(c) ? 'd' : 's');
    const counts = new Map<string, number>();
    for (const pw of many(four, seeded(21), 24_000)) {
      const order = [...pw].map(classOf).join('');
      counts.set(order, (counts.get(order) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    expect(chiSquared([...counts.values()])).toBeLessThan(critical(23, Z_P001));
  });

  const lower10 = generatorPolicy({
    UpperCaseChars: false,
    NumericChars: false,
    SpecialChars: false,
    HigherAlphaRatio: false,
    AmbiguousChars: true,
    MinLength: 10,
    MaxLength: 10,
  });
  const SAMPLE = 50_000; // 500,000 lower-case letters

  it('cryptoRandom passes (threshold p = 1e-9, so a false failure has probability < 1e-9 per statistic)', () => {
    const { stat, df, charStat } = positionalChiSquared(many(lower10, cryptoRandom, SAMPLE), LOWER);
    expect(stat).toBeLessThan(critical(df, Z_P1E9));
    expect(charStat).toBeLessThan(critical(25, Z_P1E9));
  });

  it('a modulo-biased source (byte % 26) fails it, proving the test has power', () => {
    // 22 letters have probability 10/256 and 4 have 9/256: over 500,000 letters the expected statistic is
    // about 25 + 671, against a critical value of 94 even at p = 1e-9, so this cannot pass by chance.
    const { charStat } = positionalChiSquared(many(lower10, moduloBiased(), SAMPLE), LOWER);
    expect(charStat).toBeGreaterThan(critical(25, Z_P1E9));
    expect(charStat).toBeGreaterThan(critical(25, Z_P001));
  });
});

// ------------------------------------------------------------------------------------------------------
describe('feasibility (semantics 5)', () => {
  const alpha = (o: Partial<GeneratorPolicy>) => generatorPolicy(o);
  const words = (o: Partial<GeneratorPolicy>) =>
    generatorPolicy({ IncludeAlphaSpecial: false, IncludeWordPhrases: true, NumberOfWords: 4, ...o });
  const pattern = (o: Partial<GeneratorPolicy>) =>
    generatorPolicy({ IncludeAlphaSpecial: false, GeneratePattern: true, Pattern: 'd{4}', ...o });
  const AMB = ' and the ambiguous characters';
  /** Why a phrase cannot be made: fewer words of 3 to `max` letters (`which`: of those the policy leaves) than 1,296. */
  const fewerWords = (found: number, max: number, which = '') =>
    `A word phrase draws from at least 1296 words, but the word list has ${found} of 3 to ${max} letters${which} (MaximumWordLength is ${max}).`;
  type Case = [name: string, policy: GeneratorPolicy, reason: string | undefined, words?: readonly string[]];
  const cases: Case[] = [
    ['the default', alpha({}), undefined],
    [
      '4 classes in MinLength 3',
      alpha({ MinLength: 3, HigherAlphaRatio: false }),
      '4 character classes must each appear once, but MinLength is 3.',
    ],
    [
      '5 classes in MinLength 4',
      alpha({ MinLength: 4, MaxLength: 4, BracketChars: true, HigherAlphaRatio: false }),
      '5 character classes must each appear once, but MinLength is 4.',
    ],
    ['4 classes in MinLength 4', alpha({ MinLength: 4, MaxLength: 4, HigherAlphaRatio: false }), undefined],
    [
      'HigherAlphaRatio, 1 letter class + 3 others, MinLength 5',
      alpha({ UpperCaseChars: false, BracketChars: true, MinLength: 5 }),
      'HigherAlphaRatio needs 3 letters at MinLength 5, plus one character of each of the 3 other character classes, 6 in all, but MinLength is 5.',
    ],
    [
      'HigherAlphaRatio, 1 letter class + 2 others, MinLength 5',
      alpha({ UpperCaseChars: false, MinLength: 5 }),
      undefined,
    ],
    [
      'HigherAlphaRatio, 2 letter classes + 2 others, MinLength 4',
      alpha({ MinLength: 4 }),
      'HigherAlphaRatio needs 3 letters at MinLength 4, plus one character of each of the 2 other character classes, 5 in all, but MinLength is 4.',
    ],
    [
      'HigherAlphaRatio without letters',
      alpha({ LowerCaseChars: false, UpperCaseChars: false }),
      'HigherAlphaRatio is on but neither LowerCaseChars nor UpperCaseChars is, so letters cannot be more than half.',
    ],
    [
      'no class on',
      alpha({
        LowerCaseChars: false,
        UpperCaseChars: false,
        NumericChars: false,
        SpecialChars: false,
        HigherAlphaRatio: false,
      }),
      'IncludeAlphaSpecial is on but no character class is switched on.',
    ],
    [
      'digits all excluded',
      alpha({ ExcludeChars: '23456789' }),
      `NumericChars is on but has no character left after removing ExcludeChars${AMB}.`,
    ],
    [
      'empty special text',
      alpha({ SpecialCharsText: '', AmbiguousChars: true }),
      'SpecialChars is on but has no character left after removing ExcludeChars.',
    ],
    ['MinLength > MaxLength', alpha({ MinLength: 12, MaxLength: 8 }), 'MinLength is 12, more than MaxLength 8.'],
    ['words', words({}), undefined],
    [
      'words, no class on (classes unused)',
      words({ LowerCaseChars: false, UpperCaseChars: false, NumericChars: false, SpecialChars: false }),
      undefined,
    ],
    ['words, Min/MaxLength irrelevant', words({ MinLength: 200, MaxLength: 4 }), undefined],
    [
      'NumberOfWords 0',
      words({ NumberOfWords: 0 }),
      'IncludeWordPhrases needs NumberOfWords of at least 1, but it is 0.',
    ],
    ['no word short enough', words({ MaximumWordLength: 8, AmbiguousChars: true }), fewerWords(0, 8), ['elephants']],
    // The boundary: 1,429 words of up to 6 letters without the ambiguous characters, 789 of up to 5.
    ['words of up to 6 letters, none ambiguous', words({ MaximumWordLength: 6 }), undefined],
    [
      'words of up to 5 letters, none ambiguous',
      words({ MaximumWordLength: 5 }),
      fewerWords(789, 5, ' without the ambiguous characters'),
    ],
    ['words of up to 4 letters', words({ MaximumWordLength: 4, AmbiguousChars: true }), fewerWords(549, 4)],
    [
      'words without e, a or s',
      words({ ExcludeChars: 'eas' }),
      fewerWords(
        WORD_LIST.filter((w) => /^[^eas0Oo1lI|]{3,8}$/.test(w) && /^[a-z]+$/.test(w)).length,
        8,
        ' without ExcludeChars or the ambiguous characters',
      ),
    ],
    [
      'words + alpha, empty class',
      words({ IncludeAlphaSpecial: true, SpecialCharsText: '!', ExcludeChars: '!' }),
      `SpecialChars is on but has no character left after removing ExcludeChars${AMB}.`,
    ],
    [
      'words + alpha, no class',
      words({
        IncludeAlphaSpecial: true,
        LowerCaseChars: false,
        UpperCaseChars: false,
        NumericChars: false,
        SpecialChars: false,
      }),
      'IncludeAlphaSpecial is on but no character class is switched on.',
    ],
    ['pattern (ignores the alpha-special lengths)', pattern({ IncludeAlphaSpecial: true, MinLength: 2 }), undefined],
    ['bad pattern', pattern({ Pattern: 'dx' }), 'The pattern "dx" has an unknown placeholder "x" at position 2.'],
    [
      'pattern with an empty s',
      pattern({ Pattern: 's{2}', SpecialCharsText: '', AmbiguousChars: true }),
      'The pattern\'s "s" has no character left after removing ExcludeChars.',
    ],
    [
      'pattern with an empty d',
      pattern({ ExcludeChars: '23456789' }),
      `The pattern's "d" has no character left after removing ExcludeChars${AMB}.`,
    ],
    [
      'pattern a, no class on',
      pattern({ Pattern: 'a', LowerCaseChars: false, UpperCaseChars: false, NumericChars: false, SpecialChars: false }),
      'The pattern\'s "a" has no character to draw from: no character class that is switched on keeps a character.',
    ],
    [
      'pattern w without words',
      pattern({ Pattern: 'w', MaximumWordLength: 5 }),
      'The pattern\'s "w" draws from at least 1296 words, but the word list has 0 of 3 to 5 letters without the ambiguous characters (MaximumWordLength is 5).',
      [],
    ],
    [
      'nothing on',
      alpha({ IncludeAlphaSpecial: false }),
      'At least one of IncludeAlphaSpecial, IncludeWordPhrases and GeneratePattern must be on.',
    ],
  ];

  it.each(cases)('%s', (_name, policy, reason, words = WORD_LIST) => {
    expect(checkFeasibility(policy, words)).toEqual(reason === undefined ? { ok: true } : { ok: false, reason });
    if (reason === undefined) {
      const pws = many(policy, seeded(30), 200, words);
      expect(pws.filter((pw) => violation(policy, pw, words) !== undefined)).toEqual([]);
    } else {
      expect(() => generatePassword(policy, words, seeded(30))).toThrow(new InfeasiblePolicyError(reason));
      expect(entropyBits(policy, words)).toBe(0);
    }
  });

  it('is exact at the HigherAlphaRatio boundary for every MinLength (calculation agrees with generation)', () => {
    for (let min = 4; min <= 12; min += 1) {
      const policy = alpha({ UpperCaseChars: false, BracketChars: true, MinLength: min, MaxLength: min });
      const letters = Math.floor(min / 2) + 1;
      expect(checkFeasibility(policy, WORD_LIST).ok).toBe(letters + 3 <= min);
      if (letters + 3 <= min)
        for (const pw of many(policy, seeded(min), 200)) expect(violation(policy, pw)).toBeUndefined();
    }
  });
});

describe('entropy (semantics 6)', () => {
  const digitsOnly = {
    LowerCaseChars: false,
    UpperCaseChars: false,
    SpecialChars: false,
    HigherAlphaRatio: false,
    AmbiguousChars: true,
  };

  it('word list sizes', () => {
    expect(WORD_LIST).toHaveLength(7776);
    expect(wordsUpTo(8)).toHaveLength(6216); // 6219 words of 3..8 characters, less felt-tip, t-shirt, yo-yo
    expect(wordsUpTo(9)).toHaveLength(7772);
    expect(wordsUpTo(8)).toBe(wordsUpTo(8)); // memoised
    expect(wordsUpTo(2)).toHaveLength(0);
  });

  it.each([
    ['PIN of 6 to 8 digits', generatorPolicy({ ...digitsOnly, MinLength: 6, MaxLength: 8 }), 6 * Math.log2(10)],
    [
      'pattern d{4}',
      generatorPolicy({ GeneratePattern: true, Pattern: 'd{4}', AmbiguousChars: true }),
      4 * Math.log2(10),
    ],
    [
      'pattern d{4} without ambiguous (2-9)',
      generatorPolicy({ GeneratePattern: true, Pattern: 'd{4}' }),
      4 * Math.log2(8),
    ],
    [
      'pattern w\\-w (literal adds nothing)',
      generatorPolicy({ GeneratePattern: true, Pattern: 'w\\-w', AmbiguousChars: true }),
      2 * Math.log2(6216),
    ],
    // Without the ambiguous characters (o and l among them) 2,735 of the 6,216 words of 3 to 8 letters are left.
    [
      '4 words of up to 8 letters, none ambiguous',
      generatorPolicy({ IncludeAlphaSpecial: false, IncludeWordPhrases: true, NumberOfWords: 4 }),
      4 * Math.log2(2735),
    ],
    [
      '4 words of up to 8 letters, ambiguous allowed',
      generatorPolicy({ IncludeAlphaSpecial: false, IncludeWordPhrases: true, NumberOfWords: 4, AmbiguousChars: true }),
      4 * Math.log2(6216),
    ],
    [
      '4 words, none holding e',
      generatorPolicy({
        IncludeAlphaSpecial: false,
        IncludeWordPhrases: true,
        NumberOfWords: 4,
        AmbiguousChars: true,
        ExcludeChars: 'e',
      }),
      4 * Math.log2(WORD_LIST.filter((w) => /^[a-df-z]{3,8}$/.test(w)).length),
    ],
    [
      '4 words, then a digit and a special (seed 6)',
      generatorPolicy({ ...FOUR_WORDS_THEN_DIGITS_AND_SPECIALS, SpecialCharsText: '!#$%&*?' }),
      4 * Math.log2(2735) + Math.log2(8) + Math.log2(7),
    ],
    [
      '4 words, a segment between each pair',
      generatorPolicy({ ...FOUR_WORDS_THEN_DIGITS_AND_SPECIALS, PrefixAppendWords: 'I', SpecialCharsText: '!#$%&*?' }),
      4 * Math.log2(2735) + 3 * (Math.log2(8) + Math.log2(7)),
    ],
    [
      'default alpha-special at MinLength 12',
      generatorPolicy({ SpecialCharsText: '!@#$%^&*-_=+?' }),
      2 * Math.log2(24) + Math.log2(8) + Math.log2(13) + 5 * Math.log2(48) + 3 * Math.log2(69),
    ],
  ])('%s', (_name, policy, bits) => {
    expect(entropyBits(policy, WORD_LIST)).toBeCloseTo(bits, 9);
  });
});

describe('cryptoRandom and the default source', () => {
  it('generates with node:crypto by default', () => {
    const policy = generatorPolicy();
    const pws = Array.from({ length: 1000 }, () => generatePassword(policy, WORD_LIST));
    expectAllValid(policy, pws);
    expect(new Set(pws).size).toBe(1000); // ≥ 62 bits each: a collision has probability < 1e-12
  });

  it('cryptoRandom.int stays in [0, n)', () => {
    for (const n of [1, 2, 10, 62, 7776])
      for (let i = 0; i < 200; i += 1)
        expect(cryptoRandom.int(n)).toBeGreaterThanOrEqual(0), expect(cryptoRandom.int(n)).toBeLessThan(n);
  });
});

describe('seed policies (semantics 9)', () => {
  it('every committed seed policy is feasible and generates 10,000 passwords that satisfy its rules, exclusions everywhere', async () => {
    const policies = await readSeedFile(DEFAULT_GENERATOR_FILE, generatorPolicies);
    expect(policies).toHaveLength(12);
    for (const policy of policies) {
      expect([policy.PasswordGeneratorID, checkFeasibility(policy, WORD_LIST)]).toEqual([
        policy.PasswordGeneratorID,
        { ok: true },
      ]);
      const pws = Array.from({ length: 10_000 }, () => generatePassword(policy, WORD_LIST, cryptoRandom));
      const bad = pws.map((pw) => violation(policy, pw)).filter((v) => v !== undefined);
      expect([policy.PasswordGeneratorID, bad.slice(0, 3)]).toEqual([policy.PasswordGeneratorID, []]);
    }
  });

  it('readSeedFile rejects an infeasible generator policy, naming the record and the reason', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'generator-seed-'));
    try {
      const records = JSON.parse(await readFile(DEFAULT_GENERATOR_FILE, 'utf8')) as GeneratorPolicy[];
      // Valid by the schema (4 <= MinLength), but 5 classes cannot each appear in 4 characters.
      Object.assign(records[2]!, { MinLength: 4, MaxLength: 4, HigherAlphaRatio: false });
      const file = path.join(dir, 'generator-policies.json');
      await writeFile(file, JSON.stringify(records));
      const error = await readSeedFile(file, generatorPolicies).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SeedValidationError);
      expect((error as SeedValidationError).problems).toEqual([
        `${file} record #2 (PasswordGeneratorID 3): infeasible: 5 character classes must each appear once, but MinLength is 4.`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
