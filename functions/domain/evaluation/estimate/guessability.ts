/** The contract of every guessability estimator: the service's (guess-estimator.ts), and the stand-ins of tests and benches. */
import type { MessageKey } from '../messages/catalogue';

/** What a guessability estimator (zxcvbn-ts and the attack models of estimate/) says about a password. */
interface Guessability {
  /** log10 of the guesses of the strongest attack model: the fewest over the models. */
  readonly guessesLog10: number;
  /** Feedback, as the keys of its sentences in the catalogues (messages/); none of them may quote the password. */
  readonly feedback: readonly MessageKey[];
}

/** `userInputs`: lists of words the attacker knows, each in rank order (zxcvbn-ts's user-inputs dictionaries). */
export type GuessabilityEstimator = (password: string, userInputs?: readonly (readonly string[])[]) => Guessability;

/**
 * The work of estimates, counted by kind, for the test that holds each to its bound
 * (test/reliability/evaluation-work.test.ts, docs/evaluation.md#the-evaluations-worst-case); the service counts
 * nothing. zxcvbn-ts's dictionary lookups are counted through a proxy around each dictionary, the rest as the
 * models report them.
 */
export type WorkMeter = (kind: EstimateWork, count: number) => void;
export type EstimateWork =
  | 'estimates'
  | 'zxcvbn lookups'
  | 'rule readings'
  | 'rule steps'
  | 'markov symbols'
  | 'pattern lookups';
