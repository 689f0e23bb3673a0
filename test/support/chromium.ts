/**
 * The browser of the docs page test: Debian's Chromium, driven by playwright-core, which never downloads a
 * browser of its own. `npm test` runs this file first (`tsx test/support/chromium.ts --install`), before jest,
 * so that installing the package does not compete with the timed tests for the CPU.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y chromium';

/**
 * Headless, no sandbox (CI runs as root, where Chromium's sandbox refuses to start), and nothing that reaches
 * out on its own: no QUIC, no background networking, no component updates, no sync.
 */
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser cannot be had, or undefined when it is there. */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  return `Debian's Chromium is not installed at ${CHROMIUM}, so the docs page cannot be tested in a browser. Install it as root with \`${INSTALL}\` (npm test does this itself when it runs as root).`;
}

/** A browser on a new, empty profile (its --user-data-dir); close() also removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  const profile = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: LAUNCH_ARGS,
    headless: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Installs Chromium from Debian's packages when it is missing and this process is root. It never fails
 * `npm test` by itself: when the browser cannot be had it says why, and the browser test then fails with
 * chromiumMissing()'s message.
 */
function install(): void {
  if (!chromiumMissing()) return;
  if (process.getuid?.() !== 0) {
    console.error(`${chromiumMissing()}\nNot root: not installing it.`);
    return;
  }
  console.log(`Installing Chromium from Debian's packages (${INSTALL}) for the docs page test ...`);
  const started = Date.now();
  try {
    execFileSync('sh', ['-c', `(${INSTALL}) >/dev/null`], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    console.log(`Chromium installed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  } catch (error) {
    console.error(`Could not install Chromium: ${error instanceof Error ? error.message : String(error)}`);
  }
}

if (require.main === module && process.argv.includes('--install')) install();
