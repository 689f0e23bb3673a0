/**
 * Every file a generator writes is marked generated in .gitattributes (linguist-generated=true, and -diff
 * when it is large data), so a review reads the generator and its input, not its output. The generators are
 * the npm scripts: each is listed below with the committed files it writes (named by the generator's own
 * constant), or with why it writes none, so a new script fails here until it is placed.
 *
 * Run: npx jest test/infrastructure/generated-files
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ACCURACY_MARKDOWN_FILE } from '../../bench/accuracy';
import { LANGUAGES_MARKDOWN_FILE } from '../../bench/languages';
import { HOSTILE_MARKDOWN_FILE } from '../../bench/hostile-bench';
import { MEASURED_BENCH_FILES } from '../../bench/report';
import { FILTER_FILE } from '../../bundling/blocklist';
import { DICTIONARIES_ASSET, PROJECT_ROOT } from '../../bundling/bundling';
import { DICTIONARIES_FILE } from '../../bundling/dictionaries';
import { MODEL_FILE } from '../../bundling/guess-model';
import { CLIENT_TYPES_FILE, OPENAPI_FILE } from '../../docs/openapi';
import { SCREENSHOTS } from '../support/screenshots';

/** The npm scripts that write committed files, and those files. */
const GENERATORS: Record<string, readonly string[]> = {
  // Every file made from the code and the packages alone; the measured figures and the screenshots below are
  // remade by their own commands, as they depend on the machine and a browser.
  generate: [DICTIONARIES_FILE, DICTIONARIES_ASSET, FILTER_FILE, MODEL_FILE, OPENAPI_FILE, CLIENT_TYPES_FILE],
  dictionaries: [DICTIONARIES_FILE, DICTIONARIES_ASSET],
  blocklist: [FILTER_FILE],
  'guess-model': [MODEL_FILE],
  openapi: [OPENAPI_FILE, CLIENT_TYPES_FILE],
  // Each section's figures (report.ts's measuredFiles, the hostile section's own file); its results.json is gitignored.
  bench: [HOSTILE_MARKDOWN_FILE, ...MEASURED_BENCH_FILES].map((file) => path.join(PROJECT_ROOT, file)),
  'bench:accuracy': [path.join(PROJECT_ROOT, ACCURACY_MARKDOWN_FILE)],
  'bench:languages': [path.join(PROJECT_ROOT, LANGUAGES_MARKDOWN_FILE)],
  'docs:screenshot': [SCREENSHOTS.docsPage],
  'report:screenshot': [SCREENSHOTS.policyReport],
};

/** The other npm scripts, and why none writes a committed file. */
const WRITE_NO_COMMITTED_FILE: Record<string, string> = {
  start: 'runs the service',
  test: 'runs the tests',
  build: 'bundles into dist/ (gitignored)',
  synth: 'writes cdk.out/ (gitignored)',
  seed: 'writes to a store',
  typecheck: 'reads only',
  credentials: 'writes to a store',
  soak: 'prints its figures',
  'bench:timing': 'prints its figures',
  docs: 'writes dist/docs/ (gitignored) or a folder given',
  policy: 'writes to a store, or the files an operator names',
  mutation: 'writes reports/ and .stryker-tmp/ (gitignored)',
  'mutation:generator': 'writes reports/ and .stryker-tmp/ (gitignored)',
  'guessing-rates': 'prints its figures',
  'bench:validation': 'prints its figures',
};

it('npm run generate runs each generator of the files made from the code and the packages alone', () => {
  const scripts = (
    JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const run = scripts.generate!.split(' && ').map((step) => step.replace(/^npm run /, ''));
  expect(run.flatMap((script) => GENERATORS[script]!).sort()).toEqual([...GENERATORS.generate!].sort());
});

/** Above this a generated file is large data: -diff too. */
const LARGE_BYTES = 256 * 1024;

/** The attributes git gives each file (git check-attr), as { file: { attribute: value } }. */
function attributes(files: readonly string[], names: readonly string[]): Record<string, Record<string, string>> {
  const relative = files.map((file) => path.relative(PROJECT_ROOT, file).split(path.sep).join('/'));
  const output = execFileSync('git', ['check-attr', ...names, '--', ...relative], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  const found: Record<string, Record<string, string>> = {};
  for (const line of output.trim().split('\n')) {
    const [file, name, value] = line.split(': ');
    (found[file!] ??= {})[name!] = value!;
  }
  return found;
}

const outputs = [...new Set(Object.values(GENERATORS).flat())];

it('every npm script is either a generator with its outputs or says why it writes no committed file', () => {
  const scripts = Object.keys(
    (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts,
  );
  expect([...scripts].sort()).toEqual([...Object.keys(GENERATORS), ...Object.keys(WRITE_NO_COMMITTED_FILE)].sort());
});

it('every output of a generator exists and is marked linguist-generated=true in .gitattributes', () => {
  expect(outputs.filter((file) => !existsSync(file))).toEqual([]);
  const found = attributes(outputs, ['linguist-generated']);
  const unmarked = Object.entries(found)
    .filter(([, attrs]) => attrs['linguist-generated'] !== 'true')
    .map(([file]) => file);
  expect(unmarked).toEqual([]);
  expect(Object.keys(found)).toHaveLength(outputs.length);
});

it('a generated file over 256 KB is large data, marked -diff too', () => {
  const large = outputs.filter((file) => statSync(file).size > LARGE_BYTES);
  expect(large.length).toBeGreaterThan(0);
  const found = attributes(large, ['diff']);
  expect(Object.entries(found).filter(([, attrs]) => attrs.diff !== 'unset')).toEqual([]);
});

it('reads the attributes as git does (the check itself): a hand-written file is not marked', () => {
  const found = attributes(
    [path.join(PROJECT_ROOT, 'package.json'), DICTIONARIES_FILE],
    ['linguist-generated', 'diff'],
  );
  expect(found).toEqual({
    'package.json': { 'linguist-generated': 'unspecified', diff: 'unspecified' },
    'functions/domain/evaluation/data/guessability-dictionaries.ts': { 'linguist-generated': 'true', diff: 'unset' },
  });
});
