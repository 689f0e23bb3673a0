import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import { zxcvbnWithDictionaries } from '../functions/domain/evaluation/estimate/zxcvbn-adapter';
import { WEAK_CEILING_LOG10 } from '../functions/domain/compliance-levels';
import { adjacencyOf } from '../functions/domain/evaluation/text/keyboards';
import { guessablePattern } from '../functions/domain/evaluation/estimate/pattern-caps';
import { attackModels } from '../functions/domain/evaluation/estimate/attack-models';
import { KEYBOARDS } from '../functions/domain/evaluation/text/keyboard-layouts';
import { readMarkovModel } from '../functions/domain/evaluation/estimate/markov-model';
import { DICTIONARIES } from '../functions/domain/evaluation/estimate/shipped-dictionaries';
import { RANK_SEPARATOR, rankedDictionary } from '../functions/domain/evaluation/estimate/ranked-dictionary';
import {
  CALIBRATION_LOG10,
  monteCarloTable,
  seededRandom,
  trainingPasswords,
  trainMarkovModel,
  ZIPF_EXPONENT,
  zipfWeights,
  type TrainingOptions,
} from '../bundling/guess-model';
import { frequencyTiers, weightedSpearman } from './accuracy';
import { table } from './stats';
import { BENCH_ENV } from './bench-variables';

/**
 * `npm run bench:validation` (docs/guess-numbers.md#choosing-on-validation): the accuracy benchmark's weighted
 * Spearman, measured on the TRAINING ranks only, so that the models' settings can be chosen without looking at
 * the held-out sample (ranks 100,001 to 1,000,000, which this script never reads: it reads its passwords as
 * `npm run guess-model` does, and stops at line 100,000).
 *
 * The held-out sample spans ranks 100,001 to 1,000,000, a tenfold range of ranks beyond the training list.
 * The validation copies that shape one decade down: ranks 10,001 to 100,000 are split at random (fixed seed)
 * into FOLDS folds; for each fold, every model is rebuilt without that fold's passwords (the Markov model is
 * trained on the other ranks, and the fold's passwords are taken out of zxcvbn-ts's common-password list,
 * which holds 43% of ranks 10,001 to 100,000 but almost none of the held-out ones) and estimates the fold's
 * passwords. The rule model runs without the breached-password filter, which
 * holds every training rank (the held-out benchmark prints the filter's effect). Each password's rank is its
 * frequency tier's middle rank and its weight 1 / that rank, as in bench/accuracy.ts.
 *
 * It prints the weighted Spearman of each model alone and of the combinations, pooled over the folds, with
 * the spread over the folds, for each candidate training of the Markov model (CANDIDATES).
 * Environment: VALIDATION_PER_FOLD (passwords estimated per fold; the whole fold when 0).
 */

const FOLDS = 5;
const VALIDATION_FIRST_RANK = 10_001;
const PER_FOLD = Number(process.env[BENCH_ENV.validationPerFold] ?? 3000);
const SEED = 2611;

interface Candidate {
  readonly name: string;
  /** The Zipf exponent of the weights, 0 for each password once (-1: not a candidate for what ships). */
  readonly exponent: number;
  /** The Markov model's training options, given the training passwords and their ranks. */
  options(passwords: readonly string[], ranks: readonly number[]): TrainingOptions;
}

/** Zipf's law (Wang et al., "Zipf's Law in Passwords", IEEE TIFS 2017): a password's count is about C rank^-s. */
const zipf = (s: number, minCount?: Readonly<Record<number, number>>): Candidate => ({
  name: `Zipf counts, s = ${s}${minCount ? `, n-grams kept from ${minCount[3]} and ${minCount[4]} sightings (orders 3, 4)` : ''}`,
  exponent: minCount ? -1 : s,
  options: (_, ranks) => ({ weights: zipfWeights(ranks, s), minCount }),
});

/** The trainings compared: each password once (the model before the validation), and Zipf weights. */
const CANDIDATES: Candidate[] = [
  { name: 'each password once', exponent: 0, options: () => ({}) },
  zipf(0.5),
  zipf(0.75),
  zipf(1),
  zipf(0.75, { 1: 1, 2: 1, 3: 1, 4: 2 }),
];
/** The calibrations compared (CALIBRATION_LOG10 among them). */
const CALIBRATIONS = [0.5, 1, 1.5, 2, 2.5, 3];

interface Scored {
  readonly tied: number;
  readonly plain: number;
  readonly zxcvbn: number;
  /** zxcvbn-ts's estimate where it reads some pattern, Infinity where its reading is brute force alone. */
  readonly zxcvbnPatterns: number;
  readonly rules: number;
  readonly pattern: boolean;
  readonly markov: number[];
}

