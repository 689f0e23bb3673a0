/**
 * The evaluation's work, counted, not timed (docs/evaluation.md#the-evaluations-worst-case): every hostile body of
 * bench/hostile-bodies.ts (characters NFKC expands, dense overlapping UserInputs, 1,000 overlapping BannedWords,
 * l33t runs, repeated characters, letters alternating with l33t) that the service accepts is evaluated as the
 * function evaluates it, and each algorithm's operations are held to the bound its module states:
 *
 *   - the context matcher: character comparisons at most MATCH_COMPARISONS_PER_TERM x (n + 1) per term plus its
 *     terms' preparation, and at most n + terms matches kept;
 *   - the estimates: at most two per evaluation (the password, and what is left when a term matches);
 *   - per estimate: zxcvbn-ts's dictionary lookups (zxcvbnMaxLookups), the rule model's readings
 *     (READING_BUDGET) and steps (ruleModelMaxSteps), the Markov model's symbols (n + 1), the affixed-word
 *     check's lookups (AFFIXED_WORD_MAX_LOOKUPS).
 *
 * The bodies come from a fixed seed, so a failure replays; `npm run bench` (BENCH_SECTIONS=hostile) times the
 * same families from a fresh seed.
 */
import { hostileBodies, HOSTILE_FAMILIES } from '../../bench/hostile-bodies';
import { policyFor, refusal } from '../../bench/hostile-bench';
import { BREACHED_PASSWORDS } from '../../functions/domain/evaluation/estimate/breached-password-list';
import {
  contextTerms,
  MATCH_COMPARISONS_PER_TERM,
  MAX_TOKEN_LENGTH,
  scanTerms,
} from '../../functions/domain/evaluation/context/context-terms';
import { GUESSABILITY_MAX_LENGTH, zxcvbnMaxLookups } from '../../functions/domain/evaluation/estimate/zxcvbn-adapter';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import type { EstimateWork } from '../../functions/domain/evaluation/estimate/guessability';
import { DICTIONARIES } from '../../functions/domain/evaluation/estimate/shipped-dictionaries';
import { AFFIXED_WORD_MAX_LOOKUPS } from '../../functions/domain/evaluation/estimate/pattern-caps';
import { KEYBOARDS } from '../../functions/domain/evaluation/text/keyboard-layouts';
import {
  MAX_RULE_PASSWORD,
  READING_BUDGET,
  ruleModelMaxSteps,
} from '../../functions/domain/evaluation/estimate/rule-model';
import { dictionaryWords } from '../../functions/domain/evaluation/estimate/ranked-dictionary';
import { evaluatePassword, MAX_PASSWORD_LENGTH } from '../../functions/domain/evaluation/strength-evaluator';
import type { GuessabilityEstimator } from '../../functions/domain/evaluation/estimate/guessability';
import { seedStrengthPolicy } from '../support/seed-reference';

const SEED = 20261127;
const PER_FAMILY = 6;
const POLICY_2 = seedStrengthPolicy(2);
const BODIES = hostileBodies(SEED, PER_FAMILY).map((body) => ({ body, policy: policyFor(POLICY_2, body) }));
const ACCEPTED = BODIES.filter(({ body, policy }) => refusal(body, policy) === undefined);

/** The longest word of each of zxcvbn-ts's dictionaries, and the two lists of user inputs (tokens and BannedWords, at most 64). */
const MAX_WORD_SIZES = [
  ...Object.values(DICTIONARIES).map((lines) =>
    dictionaryWords(lines).reduce((most, word) => Math.max(most, word.length), 0),
  ),
  MAX_TOKEN_LENGTH,
  MAX_TOKEN_LENGTH,
];
/** Per estimate: the rule model walks a walk list on each keyboard of KEYBOARDS. */
const ESTIMATE_BOUNDS: Readonly<Record<Exclude<EstimateWork, 'estimates'>, number>> = {
  'zxcvbn lookups': zxcvbnMaxLookups(MAX_WORD_SIZES),
  'rule readings': READING_BUDGET,
  'rule steps': ruleModelMaxSteps(KEYBOARDS.length),
  'markov symbols': MAX_PASSWORD_LENGTH + 1,
  'pattern lookups': AFFIXED_WORD_MAX_LOOKUPS,
};

