import { createHash } from 'node:crypto';
import { L33T_READINGS } from '../text/l33t';

/**
 * The offline breached-password blocklist (docs/evaluation.md#breached-passwords): whether a password's
 * canonical form is in a binary fuse filter built from lists of leaked passwords (bundling/blocklist.ts,
 * `npm run blocklist`). Pure: no I/O; the filter's bytes are passed in (the handler passes the generated
 * breached-password-filter.ts).
 *
 * The filter is a 3-wise binary fuse filter with 16-bit fingerprints: Graf and Lemire, "Binary Fuse Filters:
 * Fast and Smaller Than Xor Filters", ACM JEA 27 (2022), the layout of their reference implementations
 * (segments, the second and third positions in the next two segments). An entry is always found; anything
 * else is found with probability 2^-16 (about 0.0015%), and nothing is allocated per query beyond the hash.
 * Loading it reads a 24-byte header and views the rest in place: no work per entry at cold start.
 */

/**
 * Reversed substitutions, applied after NFKC and lower-casing, the same to every entry and every query: the
 * word check's table (L33T_READINGS), each character read as its first letter. Where a character stands for
 * two letters (`1` and `|` for i or l, `7` for t or l), the letters i and l themselves share one canonical
 * letter, so `he11o`, `heiio` and `hello` are one entry: a canonical form, rather than a variant per reading,
 * keeps one lookup per password.
 */
const CANONICAL_CHARACTERS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(L33T_READINGS).map(([character, [letter]]) => [character, letter!])),
  l: 'i',
};

/** The form a password is looked up in: NFKC, lower case, each character of CANONICAL_CHARACTERS replaced. */
export function canonicalPassword(password: string): string {
  let canonical = '';
  for (const ch of password.normalize('NFKC').toLowerCase()) canonical += CANONICAL_CHARACTERS[ch] ?? ch;
  return canonical;
}

/** "BFF2": binary fuse filter, 16-bit fingerprints. */
export const FILTER_MAGIC = 0x32464642;
export const FILTER_HEADER_BYTES = 24;

/** Where an entry lives in a filter: its three slots and its fingerprint. */
export interface FilterLayout {
  readonly seed: number;
  readonly segmentLength: number;
  readonly segmentCount: number;
  /** Entries the filter was built from, for the docs and the bench. */
  readonly entries: number;
}

/** The three slots and the 16-bit fingerprint of a canonical password: four 32-bit words of SHA-256(seed, text). */
export function slotsOf(
  layout: FilterLayout,
  canonical: string,
): { slots: [number, number, number]; fingerprint: number } {
  const seed = Buffer.alloc(4);
  seed.writeUInt32LE(layout.seed);
  const digest = createHash('sha256').update(seed).update(canonical, 'utf8').digest();
  const mask = layout.segmentLength - 1;
  // A position among the first segmentCount segments (a 32-bit fraction of their length), then one slot in
  // each of the next two segments: XOR with the mask keeps a slot inside its segment.
  const h0 = Math.floor((digest.readUInt32LE(0) * layout.segmentCount * layout.segmentLength) / 2 ** 32);
  const h1 = (h0 + layout.segmentLength) ^ (digest.readUInt32LE(4) & mask);
  const h2 = (h0 + 2 * layout.segmentLength) ^ (digest.readUInt32LE(8) & mask);
  return { slots: [h0, h1, h2], fingerprint: digest.readUInt16LE(12) };
}

export interface BreachedPasswordFilter extends FilterLayout {
  /** Whether the password, in canonical form, is in the filter (or one of the 2^-16 false positives). */
  has(password: string): boolean;
  /** Size of the filter in bytes, header included. */
  readonly bytes: number;
}

/** Little-endian: seed, segment length, segment count, entries, magic, fingerprint bits. */
export function readFilter(data: Uint8Array): BreachedPasswordFilter {
  if (data.byteLength < FILTER_HEADER_BYTES) throw new Error('The breached-password filter is shorter than its header');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const layout = {
    seed: view.getUint32(0, true),
    segmentLength: view.getUint32(4, true),
    segmentCount: view.getUint32(8, true),
    entries: view.getUint32(12, true),
  };
  if (view.getUint32(16, true) !== FILTER_MAGIC || view.getUint32(20, true) !== 16)
    throw new Error('The breached-password filter has an unknown format');
  const slots = (layout.segmentCount + 2) * layout.segmentLength;
  if (data.byteLength !== FILTER_HEADER_BYTES + 2 * slots)
    throw new Error("The breached-password filter's length does not match its header");
  // Fingerprints are little-endian; a copy when the bytes are not 2-aligned (a Buffer from a pool may not be).
  const aligned = data.byteOffset % 2 === 0 ? data : data.slice();
  const fingerprints = new Uint16Array(aligned.buffer, aligned.byteOffset + FILTER_HEADER_BYTES, slots);
  return {
    ...layout,
    bytes: data.byteLength,
    has(password) {
      const {
        slots: [a, b, c],
        fingerprint,
      } = slotsOf(layout, canonicalPassword(password));
      return (fingerprints[a]! ^ fingerprints[b]! ^ fingerprints[c]!) === fingerprint;
    },
  };
}
