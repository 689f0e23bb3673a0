import { canonicalPassword } from './breached-passwords';
import { guessabilityScore, STRONG_SCORE, WEAK_CEILING_LOG10 } from './guessability-score';
import type { CompositionFailure, GuessabilityEstimator } from './strength-evaluator';

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
 * Messages and suggestions name the kind of term, never the term or the password. Pure: no I/O; the one
 * state is a cache of each policy's prepared BannedWords, keyed by the list itself.
 */

/** Where a term comes from, and the Rule of its failure. */
type TermKind = 'UserInput' | 'BannedWord';

/** The kinds in the order their failures are listed. */
export const TERM_KINDS = ['UserInput', 'BannedWord'] as const satisfies readonly TermKind[];

/** What a failure and a suggestion say of each kind: never the term itself. */
export const TERM_KIND_TEXT: Readonly<Record<TermKind, { readonly failure: string; readonly suggestion: string }>> = {
  UserInput: {
    failure: "The password is built on the user's name or other personal information.",
    suggestion: "Leave out the user's name and other personal information, in any spelling: they are among the first guesses of an attack on this account.",
  },
  BannedWord: {
    failure: 'The password is built on a word this organization does not allow.',
    suggestion: 'Leave out the words this organization does not allow, in any spelling: they are among the first guesses of an attack on it.',
  },
};

/** Shorter tokens are ignored: one or two characters occur by chance in most passwords and are no guess of their own. */
const MIN_TERM_LENGTH = 3;
/**
 * Longer tokens are ignored: no email local part (RFC 5321: 64 octets) or domain label (RFC 1035: 63) is
 * longer, nor is a banned word, and zxcvbn-ts reads only the first 64 characters of a password.
 */
const MAX_TOKEN_LENGTH = 64;
/** From this length a term also matches with one character changed, inserted or removed; shorter ones only as written. */
const MIN_FUZZY_LENGTH = 4;
/** The rest of a password must score at least this on its own (Strong: 10^8 guesses or more) not to be built on its terms. */
const STANDS_ALONE_SCORE = STRONG_SCORE;
/** What a matched term becomes in the rest: one character that is no letter or digit, so it joins no word. */
export const TERM_PLACEHOLDER = '\u2022';

/** Where a UserInput splits: white space, `.`, `_`, `-` and `@`, and between a digit and anything else. */
const SEPARATORS = /[\s._\-@]+/u;
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
    const labels = text.slice(at + 1).split('.').filter((label) => label !== '');
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

function normalUnit(ch: string): number {
  const code = ch.charCodeAt(0);
  return code < 128 ? ASCII_READINGS[code]! : readingOf(ch);
}

/**
 * The normal form of a text, one code point per character of its NFKC form: lower case and l33t read
 * (canonicalPassword); and how many of the first i characters are no letter, for counting stand-ins.
 */
function normalUnits(text: string): NormalText {
  const characters = [...text.normalize('NFKC')];
  const units = new Int32Array(characters.length);
  const nonLetters = new Int32Array(characters.length + 1);
  characters.forEach((ch, i) => {
    const unit = normalUnit(ch);
    units[i] = unit >> 1;
    nonLetters[i + 1] = nonLetters[i]! + (unit & 1 ? 0 : 1);
  });
  return { units, nonLetters };
}

/** One way to find a term: its normal form, forwards or reversed. */
interface Pattern {
  /** Which term of its group, so a term found both ways counts once. */
  readonly term: number;
  readonly units: Int32Array;
  readonly fuzzy: boolean;
  /** Characters of the term that are no letter: a match may hold as many digits and symbols beyond its stand-ins. */
  readonly nonLetters: number;
}

/**
 * The terms of one kind, prepared for matching: their patterns indexed by the character a match can start on.
 * A match at a start reads the pattern's first character there, unless its first character is the one edit:
 * then the start holds the second character (removed) or the next position does (changed).
 */
