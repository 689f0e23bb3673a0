import { canonicalPassword } from '../estimate/breached-passwords';
import { TERM_PLACEHOLDER } from '../estimate/rule-model';
import { atMostWeak, guessabilityScore, STRONG } from '../../compliance-levels';
import type { GuessabilityEstimator } from '../estimate/guessability';
import type { MessageKey } from '../messages/catalogue';

/**
 * Evaluation in context (docs/evaluation.md#evaluation-in-context): the terms an attacker who knows whose
 * password it is and which organization it guards tries first, namely the words of the request's UserInputs
 * (user name, display name, email address, company, service) and a strength policy's BannedWords, found in a
 * password as an attacker's rules write them, and the rest of the password judged on its own.
 *
 *   - Terms: each UserInput split into the tokens an attacker derives (userInputTokens); each BannedWord whole.
 *   - Normal form, of terms and password alike: NFKC, lower case and the l33t readings of the breached-password
 *     check (canonicalPassword: `@cm3` reads `acme`, `$mith` reads `smith`), one character at a time.
 *   - A term matches where it occurs in the password, as written or reversed, and, for a term of
 *     MIN_FUZZY_LENGTH characters or more, with one character changed, inserted or removed (`Kontoso`); not
 *     both reversed and changed, which no cracking rule does and which chance finds in random strings. A
 *     match where more than half of the characters are stand-ins (digits and symbols read as letters, beyond
 *     those of the term itself) is chance, not a spelling of the term: `@cm3` is `acme`, `4(#3` is not.
 *   - Microsoft Entra Password Protection's principle: a matched term counts as one character, and the rest is
 *     judged as if it were the whole password. A rest that scores below STANDS_ALONE_SCORE on its own means
 *     the password is built on the term: a failure of the term's kind, and the estimate at most Weak's last guess.
 *     A rest that stands on its own is no failure: a 20-character random password that happens to contain
 *     `acme` is judged on its randomness. Either way the password is also estimated whole, the terms known,
 *     and the fewer guesses of the two are its estimate: knowing the terms never costs an attacker guesses.
 *   - Every term also goes into zxcvbn-ts's user-inputs dictionary, so its own estimate sees them.
 *
 * Bounded whatever the request (docs/evaluation.md#the-evaluations-worst-case): terms are taken once by their
 * normal form; each is tested at the few starts where a match of it can begin, or, when those are many, at
 * every start at once, in at most MATCH_COMPARISONS_PER_TERM x (n + 1) comparisons of characters for a
 * password of n characters after NFKC (scanTerms), whatever the terms and however their matches overlap; and
 * a scan keeps at most one match per start and one per term found, never a list of every overlapping match.
 * No bound cuts the search short, so every answer is the one the definition gives.
 *
 * Messages and suggestions name the kind of term, never the term or the password. Pure: no I/O; the one
 * state is a cache of each policy's prepared BannedWords, keyed by the list itself.
 */

/** Where a term comes from, and the Rule of its failure. */
type TermKind = 'UserInput' | 'BannedWord';

/** The kinds in the order their failures are listed. */
export const TERM_KINDS = ['UserInput', 'BannedWord'] as const satisfies readonly TermKind[];

/** What a failure and a suggestion say of each kind (their keys in messages/): never the term itself. */
export const TERM_KIND_MESSAGES: Readonly<
  Record<TermKind, { readonly failure: MessageKey; readonly suggestion: MessageKey }>
> = {
  UserInput: { failure: 'failure.UserInput', suggestion: 'suggestion.UserInput' },
  BannedWord: { failure: 'failure.BannedWord', suggestion: 'suggestion.BannedWord' },
};

/** Shorter tokens are ignored: one or two characters occur by chance in most passwords and are no guess of their own. */
const MIN_TERM_LENGTH = 3;
/**
 * Longer tokens are ignored: no email local part (RFC 5321: 64 octets) or domain label (RFC 1035: 63) is
 * longer, nor is a banned word.
 */
export const MAX_TOKEN_LENGTH = 64;
/** From this length a term also matches with one character changed, inserted or removed; shorter ones only as written. */
const MIN_FUZZY_LENGTH = 4;
/** The rest of a password must score at least this on its own (Strong: 10^8 guesses or more) not to be built on its terms. */
const STANDS_ALONE_SCORE = STRONG;

