import { BREACHED_PASSWORD_FILTER_BASE64 } from '../functions/domain/evaluation/data/breached-password-filter';
import { BREACHED_PASSWORDS } from '../functions/domain/evaluation/estimate/breached-password-list';
import { readFilter } from '../functions/domain/evaluation/estimate/breached-passwords';
import {
  GUESSABILITY_MAX_LENGTH,
  L33T_MAX_SUBSTITUTIONS,
  type GuessabilityBounds,
} from '../functions/domain/evaluation/estimate/zxcvbn-adapter';
import { guessEstimator } from '../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../functions/domain/evaluation/strength-evaluator';
import type { GuessabilityEstimator } from '../functions/domain/evaluation/estimate/guessability';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { readFileSync } from 'node:fs';
import { DEFAULT_STRENGTH_FILE } from '../seed/seed-data';
import { distribution, median, ratio, type Distribution } from './stats';
import { runContextBench, type ContextBenchResult } from './context-bench';
import { DEFAULT_GENERATOR_FILE } from '../seed/seed-data';

/**
 * The strength evaluation in process: what building the estimator costs (the EvaluatePassword function's
 * init), and what one evaluation costs for ordinary and for adversarial passwords, five ways measured
 * alternately in the same run:
 *
 *   - shipped: zxcvbn-ts bounded (GUESSABILITY_MAX_LENGTH characters, L33T_MAX_SUBSTITUTIONS l33t substitutions),
 *     the pattern checks of pattern-caps.ts, the attack models (estimate/) and the breached-password
 *     filter: what the function does; timed in CPU time too (process.cpuUsage: every thread of the process, so
 *     a concurrent garbage collection counts, but waiting for a core on a shared machine does not);
 *   - without the models: the same without the attack models, so that their cost is the paired difference;
 *   - before: zxcvbn-ts bounded alone, as the function was before the checks against guessing;
 *   - l33t 24: zxcvbn-ts alone with 24 l33t substitutions, the fewest that rate `J3nn1f3r!` as its defaults do
 *     (an approach measured for the l33t gap and not taken);
 *   - defaults: the library's defaults (256, 100), which are why the bounds exist.
 *
 * Then the breached-password filter: its size, the time to decode it (its whole load), and its false-positive
 * rate measured on pseudo-random strings that are in no list.
 */

export interface EvaluationCase {
  readonly name: string;
  readonly characters: number;
  readonly shipped: Distribution;
  /** shipped in CPU time. */
  readonly shippedCpu: Distribution;
  readonly withoutModels: Distribution;
  /** What the attack models add: the median of shipped minus without the models, evaluation by evaluation. */
  readonly modelsMs: number;
  readonly before: Distribution;
  readonly l33t24: Distribution;
  readonly unbounded: Distribution;
  /** unbounded p50 over shipped p50. */
  readonly speedup: number;
}

export interface FilterBenchResult {
  readonly entries: number;
  readonly bytes: number;
  readonly bytesPerEntry: number;
  readonly loadMs: { median: number; runs: number };
  readonly lookupUs: number;
  readonly falsePositives: { found: number; tried: number; rate: number; expected: number };
}

/** One case evaluated in English and in Polish (the most plural forms) alternately: what rendering another language costs. */
export interface LanguageCase {
  readonly name: string;
  readonly english: Distribution;
  readonly polish: Distribution;
  /** The median of the paired differences, Polish minus English. */
  readonly differenceMs: number;
}

export interface EvaluationBenchResult {
  readonly bounds: GuessabilityBounds;
  /** The answer's language (Accept-Language): the typical and common cases in English and in Polish. */
  readonly languages: LanguageCase[];
  readonly buildMs: { bounded: number; runs: number };
  readonly cases: EvaluationCase[];
  /** The level under policy 2 of the l33t examples, per approach. */
  readonly l33tLevels: { password: string; shipped: number; before: number; l33t24: number; unbounded: number }[];
  readonly filter: FilterBenchResult;
  /** The evaluation in context: what UserInputs and BannedWords cost, and how often a term is found by chance. */
  readonly context: ContextBenchResult;
}

/** Printable ASCII in a fixed pseudo-random order: no dictionary word, no keyboard walk, many l33t candidates. */
function printable(length: number): string {
  return Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7919 + 13) % 94))).join('');
}

/** Deterministic pseudo-random printable strings (a linear congruential generator). */
function randomStrings(count: number, length: number, seed: number): string[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  return Array.from({ length: count }, () =>
    Array.from({ length }, () => String.fromCharCode(33 + ((next() >>> 8) % 94))).join(''),
  );
}

