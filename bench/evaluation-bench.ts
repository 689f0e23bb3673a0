import { GUESSABILITY_MAX_LENGTH, L33T_MAX_SUBSTITUTIONS, zxcvbnEstimator } from '../functions/domain/guessability';
import { evaluatePassword } from '../functions/domain/strength-evaluator';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { readFileSync } from 'node:fs';
import { DEFAULT_STRENGTH_FILE } from '../seed/seed-data';
import { distribution, median, ratio, type Distribution } from './stats';

/**
 * The strength evaluation in process: what building the estimator costs (the EvaluatePassword function's
 * init), and what one evaluation costs for ordinary and for adversarial passwords, with our zxcvbn bounds
 * (GUESSABILITY_MAX_LENGTH characters, L33T_MAX_SUBSTITUTIONS l33t substitutions) against the library's defaults (256, 100) measured
 * alternately in the same run. The defaults are why the bounds exist: a 256-character password must not
 * cost seconds of CPU.
 */

export interface EvaluationCase {
  readonly name: string;
  readonly characters: number;
  readonly bounded: Distribution;
  readonly unbounded: Distribution;
  /** unbounded p50 over bounded p50. */
  readonly speedup: number;
}

export interface EvaluationBenchResult {
  readonly bounds: { maxLength: number; l33tMaxSubstitutions: number };
  readonly buildMs: { bounded: number; runs: number };
  readonly cases: EvaluationCase[];
}

/** Printable ASCII in a fixed pseudo-random order: no dictionary word, no keyboard walk, many l33t candidates. */
function printable(length: number): string {
  return Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7919 + 13) % 94))).join('');
}

const CASES: readonly { name: string; password: string; boundedRuns: number; unboundedRuns: number }[] = [
  { name: 'common (Password1!)', password: 'Password1!', boundedRuns: 200, unboundedRuns: 200 },
  { name: 'typical, 16 mixed', password: 'xK9#mQ2$vL8@pW4!', boundedRuns: 200, unboundedRuns: 100 },
  { name: 'passphrase, 28', password: 'correct horse battery staple', boundedRuns: 200, unboundedRuns: 100 },
  { name: 'adversarial printable, 64', password: printable(64), boundedRuns: 40, unboundedRuns: 5 },
  { name: 'adversarial printable, 256', password: printable(256), boundedRuns: 40, unboundedRuns: 3 },
  { name: 'l33t repeated, 256', password: 'p4$$w0rd'.repeat(32), boundedRuns: 40, unboundedRuns: 3 },
  { name: 'digits, 256', password: '1234567890'.repeat(26).slice(0, 256), boundedRuns: 40, unboundedRuns: 3 },
];

function timeMs(call: () => unknown): number {
  const start = process.hrtime.bigint();
  call();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function runEvaluationBench(progress: (line: string) => void): Promise<EvaluationBenchResult> {
  const policy = (JSON.parse(readFileSync(DEFAULT_STRENGTH_FILE, 'utf8')) as StrengthPolicy[]).find((p) => p.PasswordStrengthPolicyID === 1)!;
  const BUILD_RUNS = 5;
  const builds: number[] = [];
  for (let i = 0; i < BUILD_RUNS; i += 1) builds.push(timeMs(() => zxcvbnEstimator()));
  const bounded = zxcvbnEstimator();
  const unbounded = zxcvbnEstimator({ maxLength: 256, l33tMaxSubstitutions: 100 });
  // Warm both: the first checks compile the matchers.
  for (let i = 0; i < 20; i += 1) for (const estimator of [bounded, unbounded]) evaluatePassword(policy, `warm-Up-${i}!`, estimator);

  const cases: EvaluationCase[] = [];
  for (const c of CASES) {
    progress(`  evaluation: ${c.name}`);
    const withBounds: number[] = [];
    const withDefaults: number[] = [];
    // Alternate the two so machine drift falls on both; the slow defaults get fewer runs.
    for (let i = 0; i < c.boundedRuns; i += 1) {
      withBounds.push(timeMs(() => evaluatePassword(policy, c.password, bounded)));
      if (i < c.unboundedRuns) withDefaults.push(timeMs(() => evaluatePassword(policy, c.password, unbounded)));
    }
    const b = distribution(withBounds);
    const u = distribution(withDefaults);
    cases.push({ name: c.name, characters: [...c.password].length, bounded: b, unbounded: u, speedup: ratio(u.p50, b.p50) });
  }
  return { bounds: { maxLength: GUESSABILITY_MAX_LENGTH, l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS }, buildMs: { bounded: median(builds), runs: BUILD_RUNS }, cases };
}