/** Where a UserInput splits: white space, `.`, `_`, `-` and `@` (a run of them leaves empty tokens, left out as too short), and between a digit and anything else. */
const SEPARATORS = /[\s._\-@]/u;
const DIGIT_BOUNDARY = /(?<=\p{Nd})(?=\P{Nd})|(?<=\P{Nd})(?=\p{Nd})/u;

/**
 * The tokens an attacker derives from one UserInput: NFKC, then split at SEPARATORS and digit boundaries. An
 * email address (text around an `@`) gives its local part and its domain's labels without the last one, the
 * top-level domain, which every user of the domain shares (`jsmith@mail.acme.com`: jsmith, mail, acme). Tokens
 * of fewer than MIN_TERM_LENGTH or more than MAX_TOKEN_LENGTH characters are left out.
 */
export function userInputTokens(input: string): string[] {
  let text = input.normalize('NFKC');
  const at = text.lastIndexOf('@');
  if (at >= 0) {
    const labels = text
      .slice(at + 1)
      .split('.')
      .filter((label) => label !== '');
    if (labels.length > 1) labels.pop();
    text = `${text.slice(0, at)} ${labels.join(' ')}`;
  }
  return text
    .split(SEPARATORS)
    .flatMap((part) => part.split(DIGIT_BOUNDARY))
    .filter((token) => {
      const length = [...token].length;
      return length >= MIN_TERM_LENGTH && length <= MAX_TOKEN_LENGTH;
    });
}

const LETTER = /\p{L}/u;

/** A character's normal unit, shifted left once, with 1 when it is a letter. */
function readingOf(ch: string): number {
  return ((canonicalPassword(ch).codePointAt(0) ?? 0) << 1) | (LETTER.test(ch) ? 1 : 0);
}

/** The readings of ASCII, most of any password, computed once; no other character is kept from a request. */
const ASCII_READINGS = Int32Array.from({ length: 128 }, (_, code) => readingOf(String.fromCharCode(code)));

/** Readings of characters beyond ASCII met in one request's texts, so that each is read once (a reading normalises a string). */
type Readings = Map<string, number>;

function normalUnit(ch: string, readings: Readings): number {
  const code = ch.charCodeAt(0);
  if (code < 128) return ASCII_READINGS[code]!;
  let reading = readings.get(ch);
  if (reading === undefined) readings.set(ch, (reading = readingOf(ch)));
  return reading;
}

/**
 * The normal form of a text, one code point per character of its NFKC form: lower case and l33t read
 * (canonicalPassword); and how many of the first i characters are no letter, for counting stand-ins.
 */
function normalUnits(text: string, readings: Readings = new Map()): NormalText {
  const characters = [...text.normalize('NFKC')];
  const units = new Int32Array(characters.length);
  const nonLetters = new Int32Array(characters.length + 1);
  characters.forEach((ch, i) => {
    const unit = normalUnit(ch, readings);
    units[i] = unit >> 1;
    nonLetters[i + 1] = nonLetters[i]! + (unit & 1 ? 0 : 1);
  });
  return { units, nonLetters };
}

/**
 * One term, prepared for matching: its normal form forwards and reversed, and the Z-array of each (z[i]: how
 * many characters from i agree with the start), which lets a scan find every start's common prefix with the
 * term in one pass over the password (lcpAt).
 */
interface Pattern {
  readonly units: Int32Array;
  readonly z: Int32Array;
  /** The form reversed, and its Z-array: for a reversed match, and for the common suffixes a fuzzy match needs. */
  readonly reversed: Int32Array;
  readonly reversedZ: Int32Array;
  /** Whether the reversed form is another spelling to look for (not a palindrome). */
  readonly reversible: boolean;
  readonly fuzzy: boolean;
  /** Characters of the term that are no letter: a match may hold as many digits and symbols beyond its stand-ins. */
  readonly nonLetters: number;
  /** How many of the term's distinct pairs of neighbouring characters the password must hold for a match: forwards, and reversed (then every one). */
  readonly pairsNeeded: number;
  readonly reversedPairs: number;
}

/** A pair of neighbouring characters (normal units), as one number. */
const pairKey = (a: number, b: number): number => a * 0x110000 + b;

/** The distinct pairs of neighbouring characters of a text. */
function pairsOf(units: Int32Array): Set<number> {
  const pairs = new Set<number>();
  for (let i = 1; i < units.length; i++) pairs.add(pairKey(units[i - 1]!, units[i]!));
  return pairs;
}

