/**
 * The character classes and the length of text (functions/domain/unicode-text.ts): what the evaluation request
 * refuses in Password and UserInputs.
 *
 * Run: npx jest test/unit/unicode-text
 */
import { CONTROL_CHARACTER, matchedLength, UNPAIRED_SURROGATE } from '../../functions/domain/unicode-text';

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
