import path from 'node:path';
import { BUNDLE_ENTRIES, buildBundles } from '../bundling/build';
import { PROJECT_ROOT } from '../bundling/bundling';

/** The reference bundles the functions' cold starts are compared with, by name. */
export const REFERENCES = {
  /** The SDK's paginateScan and JSON.stringify: the listing functions' job and nothing else. */
  minimalScan: 'MinimalScan',
  /** One GetItem and an Allow: the authorizer's core and nothing else. */
  minimalGetItem: 'MinimalGetItem',
  /** A constant answer: Node.js's own start, for information. */
  helloWorld: 'HelloWorld',
  /** The breached-password filter's load and one lookup: its share of EvaluatePassword's cold start, for information. */
  breachedFilter: 'BreachedFilterOnly',
} as const;

const REFERENCE_ENTRIES: Record<string, string> = {
  [REFERENCES.minimalScan]: 'minimal-scan.ts',
  [REFERENCES.minimalGetItem]: 'minimal-get-item.ts',
  [REFERENCES.helloWorld]: 'hello-world.ts',
  [REFERENCES.breachedFilter]: 'breached-filter-only.ts',
};

export const isReference = (name: string): boolean => name in REFERENCE_ENTRIES;

/** Each bundle's file and size, and the size of the files it reads beside it (BUNDLE_ASSETS). */
export type BuiltBundles = Record<string, { file: string; bytes: number; assetBytes: number }>;

/**
 * Builds every Lambda bundle with buildBundles (the deploy esbuild options) into `outDir`, plus the
 * references: their entries are added to BUNDLE_ENTRIES for the duration of this one call, so they are
 * built by the very same code with the very same options, whatever those become. `sourcemap` adds a map
 * beside each bundle (the cold-start profile reads it; the code is the same).
 */
export async function buildBenchBundles(outDir: string, sourcemap = false): Promise<BuiltBundles> {
  for (const [name, file] of Object.entries(REFERENCE_ENTRIES))
    BUNDLE_ENTRIES[name] = path.relative(PROJECT_ROOT, path.join(__dirname, file));
  try {
    return await buildBundles(outDir, sourcemap ? { sourcemap: 'external' } : {});
  } finally {
    for (const name of Object.keys(REFERENCE_ENTRIES)) delete BUNDLE_ENTRIES[name];
  }
}
