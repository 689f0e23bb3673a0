/**
 * Per-credential rate limits through `npm start`'s gateway with EMULATE_USAGE_PLANS=1
 * (docs/operations.md#rate-limits-per-credential): one key past its plan's burst gets 429 in the envelope,
 * while another credential is unaffected, and the key works again once its bucket refills.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorEnvelope, PHRASES } from '../../functions/http';
import { USAGE_PLANS } from '../../lib/deployment';
import { rawRequest } from '../support/http-client';
import { PROJECT_ROOT, useLocalService } from '../support/local-service';
import { LOCAL_ENV } from '../../local/local-environment';

const CREDENTIALS = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'seed', 'local-credentials.json'), 'utf8')) as {
  passwordGeneratorAPIKey: string;
  passwordStrengthAPIKey: string;
};
const local = useLocalService({ env: { [LOCAL_ENV.emulateUsagePlans]: '1', [LOCAL_ENV.authorizerCacheTtl]: '0' } });
const get = (target: string, key: string) => rawRequest(local.service.url, 'GET', target, [['APIKey', key]]);

it('a key past its burst gets 429 in the envelope, another credential does not, and the key recovers', async () => {
  const { burstLimit } = USAGE_PLANS.standard;
  const answers = await Promise.all(
    Array.from({ length: burstLimit + 15 }, () => get('/api/passwordgenerator', CREDENTIALS.passwordGeneratorAPIKey)),
  );
  const throttled = answers.filter((a) => a.status === 429);
  expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(burstLimit);
  expect(throttled.length).toBeGreaterThan(0);
  for (const a of throttled) expect(a.body).toBe(errorEnvelope(429, PHRASES.throttled));
  expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);

  expect((await get('/api/passwordstrength', CREDENTIALS.passwordStrengthAPIKey)).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect((await get('/api/passwordgenerator', CREDENTIALS.passwordGeneratorAPIKey)).status).toBe(200);
});
