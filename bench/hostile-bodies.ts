/**
 * Hostile evaluation inputs (issue 30, "The evaluation's worst case"): bodies of POST
 * /api/passwordstrength/evaluate, and the BannedWords of the policy they are evaluated under, built to cost the
 * evaluation most. The `hostile` section of `npm run bench` times them; tests may import them too.
 *
 * The export, kept stable:
 *
 *   hostileBodies(seed, perFamily): HostileBody[]
 *     perFamily bodies of each family, the families in HOSTILE_FAMILIES' order. Pure and deterministic: the
 *     same seed gives the same bodies, and a family's body i is the same whatever perFamily is (each body draws
 *     from its own stream of the seed), so hostileBodies(s, 3) is a prefix, family by family, of hostileBodies(s, 6).
 *   HOSTILE_FAMILIES, HostileFamily, HostileBody.
 *
 * Every body is valid under today's limits, counted as sent: Password 1 to 256 code points, no control
 * character; UserInputs 1 to 20 strings of 1 to 256 code points (or none: an empty list means the field is left
 * out); BannedWords up to 1,000 words of 3 to 64 code points, distinct ignoring case (after NFKC, as the policy
 * schema compares them). Each family alternates two variants: bodies 0, 2, 4, ... stay within every limit after
 * NFKC too (validAfterNfkc: true); bodies 1, 3, 5, ... are valid only as sent, for at least one of their values
 * grows past its limit under NFKC (U+2A0C becomes four characters, U+FDFA eighteen).
 *
 * The families:
 *
 *   nfkc-expanding            characters NFKC expands, in the Password and in the UserInputs' tokens (a letter and
 *                             a run of the character, each token at most 64 characters after NFKC);
 *   dense-userinputs          20 UserInputs of distinct tokens that overlap everywhere in a Password of one letter
 *                             (a letter or two and a run of it, 3 to 64 long; some split by digit boundaries only);
 *   overlapping-bannedwords   1,000 BannedWords that overlap everywhere in a Password of one letter, no UserInputs;
 *   l33t-runs                 runs of l33t characters, 48, 64 and 256 long, alone, with UserInputs of l33t-readable
 *                             words, with such BannedWords, or both;
 *   repeated-characters       one character, or a short unit (`ab`, `abc`, `p4$$`), repeated to 48 to 256;
 *   letters-alternating-l33t  letters alternating with l33t characters (`a!a1a|a7...`), 48 to 256.
 */

import { seededRandom } from '../bundling/guess-model';

export const HOSTILE_FAMILIES = [
  'nfkc-expanding',
  'dense-userinputs',
  'overlapping-bannedwords',
  'l33t-runs',
  'repeated-characters',
  'letters-alternating-l33t',
] as const;

export type HostileFamily = (typeof HOSTILE_FAMILIES)[number];

export interface HostileBody {
  readonly family: HostileFamily;
  /** What the body is, for a report: `#1 U+2A0C x 256 ...`; unique within its family. */
  readonly name: string;
  readonly password: string;
  /** The request's UserInputs; empty: the field is left out. */
  readonly userInputs: string[];
  /** The BannedWords of the policy the body is evaluated under; empty: none. */
  readonly bannedWords: string[];
  /** Within every limit after NFKC as well as as sent; false: valid only as sent. */
  readonly validAfterNfkc: boolean;
}

/**
 * Today's limits, counted as sent (functions/api/evaluation-request.ts, functions/domain/evaluation/context/user-inputs.ts,
 * functions/domain/strength-policy.ts): written here as the numbers the bodies are built against, whatever the
 * service comes to count; test/unit/hostile-bodies.test.ts has the function's request reading and the policy
 * schema accept the bodies, so a limit that moves shows there.
 */
