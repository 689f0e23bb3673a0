/** The contract of every guessability estimator: the service's (guess-estimator.ts), and the stand-ins of tests and benches. */

/** What a guessability estimator (zxcvbn-ts and the attack models of estimate/) says about a password. */
interface Guessability {
  /** log10 of the guesses of the strongest attack model: the fewest over the models. */
  readonly guessesLog10: number;
  /** Feedback sentences; none of them may quote the password. */
  readonly feedback: readonly string[];
}

/** `userInputs`: lists of words the attacker knows, each in rank order (zxcvbn-ts's user-inputs dictionaries). */
export type GuessabilityEstimator = (password: string, userInputs?: readonly (readonly string[])[]) => Guessability;
