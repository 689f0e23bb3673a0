import { randomInt } from 'node:crypto';
import {
  characterClasses,
  parsePattern,
  removedCharacters,
  SEPARATORS,
  type GeneratorPolicy,
  type PatternToken,
} from './generator-policy';

/**
 * Password generation for a generator policy (docs/generation.md). Pure: no I/O, and every random choice
 * goes through a RandomSource, so tests can drive it with a seeded generator.
 */

/** A source of uniform integers in [0, maxExclusive). */
export interface RandomSource {
  int(maxExclusive: number): number;
}

/** node:crypto's randomInt, which rejects out-of-range draws, so it has no modulo bias. */
export const cryptoRandom: RandomSource = { int: (maxExclusive) => randomInt(maxExclusive) };

/** The most passwords one generation makes (a request's Qty): each costs CPU time in a function with a time budget. */
export const MAX_PASSWORDS_PER_GENERATION = 100;

export type Feasibility = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Thrown by generatePassword for a policy that no password can satisfy; the message is the reason. */
export class InfeasiblePolicyError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'InfeasiblePolicyError';
  }
}

type ClassKey = 'l' | 'u' | 'd' | 's' | 'b';
const CLASS_ORDER: readonly ClassKey[] = ['l', 'u', 'd', 's', 'b'];
const LETTER_CLASSES: ReadonlySet<ClassKey> = new Set(['l', 'u']);

export interface CharClass {
  key: ClassKey;
  field: string;
  /** The characters it draws from, after ExcludeChars and (unless allowed) the ambiguous set. */
  chars: readonly string[];
}

/** The classes switched on, in the order l u d s b, each with its characters after exclusions. */
export function classesOn(policy: GeneratorPolicy): CharClass[] {
  const all = characterClasses(policy);
  return CLASS_ORDER.filter((k) => all[k].on).map((k) => ({ key: k, field: all[k].field, chars: [...all[k].chars] }));
}

/** The union of several sets, each character once, so a union draws every allowed character equally often. */
function union(sets: readonly (readonly string[])[]): string[] {
  return [...new Set(sets.flat())];
}

/**
 * The fewest words a phrase or a pattern's `w` may draw from: the size of EFF's short word list (10.3 bits a
 * word), the smallest list EFF offers for passphrases. Fewer would let a filter (ExcludeChars, the ambiguous
 * set, a short MaximumWordLength) quietly turn a word into a handful of guessable choices.
 */
const MIN_WORDS = 1296;

/** The word settings of a policy: what decides which words it may use. */
export type WordSettings = Pick<GeneratorPolicy, 'MaximumWordLength' | 'ExcludeChars' | 'AmbiguousChars'>;

/** Filtered lists by word list, then by settings; bounded, since settings given in a request can vary without end. */
const eligibleCache = new WeakMap<readonly string[], Map<string, readonly string[]>>();
const ELIGIBLE_CACHE_ENTRIES = 32;

/**
 * The words a policy may use: those of `words` made of 3 to MaximumWordLength letters and holding no removed
 * character (ExcludeChars, and the ambiguous set unless AmbiguousChars), so the rules hold over the whole
 * password, words included. Memoised per list and settings.
 */
export function eligibleWords(words: readonly string[], settings: WordSettings): readonly string[] {
  let bySettings = eligibleCache.get(words);
  if (!bySettings) eligibleCache.set(words, (bySettings = new Map()));
  const removed = removedCharacters(settings);
  const key = `${settings.MaximumWordLength}\0${[...removed].sort().join('')}`;
  let found = bySettings.get(key);
  if (!found) {
    found = Object.freeze(
      words.filter((w) => {
        const letters = [...w];
        return (
          /^\p{L}+$/u.test(w) &&
          letters.length >= 3 &&
          letters.length <= settings.MaximumWordLength &&
          !letters.some((c) => removed.has(c))
        );
      }),
    );
    // A Map iterates in insertion order: the first key is the oldest entry.
    if (bySettings.size >= ELIGIBLE_CACHE_ENTRIES) bySettings.delete(bySettings.keys().next().value!);
    bySettings.set(key, found);
  }
  return found;
}

const pick = <T>(set: readonly T[], random: RandomSource): T => set[random.int(set.length)]!;

