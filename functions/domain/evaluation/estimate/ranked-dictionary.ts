/**
 * zxcvbn-ts's ranked dictionary (word -> rank, 1 for the most common) read in place from an index built ahead of
 * time. A dictionary is one string of words in rank order: RANK_SEPARATOR between ranks, TIE_SEPARATOR between
 * words of one rank (the other languages' dictionaries, where a word's rank is its lowest in any language;
 * bundling/dictionaries.ts). indexDictionary stores it one byte per character (a code page: the dictionaries
 * use fewer than 256 characters) with a hash table of its words: each bucket (bucketOf, the word's length and at
 * most five of its characters) lists the offsets of its words and their ranks. `npm run dictionaries` builds the
 * index of every dictionary into guessability-dictionaries.bin (dictionary-file.ts), so that a cold start reads
 * a file instead of parsing megabytes of strings and indexing a million words (docs/performance.md#the-evaluations-cold-start).
 *
 * The lookup answers as zxcvbn-ts's object does: a word's rank (a word listed twice keeps its last rank,
 * as an object property assigned twice), and for anything else what a plain object answers, undefined or
 * a property of Object.prototype (bundling/dictionaries.ts refuses a word that is one).
 */
export interface RankedDictionary {
  /** zxcvbn-ts reads it as `lookup[word]`. */
  readonly lookup: Record<string, number>;
  /** The longest word's length: zxcvbn-ts looks up no longer substring. */
  readonly maxWordSize: number;
}

/** A tab: no word has one. */
export const RANK_SEPARATOR = '\t';
/** A character no word of the dictionaries has. */
export const TIE_SEPARATOR = '~';

/** The words of a dictionary string, in rank order (ties in their listed order). */
export function dictionaryWords(lines: string): string[] {
  return lines.split(RANK_SEPARATOR).flatMap((rank) => (rank === '' ? [] : rank.split(TIE_SEPARATOR)));
}

/** How many ranks a dictionary string holds (none in an empty string), counted by indexOf. */
export function rankCount(lines: string): number {
  return lines === '' ? 0 : occurrences(lines, RANK_SEPARATOR) + 1;
}

/** The character (UTF-16 code unit) of each byte, 0 for a byte none has: ASCII is itself, so a dictionary of ASCII reads as Latin-1. */
export type CodePage = Uint16Array;

/** Bytes no other character takes: 0 (none), and the separators, which end a word where a lookup compares. */
const RESERVED = new Set([0, RANK_SEPARATOR.charCodeAt(0), TIE_SEPARATOR.charCodeAt(0)]);

/** A code page of the characters of `texts`: ASCII as itself, each other character on a byte ASCII leaves free. */
export function codePage(texts: readonly string[]): CodePage {
  const codes = new Set<number>();
  for (const text of texts) for (let i = 0; i < text.length; i++) codes.add(text.charCodeAt(i));
  const page = new Uint16Array(256);
  for (const code of codes) if (code < 0x80) page[code] = code;
  const free = [...Array(256).keys()]
    .filter((byte) => (byte >= 0x80 || !codes.has(byte)) && !RESERVED.has(byte))
    .sort((a, b) => b - a);
  const others = [...codes].filter((code) => code >= 0x80).sort((a, b) => a - b);
  if (others.length > free.length)
    throw new Error(
      `The dictionaries have ${codes.size} characters: one byte each holds at most ${256 - RESERVED.size}`,
    );
  others.forEach((code, i) => (page[free[i]!] = code));
  return page;
}

/** Each character's byte in `page` (0 for a character it has not). */
export function byteCodes(page: CodePage): Uint8Array {
  const bytes = new Uint8Array(0x10000);
  page.forEach((code, byte) => {
    if (code !== 0) bytes[code] = byte;
  });
  return bytes;
}

/** One dictionary's words and its hash table, as guessability-dictionaries.bin holds them. */
export interface DictionaryIndex {
  /** The dictionary string, a byte per character through the code page. */
  readonly chars: Uint8Array;
  /** Which first two characters (their low bytes, bit (a << 8 | b)) begin a word: most substrings a check looks up begin as no word does. */
  readonly beginnings: Uint8Array;
  /** Bucket b's words are entries[heads[b]] to entries[heads[b + 1] - 1], the last listed first: a word listed twice keeps its last rank. */
  readonly heads: Uint32Array;
  /** Each word's offset in chars, bucket by bucket. */
  readonly entries: Uint32Array;
  /** The rank of each entry's word. */
  readonly ranks: Uint32Array;
  readonly maxWordSize: number;
}

