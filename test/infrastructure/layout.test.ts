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

const SOURCE_FOLDERS = ['functions', 'bundling', 'lib', 'bin', 'local', 'admin', 'seed', 'store', 'cli', 'docs', 'bench', 'examples'];

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
  'functions/http': ['functions/runtime'],
  'functions/routes': ['functions/repositories', 'functions/domain', 'functions/runtime'],
  'functions/api': ['functions/api', 'functions/domain', 'functions/repositories', 'functions/http', 'functions/runtime', 'functions/routes'],
  bundling: ['bundling', 'functions'],
  // The stack deploys policy 1 of the seed files (store/seed-files.ts names them).
  lib: ['lib', 'functions', 'bundling', 'store'],
  bin: ['lib'],
  // The local gateway serves the docs page.
  local: ['local', 'functions', 'bundling', 'seed', 'store', 'docs'],
  // What admin/, seed/ and local/ share of the store, below all three: table creation, versioned writes, the seed files.
  store: ['store', 'functions'],
  // The operator CLIs' scaffold and how they reach AWS, below admin/ and seed/.
  cli: ['cli'],
  admin: ['admin', 'functions', 'store', 'cli'],
  // The seed loader writes through store/ (versions and history), never through admin/.
  seed: ['seed', 'functions', 'store', 'cli'],
  // The API description takes its examples from the seed files (store/seed-files.ts).
  docs: ['docs', 'functions', 'store'],
  bench: ['bench', 'functions', 'bundling', 'local', 'seed', 'store', 'test/support'],
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

  it.each(Object.keys(MAY_IMPORT))('%s imports only from what lies below it', (part) => {
    const allowed = MAY_IMPORT[part]!;
    const upward = files
      .filter((file) => partOf(file) === part)
      .flatMap((file) => importsOf(file).map((target) => ({ file, target })))
      .filter(({ target }) => !allowed.some((a) => target === a || target.startsWith(`${a}${path.sep}`) || target === `${a}.ts`))
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

/** The files of ours in a function's bundle, as esbuild resolves them with the deploy configuration. */
async function bundledFiles(entry: string): Promise<string[]> {
  const result = await build({ ...bundleOptions(entry), write: false, metafile: true, outfile: 'bundle.mjs' });
  return Object.keys(result.metafile.inputs)
    .filter((input) => input.startsWith('functions/'))
    .sort();
}

describe('one request reads in at most six files of ours per side', () => {
  it.each([
    [
      'a list or search of generator policies: entry, repository, collection, schema, HTTP, runtime',
      FUNCTIONS.generatorPolicies.entry,
      ['api/generator-policies.ts', 'domain/generator-policy.ts', 'domain/policy-collection.ts', 'http.ts', 'repositories/policies.ts', 'runtime.ts'],
    ],
    [
      'a list or search of strength policies: the same six, with the strength schema',
      FUNCTIONS.strengthPolicies.entry,
      ['api/strength-policies.ts', 'domain/policy-collection.ts', 'domain/strength-policy.ts', 'http.ts', 'repositories/policies.ts', 'runtime.ts'],
    ],
    [
      'the authorizer: entry, route table, key format, credentials repository, HTTP, runtime',
      AUTHORIZER.entry,
      ['api/authorizer.ts', 'domain/api-key.ts', 'http.ts', 'repositories/credentials.ts', 'routes.ts', 'runtime.ts'],
    ],
  ])('%s', async (_, entry, files) => {
    expect(await bundledFiles(entry)).toEqual(files.map((file) => `functions/${file}`));
  }, 30_000);
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
