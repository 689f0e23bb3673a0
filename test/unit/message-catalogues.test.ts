/**
 * The catalogues of the evaluation's sentences (functions/domain/evaluation/messages/): every language has every
 * message of English, the source, with the same placeholders and the plural forms its language has; every message
 * is one the evaluation can say; zxcvbn-ts's sentences are its own English ones; and rendering fills numbers in
 * each language's plural forms.
 */
import { TRANSLATIONS } from '../../functions/domain/evaluation/data/guessability-dictionaries';
import { TERM_KIND_MESSAGES } from '../../functions/domain/evaluation/context/context-terms';
import { MODEL_FEEDBACK, PATTERN_FEEDBACK } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { KEYED_TRANSLATIONS } from '../../functions/domain/evaluation/estimate/zxcvbn-adapter';
import { COMPOSITION_RULES } from '../../functions/domain/evaluation/strength-evaluator';
import {
  CATALOGUES,
  LANGUAGES,
  renderMessage,
  type Language,
} from '../../functions/domain/evaluation/messages/catalogue';

type Text = string | Record<string, string>;
type Catalogue = Readonly<Record<string, Text | undefined>>;

const placeholders = (form: string) => [...form.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
const formsOf = (text: Text) => (typeof text === 'string' ? { '': text } : text);

/** Everything wrong with `catalogue` as the catalogue of `language`, measured against English: empty when it is complete. */
function catalogueProblems(language: string, catalogue: Catalogue, english: Catalogue = CATALOGUES.en): string[] {
  const problems: string[] = [];
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories.slice().sort();
  for (const key of Object.keys(catalogue))
    if (!Object.hasOwn(english, key)) problems.push(`${language}: ${key} is not a message of English`);
  for (const [key, source] of Object.entries(english)) {
    const text = catalogue[key];
    if (text === undefined) {
      problems.push(`${language}: ${key} is missing`);
      continue;
    }
    if (typeof text !== typeof source) {
      problems.push(
        `${language}: ${key} is ${typeof text === 'string' ? 'not plural' : 'plural'} and English's is not`,
      );
      continue;
    }
    if (typeof text !== 'string' && Object.keys(text).sort().join() !== categories.join())
      problems.push(`${language}: ${key} has the forms ${Object.keys(text).sort()}, the language ${categories}`);
    const wanted = placeholders(Object.values(formsOf(source!))[0]!).join();
    for (const [category, form] of Object.entries(formsOf(text))) {
      if (placeholders(form).join() !== wanted)
        problems.push(`${language}: ${key} ${category} has {${placeholders(form)}}, English {${wanted}}`);
      if (form.trim() !== form || form === '') problems.push(`${language}: ${key} ${category} is empty or padded`);
    }
  }
  return problems;
}

describe('the catalogues', () => {
  it.each(LANGUAGES)('%s has every message of English, its placeholders, and its own plural forms', (language) => {
    expect(catalogueProblems(language, CATALOGUES[language])).toEqual([]);
  });

  it("English's plural forms agree on their placeholders (the forms of any other language are checked against them)", () => {
    for (const [key, text] of Object.entries(CATALOGUES.en))
      expect([key, new Set(Object.values(formsOf(text!)).map((form) => placeholders(form).join())).size]).toEqual([
        key,
        1,
      ]);
  });

  it('the check fails on a message missing, a placeholder changed, a plural form missing or one not of English', () => {
    const { 'failure.BreachedPassword': _dropped, ...missing } = CATALOGUES.de;
    expect(catalogueProblems('de', missing)).toEqual(['de: failure.BreachedPassword is missing']);
    const renamed = {
      ...CATALOGUES.de,
      'suggestion.PreferredPasswordLength': { one: '{n} Zeichen.', other: '{count}.' },
    };
    expect(catalogueProblems('de', renamed)).toEqual([
      'de: suggestion.PreferredPasswordLength one has {n}, English {count}',
    ]);
    const { few: _few, ...withoutFew } = CATALOGUES.pl['failure.MinimumNumericCharacters'] as Record<string, string>;
    expect(catalogueProblems('pl', { ...CATALOGUES.pl, 'failure.MinimumNumericCharacters': withoutFew })).toEqual([
      'pl: failure.MinimumNumericCharacters has the forms many,one,other, the language few,many,one,other',
    ]);
    expect(catalogueProblems('fr', { ...CATALOGUES.fr, 'failure.Other': 'Autre.' })).toEqual([
      'fr: failure.Other is not a message of English',
    ]);
  });

  it('holds exactly the messages the evaluation can say', () => {
    const said = new Set<string>([
      ...COMPOSITION_RULES.filter((rule) => rule.startsWith('Minimum')).map((rule) => `failure.${rule}`),
      ...['onlyUpper', 'onlyLower', 'neither'].map((has) => `failure.RequiresUpperAndLowerCase.${has}`),
      'failure.BreachedPassword',
      'suggestion.PreferredPasswordLength',
      ...Object.values(TERM_KIND_MESSAGES).flatMap(({ failure, suggestion }) => [failure, suggestion]),
      ...Object.values(PATTERN_FEEDBACK),
      ...Object.values(MODEL_FEEDBACK),
      ...Object.values(KEYED_TRANSLATIONS.warnings),
      ...Object.values(KEYED_TRANSLATIONS.suggestions),
    ]);
    expect([...said].sort()).toEqual(Object.keys(CATALOGUES.en).sort());
  });

  it("says zxcvbn-ts's feedback in English as zxcvbn-ts's English pack does, one key for each of its sentences", () => {
    for (const group of ['warnings', 'suggestions'] as const)
      for (const [name, sentence] of Object.entries(TRANSLATIONS[group]))
        expect([name, renderMessage('en', `zxcvbn.${group}.${name}` as never)]).toEqual([name, sentence]);
  });
});

describe('renderMessage', () => {
  const lower = (language: Language, count: number) =>
    renderMessage(language, 'failure.MinimumLowerCaseCharacters', { count, found: 0 });

  it("fills the numbers in each language's plural form", () => {
    expect([1, 2].map((count) => lower('en', count))).toEqual([
      'At least 1 lower-case letter is required; the password has 0.',
      'At least 2 lower-case letters are required; the password has 0.',
    ]);
    expect([1, 2].map((count) => lower('de', count))).toEqual([
      'Mindestens 1 Kleinbuchstabe ist erforderlich; das Passwort enthält 0.',
      'Mindestens 2 Kleinbuchstaben sind erforderlich; das Passwort enthält 0.',
    ]);
    // Polish: one (1), few (2 to 4, 22 to 24, ...), many (5 to 21, 25 to 31, ...)
    expect([1, 2, 5, 22, 12].map((count) => lower('pl', count))).toEqual([
      'Hasło musi zawierać co najmniej 1 małą literę; zawiera 0.',
      'Hasło musi zawierać co najmniej 2 małe litery; zawiera 0.',
      'Hasło musi zawierać co najmniej 5 małych liter; zawiera 0.',
      'Hasło musi zawierać co najmniej 22 małe litery; zawiera 0.',
      'Hasło musi zawierać co najmniej 12 małych liter; zawiera 0.',
    ]);
    expect(renderMessage('fr', 'suggestion.PreferredPasswordLength', { count: 12 })).toBe(
      'Utilisez 12 caractères ou plus.',
    );
  });

  it('leaves a placeholder without a parameter as written, and a sentence without placeholders as it is', () => {
    expect(renderMessage('en', 'suggestion.PreferredPasswordLength')).toBe('Use {count} characters or more.');
    expect(renderMessage('es', 'failure.BreachedPassword')).toBe(
      'Esta contraseña aparece en listas de contraseñas filtradas.',
    );
  });
});
