/**
 * The offline breached-password blocklist (functions/domain/evaluation/estimate/breached-passwords.ts, docs/evaluation.md#breached-passwords):
 * the canonical form, the binary fuse filter built by bundling/blocklist.ts (every entry found, few others),
 * its binary format, and the committed filter being what `npm run blocklist` makes of the pinned lists.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  buildFilter,
  canonicalEntries,
  defaultFilterModule,
  DEFAULT_SOURCES,
  FILTER_FILE,
  layoutFor,
  passwordsOf,
  zxcvbnPasswords,
} from '../../bundling/blocklist';
import { BREACHED_PASSWORDS } from '../../functions/domain/evaluation/estimate/breached-password-list';
import {
  canonicalPassword,
  FILTER_HEADER_BYTES,
  readFilter,
} from '../../functions/domain/evaluation/estimate/breached-passwords';

/** Deterministic pseudo-random printable strings (a linear congruential generator), for false-positive counts. */
function randomStrings(count: number, length: number, seed = 1): string[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  return Array.from({ length: count }, () =>
    Array.from({ length }, () => String.fromCharCode(33 + (next() % 94))).join(''),
  );
}

describe('the canonical form', () => {
  it.each([
    ['P@$$w0rd', 'password'.replace('l', 'i')],
    ['PASSWORD', 'password'],
    ['He11o', 'heiio'],
    ['hello', 'heiio'],
    ['J3nn1f3r!', 'jenniferi'],
    ['S@v@nn@h1', 'savannahi'],
    ['7r0ub4d0r', 'troubador'],
    ['ｐａｓｓ', 'pass'],
    ['(ooki3', 'cookie'],
    ['Ünïcödé', 'ünïcödé'],
  ])('%s reads as %s', (password, canonical) => {
    expect(canonicalPassword(password)).toBe(canonical);
  });

  it('maps i and l, and what stands for either, to one letter: one entry covers every reading', () => {
    expect(new Set(['mill', 'mi11', 'm!||', 'miii', 'm|l1'].map(canonicalPassword))).toEqual(new Set(['miii']));
  });
});

describe('a filter built from a list', () => {
  const entries = canonicalEntries([randomStrings(20_000, 10, 7)]);
  const filter = readFilter(buildFilter(entries));

  it('finds every entry, in any case and l33t spelling of it', () => {
    expect(entries.filter((entry) => !filter.has(entry))).toEqual([]);
    const small = readFilter(buildFilter(canonicalEntries([['password', 'dragon', 'monkey']])));
    for (const password of ['password', 'PASSWORD', 'P@$$w0rd', 'Dr@g0n', 'M0NK3Y'])
      expect(small.has(password)).toBe(true);
    expect(small.has('correct horse battery staple')).toBe(false);
  });

  it('finds about 2^-16 of strings it was not built from (16-bit fingerprints)', () => {
    const others = randomStrings(200_000, 12, 99);
    const found = others.filter((other) => filter.has(other)).length;
    // Expected 200,000 / 65,536 = 3.05; more than 15 happens with probability below 1e-6 (Poisson).
    expect(found).toBeLessThanOrEqual(15);
  });

  it('takes about 2.3 bytes an entry for the shipped list (16-bit fingerprints in 1.15 slots an entry), a little more for small lists', () => {
    expect(filter.entries).toBe(entries.length);
    expect(filter.bytes / entries.length).toBeLessThan(2.6);
    expect(BREACHED_PASSWORDS.bytes / BREACHED_PASSWORDS.entries).toBeLessThan(2.35);
  });

  it('builds the same bytes from the same entries (the seed search starts at 0)', () => {
    expect(Buffer.from(buildFilter(entries)).equals(Buffer.from(buildFilter(entries)))).toBe(true);
  });

  it('builds a filter of one entry and of none', () => {
    expect(readFilter(buildFilter(['x'])).has('x')).toBe(true);
    expect(readFilter(buildFilter([])).has('x')).toBe(false);
  });

  it('refuses bytes that are not a filter', () => {
    const bytes = buildFilter(['a', 'b', 'c']);
    expect(() => readFilter(bytes.slice(0, FILTER_HEADER_BYTES - 1))).toThrow('shorter than its header');
    expect(() => readFilter(bytes.slice(0, bytes.length - 2))).toThrow('does not match its header');
    const wrongMagic = bytes.slice();
    wrongMagic[16] = 0;
    expect(() => readFilter(wrongMagic)).toThrow('unknown format');
  });

  it('reads a filter whose bytes are not 2-aligned (a Buffer in a pool)', () => {
    const bytes = buildFilter(canonicalEntries([['alpha', 'beta']]));
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(readFilter(shifted.subarray(1)).has('alpha')).toBe(true);
  });

  it('sizes segments as the reference implementation does', () => {
    // 2^floor(ln(n)/ln(3.33) + 2.25) = 2^12; ceil(n * max(1.125, 0.875 + 0.25 ln(10^6)/ln(n)) / 4096) - 2 = 108.
    expect(layoutFor(392_568, 0)).toEqual({ seed: 0, segmentLength: 4096, segmentCount: 108, entries: 392_568 });
  });
});

describe('the list files an operator gives', () => {
  it('reads one password a line, plain or gzip, dropping carriage returns and empty lines', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'blocklist-'));
    const text = 'password\r\n123456\n\nP@ss word\n';
    writeFileSync(path.join(dir, 'list.txt'), text);
    writeFileSync(path.join(dir, 'list.txt.gz'), gzipSync(text));
    for (const file of ['list.txt', 'list.txt.gz'])
      expect(passwordsOf(readFileSync(path.join(dir, file)))).toEqual(['password', '123456', 'P@ss word']);
  });
});

describe('the shipped filter', () => {
  it('is what bundling/blocklist.ts makes of the pinned lists (npm run blocklist when this fails)', () => {
    expect(readFileSync(FILTER_FILE, 'utf8')).toBe(defaultFilterModule().source);
  }, 60_000);

  it('holds every password of the shipped lists', () => {
    const lists = [...DEFAULT_SOURCES.map((source) => passwordsOf(readFileSync(source.file))), zxcvbnPasswords()];
    const missing = lists.flat().filter((password) => !BREACHED_PASSWORDS.has(password));
    expect(missing).toEqual([]);
    expect(BREACHED_PASSWORDS.entries).toBe(canonicalEntries(lists).length);
  }, 60_000);
});
