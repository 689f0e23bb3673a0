/**
 * The statistical attack model (docs/guess-numbers.md#the-markov-model): a character 4-gram model of passwords with
 * backoff, and its guess numbers by Monte Carlo estimation (Dell'Amico and Filippone, "Monte Carlo Strength
 * Evaluation: Fast and Reliable Password Checking", ACM CCS 2015).
 *
 * The model reads a password in lower case, one symbol per character (ALPHABET, anything else is OTHER), from
 * N - 1 START symbols to an END symbol. Each symbol's cost is -log2 P(symbol | the N - 1 before it): the
 * longest context whose n-gram the model holds, after the backoff costs of the longer contexts that lack it
 * (Katz's backoff over absolutely discounted counts). The password's cost in bits is the sum.
 *
 * An attacker who tries passwords from the most probable down reaches one of probability p after as many
 * guesses as there are more probable passwords. Sampling n passwords from the model (at build time,
 * bundling/guess-model.ts) estimates that number without listing them: sum over the samples more probable
 * than p of 1 / (n * p_sample). The table of that sum ships with the model; a guess number is one binary
 * search, lowered by the model's calibration (an attacker with more data than the model guesses better). Upper case costs what zxcvbn-ts counts for it (uppercaseVariations): an attacker tries each
 * lower-case guess in the ways people capitalise.
 *
 * Pure: the model's bytes are passed in (the estimator passes the generated markov-model-data.ts), and
 * loading views them in place.
 */

/** The model's order: each symbol is conditioned on the 3 before it. */
export const MARKOV_ORDER = 4;
/** Lower-case letters, digits, the printable ASCII symbols and the space: every key of a US keyboard, unshifted or not, less upper case. */
const ALPHABET = ' !"#$%&\'()*+,-./0123456789:;<=>?@[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
export const START = 0;
export const END = 1;
/** Any character outside ALPHABET (after lower-casing). */
const OTHER = 2 + ALPHABET.length;
/** START, END, the alphabet and OTHER. */
export const SYMBOLS = OTHER + 1;
/** Bits per symbol in a key: SYMBOLS < 2^7. */
const SYMBOL_BITS = 7;
/** Costs are stored in 1/64 bit. */
export const COST_SCALE = 64;

const SYMBOL_OF = new Map([...ALPHABET].map((ch, i) => [ch, i + 2]));

/** The password's symbols: lower case, each character (code point) its ALPHABET index + 2, or OTHER. */
export function symbolsOf(password: string): number[] {
  return [...password.toLowerCase()].map((ch) => SYMBOL_OF.get(ch) ?? OTHER);
}

/**
 * The key of an n-gram (or a context): its length in the top bits, then its symbols, 7 bits each, the last
 * symbol lowest. Lengths 1 to 4 fit in 31 bits.
 */
export function gramKey(symbols: readonly number[], from: number, length: number): number {
  let key = 0;
  for (let i = 0; i < length; i++) key = key * 2 ** SYMBOL_BITS + symbols[from + i]!;
  return length * 2 ** (SYMBOL_BITS * MARKOV_ORDER) + key;
}

/** The model as shipped: sorted n-gram keys with their costs, sorted context keys with their backoff costs, and the Monte Carlo table. */
export interface MarkovModelData {
  /** Little-endian Uint32 n-gram keys, ascending. */
  readonly gramKeys: string;
  /** Little-endian Uint16 costs, -log2 P in 1/64 bit, one per n-gram key. */
  readonly gramCosts: string;
  /** Little-endian Uint32 context keys, ascending: the contexts whose backoff cost is not 0. */
  readonly contextKeys: string;
  /** Little-endian Int16 backoff costs, -log2 alpha in 1/64 bit. */
  readonly contextCosts: string;
  /**
   * The Monte Carlo table: for increasing costs in bits, the log10 of the estimated number of more probable
   * passwords, [bits, log10 guesses] pairs (a reduction of the sorted samples).
   */
  readonly guessTable: readonly (readonly [number, number])[];
  /** How many passwords were sampled for the table. */
  readonly samples: number;
  /**
   * log10 of how many times fewer guesses a real attacker needs than one guessing in this model's order: the
   * table's guess numbers are lowered by it (bundling/guess-model.ts, chosen on the validation folds).
   */
  readonly calibrationLog10: number;
}

export interface MarkovModel {
  /** -log2 of the model's probability of the password in lower case. */
  bits(password: string): number;
  /** log10 of the guesses an attacker needs who tries passwords in the model's order, each in every usual capitalisation. */
  guessesLog10(password: string): number;
  /** The cost in 1/COST_SCALE bit of symbols[at] after the MARKOV_ORDER - 1 symbols before it (the build samples with it). */
  symbolCost(symbols: readonly number[], at: number): number;
  /** n-grams and contexts held, and bytes of the arrays. */
  readonly grams: number;
  readonly contexts: number;
  readonly bytes: number;
}

/** Decodes base64 into its own buffer (aligned for the typed arrays). */
function bytesOf(base64: string): Uint8Array {
  const buffer = Buffer.from(base64, 'base64');
  return buffer.byteOffset % 4 === 0 ? buffer : new Uint8Array(buffer);
}

