/**
 * The one esbuild configuration of every Lambda bundle: the stack's NodejsFunction uses it, and the local
 * gateway builds the same bundles with it, so what runs locally is what deploys.
 */
import path from 'node:path';

export const LAMBDA_NODE_TARGET = 'node22';

/**
 * Modules replaced inside the bundles: the SDK's default credential chain becomes the environment-only
 * provider, the one source Lambda uses (functions/store/lambda-credentials.ts says why).
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': path.join(__dirname, '..', 'functions', 'store', 'lambda-credentials.ts'),
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