function withoutFold(lines: string, fold: ReadonlySet<string>): string {
  return lines
    .split(RANK_SEPARATOR)
    .filter((word) => !fold.has(word))
    .join(RANK_SEPARATOR);
}

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const training = await trainingPasswords();
  const tiers = frequencyTiers(training, 1);
  const tiedOf = (rank: number) => {
    const tier = tiers.find((t) => rank >= t.start && rank <= t.end)!;
    return (tier.start + tier.end) / 2;
  };
  const random = seededRandom(SEED);
  const foldOf = training.map((_, i) => (i + 1 >= VALIDATION_FIRST_RANK ? Math.floor(random() * FOLDS) : -1));
  const graphs = KEYBOARDS;
  const adjacent = adjacencyOf(graphs);
  const scored: Scored[] = [];
  const foldOfScored: number[] = [];

  for (let fold = 0; fold < FOLDS; fold++) {
    const inFold = training.map((_, i) => i).filter((i) => foldOf[i] === fold);
    const foldWords = new Set(inFold.map((i) => training[i]!.toLowerCase()));
    const rest = training.map((_, i) => i).filter((i) => foldOf[i] !== fold);
    const restPasswords = rest.map((i) => training[i]!);
    const restRanks = rest.map((i) => i + 1);
    log(`fold ${fold + 1}/${FOLDS}: training on ${rest.length} passwords...`);
    const markovModels = CANDIDATES.map((candidate) => {
      const arrays = trainMarkovModel(restPasswords, candidate.options(restPasswords, restRanks));
      const model = readMarkovModel({
        ...arrays,
        guessTable: monteCarloTable(arrays),
        samples: 1,
        calibrationLog10: 0,
      });
      if (fold === 0)
        log(`  ${candidate.name}: ${model.grams} n-grams, ${model.contexts} backoff weights, ${model.bytes} bytes`);
      return model;
    });
    // zxcvbn-ts as shipped and plain, and the rule model, without the fold's passwords in the common-password list.
    const commonLines = withoutFold(DICTIONARIES['passwords-common']!, foldWords);
    const zxcvbn = zxcvbnWithDictionaries();
    const options = (
      zxcvbn as unknown as {
        options: {
          rankedDictionaries: Record<string, Record<string, number>>;
          rankedDictionariesMaxWordSize: Record<string, number>;
        };
      }
    ).options;
    options.rankedDictionaries['passwords-common'] = rankedDictionary(commonLines).lookup;
    const plain = new ZxcvbnFactory({
      dictionary: {
        ...common.dictionary,
        'passwords-common': common.dictionary['passwords-common'].filter((word) => !foldWords.has(word)),
        ...english.dictionary,
      },
      graphs: common.adjacencyGraphs,
      translations: english.translations,
    });
    const dictionaries = Object.entries(options.rankedDictionaries).filter(([name]) => !name.startsWith('userInputs'));
    const words = {
      has: (word: string) => dictionaries.some(([, lookup]) => typeof lookup[word] === 'number'),
      maxLength: Math.max(...Object.values(options.rankedDictionariesMaxWordSize)),
    };
    const rules = attackModels({
      rankedDictionaries: Object.fromEntries(dictionaries),
      maxWordSizes: options.rankedDictionariesMaxWordSize,
      commonPasswords: { name: 'passwords-common', lines: commonLines },
      graphs,
      markov: {
        gramKeys: '',
        gramCosts: '',
        contextKeys: '',
        contextCosts: '',
        guessTable: [[0, 0]],
        samples: 1,
        calibrationLog10: 0,
      },
    }).rules;
    const chosen = PER_FOLD > 0 ? inFold.filter(() => random() < PER_FOLD / inFold.length) : inFold;
    log(`fold ${fold + 1}/${FOLDS}: estimating ${chosen.length} of its ${inFold.length} passwords...`);
    for (const i of chosen) {
      const password = training[i]!;
      const checked = zxcvbn.check(password);
      scored.push({
        tied: tiedOf(i + 1),
        plain: plain.check(password).guessesLog10,
        zxcvbn: checked.guessesLog10,
        zxcvbnPatterns: checked.sequence.some((match) => match.pattern !== 'bruteforce')
          ? checked.guessesLog10
          : Infinity,
        rules: rules.estimate(password).guessesLog10,
        pattern: guessablePattern(password, words, adjacent) !== undefined,
        markov: markovModels.map((model) => model.guessesLog10(password)),
      });
      foldOfScored.push(fold);
    }
  }

  const spearman = (estimate: (s: Scored) => number, only?: number) => {
    const rows = scored.filter((_, i) => only === undefined || foldOfScored[i] === only);
    return weightedSpearman(
      rows.map(estimate),
      rows.map((s) => s.tied),
      rows.map((s) => 1 / s.tied),
    );
  };
  const row = (name: string, estimate: (s: Scored) => number) => {
    const folds = Array.from({ length: FOLDS }, (_, f) => spearman(estimate, f));
    return [
      name,
      spearman(estimate).toFixed(3),
      `${Math.min(...folds).toFixed(3)} to ${Math.max(...folds).toFixed(3)}`,
    ];
  };
  const capped = (s: Scored, value: number) => (s.pattern ? Math.min(value, WEAK_CEILING_LOG10) : value);
  const rows: string[][] = [
    row('plain zxcvbn-ts', (s) => s.plain),
    row('zxcvbn-ts as shipped', (s) => s.zxcvbn),
    row('the rule model alone', (s) => s.rules),
    row('zxcvbn-ts and the rule model (fewest), pattern cap', (s) => capped(s, Math.min(s.zxcvbn, s.rules))),
  ];
  CANDIDATES.forEach((candidate, c) => {
    rows.push(row(`Markov alone: ${candidate.name}`, (s) => s.markov[c]!));
    rows.push(row(`  Markov, pattern cap`, (s) => capped(s, s.markov[c]!)));
    rows.push(row(`  fewest of zxcvbn-ts and Markov`, (s) => Math.min(s.zxcvbn, s.markov[c]!)));
    rows.push(row(`  fewest of rules and Markov`, (s) => Math.min(s.rules, s.markov[c]!)));
    rows.push(row(`  fewest of the three`, (s) => Math.min(s.zxcvbn, s.rules, s.markov[c]!)));
    rows.push(
      row(`  the estimate (fewest of the three, pattern cap)`, (s) =>
        capped(s, Math.min(s.zxcvbn, s.rules, s.markov[c]!)),
      ),
    );
    rows.push(
      row(
        `  lowered by ${CALIBRATION_LOG10}, zxcvbn-ts counted only where it reads a pattern (not shipped: it raises estimates)`,
        (s) => capped(s, Math.min(s.zxcvbnPatterns, s.rules, s.markov[c]! - CALIBRATION_LOG10)),
      ),
    );
    for (const shift of CALIBRATIONS)
      rows.push(
        row(`  the estimate, Markov lowered by ${shift}`, (s) =>
          capped(s, Math.min(s.zxcvbn, s.rules, s.markov[c]! - shift)),
        ),
      );
    // How far each model's guess number is from the rank an attacker with the list in frequency order reaches it at.
    const gaps = (pick: (s: Scored) => number) => {
      const d = scored.map((s) => pick(s) - Math.log10(s.tied)).sort((a, b) => a - b);
      return `median ${d[d.length >> 1]!.toFixed(2)}, quartiles ${d[d.length >> 2]!.toFixed(2)} to ${d[(3 * d.length) >> 2]!.toFixed(2)}`;
    };
    log(
      `${candidate.name}: log10 guesses minus log10 rank: Markov ${gaps((s) => s.markov[c]!)}; zxcvbn-ts ${gaps((s) => s.zxcvbn)}`,
    );
    // Which model gives the fewest guesses, before and after the calibration.
    const decides = (shift: number) => {
      const counts = { zxcvbn: 0, rules: 0, markov: 0 };
      for (const s of scored) {
        const markov = s.markov[c]! - shift;
        counts[s.zxcvbn <= Math.min(s.rules, markov) ? 'zxcvbn' : s.rules <= markov ? 'rules' : 'markov']++;
      }
      return Object.entries(counts)
        .map(([name, count]) => `${name} ${((100 * count) / scored.length).toFixed(1)}%`)
        .join(', ');
    };
    log(
      `${candidate.name}: the fewest guesses are zxcvbn-ts's, the rule model's or the Markov model's: uncalibrated ${decides(0)}; lowered by ${CALIBRATION_LOG10} ${decides(CALIBRATION_LOG10)}`,
    );
  });
  console.log(
    `Validation (npm run bench:validation): ${scored.length} passwords of ranks ${VALIDATION_FIRST_RANK} to ${training.length}, ${FOLDS} folds, each estimated by models built without its fold; weighted Spearman against the tied frequency rank, weights 1/rank.\n`,
  );
  console.log(table(['estimate', 'weighted Spearman, pooled', 'over the folds'], rows));
  const shipped = CANDIDATES.findIndex((candidate) => candidate.exponent === ZIPF_EXPONENT);
  const value = spearman((s) => capped(s, Math.min(s.zxcvbn, s.rules, s.markov[shipped]! - CALIBRATION_LOG10)));
  console.log(
    `\nShipped (bundling/guess-model.ts): Zipf exponent ${ZIPF_EXPONENT}, Markov lowered by ${CALIBRATION_LOG10}: ${value.toFixed(3)}, against plain zxcvbn-ts's ${spearman((s) => s.plain).toFixed(3)}.`,
  );
}

if (require.main === module) void main();
