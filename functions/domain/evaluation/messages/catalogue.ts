import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import it from './it.json';
import nl from './nl.json';
import pl from './pl.json';
import pt from './pt.json';

/**
 * The sentences of the evaluation's Failures[].Message and Suggestions, one catalogue a language, as data: en.json
 * is the source, and every other file has each of its keys with the same placeholders
 * (test/unit/message-catalogues.test.ts). The evaluation works in keys and renders them last, in the language
 * the API chose (functions/api/answer-language.ts); nothing here knows HTTP.
 *
 * A text is a string, or, when it says a number, one string per plural category of its language (Intl.PluralRules:
 * one and other in English, one, few, many and other in Polish), chosen by the parameter `count`. A placeholder is
 * `{name}`, a parameter's name; parameters are numbers, never the password or a term.
 */

/** The languages of the catalogues, English first: the source, and the language of an answer no other fits. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A message of en.json. */
export type MessageKey = keyof typeof en;
type Text = string | Readonly<Partial<Record<Intl.LDMLPluralRule, string>>>;
type Catalogue = Readonly<Record<string, Text | undefined>>;

/** Each language's catalogue, as bundled: eight small JSON objects read once, at import. */
export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en, de, fr, es, it, pt, nl, pl };

/** The numbers a message says, by placeholder name; `count` also chooses the plural form. */
export type MessageParameters = Readonly<Record<string, number>>;

const pluralRules = new Map<Language, Intl.PluralRules>();
function pluralRulesOf(language: Language): Intl.PluralRules {
  let rules = pluralRules.get(language);
  if (rules === undefined) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * The sentence of `key` in `language`, its placeholders filled from `parameters`. A plural text takes the form of the
 * category of `count` (`other` when the runtime's plural rules name one the catalogue lacks); a key missing in a
 * language, which the catalogue test forbids, falls back to English rather than failing an answer.
 */
export function renderMessage(language: Language, key: MessageKey, parameters: MessageParameters = {}): string {
  const text: Text = CATALOGUES[language][key] ?? en[key];
  const form =
    typeof text === 'string' ? text : (text[pluralRulesOf(language).select(parameters.count ?? 0)] ?? text.other ?? '');
  return form.replace(PLACEHOLDER, (whole: string, name: string) =>
    Object.hasOwn(parameters, name) ? String(parameters[name]) : whole,
  );
}
