/**
 * zxcvbn-ts's ranked dictionary (word -> rank, 1 for the most common) read in place from one string of words
 * in rank order, separated by WORD_SEPARATOR. zxcvbn-ts builds a plain object of every word at start, which costs the
 * EvaluatePassword function most of its cold start (docs/performance.md#cold-start); here the start is one
 * pass over the characters into an open-addressing hash table of word numbers, with no string per word.
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
export const WORD_SEPARATOR = '\t';

export function rankedDictionary(lines: string): RankedDictionary {
  const count = wordCount(lines);
  // starts[i] is where word i begins; the word ends one before starts[i + 1] (a virtual separator at the end).
  const starts = new Int32Array(count + 1);
  // At most half full, so probe sequences stay short.
  const mask = (1 << Math.max(1, 32 - Math.clz32(count * 2))) - 1;
  // Word number + 1 per slot; 0 is an empty slot.
  const slots = new Int32Array(mask + 1);
  let maxWordSize = 0;
  let start = 0;
  // Which first two characters (their low bytes) begin a word: most substrings a check looks up begin as no word
  // does, and are answered before they are hashed.
  const beginnings = new Uint8Array(1 << 13);
  for (let i = 0; i < count; i++) {
    const end = i === count - 1 ? lines.length : lines.indexOf(WORD_SEPARATOR, start);
    starts[i] = start;
    starts[i + 1] = end + 1;
    maxWordSize = Math.max(maxWordSize, end - start);
    const begins = beginning(lines, start, end);
    beginnings[begins >> 3]! |= 1 << (begins & 7);
    let slot = hash(lines, start, end) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === 0 || sameWord(lines, starts, held - 1, lines, start, end - start)) {
        slots[slot] = i + 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    start = end + 1;
  }

  const rankOf = (word: string): number | undefined => {
    if (word.length > maxWordSize) return undefined;
    const begins = beginning(word, 0, word.length);
    if ((beginnings[begins >> 3]! & (1 << (begins & 7))) === 0) return undefined;
    let slot = hash(word, 0, word.length) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === 0) return undefined;
      if (sameWord(lines, starts, held - 1, word, 0, word.length)) return held;
      slot = (slot + 1) & mask;
    }
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

/** How many words a list of words separated by WORD_SEPARATOR holds (none in an empty string). */
export function wordCount(lines: string): number {
  if (lines === '') return 0;
  let count = 1;
  for (let at = lines.indexOf(WORD_SEPARATOR); at !== -1; at = lines.indexOf(WORD_SEPARATOR, at + 1)) count++;
  return count;
}

/** FNV-1a over the UTF-16 code units of text[start, end). */
/** What a plain object finds on its prototype. */
const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The low bytes of a text's first two characters, as one 16-bit number (0 for a missing second). */
function beginning(text: string, start: number, end: number): number {
  return ((text.charCodeAt(start) & 0xff) << 8) | (end - start > 1 ? text.charCodeAt(start + 1) & 0xff : 0);
}

function hash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Whether word number `index` of `lines` is text[start, start + length). */
function sameWord(
  lines: string,
  starts: Int32Array,
  index: number,
  text: string,
  start: number,
  length: number,
): boolean {
  const from = starts[index]!;
  if (starts[index + 1]! - 1 - from !== length) return false;
  for (let i = 0; i < length; i++) if (lines.charCodeAt(from + i) !== text.charCodeAt(start + i)) return false;
  return true;
}
