import {
  BEGINNINGS_BYTES,
  byteCodes,
  codePage,
  indexDictionary,
  readIndex,
  type CodePage,
  type DictionaryIndex,
  type RankedDictionary,
} from './ranked-dictionary';

/**
 * guessability-dictionaries.bin: every dictionary's words and hash table (ranked-dictionary.ts), written by
 * `npm run dictionaries` and read in place at a cold start, a copy of the file instead of a parse. The layout:
 * the header's length (4 bytes), the header (JSON: the code page, and each dictionary's name, longest word and
 * section lengths, in zxcvbn-ts's order, and the tables'), zeros to a multiple of 4, then each dictionary's heads,
 * entries and ranks (32-bit, little-endian as x64 and arm64 are), its beginnings and its characters, then each
 * table (32-bit), each padded to 4 bytes.
 */

interface Header {
  readonly page: readonly number[];
  /** The Int32 tables after the dictionaries, by name, and their lengths. */
  readonly tables: readonly { name: string; length: number }[];
  readonly dictionaries: readonly {
    name: string;
    maxWordSize: number;
    chars: number;
    buckets: number;
    words: number;
    /** Every character is ASCII, itself in the code page: the characters read as Latin-1, natively. */
    ascii: boolean;
  }[];
}

const padded = (bytes: number) => (bytes + 3) & ~3;

/** The file of the dictionary strings, by name in zxcvbn-ts's order, and of tables counted from them ahead of time. */
export function packDictionaries(
  dictionaries: Readonly<Record<string, string>>,
  tables: Readonly<Record<string, Int32Array>> = {},
): Uint8Array {
  const page = codePage(Object.values(dictionaries));
  const indexes = Object.entries(dictionaries).map(([name, lines]) => [name, indexDictionary(lines, page)] as const);
  const header: Header = {
    page: [...page],
    tables: Object.entries(tables).map(([name, table]) => ({ name, length: table.length })),
    dictionaries: indexes.map(([name, index]) => ({
      name,
      maxWordSize: index.maxWordSize,
      chars: index.chars.length,
      buckets: index.heads.length - 1,
      words: index.entries.length,
      ascii: Buffer.byteLength(dictionaries[name]!) === dictionaries[name]!.length,
    })),
  };
  const json = Buffer.from(JSON.stringify(header));
  const sections: ArrayBufferView[] = [
    ...indexes.flatMap(([, { heads, entries, ranks, beginnings, chars }]) => [
      heads,
      entries,
      ranks,
      beginnings,
      chars,
    ]),
    ...Object.values(tables),
  ];
  const length = sections.reduce((sum, section) => sum + padded(section.byteLength), padded(4 + json.length));
  const file = new Uint8Array(length);
  new DataView(file.buffer).setUint32(0, json.length, true);
  file.set(json, 4);
  let at = padded(4 + json.length);
  for (const section of sections) {
    file.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), at);
    at += padded(section.byteLength);
  }
  return file;
}

export interface DictionaryFile {
  /** Each dictionary's lookup and longest word, by name in zxcvbn-ts's order. */
  readonly ranked: Readonly<Record<string, RankedDictionary>>;
  /** The tables packDictionaries was given, by name. */
  readonly tables: Readonly<Record<string, Int32Array>>;
  /** Each dictionary as its string (ranked-dictionary.ts), decoded when first read: the tools and tests read words, a check does not. */
  readonly strings: Readonly<Record<string, string>>;
}

/** The dictionaries of a file packDictionaries wrote, viewed in place. */
export function readDictionaryFile(file: Uint8Array): DictionaryFile {
  if (new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1)
    throw new Error('guessability-dictionaries.bin is little-endian');
  // Typed arrays view 32-bit numbers only at a multiple of 4.
  const bytes = file.byteOffset % 4 === 0 ? file : new Uint8Array(file);
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
  const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, headerLength).toString('utf8')) as Header;
  const page: CodePage = Uint16Array.from(header.page);
  const codes = byteCodes(page);
  let at = bytes.byteOffset + padded(4 + headerLength);
  const view = <T>(
    make: (buffer: ArrayBufferLike, offset: number, length: number) => T,
    count: number,
    size: number,
  ) => {
    const section = make(bytes.buffer, at, count);
    at += padded(count * size);
    return section;
  };
  const u32 = (buffer: ArrayBufferLike, offset: number, length: number) => new Uint32Array(buffer, offset, length);
  const u8 = (buffer: ArrayBufferLike, offset: number, length: number) => new Uint8Array(buffer, offset, length);
  const ranked: Record<string, RankedDictionary> = {};
  const strings: Record<string, string> = {};
  for (const { name, maxWordSize, chars, buckets, words, ascii } of header.dictionaries) {
    const index: DictionaryIndex = {
      heads: view(u32, buckets + 1, 4),
      entries: view(u32, words, 4),
      ranks: view(u32, words, 4),
      beginnings: view(u8, BEGINNINGS_BYTES, 1),
      chars: view(u8, chars, 1),
      maxWordSize,
    };
    ranked[name] = readIndex(index, codes);
    let decoded: string | undefined;
    Object.defineProperty(strings, name, {
      enumerable: true,
      get: () => (decoded ??= decode(index.chars, ascii ? undefined : page)),
    });
  }
  const tables = Object.fromEntries(
    header.tables.map(({ name, length }) => [
      name,
      view((buffer, offset, count) => new Int32Array(buffer, offset, count), length, 4),
    ]),
  );
  return { ranked, strings, tables };
}

/** A dictionary's characters as the string they encode (ASCII, without a page: Latin-1 is native). */
function decode(chars: Uint8Array, page?: CodePage): string {
  if (page === undefined) return Buffer.from(chars.buffer, chars.byteOffset, chars.byteLength).toString('latin1');
  const units = new Uint16Array(chars.length);
  for (let i = 0; i < chars.length; i++) units[i] = page[chars[i]!]!;
  return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
}