/** The terms of one kind, prepared for matching, each taken once by its normal form. */
interface TermGroup {
  readonly kind: TermKind;
  readonly count: number;
  readonly patterns: readonly Pattern[];
  /**
   * The terms by each pair of neighbouring characters they hold, forwards and reversed. One edit breaks at most
   * two of a term's pairs (a change or a removal two, an insertion one), and every term of 4 characters or more
   * keeps one: a term can match only where the password holds all of its pairs but two (as written: all), so a
   * scan looks only at the terms its own pairs lead to.
   */
  readonly byPair: ReadonlyMap<number, readonly number[]>;
  readonly byReversedPair: ReadonlyMap<number, readonly number[]>;
  /** The terms as written (NFKC, lower case), for zxcvbn-ts's user-inputs dictionary. */
  readonly words: readonly string[];
  /** Comparisons made preparing the group (the Z-arrays): part of the work of a request for its UserInputs. */
  readonly comparisons: number;
}

/** The terms of one evaluation: a group for the request's UserInputs, one for the policy's BannedWords. */
interface ContextTerms {
  readonly groups: readonly TermGroup[];
  /**
   * The words of each group, for zxcvbn-ts's user-inputs dictionaries; the policy's list stays the same array
   * while the policy does, so its dictionary is built once.
   */
  readonly wordLists: readonly (readonly string[])[];
}

/**
 * A text's Z-array (z[0], never read, is left 0), and the comparisons made: at most 2 per character. Each
 * comparison is counted in a statement of its own, so that the count is exactly the work done.
 */
function zArray(units: Int32Array): { z: Int32Array; comparisons: number } {
  const z = new Int32Array(units.length);
  // The scan of the text against itself from 1, which reads only the Z-values it has already written.
  return { z, comparisons: lcpAt(units, units, z, z, 1) };
}

/** The group of `texts`' terms of one kind, each taken once (by normal form). */
function termGroup(kind: TermKind, texts: Iterable<string>): TermGroup {
  const seen = new Set<string>();
  const words: string[] = [];
  const patterns: Pattern[] = [];
  const readings: Readings = new Map();
  const [byPair, byReversedPair] = [new Map<number, number[]>(), new Map<number, number[]>()];
  const index = (map: Map<number, number[]>, pairs: Set<number>, term: number) => {
    for (const pair of pairs) {
      const terms = map.get(pair);
      if (terms === undefined) map.set(pair, [term]);
      else terms.push(term);
    }
  };
  let comparisons = 0;
  for (const text of texts) {
    const { units, nonLetters: counts } = normalUnits(text, readings);
    const key = String.fromCodePoint(...units);
    if (units.length < MIN_TERM_LENGTH || seen.has(key)) continue;
    seen.add(key);
    words.push(text.normalize('NFKC').toLowerCase());
    const reversed = units.slice().reverse();
    const [forwards, backwards] = [zArray(units), zArray(reversed)];
    comparisons += forwards.comparisons + backwards.comparisons;
    const reversible = reversed.some((unit, i) => unit !== units[i]);
    const fuzzy = units.length >= MIN_FUZZY_LENGTH;
    const [pairs, reversedPairs] = [pairsOf(units), pairsOf(reversed)];
    index(byPair, pairs, patterns.length);
    // A palindrome's too, though never looked for reversed (backwards, in scanTerms): one index either way.
    index(byReversedPair, reversedPairs, patterns.length);
    patterns.push({
      units,
      z: forwards.z,
      reversed,
      reversedZ: backwards.z,
      reversible,
      fuzzy,
      nonLetters: counts[units.length]!,
      pairsNeeded: Math.max(1, pairs.size - (fuzzy ? 2 : 0)),
      reversedPairs: reversedPairs.size,
    });
  }
  return { kind, count: words.length, patterns, byPair, byReversedPair, words, comparisons };
}

/** Each policy's BannedWords, prepared once per list: a collection's policies stay the same objects until it reloads. */
const preparedBannedWords = new WeakMap<readonly string[], TermGroup>();

function bannedWordGroup(bannedWords: readonly string[]): TermGroup {
  let group = preparedBannedWords.get(bannedWords);
  if (group === undefined) {
    group = termGroup('BannedWord', bannedWords);
    preparedBannedWords.set(bannedWords, group);
  }
  return group;
}

