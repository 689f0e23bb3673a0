/**
 * The text module (functions/domain/unicode-text.ts): what the evaluation request refuses in Password and
 * UserInputs and a strength policy in its BannedWords, the length their limits count (as sent and after
 * NFKC), and the escaping of what the policy CLI prints.
 *
 * Run: npx jest test/unit/unicode-text
 */
import {
  CONTROL_CHARACTER,
  escapeUnshowable,
  matchedLength,
  NONCHARACTER,
  quoted,
  refusedCharacter,
  shownJson,
  UNPAIRED_SURROGATE,
} from '../../functions/domain/unicode-text';

describe('the characters no password may hold (the evaluation route refuses them; the API description states them)', () => {
  test('CONTROL_CHARACTER is exactly C0, DEL and C1, over every UTF-16 code unit', () => {
    const control = (unit: number) => unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f);
    const mismatches = [];
    for (let unit = 0; unit <= 0xffff; unit++)
      if (CONTROL_CHARACTER.test(String.fromCharCode(unit)) !== control(unit)) mismatches.push(unit);
    expect(mismatches).toEqual([]);
    expect(CONTROL_CHARACTER.test('Tr0ub4dor&3\n')).toBe(true);
  });

  test('UNPAIRED_SURROGATE finds a lone high or low surrogate, never a pair', () => {
    expect(
      ['\ud800', '\udfff', 'ab\ud83d', '\ude00cd', '\ude00\ud83d'].map((text) => UNPAIRED_SURROGATE.test(text)),
    ).toEqual([true, true, true, true, true]);
    expect(['\ud83d\ude00', 'Correct-Horse-7', 'é', ''].map((text) => UNPAIRED_SURROGATE.test(text))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('matchedLength: code points as sent and after NFKC, whichever is more', () => {
  test.each([
    ['ASCII', 'Correct-Horse-7', 15],
    ['an emoji is one code point, not two UTF-16 units', '🔑🔑', 2],
    ['U+2A0C (a quadruple integral) is four integrals after NFKC', '\u2A0C', 4],
    ['U+FDFA is eighteen characters after NFKC', '\uFDFA', 18],
    ['the ligature U+FB03 (ffi) is three', 'o\uFB03ce', 6],
    ['e + U+0301 is one é after NFKC: the two sent count', 'e\u0301', 2],
    ['a lone surrogate is one code point, kept by NFKC', 'ab\ud800', 3],
    ['the empty text', '', 0],
  ])('%s', (_what, text, length) => {
    expect(matchedLength(text)).toBe(length);
  });

  test('the issue’s bound: 64 x U+2A0C is 256, 65 x is 260', () => {
    expect([matchedLength('\u2A0C'.repeat(64)), matchedLength('\u2A0C'.repeat(65))]).toEqual([256, 260]);
  });
});

describe('what a banned word may not hold', () => {
  test('NONCHARACTER is exactly the 66 noncharacters, over every code point', () => {
    const found: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) if (NONCHARACTER.test(String.fromCodePoint(cp))) found.push(cp);
    const expected = [
      ...Array.from({ length: 32 }, (_, i) => 0xfdd0 + i),
      ...Array.from({ length: 17 }, (_, plane) => [plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff]).flat(),
    ].sort((a, b) => a - b);
    expect(found).toEqual(expected);
    expect(found).toHaveLength(66);
  });

  test.each([
    ['nothing refused', 'Contoso', undefined],
    ['a control character', 'ab\u0000c', { kind: 'control character', codePoint: 'U+0000', position: 3 }],
    ['an unpaired surrogate', '\ud800abc', { kind: 'unpaired surrogate', codePoint: 'U+D800', position: 1 }],
    ['a bidirectional control', '\u202eEmca', { kind: 'format character', codePoint: 'U+202E', position: 1 }],
    ['a zero-width space', 'Con\u200btoso', { kind: 'format character', codePoint: 'U+200B', position: 4 }],
    [
      'a tag character, after an emoji (two UTF-16 units, one character)',
      `🔑${String.fromCodePoint(0xe0041)}`,
      { kind: 'format character', codePoint: 'U+E0041', position: 2 },
    ],
    [
      'a noncharacter of plane 16',
      `abc${String.fromCodePoint(0x10ffff)}`,
      { kind: 'noncharacter', codePoint: 'U+10FFFF', position: 4 },
    ],
    ['the first of several', 'a\u200bb\u0000', { kind: 'format character', codePoint: 'U+200B', position: 2 }],
  ])('refusedCharacter: %s', (_what, text, expected) => {
    expect(refusedCharacter(text)).toEqual(expected);
  });
});

describe('escapeUnshowable, quoted, shownJson: what the policy CLI prints a text as', () => {
  test.each([
    ['text without such characters, as it is', 'Zürich 東京 🔑 O’Brien \\ "', 'Zürich 東京 🔑 O’Brien \\ "'],
    ['a bidirectional override', '\u202eEmca', '\\u{202E}Emca'],
    ['a zero-width space', 'Con\u200btoso', 'Con\\u{200B}toso'],
    [
      'C0, DEL and C1 controls',
      'a\u0000b\u001bc\u007fd\u0085e\u009f',
      'a\\u{0000}b\\u{001B}c\\u{007F}d\\u{0085}e\\u{009F}',
    ],
    ['a line feed, a carriage return, a tab', 'a\nb\rc\td', 'a\\u{000A}b\\u{000D}c\\u{0009}d'],
    ['the line and paragraph separators', 'a\u2028b\u2029c', 'a\\u{2028}b\\u{2029}c'],
    ['unpaired surrogates; a pair is one character, kept', '\ud800a\udc00\ud83d\ude00', '\\u{D800}a\\u{DC00}😀'],
    ['noncharacters', `\ufdd0\uffff${String.fromCodePoint(0x10fffe)}`, '\\u{FDD0}\\u{FFFF}\\u{10FFFE}'],
    ['a tag character (plane 14)', `a${String.fromCodePoint(0xe0041)}`, 'a\\u{E0041}'],
  ])('escapeUnshowable: %s', (_what, text, shown) => {
    expect(escapeUnshowable(text)).toBe(shown);
  });

  test('escapeUnshowable leaves no control, format, separator or noncharacter and no lone surrogate, and changes nothing else, over every code point', () => {
    const unshowable = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
    const wrong: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      const escaped = escapeUnshowable(ch);
      const expected =
        unshowable.test(ch) || NONCHARACTER.test(ch) ? `\\u{${cp.toString(16).toUpperCase().padStart(4, '0')}}` : ch;
      if (escaped !== expected) wrong.push(cp);
    }
    expect(wrong).toEqual([]);
  });

  test('quoted: JSON.stringify for printable text; a quote and a backslash escaped, so a typed "\\u{202E}" never reads as the character', () => {
    for (const text of ['Acme', 'Zürich 東京 🔑', 'say "hi"', 'C:\\path', ''])
      expect(quoted(text)).toBe(JSON.stringify(text));
    expect(quoted('\u202eEmca')).toBe('"\\u{202E}Emca"');
    expect(quoted('\\u{202E}Emca')).toBe('"\\\\u{202E}Emca"');
    expect(quoted('a\u0000"b')).toBe('"a\\u{0000}\\"b"');
  });

  test('shownJson: JSON as JSON.stringify writes it, every text (member names too) quoted', () => {
    for (const value of [1, -2.5, true, false, null, 'Acme', ['Acme', 'Contoso'], [], { a: 1, b: ['x', { c: 'd' }] }])
      expect(shownJson(value)).toBe(JSON.stringify(value));
    expect(shownJson(['Acme', '\u202eEmca'])).toBe('["Acme","\\u{202E}Emca"]');
    expect(shownJson({ 'na\u200bme': 'Con\u200btoso' })).toBe('{"na\\u{200B}me":"Con\\u{200B}toso"}');
    expect(shownJson(undefined)).toBe('undefined');
  });
});
