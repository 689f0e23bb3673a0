import { contextTerms, judgeInContext, TERM_KINDS } from './context/context-terms';
import {
  answeredGuessesLog10,
  atMostWeak,
  COMPLIANCE_LEVELS,
  guessabilityScore,
  scoreBand,
  type ComplianceLevelName,
} from '../compliance-levels';
import type { StrengthPolicy } from '../strength-policy';
import type { GuessabilityEstimator } from './estimate/guessability';
import { renderMessage, type Language, type MessageKey } from './messages/catalogue';

/**
 * Evaluation of a password against a password strength policy. Pure: no I/O; the guessability estimate
 * (zxcvbn-ts in the service, see guess-estimator.ts) is passed in, so the scoring can be tested on its own.
 *
 * The formula, exactly (docs/evaluation.md works examples through it):
 *
 *   Characters are Unicode code points. Each is upper case (\p{Lu}), lower case (\p{Ll}), numeric (\p{Nd}),
 *   a symbol (punctuation \p{P}, symbol \p{S} or space \p{Zs}), or none of these (other letters, marks).
 *   The targets are the policy's minimums, at least 1 each: U, L, N, S; and P = PreferredPasswordLength.
 *
 *     length  = min(characters, P) / P
 *     numeric = min(digits, N) / N
 *     casing  = (min(upper, U) / U + min(lower, L) / L) / 2
 *     symbol  = min(symbols, S) / S
 *
 *   Score = floor(wLength*length + wNumeric*numeric + wCasing*casing + wSymbol*symbol), with the weights of
 *   CalculationWeightings (length;numeric;casing;symbol, summing to 100), computed in exact integers.
 *   ComplianceLevel = min(the Score's band, the guessability score of the estimate), both 0 to 4 and both
 *   defined in compliance-levels.ts (bands of 20, zxcvbn's guess thresholds). A password in a list of
 *   breached passwords fails the rule BreachedPassword, and one built on the request's UserInputs or the
 *   policy's BannedWords (context-terms.ts) fails UserInput or BannedWord; either way its estimate is capped at
 *   Weak (atMostWeak: 10^6 - 1 guesses at most).
 *   Compliant = no failure and ComplianceLevel >= PasswordStrengthCompliance.
 */

/** The longest password evaluated, in characters (Unicode code points), as a generator policy's MaxLength. */
export const MAX_PASSWORD_LENGTH = 256;

/** The rules a failure names: the composition rules of a strength policy, in the specification's field order, then
 * BreachedPassword, then UserInput and BannedWord (context-terms.ts; the API description lists these). */
export const COMPOSITION_RULES = [
  'MinimumLowerCaseCharacters',
  'MinimumNumericCharacters',
  'MinimumSymbolCharacters',
  'MinimumUpperCaseCharacters',
  'RequiresUpperAndLowerCase',
  'BreachedPassword',
  ...TERM_KINDS,
] as const;
type CompositionRule = (typeof COMPOSITION_RULES)[number];

/**
 * One shortfall: the rule, what it requires, what the password has (for RequiresUpperAndLowerCase: letter
 * cases; for BreachedPassword: the breach lists it may appear in, 0, and whether it appears in one, 1; for
 * UserInput and BannedWord: the terms of that kind it may be built on, 0, and how many it is built on).
 */
export interface CompositionFailure {
  readonly Rule: CompositionRule;
  readonly Required: number;
  readonly Found: number;
  readonly Message: string;
}

/** The response body of POST /api/passwordstrength/evaluate, fields in this order. */
export interface StrengthEvaluation {
  readonly PasswordStrengthPolicyID: number;
  readonly Score: number;
  readonly ComplianceLevel: number;
  readonly ComplianceLevelName: ComplianceLevelName;
  readonly Compliant: boolean;
  readonly Mandatory: boolean;
  readonly Failures: readonly CompositionFailure[];
  readonly Suggestions: readonly string[];
  /** log10 of the estimated guesses, after the breached-password check: answeredGuessesLog10 of Guessability.guessesLog10. */
  readonly GuessesLog10: number;
}

export interface CharacterCounts {
  /** Unicode code points. */
  readonly length: number;
  readonly upper: number;
  readonly lower: number;
  readonly numeric: number;
  readonly symbol: number;
}

const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const NUMERIC = /\p{Nd}/u;
const SYMBOL = /[\p{P}\p{S}\p{Zs}]/u;

/** Counts a password's characters by class (each code point in at most one class). */
export function countCharacters(password: string): CharacterCounts {
  let length = 0;
  let upper = 0;
  let lower = 0;
  let numeric = 0;
  let symbol = 0;
  for (const ch of password) {
    length += 1;
    if (UPPER.test(ch)) upper += 1;
    else if (LOWER.test(ch)) lower += 1;
    else if (NUMERIC.test(ch)) numeric += 1;
    else if (SYMBOL.test(ch)) symbol += 1;
  }
  return { length, upper, lower, numeric, symbol };
}

/** A fraction in [0, 1], kept exact. */
export interface Part {
  readonly numerator: number;
  readonly denominator: number;
}

export interface ScoreParts {
  readonly length: Part;
  readonly numeric: Part;
  readonly casing: Part;
  readonly symbol: Part;
}

/** The four weights of CalculationWeightings, in its order length;numeric;casing;symbol. */
export function weightsOf(policy: StrengthPolicy): { length: number; numeric: number; casing: number; symbol: number } {
  const [length = 0, numeric = 0, casing = 0, symbol = 0] = policy.CalculationWeightings.split(';').map(Number);
  return { length, numeric, casing, symbol };
}

