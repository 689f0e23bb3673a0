/**
 * The other spellings of a word that bundling/dictionaries.ts ranks with it (bundling/spellings.ts): the issue's
 * examples, each fold both ways, Cyrillic transliterated and typed on a Latin layout; and the worked examples in
 * other languages of docs/guess-numbers.md, evaluated as the service evaluates them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { shippedDictionaries } from '../../bundling/dictionaries';
import { spellings, unmarked } from '../../bundling/spellings';
import { BREACHED_PASSWORDS } from '../../functions/domain/evaluation/estimate/breached-password-list';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import { seedStrengthPolicy } from '../support/seed-reference';

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

describe('the worked examples in other languages of docs/guess-numbers.md', () => {
  const docs = readFileSync(path.join(__dirname, '..', '..', 'docs', 'guess-numbers.md'), 'utf8');
  const section = docs.slice(docs.indexOf('## Languages'), docs.indexOf('## Choosing on validation'));
  const rows = [...section.matchAll(/^\| `([^`]+)` \| [^|]+ \| ([^|]+) \| ([\d.]+) \|$/gm)].map(
    (m) => [m[1]!, m[2]!.trim(), Number(m[3]!)] as const,
  );

  it('are the ten languages and the open case the table names', () => {
    expect(rows.map(([password]) => password)).toEqual([
      'Schmetterling2024!',
      'Fruehling2024!',
      'Contraseña2024!',
      'Principessa2025!',
      'Małgorzata1!',
      'Kočička2011!',
      'Seninseviyorum1!',
      'Kärlek2003!',
      'Gfhjkm1989!',
      'Moskva2024!',
      'Lieblingsmensch1!',
    ]);
  });

  it('are the level and GuessesLog10 that policy 2 gives', () => {
    const estimate = guessEstimator();
    const policy = seedStrengthPolicy(2);
    for (const [password, level, guessesLog10] of rows) {
      const { ComplianceLevelName, GuessesLog10 } = evaluatePassword(
        policy,
        password,
        estimate,
        BREACHED_PASSWORDS.has(password),
      );
      expect([password, ComplianceLevelName, GuessesLog10]).toEqual([password, level, guessesLog10]);
    }
  });
});