/** The shipped estimator with its work counted per estimate. */
function meteredEstimator(): { estimate: GuessabilityEstimator; perEstimate: Map<EstimateWork, number>[] } {
  const perEstimate: Map<EstimateWork, number>[] = [];
  const estimate = guessEstimator(undefined, true, true, (kind, count) => {
    if (kind === 'estimates') perEstimate.push(new Map());
    const current = perEstimate[perEstimate.length - 1]!;
    current.set(kind, (current.get(kind) ?? 0) + count);
  });
  return { estimate, perEstimate };
}

let metered: ReturnType<typeof meteredEstimator>;
beforeAll(() => {
  metered = meteredEstimator();
});

describe('the hostile bodies', () => {
  it('cover every family; the service accepts the ones valid after NFKC and refuses the others', () => {
    expect(new Set(ACCEPTED.map(({ body }) => body.family))).toEqual(new Set(HOSTILE_FAMILIES));
    for (const { body, policy } of BODIES)
      expect({ body: body.name, accepted: refusal(body, policy) === undefined }).toEqual({
        body: body.name,
        accepted: body.validAfterNfkc,
      });
  });
});

describe('the context matcher stays within its bound on every accepted body', () => {
  it.each(ACCEPTED.map(({ body, policy }) => [`${body.family} ${body.name}`, body, policy] as const))(
    '%s',
    (_name, body, policy) => {
      const terms = contextTerms(body.userInputs, policy.BannedWords);
      const n = [...body.password.normalize('NFKC')].length;
      const termCount = terms.groups.reduce((sum, g) => sum + g.count, 0);
      const { matches, comparisons } = scanTerms(body.password, terms);
      // A term's preparation (two Z-arrays) compares at most 2 x 2 x its length.
      expect(comparisons).toBeLessThanOrEqual(
        termCount * (MATCH_COMPARISONS_PER_TERM * (n + 1) + 4 * MAX_TOKEN_LENGTH),
      );
      expect(matches.length).toBeLessThanOrEqual(n + termCount);
    },
  );
});

describe('the estimates stay within their bounds on every accepted body', () => {
  it.each(ACCEPTED.map(({ body, policy }) => [`${body.family} ${body.name}`, body, policy] as const))(
    '%s',
    (_name, body, policy) => {
      metered.perEstimate.length = 0;
      evaluatePassword(policy, body.password, metered.estimate, BREACHED_PASSWORDS.has(body.password), body.userInputs);
      expect(metered.perEstimate.length).toBeGreaterThanOrEqual(1);
      expect(metered.perEstimate.length).toBeLessThanOrEqual(2);
      const over = metered.perEstimate.flatMap((work, i) =>
        Object.entries(ESTIMATE_BOUNDS)
          .filter(([kind, bound]) => (work.get(kind as EstimateWork) ?? 0) > bound)
          .map(([kind, bound]) => `estimate ${i + 1}: ${kind} ${work.get(kind as EstimateWork)} > ${bound}`),
      );
      expect(over).toEqual([]);
      // The meter counts: every estimate looks words up and reads the password with the Markov model.
      for (const work of metered.perEstimate)
        expect([work.get('zxcvbn lookups')! > 0, work.get('markov symbols')! > 0]).toEqual([true, true]);
    },
  );

  it('the bounds are those of a password cut to 48 characters for zxcvbn-ts and read up to 96 by the rule model', () => {
    expect([GUESSABILITY_MAX_LENGTH, MAX_RULE_PASSWORD]).toEqual([48, 96]);
  });
});