const MAX_PASSWORD = 256;
const USER_INPUTS = 20;
const MAX_USER_INPUT = 256;
const BANNED_WORDS = 1000;
const MAX_BANNED_WORD = 64;
/** Longer tokens are left out of the matching (context-terms.ts), so none is made longer. */
const MAX_TOKEN = 64;

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
/** The l33t characters and the letters they read as (pattern-caps.ts's L33T_READINGS, first reading). */
const L33T: Readonly<Record<string, string>> = {
  '4': 'a',
  '@': 'a',
  '8': 'b',
  '(': 'c',
  '3': 'e',
  '6': 'g',
  '9': 'g',
  '1': 'i',
  '!': 'i',
  '|': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
  '+': 't',
  '%': 'x',
  '2': 'z',
};
const L33T_CHARACTERS = Object.keys(L33T);
const L33T_LETTERS = [...new Set(Object.values(L33T))].join('');
/** Characters NFKC expands: U+2A0C to ∫∫∫∫, U+FDFA to 18 characters, ﬃ to ffi, ﬀ to ff, Ⅶ to VII, ㉐ to PTE, ㎡ to m2. */
const EXPANDING = ['\u2A0C', '\uFDFA', '\uFB03', '\uFB00', '\u2166', '\u3250', '\u33A1'];
/** Characters NFKC expands into l33t characters: ‼ to !!, ⑴ to ⒇ to (1) to (20), ⑩ to ⑳ to 10 to 20. */
const L33T_EXPANDING = ['\u203C', ...codePoints(0x2474, 0x2487), ...codePoints(0x2469, 0x2473)];

function codePoints(first: number, last: number): string[] {
  return Array.from({ length: last - first + 1 }, (_, i) => String.fromCodePoint(first + i));
}

const length = (text: string) => [...text].length;
const nfkcLength = (text: string) => length(text.normalize('NFKC'));
const hex = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

interface Random {
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [low, high]. */
  between(low: number, high: number): number;
  /** A character of a string, or an item of a list. */
  pick(items: string): string;
  pick<T>(items: readonly T[]): T;
}

/** One stream per (seed, family, body) of the build's small seeded generator: enough for choosing inputs. */
function randomFor(seed: number, family: number, body: number): Random {
  const next = seededRandom(seed ^ Math.imul(family + 1, 0x9e3779b9) ^ Math.imul(body + 1, 0x85ebca6b));
  const int = (n: number) => Math.floor(next() * n);
  const pick = (items: string | readonly unknown[]) => items[int(items.length)];
  return { int, between: (low, high) => low + int(high - low + 1), pick: pick as Random['pick'] };
}

/** The length a limit counts: as sent, or for a body that must stay valid after NFKC, the larger of the two. */
const counted = (text: string, afterNfkc: boolean) =>
  afterNfkc ? Math.max(length(text), nfkcLength(text)) : length(text);

/** `unit` repeated, cut to `count` code points. */
function repeated(unit: string, count: number): string {
  return [...unit.repeat(Math.ceil(count / length(unit)))].slice(0, count).join('');
}

/** Characters drawn by `next`, `count` of them. */
const drawn = (count: number, next: () => string) => Array.from({ length: count }, next).join('');

/** Tokens from `next` joined by `separator` while the text stays within `max` (counted as `afterNfkc` says). */
function filled(max: number, afterNfkc: boolean, separator: () => string, next: () => string): string {
  let text = next();
  for (let misses = 0; misses < 8; ) {
    const longer = text + separator() + next();
    if (counted(longer, afterNfkc) <= max) text = longer;
    else misses++;
  }
  return text;
}

/** 20 UserInputs of tokens from `next`, each within its limit. */
function userInputs(afterNfkc: boolean, separator: () => string, next: () => string): string[] {
  return Array.from({ length: USER_INPUTS }, () => filled(MAX_USER_INPUT, afterNfkc, separator, next));
}

/** `next`'s tokens, each at most once (a token given twice is matched once): `next` is asked again for a new one. */
function distinct(next: () => string): () => string {
  const seen = new Set<string>();
  return () => {
    for (let i = 0; i < 50; i++) {
      const token = next();
      const key = token.normalize('NFKC').toLowerCase();
      if (!seen.has(key)) return (seen.add(key), token);
    }
    return next();
  };
}

/** `count` BannedWords from `next`, distinct ignoring case (after NFKC, as the schema compares them). */
function bannedWords(count: number, next: () => string): string[] {
  const words = new Map<string, string>();
  for (let tries = 0; words.size < count; tries++) {
    if (tries > count * 50) throw new Error(`only ${words.size} distinct BannedWords of ${count}`);
    const word = next();
    words.set(word.normalize('NFKC').toLowerCase(), word);
  }
  return [...words.values()];
}