/** The terms of an evaluation: the tokens of the request's UserInputs, then the policy's BannedWords (a policy may have none). */
export function contextTerms(userInputs: readonly string[], bannedWords?: readonly string[]): ContextTerms {
  const groups = [
    ...(userInputs.length > 0 ? [termGroup('UserInput', userInputs.flatMap(userInputTokens))] : []),
    ...(bannedWords?.length ? [bannedWordGroup(bannedWords)] : []),
  ];
  return { groups, wordLists: groups.map((g) => g.words) };
}

/** A term found in a password: its group and its index there, and the characters [start, end) of the password's NFKC form it covers. */
interface TermMatch {
  readonly group: number;
  readonly term: number;
  readonly start: number;
  readonly end: number;
}

/** The normal form of a password, and how many of its first i characters are no letter. */
interface NormalText {
  readonly units: Int32Array;
  readonly nonLetters: Int32Array;
}

/**
 * out[i] = the length of the common prefix of text[i..] and the pattern, for every i from `first` to n, from the
 * pattern's Z-array: the Z-algorithm's scan (Gusfield, "Algorithms on Strings, Trees and Sequences", 1997, §1.4),
 * at most 2n comparisons, which it returns.
 */
function lcpAt(text: Int32Array, pattern: Int32Array, z: Int32Array, out: Int32Array, first = 0): number {
  const n = text.length;
  const m = pattern.length;
  let comparisons = 0;
  for (let i = first, l = 0, r = 0; i < n; i++) {
    // text[l..r) is pattern[0..r-l): what is known of text[i..r) is known of pattern[i-l..].
    let k = i < r ? Math.min(z[i - l]!, r - i) : 0;
    if (i + k >= r) {
      while (i + k < n && k < m) {
        comparisons++;
        if (text[i + k] !== pattern[k]) break;
        k++;
      }
      l = i;
      r = i + k;
    }
    out[i] = k;
  }
  return comparisons;
}

const NONE: readonly number[] = [];

/**
 * The matches of a term starting at s, compared directly, and the comparisons made (at most 4m): as written,
 * and, fuzzy, with one character changed, removed or inserted where the first mismatch is (the classic result
 * for edit distance 1), an insertion only after the first character (before it, it is the match one later).
 */
function matchAt(
  text: Int32Array,
  units: Int32Array,
  fuzzy: boolean,
  s: number,
  add: (start: number, end: number) => void,
): number {
  const n = text.length;
  const m = units.length;
  if (s + m - (fuzzy ? 1 : 0) > n) return 0;
  let comparisons = 0;
  let k = 0;
  while (k < m && s + k < n) {
    comparisons++;
    if (text[s + k] !== units[k]) break;
    k++;
  }
  if (k === m) {
    add(s, s + m);
    return comparisons;
  }
  if (!fuzzy) return comparisons;
  /** Whether text[from..from+length) equals units[at..at+length), counting the comparisons; each call below stays within the text. */
  const same = (from: number, at: number, length: number): boolean => {
    for (let i = 0; i < length; i++) {
      comparisons++;
      if (text[from + i] !== units[at + i]) return false;
    }
    return true;
  };
  if (s + m <= n && same(s + k + 1, k + 1, m - k - 1)) add(s, s + m);
  if (same(s + k, k + 1, m - k - 1)) add(s, s + m - 1);
  if (k > 0 && s + m < n && same(s + k + 1, k, m - k)) add(s, s + m + 1);
  return comparisons;
}

/** What a scan found: per start, the farthest end of a match starting there, and the terms found per group. */
interface Scan {
  readonly matches: TermMatch[];
  /** Comparisons of characters, the scan's work: at most MATCH_COMPARISONS_PER_TERM x (n + 1) per term, and its group's preparation. */
  readonly comparisons: number;
}

/** The comparisons a scan makes per term at most, times (password length + 1): three prefix scans of 2n each. */
export const MATCH_COMPARISONS_PER_TERM = 6;

/**
 * Every term found in the password, without listing every overlapping match: a term is tested at every start
 * at once, in O(n) (lcpAt), so a scan costs at most MATCH_COMPARISONS_PER_TERM x (n + 1) comparisons per term
 * whatever the password and the terms, and keeps at most one match per start (the farthest-reaching; what is
 * left depends on no other, restOf) and one per term found (Found counts them).
 *
 * At a start s, with k characters agreeing before the first mismatch (the classic result for edit distance 1:
 * the one edit must be there), the term matches as written when k = m; changed when the text from s+k+1 to
 * s+m agrees with the term's end (a common suffix of m-k-1), removed when the text to s+m-1 does, and inserted
 * (k > 0: an insertion before the first character is the match one place later) when the text to s+m+1 has a
 * common suffix of m-k. A term that shares neither of its first two characters or neither of its last two with
 * the password cannot match with one edit and is not scanned.
 */
