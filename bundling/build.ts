import { build, type BuildOptions } from 'esbuild';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AUTHORIZER, FUNCTIONS } from '../functions/routes';
import { BUNDLE_ALIASES, BUNDLE_ASSETS, BUNDLE_OPTIONS, PROJECT_ROOT } from './bundling';

export const BUNDLE_DIR = path.join(PROJECT_ROOT, 'dist', 'bundles');

/** Every Lambda bundle by function id: the four functions that serve routes and the authorizer. */
export const BUNDLE_ENTRIES: Record<string, string> = Object.fromEntries(
  [...Object.values(FUNCTIONS), AUTHORIZER].map((f) => [f.id, f.entry]),
);

/** esbuild's options for the bundle of one entry file (relative to the project root): the deploy configuration. */
export function bundleOptions(entry: string): BuildOptions {
  return {
    ...BUNDLE_OPTIONS,
    mainFields: [...BUNDLE_OPTIONS.mainFields],
    banner: { js: BUNDLE_OPTIONS.banner },
    alias: { ...BUNDLE_ALIASES },
    entryPoints: [path.join(PROJECT_ROOT, entry)],
    bundle: true,
    logLevel: 'error',
  };
}

/**
 * Builds every bundle with the deploy configuration (`extra` for the bench's source maps), each with the files it
 * reads beside it (BUNDLE_ASSETS); returns their paths and sizes in bytes, the bundle's and its assets'.
 */
export async function buildBundles(
  outDir = BUNDLE_DIR,
  extra: Pick<BuildOptions, 'sourcemap'> = {},
): Promise<Record<string, { file: string; bytes: number; assetBytes: number }>> {
  await mkdir(outDir, { recursive: true });
  const built: Record<string, { file: string; bytes: number; assetBytes: number }> = {};
  await Promise.all(
    Object.entries(BUNDLE_ENTRIES).map(async ([name, entry]) => {
      const file = path.join(outDir, `${name}.mjs`);
      await build({ ...bundleOptions(entry), ...extra, outfile: file });
      let assetBytes = 0;
      for (const asset of BUNDLE_ASSETS[entry] ?? []) {
        const copy = path.join(outDir, path.basename(asset));
        await copyFile(asset, copy);
        assetBytes += (await stat(copy)).size;
      }
      built[name] = { file, bytes: (await stat(file)).size, assetBytes };
    }),
  );
  return built;
}

/** Imports a built bundle as Lambda would: module scope runs once, with the environment it is given. */
export async function importBundle<M>(file: string, environment: Record<string, string>): Promise<M> {
  // Lambda gives each function its own environment; module scope reads it synchronously at import.
  Object.assign(process.env, environment);
  return (await import(pathToFileURL(file).href)) as M;
}

if (require.main === module) {
  buildBundles().then(
    (built) => {
      for (const [name, { file, bytes }] of Object.entries(built)) {
        console.log(
          `${name.padEnd(18)} ${(bytes / 1024).toFixed(1).padStart(7)} KB  ${path.relative(PROJECT_ROOT, file)}`,
        );
      }
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
