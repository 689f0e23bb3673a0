/**
 * The other spellings of a word that bundling/dictionaries.ts ranks with it (bundling/spellings.ts): the issue's
 * examples, each fold both ways, Cyrillic transliterated and typed on a Latin layout.
 */
import { shippedDictionaries } from '../../bundling/dictionaries';
import { spellings, unmarked } from '../../bundling/spellings';

describe('spellings', () => {
  it.each([
    ['frühling', ['fruehling', 'fruhling']],
    ['straße', ['strasse']],
    ['kärlek', ['kaerlek', 'karlek']],
    ['søster', ['soester', 'soster']],
    ['blåbær', ['blaabaer', 'blabaer']],
    ['małgorzata', ['malgorzata']],
    ['cœur', ['coeur']],
    ['contraseña', ['contrasena']],
    ['москва', ['moskva', 'vjcrdf']],
    ['пароль', ['parol', 'gfhjkm']],
    ['любовь', ['lyubov', 'k.,jdm']],
    ['password', []],
  ])('%s is also typed %j', (word, expected) => {
    expect(spellings(word)).toEqual(expected);
  });

  it('drops the marks Unicode decomposes and the letters it leaves whole', () => {
    expect(['łódź', 'ærø', 'ıșık', 'đorđe'].map(unmarked)).toEqual(['lodz', 'aero', 'isik', 'dorde']);
  });

  it("gives each spelling its word's rank in the other languages' dictionaries, unless a word spelled so ranks lower", () => {
    const rankOf = new Map(
      shippedDictionaries().commonWords!.flatMap((words, i) => words.map((word) => [word, i + 1] as const)),
    );
    for (const [word, spelled] of [
      ['frühling', 'fruehling'],
      ['пароль', 'gfhjkm'],
      ['пароль', 'parol'],
      ['kärlek', 'karlek'],
    ] as const)
      expect([spelled, rankOf.get(spelled)! <= rankOf.get(word)!]).toEqual([spelled, true]);
  });
});
