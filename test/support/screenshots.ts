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
