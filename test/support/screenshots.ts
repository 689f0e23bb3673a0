import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../../bundling/bundling';

/**
 * The pictures the browser tests write when asked (npm run docs:screenshot, npm run report:screenshot), for
 * the README and docs/administration.md; test/infrastructure/generated-files.test.ts holds them marked as
 * generated.
 */
export const SCREENSHOTS = {
  docsPage: path.join(PROJECT_ROOT, 'docs', 'images', 'docs-page.png'),
  policyReport: path.join(PROJECT_ROOT, 'docs', 'images', 'policy-report.png'),
} as const;

/** The variable each of those npm scripts sets to 1 to ask for its picture. */
const ASKED_BY: Record<keyof typeof SCREENSHOTS, string> = {
  docsPage: 'DOCS_SCREENSHOT',
  policyReport: 'REPORT_SCREENSHOT',
};

/** Checks that the picture shows something (more than `minBytes`, which a blank page is not), then writes it when asked. */
export function keepScreenshot(png: Buffer, which: keyof typeof SCREENSHOTS, minBytes: number): void {
  expect(png.length).toBeGreaterThan(minBytes);
  if (process.env[ASKED_BY[which]] === '1') writeFileSync(SCREENSHOTS[which], png);
}