interface TermGroup {
  readonly kind: TermKind;
  readonly count: number;
  /** Patterns by their first unit. */
  readonly byFirst: ReadonlyMap<number, readonly Pattern[]>;
  /** Fuzzy patterns by their second unit. */
  readonly bySecond: ReadonlyMap<number, readonly Pattern[]>;
  /** The terms as written (NFKC, lower case), for zxcvbn-ts's user-inputs dictionary. */
  readonly words: readonly string[];
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

const NO_TERMS: ContextTerms = { groups: [], wordLists: [] };

/** The group of `texts`' terms of one kind, each taken once (by normal form), with its patterns indexed. */
function termGroup(kind: TermKind, texts: Iterable<string>): TermGroup {
  const byFirst = new Map<number, Pattern[]>();
  const bySecond = new Map<number, Pattern[]>();
  const index = (map: Map<number, Pattern[]>, unit: number, pattern: Pattern) => {
    const list = map.get(unit);
    if (list === undefined) map.set(unit, [pattern]);
    else list.push(pattern);
  };
  const seen = new Set<string>();
  const words: string[] = [];
  for (const text of texts) {
    const { units, nonLetters: counts } = normalUnits(text);
    const key = String.fromCodePoint(...units);
    if (units.length < MIN_TERM_LENGTH || seen.has(key)) continue;
    seen.add(key);
    const term = words.length;
    const nonLetters = counts[units.length]!;
    const pattern: Pattern = { term, units, fuzzy: units.length >= MIN_FUZZY_LENGTH, nonLetters };
    words.push(text.normalize('NFKC').toLowerCase());
    index(byFirst, units[0]!, pattern);
    if (pattern.fuzzy) index(bySecond, units[1]!, pattern);
    const reversed = units.slice().reverse();
    if (reversed.some((unit, i) => unit !== units[i])) index(byFirst, reversed[0]!, { term, units: reversed, fuzzy: false, nonLetters });
  }
  return { kind, count: words.length, byFirst, bySecond, words };
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

/** The terms of an evaluation: the tokens of the request's UserInputs, then the policy's BannedWords. */
export function contextTerms(userInputs: readonly string[] = [], bannedWords: readonly string[] = []): ContextTerms {
  const groups = [...(userInputs.length > 0 ? [termGroup('UserInput', userInputs.flatMap(userInputTokens))] : []), ...(bannedWords.length > 0 ? [bannedWordGroup(bannedWords)] : [])];
  return groups.length === 0 ? NO_TERMS : { groups, wordLists: groups.map((g) => g.words) };
}

/** A term found in a password: its group and its index there, and the characters [start, end) of the password's NFKC form it covers. */
interface TermMatch {
  readonly group: number;
  readonly term: number;
  readonly start: number;
  readonly end: number;
}

/** Whether a[from..from+length) equals b[at..at+length). */
function same(a: Int32Array, from: number, b: Int32Array, at: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[from + i] !== b[at + i]) return false;
  return true;
}

/** The normal form of a password, and how many of its first i characters are no letter. */
interface NormalText {
  readonly units: Int32Array;
  readonly nonLetters: Int32Array;
}

/** Records a match unless more than half of it is stand-ins. */
function add(text: NormalText, group: number, pattern: Pattern, start: number, end: number, found: TermMatch[]): void {
  const standIns = text.nonLetters[end]! - text.nonLetters[start]! - pattern.nonLetters;
  if (2 * standIns <= end - start) found.push({ group, term: pattern.term, start, end });
}

/**
 * The matches of a pattern starting at `s`: as written, and for a fuzzy pattern with one character changed,
 * removed or inserted. The first mismatch after the common prefix is where the one edit must be (a classic
 * result for edit distance 1), so a start costs the prefix and one comparison of the remainder per kind of
 * edit, whatever the text.
 */
function matchesAt(text: NormalText, group: number, pattern: Pattern, s: number, found: TermMatch[]): void {
  const { units, fuzzy } = pattern;
  const n = text.units.length;
  const m = units.length;
  if (s < 0 || s + m - (fuzzy ? 1 : 0) > n) return;
  let k = 0;
  while (k < m && s + k < n && text.units[s + k] === units[k]) k++;
  if (k === m) return add(text, group, pattern, s, s + m, found);
  if (!fuzzy) return;
  // Every reading of the one edit is kept: the widest covers what the attacker's typo rule covers.
  if (s + m <= n && same(text.units, s + k + 1, units, k + 1, m - k - 1)) add(text, group, pattern, s, s + m, found);
  if (same(text.units, s + k, units, k + 1, m - k - 1)) add(text, group, pattern, s, s + m - 1, found);
  // An insertion before the first character is the match one place later.
  if (k > 0 && s + m < n && same(text.units, s + k + 1, units, k, m - k)) add(text, group, pattern, s, s + m + 1, found);
}

const NONE: readonly Pattern[] = [];

/** Every match of every term in the password: at each position, only the patterns whose match can start or turn there. */
export function findTerms(password: string, terms: ContextTerms): TermMatch[] {
  const found: TermMatch[] = [];
  if (terms.groups.length === 0) return found;
  const text = normalUnits(password);
  for (let group = 0; group < terms.groups.length; group++) {
    const { byFirst, bySecond } = terms.groups[group]!;
    for (let s = 0; s < text.units.length; s++) {
      const starting = byFirst.get(text.units[s]!) ?? NONE;
      for (let i = 0; i < starting.length; i++) matchesAt(text, group, starting[i]!, s, found);
      // The first character removed (the match starts here) or changed (it started one before); where that
      // start holds the first character itself, the pattern was tried there already.
      const turning = bySecond.get(text.units[s]!) ?? NONE;
      for (let i = 0; i < turning.length; i++) {
        const first = turning[i]!.units[0];
        if (text.units[s] !== first) matchesAt(text, group, turning[i]!, s, found);
        if (s > 0 && text.units[s - 1] !== first) matchesAt(text, group, turning[i]!, s - 1, found);
      }
    }
  }
  return found;
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

/** The guessability of a password in context, and the failures of the kinds of term it is built on. */
interface ContextJudgement extends ReturnType<GuessabilityEstimator> {
  readonly failures: readonly CompositionFailure[];
}

/**
 * Judges a password with its terms (the estimator's, with the terms as zxcvbn-ts's user inputs): one estimate,
 * of the password, when no term matches; else also one of what is left (restOf), as if it were the whole
 * password, and the estimate is the fewer guesses of the two. A rest below STANDS_ALONE_SCORE is a failure for
 * each kind of term found (Found: how many distinct terms of that kind) and caps the estimate at
 * WEAK_CEILING_LOG10 (Weak, as for a breached password), with each kind's suggestion first.
 */
export function judgeInContext(password: string, terms: ContextTerms, estimate: GuessabilityEstimator): ContextJudgement {
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
    guessesLog10: Math.min(fewest.guessesLog10, WEAK_CEILING_LOG10),
    feedback: [...kinds.map((kind) => TERM_KIND_TEXT[kind].suggestion), ...alone.feedback],
    failures: kinds.map((kind) => ({ Rule: kind, Required: 0, Found: found.get(kind)!.size, Message: TERM_KIND_TEXT[kind].failure })),
  };
}
