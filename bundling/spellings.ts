import { ANSI_KEYS, LAYOUT_KEYS } from '../functions/domain/evaluation/text/keyboard-layouts';

/**
 * The ways people type a word of another language on an English keyboard, as cracking rules spell it
 * (docs/guess-numbers.md#languages): its letters with their marks dropped (`frühling` as `fruhling`), in the German
 * and Scandinavian way (`fruehling`, `strasse`), Cyrillic transliterated (`москва` as `moskva`), and Russian typed
 * on a keyboard left in a Latin layout (`пароль` as `gfhjkm`). bundling/dictionaries.ts gives each spelling the
 * rank of its word.
 */

/** Letters whose mark-less form is not what Unicode decomposition gives (it leaves them whole). */
const UNMARKED: Readonly<Record<string, string>> = {
  ß: 'ss',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  þ: 'th',
};

/** The German and Scandinavian way to write a letter without its mark. */
const EXPANDED: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', å: 'aa', ø: 'oe', æ: 'ae', ß: 'ss' };

/** Russian (Cyrillic) letters in the Latin letters people write them with in passwords (no marks, no apostrophes). */
const CYRILLIC: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'sch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

/** Each key of the Russian layout (JCUKEN): the US key it sits on, and what it types unshifted (`g`, `п`). */
export const RUSSIAN_KEYS: readonly (readonly [string, string])[] = ANSI_KEYS.flatMap((keys, row) =>
  LAYOUT_KEYS.jcuken.rows[row]!.split(' ').map((typed, i) => [keys[i]!, typed[0]!] as const),
);

/** The US key of each character of the Russian layout, unshifted: `п` is on `g`. */
const LATIN_KEY: ReadonlyMap<string, string> = new Map(RUSSIAN_KEYS.map(([key, typed]) => [typed, key]));

const mapped = (word: string, table: Readonly<Record<string, string>>): string =>
  [...word].map((ch) => table[ch] ?? ch).join('');

/** A word without the marks on its letters: `frühling` -> `fruhling`, `straße` -> `strasse`, `łódź` -> `lodz`. */
export function unmarked(word: string): string {
  return mapped(word, UNMARKED).normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/** Every other spelling of a lower-case word, in a fixed order, each once, none the word itself. */
export function spellings(word: string): string[] {
  const found = new Set<string>();
  if (/[^\p{ASCII}]/u.test(word)) {
    found.add(unmarked(mapped(word, EXPANDED)));
    found.add(unmarked(word));
  }
  if (/\p{Script=Cyrillic}/u.test(word)) {
    found.add(mapped(word, CYRILLIC));
    found.add([...word].map((ch) => LATIN_KEY.get(ch) ?? ch).join(''));
  }
  found.delete(word);
  // `ъ` and `ь` alone have no letters in Latin.
  found.delete('');
  return [...found];
}
