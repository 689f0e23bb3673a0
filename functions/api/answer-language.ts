import { LANGUAGES, type Language } from '../domain/evaluation';
import { type EventHeaders, headerValues, trimOptionalWhitespace } from '../http';

/**
 * The language of an evaluation's Messages and Suggestions, negotiated from Accept-Language (RFC 9110 §12.5.4,
 * language ranges of RFC 4647 §2.1), and the headers that say so (docs/api.md#the-answers-language).
 *
 *   - Each element is a range (`de`, `de-CH`, `*`) with an optional weight `;q=` from 0 to 1, 3 decimals at most
 *     (RFC 9110 §12.4.2; `q` in either case). Repeated headers are one list; empty elements are skipped (§5.6.1).
 *   - A language's weight is that of the most specific range naming it: the language itself (`de`), else a longer
 *     range with it as the primary subtag (`de-CH`, `de-CH-1996`: the highest of them), else `*`. So `de-CH`
 *     reaches German, and `de;q=0` excludes it whatever `de-CH` or `*` say.
 *   - The language of the highest weight above 0 answers; at equal weights a language named beats one only `*`
 *     reaches, then the range sent first, then the catalogues' order (English first). None above 0: English,
 *     never a 406.
 *   - A header that breaks the grammar anywhere (a bad range, a weight out of range or with 4 decimals, another
 *     parameter) is treated as absent: English, never a 400. So is one longer than ACCEPT_LANGUAGE_MAX_LENGTH
 *     characters or of more than ACCEPT_LANGUAGE_MAX_RANGES ranges: browsers send a few, and the work stays bounded
 *     (test/unit/answer-language.test.ts counts it).
 *
 * A hand-written parser rather than a library: `negotiator` (Express's) skips an element it cannot read instead of
 * the header, reads weights with parseFloat (`q=1.5`, `q=0.12345` count) and splits a header of any length; no
 * negotiation library is a dependency of this service, and this is some sixty lines. Nothing here
 * is keyed by the request's text: ranges are only compared with the eight languages.
 */

export const ACCEPT_LANGUAGE_MAX_LENGTH = 1024;
export const ACCEPT_LANGUAGE_MAX_RANGES = 32;

/** The response headers of an answer in `language`: its tag, and that Accept-Language chose it. */
export function languageHeaders(language: Language): Record<string, string> {
  return { 'Content-Language': language, Vary: 'Accept-Language' };
}

/** The work of one negotiation, for the test that holds it to its bound; the service counts nothing. */
export type NegotiationWork = 'characters' | 'ranges' | 'comparisons';

/** The language of the answer to a request: its Accept-Language headers negotiated, English when they are absent or malformed. */
export function answerLanguage(event: EventHeaders, meter?: (kind: NegotiationWork, count: number) => void): Language {
  const values = headerValues(event, 'Accept-Language');
  return values.length === 0 ? 'en' : negotiateLanguage(values.join(','), meter);
}

interface WeightedRange {
  /** Lower case: `de-ch`, `*`. */
  readonly range: string;
  /** Thousandths: `q=0.8` is 800. */
  readonly weight: number;
}

const RANGE = /^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$/;
const WEIGHT = /^[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/** The ranges of an Accept-Language value, in order; undefined when it is malformed or over the bounds. */
function parseAcceptLanguage(
  value: string,
  meter?: (kind: NegotiationWork, count: number) => void,
): WeightedRange[] | undefined {
  if (value.length > ACCEPT_LANGUAGE_MAX_LENGTH) return undefined;
  meter?.('characters', value.length);
  const ranges: WeightedRange[] = [];
  for (const element of value.split(',')) {
    const item = trimOptionalWhitespace(element);
    if (item === '') continue;
    if (ranges.length === ACCEPT_LANGUAGE_MAX_RANGES) return undefined;
    const semicolon = item.indexOf(';');
    const range = semicolon < 0 ? item : trimOptionalWhitespace(item.slice(0, semicolon));
    if (!RANGE.test(range)) return undefined;
    let weight = 1000;
    if (semicolon >= 0) {
      const q = WEIGHT.exec(trimOptionalWhitespace(item.slice(semicolon + 1)));
      if (q === null) return undefined;
      weight = Math.round(Number(q[1]) * 1000);
    }
    meter?.('ranges', 1);
    ranges.push({ range: range.toLowerCase(), weight });
  }
  return ranges;
}

/** a > b, comparing the first element that differs. */
function isAbove(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** The language an Accept-Language value picks, by the rules above. */
export function negotiateLanguage(value: string, meter?: (kind: NegotiationWork, count: number) => void): Language {
  const ranges = parseAcceptLanguage(value, meter);
  if (ranges === undefined) return 'en';
  let chosen: Language = 'en';
  let chosenRank = [0, 0, 0];
  for (const language of LANGUAGES) {
    // 3: the language itself, 2: a longer range of it, 1: `*`; its weight and position from the most specific.
    let specificity = 0;
    let weight = 0;
    let position = 0;
    ranges.forEach(({ range, weight: w }, i) => {
      meter?.('comparisons', 1);
      const s = range === language ? 3 : range.startsWith(`${language}-`) ? 2 : range === '*' ? 1 : 0;
      if (s === 0 || s < specificity || (s === specificity && w <= weight)) return;
      [specificity, weight, position] = [s, w, i];
    });
    // Higher weight first; at equal weight a language named beats one `*` reaches, then the range sent first.
    const rank = [weight, specificity > 1 ? 1 : 0, -position];
    if (weight > 0 && isAbove(rank, chosenRank)) [chosen, chosenRank] = [language, rank];
  }
  return chosen;
}
