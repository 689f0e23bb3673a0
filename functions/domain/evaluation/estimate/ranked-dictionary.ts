/**
 * zxcvbn-ts's ranked dictionary (word -> rank, 1 for the most common) read in place from one string of words
 * in rank order: RANK_SEPARATOR between ranks, TIE_SEPARATOR between words of one rank (the other languages'
 * dictionaries, where a word's rank is its lowest in any language; bundling/dictionaries.ts). zxcvbn-ts builds a
 * plain object of every word at start, which costs the EvaluatePassword function most of its cold start
 * (docs/performance.md#cold-start); here the start finds each word's bounds by indexOf and files its number in a
 * bucket by its length and at most five of its characters (bucketOf), with no string per word and no pass over
 * every character in JavaScript (a hash table of whole words, which this replaced, read every one).
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

/**
 * A tab: no word has one, and esbuild keeps a string of tabs on one line (a line break would turn it into a
 * template literal over 236,514 lines of the minified bundle).
 */
export const RANK_SEPARATOR = '\t';
/** A character no word of the dictionaries has, and that JSON and esbuild keep as one character. */
export const TIE_SEPARATOR = '~';

/** The words of a dictionary string, in rank order (ties in their listed order). */
export function dictionaryWords(lines: string): string[] {
  return lines.split(RANK_SEPARATOR).flatMap((rank) => (rank === '' ? [] : rank.split(TIE_SEPARATOR)));
}

export function rankedDictionary(lines: string): RankedDictionary {
  // At most one word per separator and one more (an empty rank has none): counted by indexOf, which is native.
  const count = occurrences(lines, RANK_SEPARATOR) + occurrences(lines, TIE_SEPARATOR) + 1;
  // starts[i] and ends[i] bound word i, ranks[i] is its rank, and later[i] is the word listed before it in its
  // bucket, + 1 (0: none).
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  const ranks = new Int32Array(count);
  const later = new Int32Array(count);
  // The words of a bucket share their length and at most five of their characters (bucketOf): indexing a word
  // never reads the whole word, so a cold start indexes a million words in a few indexOf passes. heads[bucket] is
  // the last word listed in it, + 1 (0: an empty bucket).
  const mask = (1 << Math.max(1, 32 - Math.clz32(count))) - 1;
  const heads = new Int32Array(mask + 1);
  let maxWordSize = 0;
  // Which first two characters (their low bytes) begin a word: most substrings a check looks up begin as no word
  // does, and are answered before their bucket is read.
  const beginnings = new Uint8Array(1 << 13);
  let i = 0;
  let rank = 1;
  // The next separator of each kind at or after `start`, found by indexOf, which is native (the length when none is left).
  const next = (separator: string, from: number) => {
    const at = lines.indexOf(separator, from);
    return at === -1 ? lines.length : at;
  };
  let nextRank = next(RANK_SEPARATOR, 0);
  let nextTie = next(TIE_SEPARATOR, 0);
  for (let start = 0; start <= lines.length; ) {
    if (nextRank < start) nextRank = next(RANK_SEPARATOR, start);
    if (nextTie < start) nextTie = next(TIE_SEPARATOR, start);
    const end = Math.min(nextRank, nextTie);
    // An empty place is a rank no word has (every word of it has a lower rank in another language).
    if (end > start) {
      starts[i] = start;
      ends[i] = end;
      ranks[i] = rank;
      maxWordSize = Math.max(maxWordSize, end - start);
      const begins = beginning(lines, start, end);
      beginnings[begins >> 3]! |= 1 << (begins & 7);
      const bucket = bucketOf(lines, start, end) & mask;
      later[i] = heads[bucket]!;
      heads[bucket] = i + 1;
      i++;
    }
    if (end !== nextTie) rank++;
    start = end + 1;
  }

  // The last word listed of a bucket comes first: a word listed twice keeps its last rank.
  const rankOf = (word: string): number | undefined => {
    if (word.length > maxWordSize) return undefined;
    const begins = beginning(word, 0, word.length);
    if ((beginnings[begins >> 3]! & (1 << (begins & 7))) === 0) return undefined;
    for (let held = heads[bucketOf(word, 0, word.length) & mask]!; held !== 0; held = later[held - 1]!)
      if (sameWord(lines, starts, ends, held - 1, word, 0, word.length)) return ranks[held - 1];
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

/** How many ranks a dictionary string holds (none in an empty string), counted by indexOf. */
export function rankCount(lines: string): number {
  return lines === '' ? 0 : occurrences(lines, RANK_SEPARATOR) + 1;
}

/** What a plain object finds on its prototype. */
const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The low bytes of a text's first two characters, as one 16-bit number (0 for a missing second). */
function beginning(text: string, start: number, end: number): number {
  return ((text.charCodeAt(start) & 0xff) << 8) | (end - start > 1 ? text.charCodeAt(start + 1) & 0xff : 0);
}

/**
 * A word's bucket: FNV-1a over its length and its first three and last two UTF-16 code units (all of a shorter
 * word's), so that a bucket holds few words: words that begin alike mostly end otherwise.
 */
function bucketOf(text: string, start: number, end: number): number {
  let h = Math.imul(FNV_OFFSET ^ (end - start), FNV_PRIME);
  if (end - start <= 5) {
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    return h >>> 0;
  }
  h = Math.imul(h ^ text.charCodeAt(start), FNV_PRIME);
  h = Math.imul(h ^ text.charCodeAt(start + 1), FNV_PRIME);
  h = Math.imul(h ^ text.charCodeAt(start + 2), FNV_PRIME);
  h = Math.imul(h ^ text.charCodeAt(end - 2), FNV_PRIME);
  return Math.imul(h ^ text.charCodeAt(end - 1), FNV_PRIME) >>> 0;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** How many times `separator` occurs in `lines`. */
function occurrences(lines: string, separator: string): number {
  let count = 0;
  for (let at = lines.indexOf(separator); at !== -1; at = lines.indexOf(separator, at + 1)) count++;
  return count;
}

/** Whether word number `index` of `lines` is text[start, start + length). */
function sameWord(
  lines: string,
  starts: Int32Array,
  ends: Int32Array,
  index: number,
  text: string,
  start: number,
  length: number,
): boolean {
  const from = starts[index]!;
  if (ends[index]! - from !== length) return false;
  for (let i = 0; i < length; i++) if (lines.charCodeAt(from + i) !== text.charCodeAt(start + i)) return false;
  return true;
}
