import type { GeneratorPolicy } from './generator-policy';

/**
 * Generation by settings, as Passwordstate accepts it: a one-off policy made of a base policy (the one the
 * request names, else the default policy) with the settings given replacing its fields. The caller
 * validates the result and checks its feasibility exactly as it does a stored policy's (docs/api.md#generation-by-settings).
 */

/** Setting values as a request gives them, by the policy field each one sets; an empty value is "not given". */
export type SettingValues = Partial<Record<SettingField, string>>;

export type SettingField = Exclude<
  keyof GeneratorPolicy,
  'PasswordGeneratorID' | 'GeneratorName' | 'GeneratorDescription'
>;

const SWITCHES = [
  'IncludeAlphaSpecial',
  'IncludeWordPhrases',
  'LowerCaseChars',
  'UpperCaseChars',
  'NumericChars',
  'HigherAlphaRatio',
  'AmbiguousChars',
  'SpecialChars',
  'BracketChars',
  'GeneratePattern',
] as const satisfies readonly SettingField[];
const WHOLE_NUMBERS: ReadonlySet<SettingField> = new Set([
  'MinLength',
  'MaxLength',
  'NumberOfWords',
  'MaximumWordLength',
]);

/**
 * Settings that belong to a feature are read only while the one-off policy switches that feature on: a client
 * sends `NumberOfWords=0&MaxWordLength=0` with word phrases off and `Pattern=null` with GeneratePattern off.
 * Otherwise the base policy's value stays (and the pattern is empty, as GeneratePattern off requires).
 */
export const READ_ONLY_WHEN: Partial<Record<SettingField, (p: GeneratorPolicy) => boolean>> = {
  SpecialCharsText: (p) => p.SpecialChars,
  BracketCharsText: (p) => p.BracketChars,
  NumberOfWords: (p) => p.IncludeWordPhrases,
  PrefixAppendWords: (p) => p.IncludeWordPhrases,
  SeparateWordsWith: (p) => p.IncludeWordPhrases,
  MaximumWordLength: (p) => p.IncludeWordPhrases || p.GeneratePattern,
  Pattern: (p) => p.GeneratePattern,
};

interface SettingProblem {
  readonly field: SettingField;
  readonly message: string;
}

export type SettingsResult =
  | { readonly ok: true; readonly policy: GeneratorPolicy; readonly given: boolean }
  | { readonly ok: false; readonly problems: readonly SettingProblem[] };

/**
 * The one-off policy of `base` with `values` applied; `given` is false when no setting was read (the base
 * policy is then used as it is). Only the syntax is checked here: true/false (any letter case) and whole
 * numbers; value domains and feasibility are the caller's, with the code that checks stored policies.
 */
export function applySettings(base: GeneratorPolicy, values: SettingValues): SettingsResult {
  const problems: SettingProblem[] = [];
  const policy: Record<string, unknown> = { ...base };
  let given = false;
  for (const field of SWITCHES) {
    const value = values[field];
    if (value === undefined || value === '') continue;
    const parsed = /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : undefined;
    if (parsed === undefined) problems.push({ field, message: 'must be true or false' });
    else policy[field] = parsed;
    given = true;
  }
  const switched = policy as GeneratorPolicy;
  for (const [field, value] of Object.entries(values) as [SettingField, string | undefined][]) {
    if (value === undefined || value === '' || (SWITCHES as readonly string[]).includes(field)) continue;
    if (READ_ONLY_WHEN[field]?.(switched) === false) continue;
    given = true;
    if (!WHOLE_NUMBERS.has(field)) policy[field] = value;
    else if (/^\d{1,4}$/.test(value)) policy[field] = Number(value);
    else problems.push({ field, message: 'must be a whole number' });
  }
  if (!switched.GeneratePattern) policy.Pattern = '';
  return problems.length > 0 ? { ok: false, problems } : { ok: true, policy: switched, given };
}
