/**
 * The character classes and the length of text (functions/domain/unicode-text.ts): what the evaluation request
 * refuses in Password and UserInputs.
 *
 * Run: npx jest test/unit/unicode-text
 */
import { CONTROL_CHARACTER, matchedLength, NONCHARACTER, refusedCharacter, UNPAIRED_SURROGATE } from '../../functions/domain/unicode-text';

describe('the characters no password may hold (the evaluation route refuses them; the API description states them)', () => {
  test('CONTROL_CHARACTER is exactly C0, DEL and C1, over every UTF-16 code unit', () => {
    const control = (unit: number) => unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f);
    const mismatches = [];
    for (let unit = 0; unit <= 0xffff; unit++) if (CONTROL_CHARACTER.test(String.fromCharCode(unit)) !== control(unit)) mismatches.push(unit);
    expect(mismatches).toEqual([]);
    expect(CONTROL_CHARACTER.test('Tr0ub4dor&3\n')).toBe(true);
  });

  test('UNPAIRED_SURROGATE finds a lone high or low surrogate, never a pair', () => {
    expect(['\ud800', '\udfff', 'ab\ud83d', '\ude00cd', '\ude00\ud83d'].map((text) => UNPAIRED_SURROGATE.test(text))).toEqual([true, true, true, true, true]);
    expect(['\ud83d\ude00', 'Correct-Horse-7', 'é', ''].map((text) => UNPAIRED_SURROGATE.test(text))).toEqual([false, false, false, false]);
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
    const expected = [...Array.from({ length: 32 }, (_, i) => 0xfdd0 + i), ...Array.from({ length: 17 }, (_, plane) => [plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff]).flat()].sort((a, b) => a - b);
    expect(found).toEqual(expected);
    expect(found).toHaveLength(66);
  });

  test.each([
    ['nothing refused', 'Contoso', undefined],
    ['a control character', 'ab\u0000c', { kind: 'control character', codePoint: 'U+0000', position: 3 }],
    ['an unpaired surrogate', '\ud800abc', { kind: 'unpaired surrogate', codePoint: 'U+D800', position: 1 }],
    ['a bidirectional control', '\u202eEmca', { kind: 'format character', codePoint: 'U+202E', position: 1 }],
    ['a zero-width space', 'Con\u200btoso', { kind: 'format character', codePoint: 'U+200B', position: 4 }],
    ['a tag character, after an emoji (two UTF-16 units, one character)', `🔑${String.fromCodePoint(0xe0041)}`, { kind: 'format character', codePoint: 'U+E0041', position: 2 }],
    ['a noncharacter of plane 16', `abc${String.fromCodePoint(0x10ffff)}`, { kind: 'noncharacter', codePoint: 'U+10FFFF', position: 4 }],
    ['the first of several', 'a\u200bb\u0000', { kind: 'format character', codePoint: 'U+200B', position: 2 }],
  ])('refusedCharacter: %s', (_what, text, expected) => {
    expect(refusedCharacter(text)).toEqual(expected);
  });
});
