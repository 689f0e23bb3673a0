/**
 * The layout as a contract (docs/architecture.md#layout): every import points down, and one request reads
 * in a handful of files. Both are read off the code itself: the imports of every source file, and the
 * inputs esbuild puts in each function's bundle.
 */
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { bundleOptions } from '../../bundling/build';
import { PROJECT_ROOT } from '../../bundling/bundling';
import { AUTHORIZER, FUNCTIONS } from '../../functions/routes';

const SOURCE_FOLDERS = [
  'functions',
  'bundling',
  'lib',
  'bin',
  'embedded-store',
  'local',
  'admin',
  'seed',
  'store',
  'cli',
  'docs',
  'bench',
  'testkit',
  'examples',
];

/** Every .ts file below a project folder, relative to the project root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(PROJECT_ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(PROJECT_ROOT, path.join(entry.parentPath, entry.name)));
}

/** The project files a file imports (import ... from, import type, require), relative to the project root. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((s) => path.relative(PROJECT_ROOT, path.resolve(PROJECT_ROOT, path.dirname(file), s)));
}

/** Where each part of the project may import from: anything not listed is an arrow pointing the wrong way. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'functions/domain': ['functions/domain'],
  'functions/repositories': ['functions/repositories', 'functions/domain', 'functions/runtime'],
  'functions/runtime': [],
  // The key format, so that a key pasted as a parameter name is never echoed; the scanner of names given twice in a body.
  'functions/http': ['functions/runtime', 'functions/domain/api-key', 'functions/domain/json-text'],
  // Types only: the route table is data, bundled into the authorizer and read by both gateways.
  'functions/routes': ['functions/repositories/tables', 'functions/domain'],
  // The entry files know all of functions/.
  'functions/api': ['functions'],
  bundling: ['bundling', 'functions'],
  // The stack deploys policy 1 of the seed files (store/seed-files.ts names them).
  lib: ['lib', 'functions', 'bundling', 'store'],
  bin: ['lib'],
  // The DynamoDB stand-in of the local run and the tests (dynalite with TransactWriteItems): nothing of ours.
  'embedded-store': ['embedded-store'],
  // The local gateway runs the functions as the stack deploys them (lib/deployment.ts), and serves the docs page,
  // which is docs/'s own product as the bundles are bundling/'s: docs/docs-page.ts lists the page's files and the
  // document's path and imports nothing of local/, so the arrow points down (moved into local/, the list would
  // make npm run docs import the gateway).
  local: [
    'local',
    'functions',
    'bundling',
    'embedded-store',
    'seed',
    'store',
    'docs/docs-page',
    'lib/deployment',
    'lib/gateway-contract',
  ],
  // What admin/, seed/ and local/ share of the store, below all three: table creation, versioned writes, the seed files.
  store: ['store', 'functions'],
  // The operator CLIs' scaffold and how they reach AWS, below admin/ and seed/; the default stack is
  // lib/deployment.ts's, a local store's client settings the functions' own (functions/runtime.ts), and
  // npm start's store file the one local/ writes (store/local-store-file.ts).
  cli: ['cli', 'functions', 'lib/deployment', 'store/local-store-file'],
  // The credentials and policy CLIs read the stack's outputs and usage plans (lib/deployment.ts), no CDK code.
  admin: ['admin', 'functions', 'store', 'cli', 'lib/deployment'],
  // The seed loader writes through store/ (versions and history), never through admin/; its usage names a stack output.
  seed: ['seed', 'functions', 'store', 'cli', 'lib/deployment'],
  // The API description takes its examples from the seed files (store/seed-files.ts).
  docs: ['docs', 'functions', 'store', 'lib/gateway-contract'],
  // The bench builds the stack in memory to run each function with its deployed environment (bench/deployed-environment.ts).
  bench: ['bench', 'functions', 'bundling', 'embedded-store', 'lib', 'local', 'seed', 'store', 'testkit'],
  // What the tests and the bench share (a seeded random source, policy fixtures, the remembering estimator),
  // below both: the bench may not import test/, and a test may import anything.
  testkit: ['testkit', 'functions'],
  // An integrator's program: the types generated from the API description, nothing of the service.
  examples: ['examples'],
};

/** The part of the project a file belongs to: a folder of functions/ (or one of its files), else a top folder. */
function partOf(file: string): string {
  const [top, second] = file.split(path.sep);
  if (top !== 'functions') return top!;
  return second!.endsWith('.ts') ? `functions/${second!.slice(0, -3)}` : `functions/${second}`;
}

