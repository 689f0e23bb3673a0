/**
 * The password strength evaluation's entry for its rules and bounds, which the evaluation handler, the policy CLIs
 * and the API description use; estimator.ts is the entry for the estimator and its data (docs/architecture.md#layout). Inside, imports point down:
 *
 *   strength-evaluator.ts  the formula (Score, bands, failures) and the whole evaluation of one password
 *   context/               UserInputs and BannedWords: their terms, the matcher, the judgement in context
 *   estimate/              the guess estimate: zxcvbn-ts, the attack models, the pattern caps, the breached-password filter
 *   text/                  what several estimators read: l33t readings, affixes, sequences, keyboards
 *   data/                  generated: the dictionaries, the breached-password filter, the Markov model (`npm run generate`)
 *   messages/              the sentences of Failures and Suggestions, one catalogue a language (data, English the source)
 *
 * text/ and data/ import nothing of the evaluation; estimate/ imports text/ and data/; context/ also estimate/;
 * the files here anything below (test/infrastructure/layout.test.ts). The build scripts that write data/ and
 * the benches may reach inside; the service's code goes through this file or estimator.ts.
 */
export { contextTerms } from './context/context-terms';
export { USER_INPUTS, userInputsProblem } from './context/user-inputs';
export { LANGUAGES, type Language } from './messages/catalogue';
export {
  COMPOSITION_RULES,
  evaluatePassword,
  MAX_PASSWORD_LENGTH,
  strengthScore,
  weightsOf,
  type CompositionFailure,
  type StrengthEvaluation,
} from './strength-evaluator';
