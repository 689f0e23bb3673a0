/**
 * Accept-Language negotiated (functions/api/answer-language.ts): weights, ranges and their prefixes, `*`, exclusions,
 * repeated headers; a malformed or overlong header is English; the work is counted against its bound on hostile input.
 */
import {
  ACCEPT_LANGUAGE_MAX_LENGTH,
  ACCEPT_LANGUAGE_MAX_RANGES,
  answerLanguage,
  languageHeaders,
  negotiateLanguage,
  type NegotiationWork,
} from '../../functions/api/answer-language';
import { LANGUAGES } from '../../functions/domain/evaluation';

describe('negotiation', () => {
  it.each([
    ['de', 'de'],
    ['DE', 'de'],
    ['fr', 'fr'],
    ['es', 'es'],
    ['it', 'it'],
    ['pt', 'pt'],
    ['nl', 'nl'],
    ['pl', 'pl'],
    ['en', 'en'],
    // a longer range reaches its language (RFC 4647 lookup's truncation)
    ['de-CH', 'de'],
    ['pt-BR', 'pt'],
    ['zh-Hant-TW, nl-BE', 'nl'],
    ['fr-CA,fr;q=0.9,en;q=0.8', 'fr'],
    ['en-US,en;q=0.9,de;q=0.8', 'en'],
    // weights
    ['de;q=0.5, fr;q=0.8', 'fr'],
    ['es;q=0.7, ja', 'es'],
    ['nl-BE;q=0.3, nl-NL;q=0.9, de;q=0.5', 'nl'],
    ['de; q=0.001', 'de'],
    ['de ;Q=1.000', 'de'],
    ['pl;q=1.', 'pl'],
    // equal weights: the range sent first
    ['de;q=0.8, fr;q=0.8', 'de'],
    ['fr;q=0.8, de;q=0.8', 'fr'],
    // unknown languages
    ['ja', 'en'],
    ['zh-Hant-TW', 'en'],
    ['x-klingon', 'en'],
    // `*`: any language not named; a language named beats it at equal weight; English first among those it reaches
    ['*', 'en'],
    ['fr;q=0.5, *', 'en'],
    ['*;q=0.5, it', 'it'],
    ['*, de', 'de'],
    ['en;q=0, *', 'de'],
    // exclusions: q=0 of the language itself wins over a longer range and `*`; nothing acceptable is English
    ['de;q=0, *', 'en'],
    ['de-CH;q=0, de;q=0.5', 'de'],
    ['de-CH, de;q=0', 'en'],
    ['en;q=0, *;q=0', 'en'],
    ['fr;q=0', 'en'],
    // empty elements are skipped (RFC 9110 §5.6.1)
    [',, es ,', 'es'],
    ['', 'en'],
  ])('%j: %s', (header, language) => {
    expect(negotiateLanguage(header)).toBe(language);
  });

  it.each([
    'de;q=1.5',
    'de;q=1.01',
    'de;q=0.1234',
    'de;q=',
    'de;q=-1',
    'de;q=.5',
    'de;q=1e0',
    'de;q=0.5x',
    'pl;q=NaN',
    'de;level=1',
    'de;q=0.5;q=0.6',
    'de;',
    'de_DE',
    'de-',
    '-de',
    'de--CH',
    'deutsch12',
    'abcdefghi',
    'de-abcdefghi',
    'de, @@',
    'de fr',
    '"de"',
    'de,\u00e9',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    '__proto__;q=1, de',
  ])('malformed, %j, is treated as absent: English', (header) => {
    expect(negotiateLanguage(header)).toBe('en');
    expect(negotiateLanguage(`de, ${header}`)).toBe('en');
  });

  it('names of Object.prototype that are well-formed ranges are ranges like any other, and change nothing', () => {
    expect(negotiateLanguage('toString, valueOf;q=0.9, es;q=0.8')).toBe('es');
    expect(({} as Record<string, unknown>).de).toBeUndefined();
  });

  it('reads every Accept-Language header of a request as one list, in any letter case', () => {
    expect(answerLanguage({ multiValueHeaders: { 'Accept-Language': ['fr;q=0.5', 'de'] } })).toBe('de');
    expect(answerLanguage({ multiValueHeaders: { 'accept-language': ['xx', 'es;q=0.1'] } })).toBe('es');
    expect(answerLanguage({ headers: { 'ACCEPT-LANGUAGE': 'it' } })).toBe('it');
    expect(answerLanguage({ headers: {}, multiValueHeaders: {} })).toBe('en');
    expect(answerLanguage({})).toBe('en');
  });

  it('says the language and that Accept-Language chose it', () => {
    expect(languageHeaders('pl')).toEqual({ 'Content-Language': 'pl', Vary: 'Accept-Language' });
  });
});

