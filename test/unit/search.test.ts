import { generatorPolicies } from '../../functions/domain/generator-policy';
import {
  buildCollection,
  MAX_SEARCH_LENGTH,
  parseSearch,
  SEARCH_TOO_LONG,
  searchPolicies,
} from '../../functions/domain/policy-collection';
import { namedGeneratorPolicy } from '../support/policy-examples';

const collection = buildCollection(generatorPolicies, [
  namedGeneratorPolicy(1, 'Default Policy', 'For password lists without a specific policy'),
  namedGeneratorPolicy(2, 'Service Accounts', 'Long random passwords for Windows services'),
  namedGeneratorPolicy(3, 'Network Devices', 'Switches and routers', { SpecialCharsText: '#$' }),
  namedGeneratorPolicy(4, 'Café PINs', ''),
]);
const idsFor = (text: string) =>
  (JSON.parse(searchPolicies(collection, parseSearch(text)!)) as { PasswordGeneratorID: number }[]).map(
    (p) => p.PasswordGeneratorID,
  );

describe('search matching (docs/api.md#search)', () => {
  it('matches a substring of the name, case-insensitively', () => {
    expect(idsFor('SERVICE')).toEqual([2]);
    expect(idsFor('devi')).toEqual([3]);
  });

  it('matches a substring of the description', () => {
    expect(idsFor('routers')).toEqual([3]);
  });

  it('requires every term, each in the name or the description', () => {
    expect(idsFor('service windows')).toEqual([2]);
    expect(idsFor('service routers')).toEqual([]);
  });

  it('never matches a term across the name and the description', () => {
    // "accountslong" would only occur in the name and description glued together.
    expect(idsFor('accountslong')).toEqual([]);
  });

  it('normalises with NFKC: fullwidth letters and composed accents match', () => {
    expect(idsFor('ＳＥＲＶＩＣＥ')).toEqual([2]);
    expect(idsFor('cafe\u0301')).toEqual([4]);
  });

  it('folds case as Unicode does, not only by lower-casing: ß and ẞ are "ss", final ς is σ', () => {
    const folded = buildCollection(generatorPolicies, [namedGeneratorPolicy(7, 'Straße Accounts', 'ΟΔΟΣ')]);
    const ids = (text: string) =>
      (JSON.parse(searchPolicies(folded, parseSearch(text)!)) as { PasswordGeneratorID: number }[]).map(
        (p) => p.PasswordGeneratorID,
      );
    expect(ids('STRASSE')).toEqual([7]);
    expect(ids('STRAẞE')).toEqual([7]);
    expect(ids('οδοσ')).toEqual([7]);
    expect(ids('ΟΔΟς')).toEqual([7]);
  });

  it('considers no field other than name and description', () => {
    expect(idsFor('#$')).toEqual([]);
    expect(idsFor('12')).toEqual([]);
  });

  it.each(['', '   ', '*', ' * ', '\t'])('treats %j as everything', (text) => {
    expect(searchPolicies(collection, parseSearch(text)!)).toBe(collection.body);
  });

  it('answers [] when nothing matches', () => {
    expect(searchPolicies(collection, parseSearch('nothing-like-this')!)).toBe('[]');
  });

  it('keeps identifier order', () => {
    expect(idsFor('s')).toEqual([1, 2, 3, 4]);
  });
});

describe('search length limit', () => {
  it(`accepts ${MAX_SEARCH_LENGTH} characters after trimming`, () => {
    expect(parseSearch(`  ${'a'.repeat(MAX_SEARCH_LENGTH)}  `)).toEqual({
      all: false,
      terms: ['a'.repeat(MAX_SEARCH_LENGTH)],
    });
  });

  it(`rejects ${MAX_SEARCH_LENGTH + 1} characters, with the phrase of the 400`, () => {
    expect(parseSearch('a'.repeat(MAX_SEARCH_LENGTH + 1))).toBeUndefined();
    expect(SEARCH_TOO_LONG).toBe(`The search parameter is longer than ${MAX_SEARCH_LENGTH} characters; shorten it.`);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(parseSearch('😀'.repeat(MAX_SEARCH_LENGTH))).toEqual({
      all: false,
      terms: ['😀'.repeat(MAX_SEARCH_LENGTH)],
    });
    expect(parseSearch('😀'.repeat(MAX_SEARCH_LENGTH + 1))).toBeUndefined();
  });
});
