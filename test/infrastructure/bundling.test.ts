import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../bin/app';
import { BUNDLE_ASSETS, BUNDLE_OPTIONS } from '../../bundling/bundling';
import { AUTHORIZER, FUNCTIONS } from '../../functions/routes';
import { CDK_JSON_CONTEXT } from './synth';

/**
 * The real app, bundled: proves the local esbuild builds every function offline, without Docker, with the
 * one BUNDLE_OPTIONS configuration, each with the files it reads beside it (BUNDLE_ASSETS), and that the asset
 * metadata SAM reads is there.
 */
describe('the real app, with bundling', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-out-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('bundles each function into a minified ESM index.mjs in its asset directory', () => {
    // What the CDK CLI sets by default; SAM finds each function's code through it.
    const { app, stack } = buildApp(
      { ...CDK_JSON_CONTEXT, deployNonce: 'test-nonce', 'aws:cdk:enable-asset-metadata': true },
      outdir,
    );
    const assembly = app.synth();
    const template = Template.fromJSON(assembly.getStackByName(stack.stackName).template);
    const functions = [
      ...Object.values(FUNCTIONS).map((spec) => ({ fn: stack.functions[spec.id], entry: spec.entry })),
      { fn: stack.authorizer, entry: AUTHORIZER.entry },
    ];
    expect(Object.values(BUNDLE_ASSETS).flat().length).toBeGreaterThan(0);

    for (const { fn, entry } of functions) {
      const resource = template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as never)];
      expect(resource.Metadata).toEqual(
        expect.objectContaining({ 'aws:asset:property': 'Code', 'aws:asset:is-bundled': true }),
      );
      const assetDir = path.join(outdir, resource.Metadata['aws:asset:path']);
      // Beside the bundle, only the files it reads at run time (the evaluation's dictionaries), byte for byte.
      const assets = BUNDLE_ASSETS[entry] ?? [];
      expect(readdirSync(assetDir).sort()).toEqual(['index.mjs', ...assets.map((file) => path.basename(file))].sort());
      for (const asset of assets)
        expect(readFileSync(path.join(assetDir, path.basename(asset))).equals(readFileSync(asset))).toBe(true);
      const code = readFileSync(path.join(assetDir, 'index.mjs'), 'utf8');
      expect(code.startsWith(BUNDLE_OPTIONS.banner)).toBe(true);
      // Minified: few, long lines; no source map reference.
      expect(code.split('\n').length).toBeLessThan(100);
      expect(code).not.toContain('sourceMappingURL');
      // The SDK's full credential chain is aliased away (bundling/bundling.ts): none of its SSO/INI code remains.
      expect(code).not.toContain('sso_start_url');
      // ESM: the handler is exported as a module export.
      expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
    }
    expect(existsSync(path.join(outdir, 'manifest.json'))).toBe(true);
  }, 180_000);
});
