/**
 * The evaluation's second entry: the service's guess estimator and its breached-password filter, which carry the
 * generated data (3.8 MB of dictionaries, filter and Markov model, decoded and indexed at import). Apart from
 * index.ts so that what reads only the evaluation's rules and bounds (the policy CLIs) does not load them; the
 * evaluation handler and the API description import both.
 */
export { BREACHED_PASSWORDS } from './estimate/breached-password-list';
export { guessEstimator } from './estimate/guess-estimator';
