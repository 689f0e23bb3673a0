import path from 'node:path';
import { BUNDLE_ENTRIES, buildBundles } from '../bundling/build';
import { PROJECT_ROOT } from '../bundling/bundling';

/** The name of the reference bundle the functions' cold starts are compared with. */
export const HELLO_WORLD = 'HelloWorld';

export type BuiltBundles = Record<string, { file: string; bytes: number }>;

/**
 * Builds every Lambda bundle with buildBundles (the deploy esbuild options) into `outDir`, plus the
 * hello-world reference: its entry is added to BUNDLE_ENTRIES for the duration of this one call, so it is
 * built by the very same code with the very same options, whatever those become.
 */
export async function buildBenchBundles(outDir: string): Promise<BuiltBundles> {
  BUNDLE_ENTRIES[HELLO_WORLD] = path.relative(PROJECT_ROOT, path.join(__dirname, 'hello-world.ts'));
  try {
    return await buildBundles(outDir);
  } finally {
    delete BUNDLE_ENTRIES[HELLO_WORLD];
  }
}