describe('every import points down', () => {
  const files = SOURCE_FOLDERS.flatMap(sourceFiles);

  it('reads the source files of every folder', () => {
    expect(files.length).toBeGreaterThan(50);
    for (const folder of SOURCE_FOLDERS) expect(files.some((f) => f.startsWith(`${folder}${path.sep}`))).toBe(true);
  });

  it('every top folder of source is one the import rules name, and no source file shares its name with another', () => {
    const topFolders = readdirSync(PROJECT_ROOT, { withFileTypes: true })
      .filter(
        (entry) =>
          entry.isDirectory() &&
          !['node_modules', 'test', 'mutation', 'cdk.out', 'dist', 'seed-data'].includes(entry.name) &&
          !entry.name.startsWith('.'),
      )
      .filter((entry) => sourceFiles(entry.name).length > 0)
      .map((entry) => entry.name);
    expect(topFolders.sort()).toEqual([...SOURCE_FOLDERS].sort());
    // A name says what a file is; two files of one name (three credentials.ts once) make every import and
    // stack trace ambiguous. The same among the tests, each named for what it tests (authorizer.test.ts).
    const repeated = (list: string[]) => list.filter((name, i) => list.indexOf(name) !== i);
    expect(repeated(files.map((f) => path.basename(f, '.ts')))).toEqual([]);
    expect(repeated(sourceFiles('test').map((f) => path.basename(f)))).toEqual([]);
  });

  it("local/ stays a thin adapter of at most 950 lines as Biome formats it (API Gateway's answers are the gateway contract's)", () => {
    const lines = sourceFiles('local').reduce(
      (sum, f) => sum + readFileSync(path.join(PROJECT_ROOT, f), 'utf8').split('\n').length - 1,
      0,
    );
    expect(lines).toBeLessThanOrEqual(950);
  });

  it.each(Object.keys(MAY_IMPORT))('%s imports only from what lies below it', (part) => {
    const allowed = MAY_IMPORT[part]!;
    const upward = files
      .filter((file) => partOf(file) === part)
      .flatMap((file) => importsOf(file).map((target) => ({ file, target })))
      .filter(
        ({ target }) =>
          !allowed.some((a) => target === a || target.startsWith(`${a}${path.sep}`) || target === `${a}.ts`),
      )
      .map(({ file, target }) => `${file} -> ${target}`);
    expect(upward).toEqual([]);
  });

  it('catches an upward import (the check itself)', () => {
    expect(importsOf(path.join('functions', 'api', 'authorizer.ts'))).toContain(path.join('functions', 'routes'));
    expect(partOf(path.join('functions', 'domain', 'api-key.ts'))).toBe('functions/domain');
    expect(partOf(path.join('functions', 'http.ts'))).toBe('functions/http');
    expect(MAY_IMPORT['functions/domain']).not.toContain('functions/http');
  });
});

/** The layers of the evaluation (functions/domain/evaluation/index.ts): what each folder of it may import of it. */
const EVALUATION = path.join('functions', 'domain', 'evaluation');
const EVALUATION_MAY_IMPORT: Record<string, readonly string[]> = {
  data: [],
  text: ['text'],
  messages: ['messages'],
  estimate: ['estimate', 'text', 'data', 'messages'],
  context: ['context', 'estimate', 'text', 'messages'],
  '.': ['.', 'context', 'estimate', 'text', 'data', 'messages'],
};
/** The layer of a file of the evaluation: its folder below evaluation/, or '.' for the entry and the evaluator. */
const layerOf = (file: string) => path.dirname(path.relative(EVALUATION, file)).split(path.sep)[0] ?? '.';
const inEvaluation = (file: string) => file.startsWith(`${EVALUATION}${path.sep}`) || file === EVALUATION;

