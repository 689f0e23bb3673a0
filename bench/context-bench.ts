import { BREACHED_PASSWORDS } from '../functions/domain/evaluation/estimate/breached-password-list';
import type { GeneratorPolicy } from '../functions/domain/generator-policy';
import { guessEstimator } from '../functions/domain/evaluation/estimate/guess-estimator';
import { generatePassword } from '../functions/domain/password-generator';
import { evaluatePassword } from '../functions/domain/evaluation/strength-evaluator';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { WORD_LIST } from '../functions/domain/word-list';
import { ORGANIZATION } from '../testkit/organization-terms';
import { seeded } from '../testkit/seeded-random';
import type { Tabulate } from './measured';
import { distribution, type Distribution } from './stats';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

/**
 * The evaluation in context (docs/evaluation.md#evaluation-in-context), in process, part of the evaluation
 * section of `npm run bench`:
 *
 *   - cost: each password evaluated alternately without context and with 20 UserInputs and 1,000 BannedWords
 *     (the bounds of both), so the difference of the p50s is what the context adds; and adversarial inputs (256
 *     characters, UserInputs of long near-matching tokens) for the p99;
 *   - chance matches: how many of the passwords of the short seed generator policies, random 16-character
 *     passwords and five-word passphrases change level under policy 2 in context, with a realistic context and
 *     with 1,000 common English words banned.
 */

/** A typical evaluation's p50 may rise by at most this much in context (the bound). */
export const CONTEXT_TYPICAL_P50_LIMIT_MS = 1;

interface ContextCostCase {
  readonly name: string;
  readonly characters: number;
  readonly plain: Distribution;
  readonly inContext: Distribution;
}

interface ChanceCase {
  readonly sample: string;
  readonly context: string;
  readonly changed: number;
  readonly failed: number;
  readonly total: number;
}

export interface ContextBenchResult {
  readonly userInputs: number;
  readonly bannedWords: number;
  readonly cases: ContextCostCase[];
  /** The case the p50 target reads. */
  readonly typical: string;
  readonly chance: ChanceCase[];
}

/** 20 UserInputs as an application sends them for one user. */
const USER_INPUTS = [
  'jsmith',
  'John Smith',
  'jsmith@acme.example',
  'john.smith@mail.acme-corp.example',
  'Acme Corporation',
  'E-104729',
  'Finance',
  'Payroll Service',
  'London',
  'Smith, John',
  'J. Smith',
  'Accounts Payable',
  'acme.example',
  'Contoso Ltd',
  'Building 42',
  'Service Desk',
  'Jonathan',
  'Smithy',
  'JSMITH01',
  'acme-payroll',
];
/** 1,000 common English words of 4 to 16 letters (Wikipedia ranks from 5,001): a long list of common words, the worst case for chance matches. */
const COMMON_WORDS = englishDictionary['wikipedia-en']
  .slice(5000)
  .filter((word) => /^[a-z]{4,16}$/.test(word))
  .slice(0, 1000);
/** Printable ASCII in a fixed pseudo-random order. */
const printable = (length: number) =>
  Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7919 + 13) % 94))).join('');
/** UserInputs of the longest tokens that nearly match a run of one letter: the most work per start of the matcher. */
const ADVERSARIAL_INPUTS = Array.from({ length: 20 }, (_, i) =>
  Array.from(
    { length: 4 },
    (_, j) => `${'a'.repeat(62)}${String.fromCharCode(98 + i)}${String.fromCharCode(98 + j)}`,
  ).join('.'),
);

const COST_CASES: readonly { name: string; password: string; userInputs: readonly string[]; runs: number }[] = [
  { name: 'typical, 16 mixed', password: 'xK9#mQ2$vL8@pW4!', userInputs: USER_INPUTS, runs: 800 },
  { name: 'common (Password1!)', password: 'Password1!', userInputs: USER_INPUTS, runs: 300 },
  { name: 'passphrase, 28', password: 'correct horse battery staple', userInputs: USER_INPUTS, runs: 200 },
  { name: 'built on a term (AcmeCorp2026!)', password: 'AcmeCorp2026!', userInputs: USER_INPUTS, runs: 200 },
  { name: 'adversarial printable, 256', password: printable(256), userInputs: USER_INPUTS, runs: 60 },
  {
    name: 'adversarial: 256 a, long near-matching UserInputs',
    password: 'a'.repeat(256),
    userInputs: ADVERSARIAL_INPUTS,
    runs: 60,
  },
  {
    name: 'adversarial: banned words, 256',
    password: COMMON_WORDS.join('').slice(0, 256),
    userInputs: ADVERSARIAL_INPUTS,
    runs: 60,
  },
];

