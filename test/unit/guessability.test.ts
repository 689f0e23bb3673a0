/**
 * The guessability estimator's dictionaries (functions/domain/evaluation/estimate/guess-estimator.ts): read in place from
 * guessability-dictionaries.bin rather than ranked by zxcvbn-ts into objects, for the cold start
 * (docs/performance.md#cold-start). Every answer must stay the one zxcvbn-ts gives with its own ranking:
 *
 *   1. the generated files are what bundling/dictionaries.ts makes of the pinned language packages;
 *   2. a ranked dictionary answers every lookup as zxcvbn-ts's object does (ranks, a repeated word's last
 *      rank, absent words, Object.prototype's properties, the longest word);
 *   3. zxcvbn-ts's whole result (score, guesses, the match sequence with each match's dictionary and rank,
 *      feedback) is the same as with the library's own ranking of the same words (a dictionary with tied ranks
 *      given as one list per place in a rank), for chosen passwords and random ones, with our bounds and with
 *      the library's defaults.
 *
 * Seed: FC_SEED=<n> replays a run (printed on failure); FC_NUM_RUNS overrides the number of cases.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { DICTIONARIES_ASSET } from '../../bundling/bundling';
import {
  dictionariesFile,
  dictionariesSource,
  DICTIONARIES_FILE,
  languageDictionaries,
  shippedDictionaries,
} from '../../bundling/dictionaries';
import {
  GUESSABILITY_MAX_LENGTH,
  KEYED_TRANSLATIONS,
  L33T_MAX_SUBSTITUTIONS,
  zxcvbnWithDictionaries,
  type GuessabilityBounds,
} from '../../functions/domain/evaluation/estimate/zxcvbn-adapter';
import { COMMON_WORD_RANKS, DICTIONARIES } from '../../functions/domain/evaluation/estimate/shipped-dictionaries';
import { COMMON_PASSWORDS, wordRanks } from '../../functions/domain/evaluation/estimate/attack-models';
import {
  RANK_SEPARATOR,
  rankedDictionary,
  TIE_SEPARATOR,
} from '../../functions/domain/evaluation/estimate/ranked-dictionary';
import { assertProperty } from '../support/property';

const OURS: GuessabilityBounds = { maxLength: GUESSABILITY_MAX_LENGTH, l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS };
const DEFAULTS: GuessabilityBounds = { maxLength: 256, l33tMaxSubstitutions: 100 };

/**
 * The shipped dictionaries as zxcvbn-ts takes them, lists of words ranked by position: a dictionary whose ranks
 * have ties becomes one list per place in a rank (`commonWords-0`, `-1`, ...), a rank with fewer words
 * filled with `X`, which no lookup asks for (zxcvbn-ts looks up the password in lower case).
 */
function asLists(): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const [name, ranks] of Object.entries(shippedDictionaries())) {
    const ties = ranks.reduce((most, words) => Math.max(most, words.length), 0);
    if (ties <= 1) lists[name] = ranks.map((words) => words[0]!);
    else for (let k = 0; k < ties; k++) lists[`${name}-${k}`] = ranks.map((words) => words[k] ?? 'X');
  }
  return lists;
}

/** zxcvbn-ts as it is documented: the dictionaries as options, ranked by the library; its feedback the same keys. */
const libraryRanked = (bounds: GuessabilityBounds) =>
  new ZxcvbnFactory({ translations: KEYED_TRANSLATIONS, graphs: adjacencyGraphs, dictionary: asLists(), ...bounds });

/** The shipped dictionary of each list of asLists (`commonWords-3` -> `commonWords`). */
const listOf = (name: string) => name.replace(/^(commonWords|wikipedia|firstnames|lastnames)-\d+$/, '$1');

/** The result without its timing (calcTime is milliseconds of this run), each match of asLists named as its dictionary. */
function answer(zxcvbn: ZxcvbnFactory, password: string): unknown {
  const { calcTime: _calcTime, sequence, ...rest } = zxcvbn.check(password);
  const named = sequence.map((match) =>
    'dictionaryName' in match ? { ...match, dictionaryName: listOf(match.dictionaryName as string) } : match,
  );
  return { ...rest, sequence: named };
}

describe('the generated dictionaries', () => {
  it('are what bundling/dictionaries.ts makes of the installed language packages (npm run dictionaries when this fails)', () => {
    expect(readFileSync(DICTIONARIES_FILE, 'utf8')).toBe(dictionariesSource());
    // Words and index, byte for byte (compared whole: a failing toEqual would print megabytes).
    expect(readFileSync(DICTIONARIES_ASSET).equals(dictionariesFile())).toBe(true);
  });

  it('hold every dictionary of zxcvbn-ts in its order, every word in rank order', () => {
    const shipped = shippedDictionaries();
    expect(Object.keys(DICTIONARIES)).toEqual(Object.keys(shipped));
    for (const [name, ranks] of Object.entries(shipped))
      expect(
        DICTIONARIES[name]!.split(RANK_SEPARATOR).map((words) => (words === '' ? [] : words.split(TIE_SEPARATOR))),
      ).toEqual(ranks);
  });

  it("carry the common-password list's word ranks as the rule model counts them (attack-models.ts, wordRanks)", () => {
    expect(COMMON_WORD_RANKS).toEqual(wordRanks(DICTIONARIES[COMMON_PASSWORDS]!));
  });

  it("give each of the other languages' words its lowest rank in any language, every language's word once", () => {
    const merged = shippedDictionaries().commonWords!;
    const rankOf = new Map(merged.flatMap((words, i) => words.map((word) => [word, i + 1] as const)));
    expect(rankOf.size).toBe(merged.flat().length);
    const languages = languageDictionaries();
    // `ich` is German's 1st common word and `jag` Swedish's: both rank 1; `der`, German's 10th, is no one's higher
    expect([languages['commonWords-de']![0], languages['commonWords-sv']![0]]).toEqual(['ich', 'jag']);
    expect(languages['commonWords-de']!.indexOf('der')).toBe(9);
    expect(['ich', 'jag', 'der'].map((word) => rankOf.get(word))).toEqual([1, 1, 10]);
    for (const [name, words] of Object.entries(languages))
      if (name.startsWith('commonWords-'))
        words.forEach((word, i) => {
          if (!(rankOf.get(word)! <= i + 1)) throw new Error(`${word} of ${name}: ${rankOf.get(word)} above ${i + 1}`);
        });
  });
});