export function readMarkovModel(data: MarkovModelData): MarkovModel {
  const gramKeyBytes = bytesOf(data.gramKeys);
  const gramCostBytes = bytesOf(data.gramCosts);
  const contextKeyBytes = bytesOf(data.contextKeys);
  const contextCostBytes = bytesOf(data.contextCosts);
  const gramKeys = new Uint32Array(gramKeyBytes.buffer, gramKeyBytes.byteOffset, gramKeyBytes.byteLength / 4);
  const gramCosts = new Uint16Array(gramCostBytes.buffer, gramCostBytes.byteOffset, gramCostBytes.byteLength / 2);
  const contextKeys = new Uint32Array(
    contextKeyBytes.buffer,
    contextKeyBytes.byteOffset,
    contextKeyBytes.byteLength / 4,
  );
  const contextCosts = new Int16Array(
    contextCostBytes.buffer,
    contextCostBytes.byteOffset,
    contextCostBytes.byteLength / 2,
  );
  if (gramKeys.length !== gramCosts.length || contextKeys.length !== contextCosts.length)
    throw new Error("The Markov model's arrays do not match");
  const table = data.guessTable;

  const bits = (password: string): number => {
    const symbols = [...new Array<number>(MARKOV_ORDER - 1).fill(START), ...symbolsOf(password), END];
    let cost = 0;
    for (let at = MARKOV_ORDER - 1; at < symbols.length; at++) cost += symbolCost(symbols, at);
    return cost / COST_SCALE;
  };

  /** The cost of symbols[at] after the MARKOV_ORDER - 1 before it, backing off to shorter contexts. */
  function symbolCost(symbols: readonly number[], at: number): number {
    let backoff = 0;
    for (let length = MARKOV_ORDER; length >= 1; length--) {
      const gram = indexOf(gramKeys, gramKey(symbols, at - length + 1, length));
      if (gram >= 0) return backoff + gramCosts[gram]!;
      if (length > 1) {
        const context = indexOf(contextKeys, gramKey(symbols, at - length + 1, length - 1));
        if (context >= 0) backoff += contextCosts[context]!;
      }
    }
    // Every symbol but START has a unigram (add-one smoothing); START is never predicted.
    throw new Error('The Markov model has no unigram for a symbol');
  }

  const guessesLog10 = (password: string): number => {
    const b = bits(password);
    return Math.max(0, monteCarloLog10(table, b) - data.calibrationLog10) + Math.log10(uppercaseVariations(password));
  };

  return {
    bits,
    guessesLog10,
    symbolCost,
    grams: gramKeys.length,
    contexts: contextKeys.length,
    bytes:
      gramKeyBytes.byteLength + gramCostBytes.byteLength + contextKeyBytes.byteLength + contextCostBytes.byteLength,
  };
}

/** Binary search in an ascending Uint32Array: the index of key, or -1. */
function indexOf(keys: Uint32Array, key: number): number {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = keys[mid]!;
    if (value === key) return mid;
    if (value < key) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * log10 of the estimated guesses before a password of this cost: the table's value, linear between its
 * points (at a point's own cost, the first such point: samples of equal probability are not more probable); past
 * the last, each further bit doubles the count (an attacker who has gone through every password the samples
 * stand for goes on in the same order). Before the first point (the most probable sample), its value.
 */
export function monteCarloLog10(table: readonly (readonly [number, number])[], bits: number): number {
  const first = table[0]!;
  const last = table[table.length - 1]!;
  if (bits <= first[0]) return first[1];
  if (bits > last[0]) return last[1] + (bits - last[0]) * Math.log10(2);
  // The first point at least as costly: the samples before it are the more probable ones.
  let low = 0;
  let high = table.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (table[mid]![0] < bits) low = mid + 1;
    else high = mid;
  }
  const [b1, g1] = table[high]!;
  const [b0, g0] = table[high - 1]!;
  if (b1 === bits) return g1;
  return g0 + ((bits - b0) / (b1 - b0)) * (g1 - g0);
}

/**
 * zxcvbn's count of capitalisations of the letters of a word with this case (uppercaseVariations): 1 all lower
 * case; 2 when only the first or the last letter is upper case or all are; else the ways to choose that many
 * upper-case letters, up to the smaller of the two counts.
 */
export function uppercaseVariations(text: string): number {
  let upper = 0;
  let lower = 0;
  for (const ch of text) {
    if (ch !== ch.toLowerCase()) upper++;
    else if (ch !== ch.toUpperCase()) lower++;
  }
  if (upper === 0) return 1;
  const letters = [...text].filter((ch) => ch.toLowerCase() !== ch.toUpperCase());
  const isUpper = (ch: string) => ch !== ch.toLowerCase();
  if (lower === 0 || (upper === 1 && (isUpper(letters[0]!) || isUpper(letters[letters.length - 1]!)))) return 2;
  let variations = 0;
  for (let i = 1; i <= Math.min(upper, lower); i++) variations += binomial(upper + lower, i);
  return variations;
}

export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) result = (result * (n - i + 1)) / i;
  return result;
}