/** Fisher-Yates, in place, with the same RandomSource: every permutation equally likely. */
function shuffle<T>(items: T[], random: RandomSource): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = random.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const isCount = (n: number, min: number) => Number.isInteger(n) && n >= min;

// ---------------------------------------------------------------------------------------------------------
// Feasibility: decided by calculation from the policy alone, never by generating and retrying.
// ---------------------------------------------------------------------------------------------------------

export type GenerationMode = 'pattern' | 'alpha' | 'words' | 'words+alpha' | 'none';

/** How a policy generates: GeneratePattern wins over the other two, as the pattern alone fixes the password. */
export function generationMode(p: GeneratorPolicy): GenerationMode {
  if (p.GeneratePattern) return 'pattern';
  if (p.IncludeWordPhrases && p.IncludeAlphaSpecial) return 'words+alpha';
  if (p.IncludeWordPhrases) return 'words';
  if (p.IncludeAlphaSpecial) return 'alpha';
  return 'none';
}

/** Whether any password satisfies the policy; when not, a full sentence naming the numbers. */
export function checkFeasibility(policy: GeneratorPolicy, words: readonly string[]): Feasibility {
  const reason = infeasibility(policy, words);
  return reason === undefined ? { ok: true } : { ok: false, reason };
}

function infeasibility(p: GeneratorPolicy, words: readonly string[]): string | undefined {
  switch (generationMode(p)) {
    case 'none':
      return 'At least one of IncludeAlphaSpecial, IncludeWordPhrases and GeneratePattern must be on.';
    case 'pattern':
      return patternInfeasibility(p, words);
    case 'alpha':
      return classInfeasibility(p) ?? lengthInfeasibility(p);
    case 'words':
      return wordInfeasibility(p, words);
    case 'words+alpha':
      return wordInfeasibility(p, words) ?? classInfeasibility(p);
  }
}

/** With IncludeAlphaSpecial: at least one class on, and every class on keeps a character after exclusions. */
function classInfeasibility(p: GeneratorPolicy): string | undefined {
  const on = classesOn(p);
  if (on.length === 0) return 'IncludeAlphaSpecial is on but no character class is switched on.';
  const empty = on.find((c) => c.chars.length === 0);
  if (empty)
    return `${empty.field} is on but has no character left after removing ExcludeChars${p.AmbiguousChars ? '' : ' and the ambiguous characters'}.`;
  return undefined;
}

/**
 * Alpha-special alone: one character of each class must fit in MinLength and, with HigherAlphaRatio, so must
 * floor(MinLength/2)+1 letters plus one character of each non-letter class. Both needs grow more slowly than
 * the length, so what fits at MinLength fits at every length up to MaxLength.
 */
function lengthInfeasibility(p: GeneratorPolicy): string | undefined {
  if (!isCount(p.MinLength, 1) || !isCount(p.MaxLength, 1))
    return `MinLength (${p.MinLength}) and MaxLength (${p.MaxLength}) must be whole numbers of at least 1.`;
  if (p.MinLength > p.MaxLength) return `MinLength is ${p.MinLength}, more than MaxLength ${p.MaxLength}.`;
  const on = classesOn(p);
  if (on.length > p.MinLength)
    return `${on.length} character classes must each appear once, but MinLength is ${p.MinLength}.`;
  if (p.HigherAlphaRatio) {
    const letterClasses = on.filter((c) => LETTER_CLASSES.has(c.key)).length;
    if (letterClasses === 0)
      return 'HigherAlphaRatio is on but neither LowerCaseChars nor UpperCaseChars is, so letters cannot be more than half.';
    const letters = Math.max(Math.floor(p.MinLength / 2) + 1, letterClasses);
    const others = on.length - letterClasses;
    if (letters + others > p.MinLength) {
      return `HigherAlphaRatio needs ${letters} letters at MinLength ${p.MinLength}, plus one character of each of the ${others} other character classes, ${letters + others} in all, but MinLength is ${p.MinLength}.`;
    }
  }
  return undefined;
}

function wordInfeasibility(p: GeneratorPolicy, words: readonly string[]): string | undefined {
  if (!isCount(p.NumberOfWords, 1))
    return `IncludeWordPhrases needs NumberOfWords of at least 1, but it is ${p.NumberOfWords}.`;
  return wordShortage(p, words, 'A word phrase');
}