/** Indexes a dictionary string with a code page that has every character of it (bundling/dictionaries.ts, at generation). */
export function indexDictionary(lines: string, page: CodePage): DictionaryIndex {
  const bytes = byteCodes(page);
  const chars = new Uint8Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    chars[i] = bytes[lines.charCodeAt(i)]!;
    if (chars[i] === 0) throw new Error(`The code page has no ${JSON.stringify(lines[i])}`);
  }
  const words: { start: number; rank: number; bucket: number }[] = [];
  const beginnings = new Uint8Array(BEGINNINGS_BYTES);
  let maxWordSize = 0;
  let start = 0;
  let rank = 1;
  for (const place of lines.split(RANK_SEPARATOR)) {
    // An empty place is a rank no word has (every word of it has a lower rank in another language).
    for (const word of place.split(TIE_SEPARATOR)) {
      if (word !== '') {
        words.push({ start, rank, bucket: bucketOf(word) });
        maxWordSize = Math.max(maxWordSize, word.length);
        const begins = beginning(word);
        beginnings[begins >> 3]! |= 1 << (begins & 7);
      }
      start += word.length + 1;
    }
    rank++;
  }
  const buckets = bucketCount(words.length);
  const heads = new Uint32Array(buckets + 1);
  for (const { bucket } of words) heads[(bucket & (buckets - 1)) + 1]!++;
  for (let b = 0; b < buckets; b++) heads[b + 1]! += heads[b]!;
  const filled = heads.slice(0, buckets);
  const entries = new Uint32Array(words.length);
  const ranks = new Uint32Array(words.length);
  for (let i = words.length - 1; i >= 0; i--) {
    const { start, rank, bucket } = words[i]!;
    const at = filled[bucket & (buckets - 1)]!++;
    entries[at] = start;
    ranks[at] = rank;
  }
  return { chars, beginnings, heads, entries, ranks, maxWordSize };
}

/** A power of two, at least the words: one word a bucket at most, on average (half as many made checks 2 to 5% slower). */
function bucketCount(words: number): number {
  return 1 << Math.max(1, 32 - Math.clz32(Math.max(1, words) - 1));
}

/** The lookup of an index, read in place; `bytes` is byteCodes of the index's code page. */
export function readIndex(index: DictionaryIndex, bytes: Uint8Array): RankedDictionary {
  const { chars, beginnings, heads, entries, ranks, maxWordSize } = index;
  const mask = heads.length - 2;
  const rankOf = (word: string): number | undefined => {
    const length = word.length;
    if (length > maxWordSize) return undefined;
    const begins = beginning(word);
    if ((beginnings[begins >> 3]! & (1 << (begins & 7))) === 0) return undefined;
    const bucket = bucketOf(word) & mask;
    for (let e = heads[bucket]!, last = heads[bucket + 1]!; e < last; e++) {
      const from = entries[e]!;
      const after = from + length;
      // The word ends where the entry does: at a separator or at the end.
      if (after < chars.length && chars[after] !== RANK && chars[after] !== TIE) continue;
      let i = 0;
      while (i < length && chars[from + i] === bytes[word.charCodeAt(i)]) i++;
      if (i === length && length > 0) return ranks[e];
    }
    return undefined;
  };
  // Anything else answers as a plain object does: Object.prototype's members, and otherwise undefined.
  const lookup = new Proxy({} as Record<string, number>, {
    get: (target, key, receiver) =>
      typeof key === 'string'
        ? (rankOf(key) ?? (PROTOTYPE_MEMBERS.has(key) ? Reflect.get(target, key, receiver) : undefined))
        : Reflect.get(target, key, receiver),
  });
  return { lookup, maxWordSize };
}

/** A dictionary string indexed and read at once (the tests, the benches; the service reads the generated index). */
export function rankedDictionary(lines: string): RankedDictionary {
  const page = codePage([lines]);
  return readIndex(indexDictionary(lines, page), byteCodes(page));
}

const RANK = RANK_SEPARATOR.charCodeAt(0);
const TIE = TIE_SEPARATOR.charCodeAt(0);

/** What a plain object finds on its prototype. */
const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The bytes of the beginnings filter: a bit for each 16-bit beginning. */
export const BEGINNINGS_BYTES = (1 << 16) / 8;

/** The low bytes of a word's first two characters, as one 16-bit number (0 for a missing second). */
function beginning(word: string): number {
  return ((word.charCodeAt(0) & 0xff) << 8) | (word.length > 1 ? word.charCodeAt(1) & 0xff : 0);
}

/**
 * A word's bucket: FNV-1a over its length and its first three and last two UTF-16 code units (all of a shorter
 * word's), so that a bucket holds few words: words that begin alike mostly end otherwise. A lookup reads at most
 * five characters of the text to find its bucket.
 */
function bucketOf(word: string): number {
  const end = word.length;
  let h = Math.imul(FNV_OFFSET ^ end, FNV_PRIME);
  if (end <= 5) {
    for (let i = 0; i < end; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
    return h >>> 0;
  }
  h = Math.imul(h ^ word.charCodeAt(0), FNV_PRIME);
  h = Math.imul(h ^ word.charCodeAt(1), FNV_PRIME);
  h = Math.imul(h ^ word.charCodeAt(2), FNV_PRIME);
  h = Math.imul(h ^ word.charCodeAt(end - 2), FNV_PRIME);
  return Math.imul(h ^ word.charCodeAt(end - 1), FNV_PRIME) >>> 0;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** How many times `separator` occurs in `lines`. */
function occurrences(lines: string, separator: string): number {
  let count = 0;
  for (let at = lines.indexOf(separator); at !== -1; at = lines.indexOf(separator, at + 1)) count++;
  return count;
}