const CASES: readonly {
  name: string;
  password: string;
  boundedRuns: number;
  unboundedRuns: number;
  adversarial?: true;
}[] = [
  { name: 'common (Password1!)', password: 'Password1!', boundedRuns: 200, unboundedRuns: 200 },
  { name: 'typical, 16 mixed', password: 'xK9#mQ2$vL8@pW4!', boundedRuns: 200, unboundedRuns: 100 },
  { name: 'passphrase, 28', password: 'correct horse battery staple', boundedRuns: 200, unboundedRuns: 100 },
  { name: 'l33t word (J3nn1f3r!)', password: 'J3nn1f3r!', boundedRuns: 200, unboundedRuns: 100 },
  {
    name: 'adversarial l33t, 16',
    password: '4@3!1|0$5+7'.repeat(2).slice(0, 16),
    boundedRuns: 100,
    unboundedRuns: 20,
    adversarial: true,
  },
  {
    name: 'adversarial: 48 letters, every cut a word',
    password: 'a'.repeat(48),
    boundedRuns: 40,
    unboundedRuns: 5,
    adversarial: true,
  },
  // The rule model's worst found: every cut is word-shaped and reads as l33t, so its reading budget is spent.
  {
    name: 'adversarial: letters and l33t alternating, 48',
    password: 'a!a1a|a7'.repeat(6),
    boundedRuns: 40,
    unboundedRuns: 5,
    adversarial: true,
  },
  {
    name: 'adversarial affixes and l33t, 48',
    password: `12!@${'1|7!'.repeat(10)}!@12`,
    boundedRuns: 40,
    unboundedRuns: 5,
    adversarial: true,
  },
  { name: 'adversarial printable, 64', password: printable(64), boundedRuns: 40, unboundedRuns: 5, adversarial: true },
  {
    name: 'adversarial printable, 256',
    password: printable(256),
    boundedRuns: 40,
    unboundedRuns: 3,
    adversarial: true,
  },
  { name: 'l33t repeated, 256', password: 'p4$$w0rd'.repeat(32), boundedRuns: 40, unboundedRuns: 3, adversarial: true },
  {
    name: 'digits, 256',
    password: '1234567890'.repeat(26).slice(0, 256),
    boundedRuns: 40,
    unboundedRuns: 3,
    adversarial: true,
  },
];

/** The inputs that cost the evaluation most (bench/accuracy.ts times them too). */
export const ADVERSARIAL_CASES = CASES.filter((c) => c.adversarial);

const L33T_EXAMPLES = ['J3nn1f3r!', 'S@v@nn@h1'];
const FALSE_POSITIVE_TRIES = 1_000_000;

