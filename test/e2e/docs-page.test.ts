/**
 * The docs page (docs/docs-page.md) in a real browser: Debian's Chromium, driven by playwright-core, against the
 * local gateway. Every operation of docs/openapi.json must be on the page, the page must reach nothing but
 * loopback, and "Try it out" must call the gateway. The screenshot is taken on every run to a temporary file;
 * `npm run docs:screenshot` (DOCS_SCREENSHOT=1) also writes it to docs/images/docs-page.png for the README.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { docsPageFiles } from '../../docs/docs-page';
import { OPENAPI_FILE } from '../../docs/openapi';
import { launchChromium } from '../support/chromium';
import { rawRequest } from '../support/http-client';
import { PROJECT_ROOT, useLocalService } from '../support/local-service';
import { LOCAL_CREDENTIALS, SEED_STRENGTH } from '../support/seed-reference';
import { keepScreenshot } from '../support/screenshots';

const local = useLocalService();
interface Operation {
  readonly parameters?: readonly { readonly name: string; readonly example?: string }[];
}
const DOCUMENT = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  servers: { url: string }[];
};
const OPERATIONS = Object.entries(DOCUMENT.paths).flatMap(([pathName, item]) =>
  Object.keys(item).map((method) => ({ method, path: pathName })),
);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
let context: BrowserContext;
/** Every URL the browser asked for, whatever page or worker asked. */
const requested: string[] = [];
/** Uncaught errors, console errors (a refused Content-Security-Policy among them) and failed requests. */
const problems: string[] = [];

beforeAll(async () => {
  // Fails every test of this file with the reason when Chromium cannot be had: never a skip.
  browser = await launchChromium();
  context = browser.context;
  context.on('request', (request) => requested.push(request.url()));
  context.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
// Each test judges only what its own pages asked for and what went wrong on them.
beforeEach(() => {
  requested.length = 0;
  problems.length = 0;
});

/** A new tab on a docs page, once the page has rendered its first operation; `landsOn` is where a redirect leads. */
async function openPage(url: string, landsOn = url): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  const response = await page.goto(url);
  expect({ status: response?.status(), url: page.url() }).toEqual({ status: 200, url: landsOn });
  await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 20_000 });
  return page;
}

/** /docs, as an operator types it: the gateway redirects it to /docs/. */
const openDocsPage = () => openPage(`${local.service.url}/docs`, `${local.service.url}/docs/`);

/** The summary line of one operation: its method badge and its path. */
const operationLocator = (page: Page, method: string, pathName: string) =>
  page.locator(`.opblock.opblock-${method} .opblock-summary-path[data-path="${pathName}"]`);

/** Each operation of the document, and whether the page shows it. */
async function visibility(page: Page): Promise<{ method: string; path: string; visible: boolean }[]> {
  return Promise.all(
    OPERATIONS.map(async ({ method, path: pathName }) => ({
      method,
      path: pathName,
      visible: await operationLocator(page, method, pathName).isVisible(),
    })),
  );
}

/** The URLs the browser asked for that are neither on loopback nor data: URLs (none, on a page that works offline). */
function offLoopback(urls: readonly string[]): string[] {
  return urls.filter((url) => {
    const { protocol, hostname } = new URL(url);
    return protocol !== 'data:' && !((protocol === 'http:' || protocol === 'https:') && LOOPBACK_HOSTS.has(hostname));
  });
}