describe('bounds', () => {
  it(`reads at most ${ACCEPT_LANGUAGE_MAX_LENGTH} characters and ${ACCEPT_LANGUAGE_MAX_RANGES} ranges; beyond either, English`, () => {
    const padded = (length: number) => `de${','.repeat(length - 2)}`;
    expect(negotiateLanguage(padded(ACCEPT_LANGUAGE_MAX_LENGTH))).toBe('de');
    expect(negotiateLanguage(padded(ACCEPT_LANGUAGE_MAX_LENGTH + 1))).toBe('en');
    const ranges = (n: number) => [...Array.from({ length: n - 1 }, () => 'xx;q=0.1'), 'pl'].join(',');
    expect(negotiateLanguage(ranges(ACCEPT_LANGUAGE_MAX_RANGES))).toBe('pl');
    expect(negotiateLanguage(ranges(ACCEPT_LANGUAGE_MAX_RANGES + 1))).toBe('en');
  });

  /** The work of negotiating `header`, by kind. */
  const workOf = (header: string) => {
    const work: Record<NegotiationWork, number> = { characters: 0, ranges: 0, comparisons: 0 };
    negotiateLanguage(header, (kind, count) => (work[kind] += count));
    return work;
  };
  const BOUND = {
    characters: ACCEPT_LANGUAGE_MAX_LENGTH,
    ranges: ACCEPT_LANGUAGE_MAX_RANGES,
    comparisons: ACCEPT_LANGUAGE_MAX_RANGES * LANGUAGES.length,
  };

  it.each([
    ['a megabyte of ranges', 'de,'.repeat(350_000)],
    ['a megabyte of weights', 'de;q=0.5'.repeat(130_000)],
    ['many short ranges', 'a,'.repeat(500)],
    ['many empty elements', ','.repeat(ACCEPT_LANGUAGE_MAX_LENGTH - 2) + 'de'],
    ['the longest ranges', Array.from({ length: 40 }, () => 'abcdefgh-abcdefgh-abcdefgh').join(',')],
    [
      'the most ranges within the length',
      Array.from({ length: ACCEPT_LANGUAGE_MAX_RANGES }, (_, i) => `de-x${i};q=0.${i}`).join(','),
    ],
    ['__proto__ and friends', Array.from({ length: 200 }, () => '__proto__,constructor').join(',')],
  ])('%s: within the bound on characters, ranges and comparisons', (_name, header) => {
    const work = workOf(header);
    expect(work.characters).toBeLessThanOrEqual(BOUND.characters);
    expect(work.ranges).toBeLessThanOrEqual(BOUND.ranges);
    expect(work.comparisons).toBeLessThanOrEqual(BOUND.comparisons);
  });

  it('the bound is reached, and an overlong header is refused before any work', () => {
    const most = Array.from({ length: ACCEPT_LANGUAGE_MAX_RANGES }, () => 'xx').join(',');
    expect(workOf(most)).toEqual({ characters: most.length, ranges: 32, comparisons: BOUND.comparisons });
    expect(workOf('de,'.repeat(350_000))).toEqual({ characters: 0, ranges: 0, comparisons: 0 });
  });
});
