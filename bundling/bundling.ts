import path from 'node:path';
import { FUNCTIONS } from '../functions/routes';

/**
 * The one esbuild configuration of every Lambda bundle: the stack's NodejsFunction uses it, and the local
 * gateway builds the same bundles with it, so what runs locally is what deploys.
 */

/** The project root: entry files (functions/routes.ts names them from here) and the lockfile are resolved from it. */
export const PROJECT_ROOT = path.resolve(__dirname, '..');

const LAMBDA_NODE_TARGET = 'node22';

/**
 * Modules replaced inside the bundles: the SDK's default credential chain becomes the environment-only
 * provider, the one source Lambda uses (sdk-credentials-from-env.ts says why).
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': path.join(__dirname, 'sdk-credentials-from-env.ts'),
};

export const BUNDLE_OPTIONS = {
  format: 'esm',
  platform: 'node',
  target: LAMBDA_NODE_TARGET,
  minify: true,
  sourcemap: false,
  // Prefer the ESM builds of dependencies so esbuild can tree-shake them.
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require(); ESM output needs it defined.
  banner: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);",
} as const;

/**
 * The evaluation's dictionaries, words and index (bundling/dictionaries.ts writes them): its code reads the file
 * beside itself, in the source and in the bundle, a copy of bytes at a cold start where a string in the bundle
 * would be parsed (docs/performance.md#the-evaluations-cold-start).
 */
export const DICTIONARIES_ASSET = path.join(
  PROJECT_ROOT,
  'functions',
  'domain',
  'evaluation',
  'data',
  'guessability-dictionaries.bin',
);

/** The files a bundle reads beside itself at run time, by entry file: copied next to it by every build (the stack's and the local one). */
export const BUNDLE_ASSETS: Readonly<Record<string, readonly string[]>> = {
  [FUNCTIONS.evaluatePassword.entry]: [DICTIONARIES_ASSET],
};