/** Why too few words are left for the policy to draw from, naming what filtered them. */
function wordShortage(p: GeneratorPolicy, words: readonly string[], user: string): string | undefined {
  const count = eligibleWords(words, p).length;
  if (count >= MIN_WORDS) return undefined;
  const removing = [
    p.ExcludeChars === '' ? [] : ['ExcludeChars'],
    p.AmbiguousChars ? [] : ['the ambiguous characters'],
  ].flat();
  const filter = removing.length === 0 ? '' : ` without ${removing.join(' or ')}`;
  return `${user} draws from at least ${MIN_WORDS} words, but the word list has ${count} of 3 to ${p.MaximumWordLength} letters${filter} (MaximumWordLength is ${p.MaximumWordLength}).`;
}

/** The set each placeholder draws from: l u d s b their class after exclusions; a the union of the classes on. */
function placeholderSet(p: GeneratorPolicy, kind: Exclude<PatternToken['kind'], 'literal' | 'w'>): string[] {
  if (kind === 'a') return union(classesOn(p).map((c) => c.chars));
  return [...characterClasses(p)[kind].chars];
}

function patternInfeasibility(p: GeneratorPolicy, words: readonly string[]): string | undefined {
  const tokens = parsePattern(p.Pattern);
  if (typeof tokens === 'string') return `The pattern ${JSON.stringify(p.Pattern)} ${tokens}.`;
  for (const token of tokens) {
    if (token.kind === 'literal') continue;
    if (token.kind === 'w') {
      const shortage = wordShortage(p, words, `The pattern's "w"`);
      if (shortage) return shortage;
    } else if (placeholderSet(p, token.kind).length === 0) {
      return token.kind === 'a'
        ? `The pattern's "a" has no character to draw from: no character class that is switched on keeps a character.`
        : `The pattern's "${token.kind}" has no character left after removing ExcludeChars${p.AmbiguousChars ? '' : ' and the ambiguous characters'}.`;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------------------

/** A password for the policy; throws InfeasiblePolicyError only when checkFeasibility says it is infeasible. */
export function generatePassword(
  policy: GeneratorPolicy,
  words: readonly string[],
  random: RandomSource = cryptoRandom,
): string {
  const reason = infeasibility(policy, words);
  if (reason !== undefined) throw new InfeasiblePolicyError(reason);
  switch (generationMode(policy)) {
    case 'pattern':
      return generateFromPattern(policy, words, random);
    case 'alpha':
      return generateAlphaSpecial(policy, random);
    case 'words':
    case 'words+alpha':
      return generatePhrase(policy, words, random);
    case 'none':
      throw new InfeasiblePolicyError('unreachable');
  }
}

/**
 * Semantics 1 (GeneratePattern): the pattern alone; each placeholder draws independently and uniformly from
 * its set, `w` one word of 3..MaximumWordLength letters, `\x` the literal x, `{n}` n times. MinLength and
 * MaxLength do not apply: the pattern fixes the shape.
 */
function generateFromPattern(p: GeneratorPolicy, words: readonly string[], random: RandomSource): string {
  const tokens = parsePattern(p.Pattern) as PatternToken[];
  let out = '';
  for (const token of tokens) {
    const set =
      token.kind === 'literal'
        ? [token.char]
        : token.kind === 'w'
          ? eligibleWords(words, p)
          : placeholderSet(p, token.kind);
    for (let i = 0; i < token.count; i += 1) out += pick(set, random);
  }
  return out;
}

/** The plan of draws for alpha-special at length L: the set of each character, before the shuffle. */
function alphaSpecialDraws(p: GeneratorPolicy, length: number): (readonly string[])[] {
  const on = classesOn(p);
  // One character of each class switched on, first, so every class appears by construction (no retry).
  const draws: (readonly string[])[] = on.map((c) => c.chars);
  if (p.HigherAlphaRatio) {
    // Further letters from the union of the letter classes on, until letters number floor(L/2)+1.
    const letterClasses = on.filter((c) => LETTER_CLASSES.has(c.key));
    const letters = union(letterClasses.map((c) => c.chars));
    for (let n = letterClasses.length; n < Math.floor(length / 2) + 1; n += 1) draws.push(letters);
  }
  // The rest from the union of every class switched on.
  const all = union(on.map((c) => c.chars));
  while (draws.length < length) draws.push(all);
  return draws;
}

/**
 * Semantics 2 (IncludeAlphaSpecial alone): length uniform in [MinLength, MaxLength]; the draws of
 * alphaSpecialDraws, then a Fisher-Yates shuffle with the same RandomSource.
 */
function generateAlphaSpecial(p: GeneratorPolicy, random: RandomSource): string {
  const length = p.MinLength + random.int(p.MaxLength - p.MinLength + 1);
  const chars = alphaSpecialDraws(p, length).map((set) => pick(set, random));
  return shuffle(chars, random).join('');
}

/** A segment: one character of each class switched on, shuffled. */
function segment(p: GeneratorPolicy, random: RandomSource): string {
  return shuffle(
    classesOn(p).map((c) => pick(c.chars, random)),
    random,
  ).join('');
}

/**
 * Semantics 3 and 4 (IncludeWordPhrases): NumberOfWords words drawn uniformly with replacement, joined by
 * SeparateWordsWith (S ' ', D '-', N ''); Min/MaxLength do not constrain a phrase. With IncludeAlphaSpecial
 * too, segments join the words with the same separator: P one segment before the words, A one after them,
 * I one between each pair of words.
 */
function generatePhrase(p: GeneratorPolicy, words: readonly string[], random: RandomSource): string {
  const pool = eligibleWords(words, p);
  const chosen = Array.from({ length: p.NumberOfWords }, () => pick(pool, random));
  let parts = chosen;
  if (p.IncludeAlphaSpecial) {
    if (p.PrefixAppendWords === 'P') parts = [segment(p, random), ...chosen];
    else if (p.PrefixAppendWords === 'A') parts = [...chosen, segment(p, random)];
    else parts = chosen.flatMap((w, i) => (i === 0 ? [w] : [segment(p, random), w]));
  }
  return parts.join(SEPARATORS[p.SeparateWordsWith]);
}

// ---------------------------------------------------------------------------------------------------------
// Entropy
// ---------------------------------------------------------------------------------------------------------

const log2 = (n: number) => (n > 0 ? Math.log2(n) : 0);

/** Segments a phrase carries: P and A one, I one between each pair of words. */
function segmentCount(p: GeneratorPolicy): number {
  if (!p.IncludeAlphaSpecial) return 0;
  return p.PrefixAppendWords === 'I' ? Math.max(p.NumberOfWords - 1, 0) : 1;
}

/**
 * A sound lower bound of the entropy of one password, in bits; 0 for an infeasible policy.
 * Pattern: the sum of log2|set| over the placeholders (w: log2 of the number of words). Alpha-special: the
 * sum over the characters drawn at L = MinLength of log2 of the set each is drawn from (knowing the length
 * and the shuffle's permutation can only lower the entropy, and more characters never lower it). Phrase:
 * NumberOfWords * log2|words|, plus log2|class| for each character of each segment (ignoring its shuffle).
 */
export function entropyBits(policy: GeneratorPolicy, words: readonly string[]): number {
  if (infeasibility(policy, words) !== undefined) return 0;
  const p = policy;
  switch (generationMode(p)) {
    case 'pattern': {
      let bits = 0;
      for (const token of parsePattern(p.Pattern) as PatternToken[]) {
        if (token.kind === 'literal') continue;
        const size = token.kind === 'w' ? eligibleWords(words, p).length : placeholderSet(p, token.kind).length;
        bits += token.count * log2(size);
      }
      return bits;
    }
    case 'alpha':
      return alphaSpecialDraws(p, p.MinLength).reduce((bits, set) => bits + log2(set.length), 0);
    case 'words':
    case 'words+alpha': {
      const perSegment = p.IncludeAlphaSpecial ? classesOn(p).reduce((bits, c) => bits + log2(c.chars.length), 0) : 0;
      return p.NumberOfWords * log2(eligibleWords(words, p).length) + segmentCount(p) * perSegment;
    }
    case 'none':
      return 0;
  }
}