function timeMs(call: () => unknown): number {
  const start = process.hrtime.bigint();
  call();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const CHANCE_SAMPLE = 300;

export function runContextBench(
  strength: readonly StrengthPolicy[],
  generators: readonly GeneratorPolicy[],
  progress: (line: string) => void,
): ContextBenchResult {
  const estimate = guessEstimator();
  const policy1 = strength.find((p) => p.PasswordStrengthPolicyID === 1)!;
  const banned = { ...policy1, BannedWords: COMMON_WORDS };
  const plain = (password: string) => evaluatePassword(policy1, password, estimate, BREACHED_PASSWORDS.has(password));
  const inContext = (password: string, userInputs: readonly string[]) =>
    evaluatePassword(banned, password, estimate, BREACHED_PASSWORDS.has(password), userInputs);
  // Warm both paths: the first evaluations compile the matchers.
  for (let i = 0; i < 100; i += 1) {
    plain(`warm-Up-${i}!`);
    inContext(`warm-Up-${i}!`, USER_INPUTS);
  }

  const cases: ContextCostCase[] = [];
  for (const c of COST_CASES) {
    progress(`  evaluation in context: ${c.name}`);
    const samples = { plain: [] as number[], inContext: [] as number[] };
    // Alternated, so machine drift falls on both.
    for (let i = 0; i < c.runs; i += 1) {
      samples.plain.push(timeMs(() => plain(c.password)));
      samples.inContext.push(timeMs(() => inContext(c.password, c.userInputs)));
    }
    cases.push({
      name: c.name,
      characters: [...c.password].length,
      plain: distribution(samples.plain),
      inContext: distribution(samples.inContext),
    });
  }

  progress('  evaluation in context: chance matches');
  const policy2 = strength.find((p) => p.PasswordStrengthPolicyID === 2)!;
  const random = seeded(2026);
  const samples: { name: string; next: () => string }[] = [
    ...generators
      .filter((g) => g.MinLength >= 11 && g.MinLength < 14)
      .map((g) => ({
        name: `generator policy ${g.PasswordGeneratorID} (${g.MinLength} characters)`,
        next: () => generatePassword(g, WORD_LIST, random),
      })),
    {
      name: 'random 16 printable characters',
      next: () => Array.from({ length: 16 }, () => String.fromCharCode(33 + random.int(94))).join(''),
    },
    {
      name: 'five-word passphrases',
      next: () => Array.from({ length: 5 }, () => WORD_LIST[random.int(WORD_LIST.length)]).join('-'),
    },
  ];
  const contexts = [
    { name: `${ORGANIZATION.length} organization terms`, words: ORGANIZATION },
    { name: `${COMMON_WORDS.length} common English words`, words: COMMON_WORDS },
  ];
  const chance: ChanceCase[] = [];
  for (const sample of samples) {
    const passwords = Array.from({ length: CHANCE_SAMPLE }, sample.next);
    const levels = passwords.map(
      (password) => evaluatePassword(policy2, password, estimate, BREACHED_PASSWORDS.has(password)).ComplianceLevel,
    );
    for (const context of contexts) {
      let changed = 0;
      let failed = 0;
      passwords.forEach((password, i) => {
        const result = evaluatePassword(
          { ...policy2, BannedWords: context.words },
          password,
          estimate,
          BREACHED_PASSWORDS.has(password),
          USER_INPUTS,
        );
        if (result.ComplianceLevel !== levels[i]) changed += 1;
        if (result.Failures.some((f) => f.Rule === 'UserInput' || f.Rule === 'BannedWord')) failed += 1;
      });
      chance.push({
        sample: sample.name,
        context: `${USER_INPUTS.length} UserInputs, ${context.name}`,
        changed,
        failed,
        total: CHANCE_SAMPLE,
      });
    }
  }
  return {
    userInputs: USER_INPUTS.length,
    bannedWords: COMMON_WORDS.length,
    cases,
    typical: COST_CASES[0]!.name,
    chance,
  };
}

/** The figures the targets read: the typical case's p50 difference, and the worst p99 in context. */
export function contextFigures(result: ContextBenchResult): { typicalP50RiseMs: number; worstP99Ms: number } {
  const typical = result.cases.find((c) => c.name === result.typical)!;
  return {
    typicalP50RiseMs: typical.inContext.p50 - typical.plain.p50,
    worstP99Ms: Math.max(...result.cases.map((c) => c.inContext.p99)),
  };
}

export function renderContext(out: string[], result: ContextBenchResult, tabulate: Tabulate): void {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  out.push(
    '',
    `Evaluation in context (policy 1), alternated: without context, and with ${result.userInputs} UserInputs and ${result.bannedWords} BannedWords`,
  );
  out.push(
    tabulate(
      ['password', 'chars', 'plain p50 / p99', 'in context p50 / p99', 'p50 difference'],
      result.cases.map((c) => [
        c.name,
        String(c.characters),
        `${ms(c.plain.p50)} / ${ms(c.plain.p99)}`,
        `${ms(c.inContext.p50)} / ${ms(c.inContext.p99)}`,
        `${c.inContext.p50 >= c.plain.p50 ? '+' : '-'}${ms(Math.abs(c.inContext.p50 - c.plain.p50))}`,
      ]),
    ),
  );
  out.push(
    '',
    `Chance matches under policy 2: passwords whose level changes in context, and those that fail UserInput or BannedWord (${CHANCE_SAMPLE} each, seeded)`,
  );
  out.push(
    tabulate(
      ['sample', 'context', 'level changed', 'failed'],
      result.chance.map((c) => [c.sample, c.context, `${c.changed} of ${c.total}`, `${c.failed} of ${c.total}`]),
    ),
  );
}