export function scanTerms(password: string, terms: ContextTerms): Scan {
  const matches: TermMatch[] = [];
  let comparisons = 0;
  const text = normalUnits(password);
  const n = text.units.length;
  const reversedText = text.units.slice().reverse();
  const textPairs = pairsOf(text.units);
  // Where each character of the password is.
  const startsOn = new Map<number, number[]>();
  text.units.forEach((unit, i) => {
    const at = startsOn.get(unit);
    if (at === undefined) startsOn.set(unit, [i]);
    else at.push(i);
  });
  // Per start, the farthest end and whose it is.
  const farthest = new Int32Array(n).fill(-1);
  const [ownerGroup, ownerTerm] = [new Int32Array(n), new Int32Array(n)];
  const [prefix, suffix] = [new Int32Array(n), new Int32Array(n)];
  for (let g = 0; g < terms.groups.length; g++) {
    const group = terms.groups[g]!;
    comparisons += group.kind === 'UserInput' ? group.comparisons : 0;
    // How many of each term's pairs the password holds, forwards and reversed.
    const [held, reversedHeld] = [new Int32Array(group.count), new Int32Array(group.count)];
    for (const pair of textPairs) {
      for (const term of group.byPair.get(pair) ?? NONE) held[term]!++;
      for (const term of group.byReversedPair.get(pair) ?? NONE) reversedHeld[term]!++;
    }
    for (let term = 0; term < group.patterns.length; term++) {
      const pattern = group.patterns[term]!;
      const forwards = held[term]! >= pattern.pairsNeeded;
      const backwards = pattern.reversible && reversedHeld[term]! >= pattern.reversedPairs;
      // The term's first match found: it stands for the term in the matches, whatever the other terms reach.
      let found: TermMatch | undefined;
      // Not a match when more than half of it is stand-ins: digits and symbols read as letters, beyond the term's own.
      const add = (start: number, end: number): void => {
        if (2 * (text.nonLetters[end]! - text.nonLetters[start]! - pattern.nonLetters) > end - start) return;
        found ??= { group: g, term, start, end };
        if (end > farthest[start]!) {
          farthest[start] = end;
          ownerGroup[start] = g;
          ownerTerm[start] = term;
        }
      };
      const { units, fuzzy } = pattern;
      const m = units.length;
      // Where a match can start: on the term's first character, or on its second (the first removed), or one
      // before its second (the first changed). When those starts are few, each is compared directly (at most
      // 4m comparisons: the common prefix and one comparison of the rest per kind of edit); when they are
      // many, the term is scanned along the whole password. Either way at most 4 (n + 1) comparisons.
      const onFirst = startsOn.get(units[0]!) ?? NONE;
      const onSecond = fuzzy ? (startsOn.get(units[1]!) ?? NONE) : NONE;
      if (forwards && (onFirst.length + 2 * onSecond.length) * 4 * m <= 4 * (n + 1)) {
        for (const s of onFirst) comparisons += matchAt(text.units, units, fuzzy, s, add);
        for (const s of onSecond) {
          if (text.units[s] !== units[0]) comparisons += matchAt(text.units, units, fuzzy, s, add);
          if (s > 0 && text.units[s - 1] !== units[0]) comparisons += matchAt(text.units, units, fuzzy, s - 1, add);
        }
      } else if (forwards) {
        comparisons += lcpAt(text.units, units, pattern.z, prefix);
        // suffix[n - e]: the common suffix of text[0..e) and the term.
        if (fuzzy) comparisons += lcpAt(reversedText, pattern.reversed, pattern.reversedZ, suffix);
        for (let s = 0; s + m - (fuzzy ? 1 : 0) <= n; s++) {
          const k = prefix[s]!;
          if (k === m) add(s, s + m);
          else if (fuzzy) {
            if (s + m <= n && suffix[n - s - m]! >= m - k - 1) add(s, s + m);
            if (suffix[n - s - m + 1]! >= m - k - 1) add(s, s + m - 1);
            if (k > 0 && s + m < n && suffix[n - s - m - 1]! >= m - k) add(s, s + m + 1);
          }
        }
      }
      // Reversed: as written only, as no cracking rule both reverses and changes a word; at most 2 (n + 1) comparisons.
      const onLast = startsOn.get(pattern.reversed[0]!) ?? NONE;
      if (backwards && onLast.length * m <= 2 * (n + 1)) {
        for (const s of onLast) comparisons += matchAt(text.units, pattern.reversed, false, s, add);
      } else if (backwards) {
        comparisons += lcpAt(text.units, pattern.reversed, pattern.reversedZ, prefix);
        for (let s = 0; s + m <= n; s++) if (prefix[s] === m) add(s, s + m);
      }
      if (found !== undefined) matches.push(found);
    }
  }
  for (let s = 0; s < n; s++)
    if (farthest[s]! > s) matches.push({ group: ownerGroup[s]!, term: ownerTerm[s]!, start: s, end: farthest[s]! });
  return { matches, comparisons };
}