/** True for the 8-byte PNG signature followed by the IHDR chunk, which gives the width and height. */
function pngSize(png: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (png.length < 24 || !png.subarray(0, 8).equals(signature) || png.toString('latin1', 12, 16) !== 'IHDR')
    return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

it('the document has operations to look for (read from docs/openapi.json)', () => {
  expect(OPERATIONS.length).toBeGreaterThanOrEqual(6);
});

it('/docs shows every operation of docs/openapi.json, reaches nothing but loopback, and is screenshot', async () => {
  const page = await openDocsPage();
  try {
    expect(await visibility(page)).toEqual(OPERATIONS.map((operation) => ({ ...operation, visible: true })));
    await page.waitForLoadState('networkidle');

    expect(offLoopback(requested)).toEqual([]);
    // The check above is not vacuous: the page, its script, Swagger UI and the document came over loopback.
    expect(requested.map((url) => new URL(url).pathname)).toEqual(
      expect.arrayContaining([
        '/docs',
        '/docs/',
        '/docs/swagger-init.js',
        '/docs/swagger-ui-bundle.js',
        '/docs/swagger-ui.css',
        '/docs/openapi.json',
      ]),
    );
    expect(problems).toEqual([]);

    // The servers list shows the local gateway as `npm start` runs it, not this run's port, so the picture is the same on every run.
    await page.locator('.servers select').selectOption(DOCUMENT.servers[0]!.url);
    const png = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
    const size = pngSize(png);
    expect(size?.width).toBe(1280);
    expect(size!.height).toBeGreaterThanOrEqual(900);
    keepScreenshot(png, 'docsPage', 20_000);
  } finally {
    await page.close();
  }
}, 60_000);

it('"Try it out" calls the local gateway, the page’s own origin, with the key given to "Authorize"', async () => {
  const page = await openDocsPage();
  try {
    // The servers list offers the page's own origin first: the only one the browser may call (the API sends no CORS headers).
    expect(await page.locator('.servers select').inputValue()).toBe(local.service.url);
    await page.evaluate(
      (key) =>
        (
          globalThis as unknown as { ui: { preauthorizeApiKey(name: string, value: string): void } }
        ).ui.preauthorizeApiKey('PasswordStrengthAPIKey', key),
      LOCAL_CREDENTIALS.passwordStrengthAPIKey,
    );

    await operationLocator(page, 'get', SEED_STRENGTH.path).click();
    const operation = page.locator('.opblock.is-open');
    await operation.locator('button.try-out__btn').click();
    const [request] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === SEED_STRENGTH.path),
      operation.locator('button.execute').click(),
    ]);
    // The search box comes filled with the document's example.
    const searchExample = DOCUMENT.paths[SEED_STRENGTH.path]!.get!.parameters!.find((p) => p.name === 'search')!
      .example!;
    const target = `${SEED_STRENGTH.path}?search=${encodeURIComponent(searchExample)}`;
    expect({ url: request.url(), key: (await request.allHeaders())['apikey'] }).toEqual({
      url: `${local.service.url}${target}`,
      key: LOCAL_CREDENTIALS.passwordStrengthAPIKey,
    });

    const status = operation.locator('.live-responses-table .response .response-col_status');
    await status.waitFor({ state: 'visible', timeout: 20_000 });
    expect((await status.innerText()).trim()).toBe('200');
    const body = await operation.locator('.live-responses-table .response-col_description pre').first().innerText();
    const direct = await rawRequest(local.service.url, 'GET', target, [
      ['APIKey', LOCAL_CREDENTIALS.passwordStrengthAPIKey],
    ]);
    expect(direct.status).toBe(200);
    expect((JSON.parse(direct.body) as unknown[]).length).toBeGreaterThan(0);
    expect(JSON.parse(body)).toEqual(JSON.parse(direct.body));
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 60_000);

it('"Try it out" of the evaluation sends the Accept-Language typed into its field, and the answer is in that language', async () => {
  const page = await openDocsPage();
  const evaluatePath = '/api/passwordstrength/evaluate';
  try {
    await page.evaluate(
      (key) =>
        (
          globalThis as unknown as { ui: { preauthorizeApiKey(name: string, value: string): void } }
        ).ui.preauthorizeApiKey('PasswordStrengthAPIKey', key),
      LOCAL_CREDENTIALS.passwordStrengthAPIKey,
    );
    await operationLocator(page, 'post', evaluatePath).click();
    const operation = page.locator('.opblock.is-open');
    await operation.locator('button.try-out__btn').click();
    // The field comes filled with the document's example; the user types another language over it.
    const field = operation.locator('tr[data-param-name="Accept-Language"] input');
    expect(await field.inputValue()).toBe('de-CH, de;q=0.9, en;q=0.5');
    await field.fill('fr');
    const [request, response] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === evaluatePath),
      page.waitForResponse((r) => new URL(r.url()).pathname === evaluatePath),
      operation.locator('button.execute').click(),
    ]);
    expect((await request.allHeaders())['accept-language']).toBe('fr');
    expect({ status: response.status(), language: (await response.allHeaders())['content-language'] }).toEqual({
      status: 200,
      language: 'fr',
    });
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 60_000);

describe('npm run docs', () => {
  it('writes the page as static files, which render every operation from a plain static web server, under any path', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'docs-static-'));
    const expected = docsPageFiles(readFileSync(OPENAPI_FILE, 'utf8'));
    const server = createServer((req, res) => {
      // A static host: a file of the folder below /any/prefix/, index.html for the folder itself, 404 otherwise.
      const name = new URL(req.url ?? '/', 'http://host').pathname.replace(/^\/any\/prefix\//, '') || 'index.html';
      const file = path.join(out, path.basename(name));
      if (expected.has(name) && existsSync(file))
        res.writeHead(200, { 'Content-Type': expected.get(name)!.contentType }).end(readFileSync(file));
      else res.writeHead(404).end();
    });
    try {
      const printed = execFileSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['docs/docs-page.ts', out], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
      });
      expect(printed).toBe(
        `Wrote the docs page (${expected.size} files) to ${out}; open index.html through any static web server.\n`,
      );
      expect(readdirSync(out).sort()).toEqual([...expected.keys()].sort());
      for (const [name, file] of expected)
        expect({ name, same: readFileSync(path.join(out, name)).equals(file.body) }).toEqual({ name, same: true });

      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      requested.length = 0;
      problems.length = 0;
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/any/prefix/`;
      const page = await openPage(url);
      try {
        expect(await visibility(page)).toEqual(OPERATIONS.map((operation) => ({ ...operation, visible: true })));
        await page.waitForLoadState('networkidle');
        expect(offLoopback(requested)).toEqual([]);
        expect(requested).toContain(`${url}openapi.json`);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    } finally {
      server.close();
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