describe('a ranked dictionary', () => {
  /** zxcvbn-ts's buildRankedDictionary: a plain object, each word's rank its position from 1. */
  const plainObject = (words: string[]): Record<string, number> => {
    const result: Record<string, number> = {};
    words.forEach((word, i) => (result[word] = i + 1));
    return result;
  };

  it.each([
    ['distinct words', ['password', 'dragon', 'qwerty', 'a', 'zz']],
    ['a repeated word keeps its last rank', ['alpha', 'beta', 'alpha', 'gamma', 'beta']],
    ['one word', ['only']],
    ['non-ASCII and astral words', ['m\u00fcller', '\u00e9t\u00e9', '\u{1f600}x', '\uac00\ub098']],
  ])("answers as zxcvbn-ts's object: %s", (_, words) => {
    const { lookup, maxWordSize } = rankedDictionary(words.join(RANK_SEPARATOR));
    const reference = plainObject(words);
    const probes = [
      ...words,
      ...words.map((w) => `${w}x`),
      ...words.map((w) => w.slice(1)),
      '',
      'x',
      'constructor',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '__proto__',
      'nope',
    ];
    for (const probe of probes) expect([probe, lookup[probe]]).toEqual([probe, reference[probe]]);
    expect(maxWordSize).toBe(Math.max(...words.map((w) => w.length)));
  });

  it('finds every word of a real dictionary at its rank, and a probe that is none at no rank', () => {
    const words = shippedDictionaries()['passwords-common']!.flat();
    const { lookup } = rankedDictionary(words.join(RANK_SEPARATOR));
    words.forEach((word, i) => {
      if (lookup[word] !== i + 1) throw new Error(`${word}: ${lookup[word]} instead of ${i + 1}`);
    });
    expect(lookup['no such password, surely']).toBeUndefined();
  });

  it('gives the words of one rank that rank, and skips a rank no word has', () => {
    const { lookup, maxWordSize } = rankedDictionary(`der${TIE_SEPARATOR}jag\tla\t\tmüller`);
    expect(['der', 'jag', 'la', 'müller', 'de', ''].map((word) => lookup[word])).toEqual([
      1,
      1,
      2,
      4,
      undefined,
      undefined,
    ]);
    expect(maxWordSize).toBe(6);
  });
});

describe('the estimate', () => {
  const CHOSEN = [
    'a',
    'password',
    'Password1!',
    'P@ssw0rd',
    'p4$$w0rd'.repeat(4),
    'correct horse battery staple',
    'Velvet-Orchard-Comet-58?',
    'xK9#mQ2$vL8@pW4!',
    'johnsmith1985',
    'drowssap',
    'qwertyuiop',
    'zxcvbnm,./',
    '1234567890'.repeat(3),
    'mondaytuesday',
    'constructor',
    'toString',
    'valueof__proto__hasownproperty',
    'M\u00fcller-\u00e9t\u00e9-2024',
    '\u{1f600}\u{1f600}secret',
    'Tr0ub4dor&3',
    'x'.repeat(80),
  ];

  it.each([
    ['our bounds', OURS],
    ['the library defaults', DEFAULTS],
  ])("is zxcvbn-ts's own, with %s, for chosen passwords", (_, bounds) => {
    const [ours, library] = [zxcvbnWithDictionaries(bounds), libraryRanked(bounds)];
    for (const password of CHOSEN)
      expect([password, answer(ours, password)]).toEqual([password, answer(library, password)]);
  });

  it("is zxcvbn-ts's own, with our bounds, for random passwords of dictionary words, l33t, digits and any characters", async () => {
    const [ours, library] = [zxcvbnWithDictionaries(OURS), libraryRanked(OURS)];
    const words = Object.values(shippedDictionaries()).flatMap((ranks) => ranks.slice(0, 300).flat());
    const piece = fc.oneof(
      fc.constantFrom(...words),
      fc.constantFrom('4', '@', '3', '1', '0', '$', '!', '7', '-', ' '),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    const password = fc
      .array(piece, { minLength: 1, maxLength: 6 })
      .map((pieces) => pieces.join(''))
      .filter((p) => p.length > 0);
    await assertProperty(
      'same answer as zxcvbn-ts ranking its own dictionaries',
      fc.property(password, (p) => {
        expect(answer(ours, p)).toEqual(answer(library, p));
      }),
      300,
    );
  });
});
