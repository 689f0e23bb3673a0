/**
 * The affixes cracking rules put around a word (docs/evaluation.md#patterns-zxcvbn-ts-underrates): digits, a
 * date, a few symbols. Shared by the pattern caps (estimate/pattern-caps.ts) and the rule model.
 */

const LETTER = /\p{L}/u;
const DIGIT = /^[0-9]$/;

/** The symbols an affix may hold. */
const MAX_AFFIX_SYMBOLS = 3;
/** The longest affix: its symbols and the longest date (8 digits); no longer one need be cut off a password. */
export const MAX_AFFIX_LENGTH = MAX_AFFIX_SYMBOLS + 8;

/**
 * An affix: no letter, at most 3 symbols, and at most 4 digits or a date of 6 or 8 digits (day, month and
 * year in any of the usual orders) — what password-cracking rules append and prepend.
 */
export function isAffix(text: string): boolean {
  if (text.length > MAX_AFFIX_LENGTH) return false;
  let digits = '';
  let symbols = 0;
  for (const ch of text) {
    if (LETTER.test(ch)) return false;
    if (DIGIT.test(ch)) digits += ch;
    else symbols += 1;
  }
  return symbols <= MAX_AFFIX_SYMBOLS && (digits.length <= 4 || isDate(digits));
}

/** Six or eight digits that read as a date: ddmmyy, mmddyy, yymmdd, or the same with a four-digit year 1900-2099. */
export function isDate(digits: string): boolean {
  const day = (d: string) => Number(d) >= 1 && Number(d) <= 31;
  const month = (m: string) => Number(m) >= 1 && Number(m) <= 12;
  const year = (y: string) => y.length === 2 || /^(19|20)\d\d$/.test(y);
  const cut = digits.length === 8 ? 4 : digits.length === 6 ? 2 : 0;
  if (cut === 0) return false;
  const [a, b, rest] = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)];
  const [y, m, d] = [digits.slice(0, cut), digits.slice(cut, cut + 2), digits.slice(cut + 2)];
  return (year(rest) && ((day(a) && month(b)) || (month(a) && day(b)))) || (year(y) && month(m) && day(d));
}