/**
 * The terms found in the password, as matches: one per term found, and one per start where a match begins,
 * reaching farthest. restOf reads the same rest from these as from every overlapping match listed.
 */
export function findTerms(password: string, terms: ContextTerms): TermMatch[] {
  return scanTerms(password, terms).matches;
}

/** The password (its NFKC form) with each run of overlapping matches replaced by TERM_PLACEHOLDER: what is left to guess. */
export function restOf(password: string, matches: readonly TermMatch[]): string {
  const characters = [...password.normalize('NFKC')];
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  let rest = '';
  let at = 0;
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i]!.start;
    let end = sorted[i]!.end;
    for (i++; i < sorted.length && sorted[i]!.start < end; i++) end = Math.max(end, sorted[i]!.end);
    rest += characters.slice(at, start).join('') + TERM_PLACEHOLDER;
    at = end;
  }
  return rest + characters.slice(at).join('');
}

/** A failure for the kind of term a password is built on, in the shape of the evaluation's Failures (strength-evaluator.ts), its Message a key. */
interface TermFailure {
  readonly Rule: TermKind;
  readonly Required: number;
  readonly Found: number;
  readonly Message: MessageKey;
}

/** The guessability of a password in context, and the failures of the kinds of term it is built on. */
interface ContextJudgement extends ReturnType<GuessabilityEstimator> {
  readonly failures: readonly TermFailure[];
}

/**
 * Judges a password with its terms (the estimator's, with the terms as zxcvbn-ts's user inputs): one estimate,
 * of the password, when no term matches; else also one of what is left (restOf), as if it were the whole
 * password, and the estimate is the fewer guesses of the two. A rest below STANDS_ALONE_SCORE is a failure for
 * each kind of term found (Found: how many distinct terms of that kind) and caps the estimate at
 * Weak (atMostWeak, as for a breached password), with each kind's suggestion first.
 */
export function judgeInContext(
  password: string,
  terms: ContextTerms,
  estimate: GuessabilityEstimator,
): ContextJudgement {
  if (terms.groups.length === 0) return { ...estimate(password), failures: [] };
  const matches = findTerms(password, terms);
  if (matches.length === 0) return { ...estimate(password, terms.wordLists), failures: [] };
  const alone = estimate(restOf(password, matches), terms.wordLists);
  // Knowing the terms never costs an attacker guesses: he may still guess the password without them (a rule
  // attack reads `abacus abacus` as a word typed twice, not as `•cus abacus`), so the fewer of the two counts.
  const whole = estimate(password, terms.wordLists);
  const fewest = whole.guessesLog10 < alone.guessesLog10 ? whole : alone;
  if (guessabilityScore(alone.guessesLog10) >= STANDS_ALONE_SCORE) return { ...fewest, failures: [] };
  const found = new Map<TermKind, Set<number>>();
  for (const { group, term } of matches) {
    const { kind } = terms.groups[group]!;
    found.set(kind, (found.get(kind) ?? new Set()).add(term));
  }
  const kinds = TERM_KINDS.filter((kind) => found.has(kind));
  return {
    guessesLog10: atMostWeak(fewest.guessesLog10),
    feedback: [...kinds.map((kind) => TERM_KIND_MESSAGES[kind].suggestion), ...alone.feedback],
    failures: kinds.map((kind) => ({
      Rule: kind,
      Required: 0,
      Found: found.get(kind)!.size,
      Message: TERM_KIND_MESSAGES[kind].failure,
    })),
  };
}