describe('the evaluation: one entry, and imports that point down inside it', () => {
  const files = SOURCE_FOLDERS.flatMap(sourceFiles);
  const evaluation = files.filter(inEvaluation);

  it("holds the evaluation's files, each in a layer the rules name", () => {
    expect(evaluation.length).toBeGreaterThan(15);
    expect([...new Set(evaluation.map(layerOf))].sort()).toEqual(Object.keys(EVALUATION_MAY_IMPORT).sort());
  });

  it.each(Object.keys(EVALUATION_MAY_IMPORT))(
    'evaluation/%s imports of the evaluation only the layers below it',
    (layer) => {
      const allowed = EVALUATION_MAY_IMPORT[layer]!;
      const upward = evaluation
        .filter((file) => layerOf(file) === layer)
        .flatMap((file) => importsOf(file).map((target) => ({ file, target })))
        .filter(({ target }) => (inEvaluation(target) ? !allowed.includes(layerOf(`${target}.ts`)) : layer === 'data'))
        .map(({ file, target }) => `${file} -> ${target}`);
      expect(upward).toEqual([]);
    },
  );

  it("the service's code outside it imports only its two entries; the rest of functions/domain nothing of it", () => {
    // The build scripts that write data/ (bundling/), the benches and the tests (and testkit/, what they share) may reach inside.
    const service = files.filter(
      (file) => !inEvaluation(file) && !['bundling', 'bench', 'testkit'].includes(file.split(path.sep)[0]!),
    );
    const reached = service.flatMap((file) =>
      importsOf(file)
        .filter(inEvaluation)
        .map((target) => `${file} -> ${target}`),
    );
    // Two entries: the rules and bounds (index.ts), and the estimator with its generated data (estimator.ts).
    const entries = [` -> ${EVALUATION}`, ` -> ${path.join(EVALUATION, 'estimator')}`];
    expect(reached.filter((edge) => !entries.some((entry) => edge.endsWith(entry)))).toEqual([]);
    expect(reached.filter((edge) => edge.startsWith(`functions${path.sep}domain${path.sep}`))).toEqual([]);
    expect(reached.length).toBeGreaterThan(3);
  });
});

/** The module a resolved import names: the file itself without its extension, or the folder's index. */
function moduleOf(target: string, known: ReadonlySet<string>): string | undefined {
  const bare = target.replace(/\.(ts|js|cjs)$/, '');
  return [bare, path.join(bare, 'index')].find((candidate) => known.has(candidate));
}

/** The import graph of `files`: each module (a file without its extension) and the modules it imports, type-only imports included. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files.map((f) => f.replace(/\.(ts|js|cjs)$/, '')));
  const edges = new Map([...known].map((m) => [m, [] as string[]]));
  for (const file of files) {
    const targets = importsOf(file).map((target) => moduleOf(target, known));
    edges.get(file.replace(/\.(ts|js|cjs)$/, ''))!.push(...targets.filter((t): t is string => t !== undefined));
  }
  return edges;
}

/** Every cycle of a graph, each once, starting from its least module. */
function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const done = new Set<string>();
  // A depth-first search from each module, keeping the path: an edge back into the path closes a cycle.
  const visit = (module: string, trail: string[], onTrail: Set<string>) => {
    if (onTrail.has(module)) {
      const cycle = trail.slice(trail.indexOf(module));
      const least = cycle.indexOf([...cycle].sort()[0]!);
      const rotated = [...cycle.slice(least), ...cycle.slice(0, least)];
      cycles.set(rotated.join(' -> '), rotated);
      return;
    }
    if (done.has(module)) return;
    trail.push(module);
    onTrail.add(module);
    for (const next of edges.get(module) ?? []) visit(next, trail, onTrail);
    trail.pop();
    onTrail.delete(module);
    done.add(module);
  };
  for (const module of [...edges.keys()].sort()) visit(module, [], new Set());
  return [...cycles.values()];
}