/** A word of l33t-readable letters, 3 to `longest` long, each letter written in l33t with probability `l33t`. */
function l33tWord(r: Random, longest: number, l33t: number): string {
  const spellings = Object.entries(L33T);
  return drawn(r.between(3, longest), () => {
    const letter = r.pick(L33T_LETTERS);
    const written = spellings.filter(([, reads]) => reads === letter).map(([ch]) => ch);
    return r.int(100) < l33t * 100 && written.length > 0 ? r.pick(written) : letter;
  });
}

/** A password of the l33t family, `count` code points; valid only as sent: l33t characters and ones NFKC expands into l33t. */
function l33tRun(r: Random, count: number, afterNfkc: boolean): string {
  return drawn(count, () => (afterNfkc || r.int(2) === 0 ? r.pick(L33T_CHARACTERS) : r.pick(L33T_EXPANDING)));
}

type Maker = (
  r: Random,
  i: number,
  afterNfkc: boolean,
) => { name: string; password: string; userInputs?: string[]; bannedWords?: string[] };

const MAKERS: Record<HostileFamily, Maker> = {
  'nfkc-expanding': (r, i, afterNfkc) => {
    // The issue's case first: U+2A0C.
    const ch = i < 2 ? '\u2A0C' : r.pick(EXPANDING);
    const grows = nfkcLength(ch);
    const count = afterNfkc ? Math.floor(MAX_PASSWORD / grows) : MAX_PASSWORD;
    const longestRun = Math.max(1, Math.floor((MAX_TOKEN - 1) / grows));
    const separator = r.pick(['.', ' ', '-', '7']);
    const token = distinct(() => r.pick(LOWER) + ch.repeat(r.between(1, longestRun)));
    return {
      name: `${hex(ch)} x ${count} (${count * grows} after NFKC); 20 UserInputs of tokens <letter>+${hex(ch)} x 1..${longestRun} split by "${separator}"`,
      password: ch.repeat(count),
      userInputs: userInputs(afterNfkc, () => separator, token),
    };
  },

  'dense-userinputs': (r, i, afterNfkc) => {
    // As sent only: ﬀ, which NFKC doubles (ff), in place of the letter.
    const ch = afterNfkc ? r.pick(LOWER) : '\uFB00';
    const grows = nfkcLength(ch);
    const prefix = 1 + (i % 2);
    const byDigits = i % 3 === 2;
    const token = distinct(
      () =>
        drawn(prefix, () => r.pick(LOWER)) +
        ch.repeat(r.between(Math.ceil(Math.max(1, 3 - prefix) / grows), Math.floor((MAX_TOKEN - prefix) / grows))),
    );
    const separator = byDigits ? () => String(r.int(10)) : () => '.';
    return {
      name: `${afterNfkc ? ch : hex(ch)} x 256; 20 UserInputs of distinct tokens of ${prefix} letter(s)+${afterNfkc ? ch : hex(ch)} run, ${byDigits ? 'split by digits alone' : '"."-separated'}`,
      password: ch.repeat(MAX_PASSWORD),
      userInputs: userInputs(afterNfkc, separator, token),
    };
  },

  'overlapping-bannedwords': (r, i, afterNfkc) => {
    // As sent only: U+2A0C runs, which NFKC makes up to 253 characters long.
    const ch = afterNfkc ? (i < 2 ? 'a' : r.pick(LOWER)) : '\u2A0C';
    const grows = nfkcLength(ch);
    const prefix = 1 + (Math.floor(i / 2) % 2);
    const longestRun = MAX_BANNED_WORD - prefix;
    const words = bannedWords(
      BANNED_WORDS,
      () => drawn(prefix, () => r.pick(LOWER)) + ch.repeat(r.between(Math.max(1, 3 - prefix), longestRun)),
    );
    return {
      name: `${afterNfkc ? ch : hex(ch)} x 256; 1,000 BannedWords of ${prefix} letter(s)+${afterNfkc ? ch : hex(ch)} x ${Math.max(1, 3 - prefix)}..${longestRun}${grows > 1 ? ` (up to ${prefix + grows * longestRun} after NFKC)` : ''}`,
      password: ch.repeat(MAX_PASSWORD),
      bannedWords: words,
    };
  },

  'l33t-runs': (r, i, afterNfkc) => {
    // Bodies 2k and 2k+1 share a context; the lengths cycle apart from the contexts.
    const pair = Math.floor(i / 2);
    const count = afterNfkc ? [256, 64, 48][pair % 3]! : MAX_PASSWORD;
    const context = (['both', 'UserInputs', 'BannedWords', 'none'] as const)[pair % 4]!;
    const password = l33tRun(r, count, afterNfkc);
    const withInputs = context === 'UserInputs' || context === 'both';
    const withWords = context === 'BannedWords' || context === 'both';
    return {
      name: `${afterNfkc ? '' : 'l33t and l33t-expanding '}run of ${count} (${nfkcLength(password)} after NFKC)${withInputs ? ', 20 UserInputs of l33t-readable words' : ''}${withWords ? ', 1,000 l33t-readable BannedWords' : ''}`,
      password,
      userInputs: withInputs
        ? userInputs(
            afterNfkc,
            () => r.pick(['.', ' ']),
            distinct(() => l33tWord(r, 10, 0)),
          )
        : [],
      bannedWords: withWords ? bannedWords(BANNED_WORDS, () => l33tWord(r, 12, 0.5)) : [],
    };
  },

  'repeated-characters': (r, i, afterNfkc) => {
    const unitLength = [1, 2, 3, 4][Math.floor(i / 2) % 4]!;
    const named = ['', 'ab', 'abc', 'p4$$'][unitLength - 1]!;
    const ascii =
      unitLength === 1
        ? r.pick([...LOWER, ...L33T_CHARACTERS])
        : r.int(2) === 0
          ? named
          : drawn(unitLength, () => r.pick([...LOWER, ...L33T_CHARACTERS]));
    // As sent only: one character of the unit is one NFKC expands.
    const unit = afterNfkc ? ascii : [...ascii].map((ch, k) => (k === 0 ? r.pick(EXPANDING) : ch)).join('');
    let count = [256, 48, 128, 64, 192, 96][Math.floor(i / 2) % 6]!;
    if (!afterNfkc && nfkcLength(repeated(unit, count)) <= MAX_PASSWORD) count = MAX_PASSWORD;
    const password = repeated(unit, count);
    return {
      name: `"${[...unit].map((ch) => (ch.charCodeAt(0) < 128 ? ch : hex(ch))).join('')}" repeated to ${count} (${nfkcLength(password)} after NFKC)`,
      password,
    };
  },

  'letters-alternating-l33t': (r, i, afterNfkc) => {
    const count = afterNfkc ? [256, 48, 128, 64][Math.floor(i / 2) % 4]! : MAX_PASSWORD;
    const oneLetter = i % 4 < 2;
    const letter = r.pick(L33T_LETTERS);
    const password = Array.from({ length: count }, (_, k) =>
      k % 2 === 0 ? (oneLetter ? letter : r.pick(L33T_LETTERS)) : r.pick(afterNfkc ? L33T_CHARACTERS : L33T_EXPANDING),
    ).join('');
    return {
      name: `${oneLetter ? `"${letter}"` : 'l33t-readable letters'} alternating with ${afterNfkc ? 'l33t characters' : 'characters NFKC expands into l33t'}, ${count} (${nfkcLength(password)} after NFKC)`,
      password,
    };
  },
};

export function hostileBodies(seed: number, perFamily: number): HostileBody[] {
  return HOSTILE_FAMILIES.flatMap((family, f) =>
    Array.from({ length: perFamily }, (_, i) => {
      const validAfterNfkc = i % 2 === 0;
      const made = MAKERS[family](randomFor(seed, f, i), i, validAfterNfkc);
      return {
        family,
        name: `#${i + 1} ${made.name}`,
        password: made.password,
        userInputs: made.userInputs ?? [],
        bannedWords: made.bannedWords ?? [],
        validAfterNfkc,
      };
    }),
  );
}
