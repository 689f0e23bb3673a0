/**
 * The character classes and the length of text (functions/domain/unicode-text.ts): what the evaluation request
 * refuses in Password and UserInputs.
 *
 * Run: npx jest test/unit/unicode-text
 */
import { CONTROL_CHARACTER, UNPAIRED_SURROGATE } from '../../functions/domain/unicode-text';

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
