/**
 * The policy report (npm run policy -- report, docs/administration.md#report) in a real browser: Debian's
 * Chromium, driven by playwright-core, opening the page as a file, as an auditor opens an attachment. Every
 * policy of the seed data must be on it with its findings, nothing may be requested but the file itself, and a
 * policy string holding markup must stay text. `npm run report:screenshot` (REPORT_SCREENSHOT=1) also writes
 * the picture in docs/images/policy-report.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import {
  DEFAULT_LINT_CONTEXT,
  lintGeneratorPolicy,
  lintStrengthPolicy,
  SEVERITY_LABELS,
} from '../../admin/policy-lint';
import { generatorPasswordRules, strengthPasswordRules } from '../../admin/password-rules';
import { renderPolicyReport } from '../../admin/policy-report';
import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { strengthPolicies, type StrengthPolicy } from '../../functions/domain/strength-policy';
import { DEFAULT_GENERATOR_FILE, DEFAULT_STRENGTH_FILE, readSeedFile } from '../../seed/seed-data';
import { launchChromium } from '../support/chromium';
import { generatorPolicy } from '../../testkit/policy-fixtures';
import { seeded } from '../../testkit/seeded-random';
import { keepScreenshot } from '../support/screenshots';

let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
let context: BrowserContext;
let dir: string;
let SEED_GENERATOR: GeneratorPolicy[];
let SEED_STRENGTH: StrengthPolicy[];
/** Every URL the browser asked for, and everything that went wrong on a page (a refused CSP directive among them). */
const requested: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  SEED_GENERATOR = await readSeedFile(DEFAULT_GENERATOR_FILE, generatorPolicies);
  SEED_STRENGTH = await readSeedFile(DEFAULT_STRENGTH_FILE, strengthPolicies);
  dir = mkdtempSync(path.join(tmpdir(), 'policy-report-'));
  // Fails every test of this file with the reason when Chromium cannot be had: never a skip.
  browser = await launchChromium();
  context = browser.context;
  context.on('request', (request) => requested.push(request.url()));
  context.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});
// Each test judges only what its own pages asked for and what went wrong on them.
beforeEach(() => {
  requested.length = 0;
  problems.length = 0;
});

/** Writes the page to a file and opens it in a new tab. */
async function open(
  name: string,
  generator: readonly GeneratorPolicy[],
  strength: readonly StrengthPolicy[],
): Promise<{ page: Page; url: string }> {
  const file = path.join(dir, name);
  // A seeded random source and a fixed time: the same page, and the same picture, on every run.
  writeFileSync(
    file,
    renderPolicyReport({
      generator,
      strength,
      context: DEFAULT_LINT_CONTEXT,
      random: seeded(2025),
      generatedAt: '2025-08-26T12:00:00.000Z',
    }),
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => problems.push(`console ${message.type()}: ${message.text()}`));
  page.on('dialog', (dialog) => problems.push(`dialog: ${dialog.message()}`));
  await page.setViewportSize({ width: 1280, height: 1500 });
  const url = pathToFileURL(file).href;
  await page.goto(url);
  return { page, url };
}

it('shows every seed policy with its findings and their clauses, the SHALL-breaking ones in red, and requests nothing but the file', async () => {
  const { page, url } = await open('seed.html', SEED_GENERATOR, SEED_STRENGTH);
  try {
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'Password policies against the standards',
    );
    await expect(page.locator('.tally.shall').innerText()).resolves.toBe('15\nbreak a SHALL');

    const cards = [
      ...SEED_GENERATOR.map((p) => ({
        anchor: `generator-${p.PasswordGeneratorID}`,
        title: `Generator policy ${p.PasswordGeneratorID}: ${p.GeneratorName}`,
        findings: lintGeneratorPolicy(p, DEFAULT_LINT_CONTEXT),
        rules: generatorPasswordRules(p).descriptor,
      })),
      ...SEED_STRENGTH.map((p) => ({
        anchor: `strength-${p.PasswordStrengthPolicyID}`,
        title: `Strength policy ${p.PasswordStrengthPolicyID}: ${p.PolicyName}`,
        findings: lintStrengthPolicy(p, DEFAULT_LINT_CONTEXT),
        rules: strengthPasswordRules(p).descriptor,
      })),
    ];
    for (const card of cards) {
      const article = page.locator(`article#${card.anchor}`);
      const seen = {
        title: await article.getByRole('heading', { level: 3 }).innerText(),
        findings: await article.locator('li.finding .severity').allInnerTexts(),
        clauses: await article.locator('li.finding cite').allInnerTexts(),
        rules: await article.locator('.rules code').innerText(),
        visible: await article.isVisible(),
        border: await article.evaluate(
          (element) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { borderLeftColor: string } }).getComputedStyle(
              element,
            ).borderLeftColor,
        ),
      };
      const breaks = card.findings.some((f) => f.severity === 'shall');
      expect(seen).toEqual({
        title: card.title,
        // Upper case on the page (CSS text-transform), as a person reads it.
        findings: card.findings.map((f) => SEVERITY_LABELS[f.severity].toUpperCase()),
        clauses: card.findings.flatMap((f) => f.clauses.map((c) => c.ref)),
        rules: card.rules,
        visible: true,
        border: breaks ? 'rgb(180, 35, 24)' : expect.not.stringMatching(/^rgb\(180, 35, 24\)$/),
      });
    }
    // A strength card counts its BannedWords (the seed policies have none), and says what that departs from.
    const bannedWords = page.locator('article#strength-2 li.finding', { hasText: 'BannedWords: []' });
    await expect(page.locator('article#strength-2 .figures').innerText()).resolves.toMatch(/\nBannedWords\nnone$/);
    await expect(bannedWords.innerText()).resolves.toContain(
      'OWASP ASVS 5.0.0 6.2.11 (L2): “Verify that the documented list of context specific words is used to prevent easy to guess passwords being created.”',
    );
    // A composition finding reads in full: the clause's words, then the fix.
    const first = page.locator('article#strength-1 li.finding').first();
    await expect(first.innerText()).resolves.toContain(
      'NIST SP 800-63B-4 §3.1.1.2 item 5: “Verifiers and CSPs SHALL NOT impose other composition rules (e.g., requiring mixtures of different character types) for passwords.”',
    );
    await expect(first.innerText()).resolves.toContain('Fix: Set MinimumLowerCaseCharacters to 0.');

    expect(requested).toEqual([url]);
    expect(problems).toEqual([]);

    const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
    keepScreenshot(png, 'policyReport', 50_000);
  } finally {
    await page.close();
  }
}, 60_000);

it('a policy named with <script> shows the name as text and runs nothing', async () => {
  const name = '<script>document.title = "injected"; alert(1)</script><img src="https://example.com/x.png">';
  const { page, url } = await open(
    'markup.html',
    [generatorPolicy({ PasswordGeneratorID: 5, GeneratorName: name, GeneratorDescription: '<b>not bold</b>' })],
    [],
  );
  try {
    await page.waitForLoadState('networkidle');
    await expect(page.locator('article#generator-5 h3').innerText()).resolves.toBe(`Generator policy 5: ${name}`);
    await expect(page.locator('article#generator-5 td', { hasText: '<b>not bold</b>' }).count()).resolves.toBe(1);
    await expect(page.locator('article#generator-5 b, article#generator-5 img, script').count()).resolves.toBe(0);
    await expect(page.title()).resolves.toBe('Password policies against the standards');
    expect(requested).toEqual([url]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 60_000);