function timeMs(call: () => unknown): number {
  const start = process.hrtime.bigint();
  call();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Wall-clock and CPU milliseconds of one call (CPU: the process's user and system time). */
function timeBoth(call: () => unknown): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const wall = timeMs(call);
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

export async function runEvaluationBench(progress: (line: string) => void): Promise<EvaluationBenchResult> {
  const strength = JSON.parse(readFileSync(DEFAULT_STRENGTH_FILE, 'utf8')) as StrengthPolicy[];
  const policy = strength.find((p) => p.PasswordStrengthPolicyID === 1)!;
  const BUILD_RUNS = 5;
  const builds: number[] = [];
  for (let i = 0; i < BUILD_RUNS; i += 1) builds.push(timeMs(() => guessEstimator()));
  const shippedEstimator = guessEstimator();
  const withoutModelsEstimator = guessEstimator(undefined, true, false);
  const approaches: Record<
    'shipped' | 'withoutModels' | 'before' | 'l33t24' | 'unbounded',
    (password: string) => ReturnType<typeof evaluatePassword>
  > = {
    shipped: (password) => evaluatePassword(policy, password, shippedEstimator, BREACHED_PASSWORDS.has(password)),
    withoutModels: (password) =>
      evaluatePassword(policy, password, withoutModelsEstimator, BREACHED_PASSWORDS.has(password)),
    before: withEstimator(guessEstimator(undefined, false)),
    l33t24: withEstimator(guessEstimator({ maxLength: GUESSABILITY_MAX_LENGTH, l33tMaxSubstitutions: 24 }, false)),
    unbounded: withEstimator(guessEstimator({ maxLength: 256, l33tMaxSubstitutions: 100 }, false)),
  };
  function withEstimator(estimator: GuessabilityEstimator) {
    return (password: string) => evaluatePassword(policy, password, estimator);
  }
  // Warm every approach: the first checks compile the matchers.
  for (let i = 0; i < 20; i += 1) for (const evaluate of Object.values(approaches)) evaluate(`warm-Up-${i}!`);

  const cases: EvaluationCase[] = [];
  for (const c of CASES) {
    progress(`  evaluation: ${c.name}`);
    const samples = {
      shipped: [] as number[],
      shippedCpu: [] as number[],
      withoutModels: [] as number[],
      before: [] as number[],
      l33t24: [] as number[],
      unbounded: [] as number[],
    };
    // Alternate them so machine drift falls on all; the slow defaults get fewer runs.
    for (let i = 0; i < c.boundedRuns; i += 1) {
      const { wall, cpu } = timeBoth(() => approaches.shipped(c.password));
      samples.shipped.push(wall);
      samples.shippedCpu.push(cpu);
      for (const name of ['withoutModels', 'before', 'l33t24'] as const)
        samples[name].push(timeMs(() => approaches[name](c.password)));
      if (i < c.unboundedRuns) samples.unbounded.push(timeMs(() => approaches.unbounded(c.password)));
    }
    const [shipped, shippedCpu, withoutModels, before, l33t24, unbounded] = [
      samples.shipped,
      samples.shippedCpu,
      samples.withoutModels,
      samples.before,
      samples.l33t24,
      samples.unbounded,
    ].map(distribution) as Distribution[] as [
      Distribution,
      Distribution,
      Distribution,
      Distribution,
      Distribution,
      Distribution,
    ];
    const modelsMs = median(samples.shipped.map((ms, i) => ms - samples.withoutModels[i]!));
    cases.push({
      name: c.name,
      characters: [...c.password].length,
      shipped,
      shippedCpu,
      withoutModels,
      modelsMs,
      before,
      l33t24,
      unbounded,
      speedup: ratio(unbounded.p50, shipped.p50),
    });
  }

  const languages: LanguageCase[] = [];
  for (const c of CASES.filter((x) => x.name.startsWith('common') || x.name.startsWith('typical'))) {
    progress(`  evaluation: ${c.name} in English and in Polish`);
    const inLanguage = (language: 'en' | 'pl') => () =>
      evaluatePassword(policy, c.password, shippedEstimator, BREACHED_PASSWORDS.has(c.password), [], language);
    const [english, polish] = [[] as number[], [] as number[]];
    for (let i = 0; i < c.boundedRuns; i += 1) {
      english.push(timeMs(inLanguage('en')));
      polish.push(timeMs(inLanguage('pl')));
    }
    languages.push({
      name: c.name,
      english: distribution(english),
      polish: distribution(polish),
      differenceMs: median(polish.map((ms, i) => ms - english[i]!)),
    });
  }

  const policy2 = strength.find((p) => p.PasswordStrengthPolicyID === 2)!;
  const level = (estimator: GuessabilityEstimator, password: string, breached = false) =>
    evaluatePassword(policy2, password, estimator, breached).ComplianceLevel;
  const l33tLevels = L33T_EXAMPLES.map((password) => ({
    password,
    shipped: level(shippedEstimator, password, BREACHED_PASSWORDS.has(password)),
    before: level(guessEstimator(undefined, false), password),
    l33t24: level(guessEstimator({ maxLength: GUESSABILITY_MAX_LENGTH, l33tMaxSubstitutions: 24 }, false), password),
    unbounded: level(guessEstimator({ maxLength: 256, l33tMaxSubstitutions: 100 }, false), password),
  }));

  progress('  evaluation: the breached-password filter');
  const filter = benchFilter();
  const context = runContextBench(strength, JSON.parse(readFileSync(DEFAULT_GENERATOR_FILE, 'utf8')), progress);
  return {
    bounds: { maxLength: GUESSABILITY_MAX_LENGTH, l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS },
    languages,
    buildMs: { bounded: median(builds), runs: BUILD_RUNS },
    cases,
    l33tLevels,
    filter,
    context,
  };
}

function benchFilter(): FilterBenchResult {
  const LOAD_RUNS = 21;
  const loads: number[] = [];
  for (let i = 0; i < LOAD_RUNS; i += 1)
    loads.push(timeMs(() => readFilter(Buffer.from(BREACHED_PASSWORD_FILTER_BASE64, 'base64'))));
  const tries = randomStrings(FALSE_POSITIVE_TRIES, 12, 2026);
  const start = process.hrtime.bigint();
  const found = tries.filter((password) => BREACHED_PASSWORDS.has(password)).length;
  const lookupUs = Number(process.hrtime.bigint() - start) / 1e3 / tries.length;
  return {
    entries: BREACHED_PASSWORDS.entries,
    bytes: BREACHED_PASSWORDS.bytes,
    bytesPerEntry: BREACHED_PASSWORDS.bytes / BREACHED_PASSWORDS.entries,
    loadMs: { median: median(loads), runs: LOAD_RUNS },
    lookupUs,
    falsePositives: { found, tried: tries.length, rate: found / tries.length, expected: 2 ** -16 },
  };
}