/** How far the password meets each part of the score, each in [0, 1]. */
export function scoreParts(policy: StrengthPolicy, counts: CharacterCounts): ScoreParts {
  const upperTarget = Math.max(policy.MinimumUpperCaseCharacters, 1);
  const lowerTarget = Math.max(policy.MinimumLowerCaseCharacters, 1);
  return {
    length: capped(counts.length, policy.PreferredPasswordLength),
    numeric: capped(counts.numeric, Math.max(policy.MinimumNumericCharacters, 1)),
    casing: {
      numerator: Math.min(counts.upper, upperTarget) * lowerTarget + Math.min(counts.lower, lowerTarget) * upperTarget,
      denominator: 2 * upperTarget * lowerTarget,
    },
    symbol: capped(counts.symbol, Math.max(policy.MinimumSymbolCharacters, 1)),
  };
}

function capped(count: number, target: number): Part {
  return { numerator: Math.min(count, target), denominator: target };
}

/**
 * floor(sum of weight * part), in exact integer arithmetic over the product of the denominators (at most
 * 256 * 64 * 8192 * 64 * 100, far inside the safe integers), so no float rounding moves a score across a band.
 */
export function strengthScore(policy: StrengthPolicy, counts: CharacterCounts): number {
  const parts = scoreParts(policy, counts);
  const weights = weightsOf(policy);
  const keys = ['length', 'numeric', 'casing', 'symbol'] as const;
  const common = keys.reduce((product, key) => product * parts[key].denominator, 1);
  const total = keys.reduce(
    (sum, key) => sum + weights[key] * parts[key].numerator * (common / parts[key].denominator),
    0,
  );
  return Math.floor(total / common);
}

/**
 * Each shortfall against the composition rules, in the specification's field order, its Message in `language`
 * (English when not given).
 */
export function compositionFailures(
  policy: StrengthPolicy,
  counts: CharacterCounts,
  language: Language = 'en',
): CompositionFailure[] {
  const failures: CompositionFailure[] = [];
  const minimum = (rule: CompositionRule & `Minimum${string}`, required: number, found: number) => {
    if (found >= required) return;
    const Message = renderMessage(language, `failure.${rule}`, { count: required, found });
    failures.push({ Rule: rule, Required: required, Found: found, Message });
  };
  minimum('MinimumLowerCaseCharacters', policy.MinimumLowerCaseCharacters, counts.lower);
  minimum('MinimumNumericCharacters', policy.MinimumNumericCharacters, counts.numeric);
  minimum('MinimumSymbolCharacters', policy.MinimumSymbolCharacters, counts.symbol);
  minimum('MinimumUpperCaseCharacters', policy.MinimumUpperCaseCharacters, counts.upper);
  const cases = (counts.upper > 0 ? 1 : 0) + (counts.lower > 0 ? 1 : 0);
  if (policy.RequiresUpperAndLowerCase && cases < 2) {
    const has: MessageKey =
      counts.upper > 0
        ? 'failure.RequiresUpperAndLowerCase.onlyUpper'
        : counts.lower > 0
          ? 'failure.RequiresUpperAndLowerCase.onlyLower'
          : 'failure.RequiresUpperAndLowerCase.neither';
    failures.push({
      Rule: 'RequiresUpperAndLowerCase',
      Required: 2,
      Found: cases,
      Message: renderMessage(language, has),
    });
  }
  return failures;
}

/**
 * The whole evaluation of one password against one policy; `breached`: it is in a list of breached passwords;
 * `userInputs`: the request's words about the password's owner, judged with the policy's BannedWords;
 * `language`: the language of every Message and Suggestion (messages/), which changes nothing else of the answer.
 */
export function evaluatePassword(
  policy: StrengthPolicy,
  password: string,
  estimate: GuessabilityEstimator,
  breached = false,
  userInputs: readonly string[] = [],
  language: Language = 'en',
): StrengthEvaluation {
  const counts = countCharacters(password);
  const score = strengthScore(policy, counts);
  const guessability = judgeInContext(password, contextTerms(userInputs, policy.BannedWords), estimate);
  const guessesLog10 = breached ? atMostWeak(guessability.guessesLog10) : guessability.guessesLog10;
  const level = Math.max(0, Math.min(scoreBand(score), guessabilityScore(guessesLog10)));
  const failures = compositionFailures(policy, counts, language);
  if (breached)
    failures.push({
      Rule: 'BreachedPassword',
      Required: 0,
      Found: 1,
      Message: renderMessage(language, 'failure.BreachedPassword'),
    });
  for (const failure of guessability.failures)
    failures.push({ ...failure, Message: renderMessage(language, failure.Message) });
  // Keys, deduplicated before they are rendered: the Suggestions are as many in every language.
  const suggestions = new Set<MessageKey>();
  if (counts.length < policy.PreferredPasswordLength) suggestions.add('suggestion.PreferredPasswordLength');
  for (const key of guessability.feedback) suggestions.add(key);
  const length = { count: policy.PreferredPasswordLength };
  return {
    PasswordStrengthPolicyID: policy.PasswordStrengthPolicyID,
    Score: score,
    ComplianceLevel: level,
    ComplianceLevelName: COMPLIANCE_LEVELS[level]!,
    Compliant: failures.length === 0 && level >= policy.PasswordStrengthCompliance,
    Mandatory: policy.ComplianceMandatory,
    Failures: failures,
    Suggestions: [...suggestions].map((key) => renderMessage(language, key, length)),
    GuessesLog10: answeredGuessesLog10(guessesLog10),
  };
}