describe('no import cycle anywhere in the repository', () => {
  it('finds the cycles that are there, and only those (the check itself)', () => {
    const graph = new Map([
      ['d', ['a']],
      ['a', ['b']],
      ['b', ['c', 'e']],
      ['c', ['a']],
      ['e', ['e']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
    const evaluator = path.join('functions', 'domain', 'evaluation', 'strength-evaluator.ts');
    expect(importGraph([evaluator, path.join(EVALUATION, 'index.ts')]).get(path.join(EVALUATION, 'index'))).toEqual([
      evaluator.replace(/\.ts$/, ''),
    ]);
  });

  it('no source or test file reaches itself through its imports, type-only ones included', () => {
    const files = [...SOURCE_FOLDERS, 'test'].flatMap(sourceFiles);
    expect(cyclesOf(importGraph(files)).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });
});

/**
 * The files of ours whose code is in a function's bundle, as esbuild builds it with the deploy configuration:
 * the bundle's own inputs, not every file esbuild read (a module imported but tree-shaken out entirely, as the
 * JSON body's name scanner is from the bundles that read no body, adds no byte).
 */
async function bundledFiles(entry: string): Promise<string[]> {
  const result = await build({ ...bundleOptions(entry), write: false, metafile: true, outfile: 'bundle.mjs' });
  const bundle = Object.values(result.metafile.outputs).find((output) => output.entryPoint !== undefined)!;
  return Object.entries(bundle.inputs)
    .filter(([input, { bytesInOutput }]) => input.startsWith('functions/') && bytesInOutput > 0)
    .map(([input]) => input)
    .sort();
}

describe('one request reads in a handful of files of ours per side', () => {
  it.each([
    [
      'a list or search of generator policies: a one-line entry naming its collection, the listing handler, schema, collection, key format, HTTP, repository, runtime',
      FUNCTIONS.generatorPolicies.entry,
      [
        'api/generator-policies.ts',
        'api/policy-listing.ts',
        'domain/api-key.ts',
        'domain/generator-policy.ts',
        'domain/policy-collection.ts',
        'http.ts',
        'repositories/policies.ts',
        'runtime.ts',
      ],
    ],
    [
      'a list or search of strength policies: the same, with the strength schema, the names of its levels and the text rules of its BannedWords',
      FUNCTIONS.strengthPolicies.entry,
      [
        'api/policy-listing.ts',
        'api/strength-policies.ts',
        'domain/api-key.ts',
        'domain/compliance-levels.ts',
        'domain/policy-collection.ts',
        'domain/strength-policy.ts',
        'domain/unicode-text.ts',
        'http.ts',
        'repositories/policies.ts',
        'runtime.ts',
      ],
    ],
    [
      'the authorizer: entry, route table, key format, credentials repository, HTTP, runtime',
      AUTHORIZER.entry,
      ['api/authorizer.ts', 'domain/api-key.ts', 'http.ts', 'repositories/credentials.ts', 'routes.ts', 'runtime.ts'],
    ],
  ])(
    '%s',
    async (_, entry, files) => {
      expect(await bundledFiles(entry)).toEqual(files.map((file) => `functions/${file}`));
    },
    30_000,
  );

  it('the two listing functions are one handler: each entry file is its collection given to policyListHandler, and nothing else', () => {
    for (const [fn, resource] of [
      [FUNCTIONS.generatorPolicies, 'generatorPolicies'],
      [FUNCTIONS.strengthPolicies, 'strengthPolicies'],
    ] as const) {
      const statements = readFileSync(path.join(PROJECT_ROOT, fn.entry), 'utf8')
        .replace(/\/\*\*[\s\S]*?\*\//g, '')
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.startsWith('import '));
      expect(statements).toEqual([`export const handler = policyListHandler(${resource});`]);
    }
  });
});

describe('the plain-data files of lib/ (deployment settings, the gateway contract) are what others read of it', () => {
  const PLAIN_DATA = [path.join('lib', 'deployment'), path.join('lib', 'gateway-contract')];

  it.each(PLAIN_DATA)(
    '%s.ts imports no CDK code, only functions/ (so local/, docs/ and the CLIs may read it)',
    (file) => {
      const text = readFileSync(path.join(PROJECT_ROOT, `${file}.ts`), 'utf8');
      expect(text).not.toMatch(/from '(aws-cdk-lib|constructs)/);
      expect(importsOf(`${file}.ts`).every((target) => target.startsWith(`functions${path.sep}`))).toBe(true);
    },
  );

  it('local/, admin/, cli/, seed/ and docs/ import nothing of lib/ but those files', () => {
    const reached = SOURCE_FOLDERS.flatMap(sourceFiles)
      .filter((f) => ['local', 'admin', 'cli', 'seed', 'docs'].includes(partOf(f)))
      .flatMap(importsOf)
      .filter((target) => target.startsWith(`lib${path.sep}`));
    expect([...new Set(reached)].sort()).toEqual(PLAIN_DATA);
  });
});

describe('the Pwned Passwords client is in the one bundle that uses it', () => {
  it('EvaluatePassword bundles functions/repositories/pwned-passwords.ts; no other function does (the route table does not reach it)', async () => {
    const carrying: string[] = [];
    for (const fn of [...Object.values(FUNCTIONS), AUTHORIZER]) {
      if ((await bundledFiles(fn.entry)).includes('functions/repositories/pwned-passwords.ts')) carrying.push(fn.id);
    }
    expect(carrying).toEqual(['EvaluatePassword']);
  }, 60_000);
});
