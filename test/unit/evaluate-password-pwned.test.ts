/**
 * POST /api/passwordstrength/evaluate with the Pwned Passwords check on (PWNED_PASSWORDS_CHECK=true), the
 * entry loaded cold against a stub of the range API on loopback: a breached password fails with the
 * BreachedPassword failure and is never Compliant; when the API does not answer in time the evaluation is
 * the one without the check; a request that is refused or names no policy asks the API nothing.
 */
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import type { ProxyHandler } from '../../functions/http';
import { loadEvaluateEntry, proxyEvent } from '../support/entry-points';
import { PwnedPasswordsStub } from '../support/pwned-passwords-stub';
import { SEED_STRENGTH_POLICIES, seedStrengthPolicy } from '../support/seed-reference';

const SEED = [...SEED_STRENGTH_POLICIES];
const DEFAULT_POLICY = seedStrengthPolicy(1);
/** Excellent and Compliant under policy 1 on its own merits; the stub lists it as breached. */
const BREACHED = 'Quiet-Harbor-Lantern-93!';
const NOT_BREACHED = 'Velvet-Orchard-Comet-58?';
const PWNED_ENV = ['PWNED_PASSWORDS_CHECK', 'PWNED_PASSWORDS_URL', 'PWNED_PASSWORDS_TIMEOUT_MS'];
const estimate = guessEstimator();
/** Generous: a cold fetch on a busy machine (the whole suite on two cores) must not read as a timeout. */
const TIMEOUT_MS = 2000;

const post = (body: unknown) =>
  proxyEvent('POST', '/api/passwordstrength/evaluate', {
    headers: { 'Content-Type': ['application/json'] },
    body: JSON.stringify(body),
  });

let stub: PwnedPasswordsStub;
let handler: ProxyHandler;
beforeAll(async () => {
  stub = await PwnedPasswordsStub.start();
  stub.add(BREACHED, 12);
  const entry = loadEvaluateEntry({
    PWNED_PASSWORDS_CHECK: 'true',
    PWNED_PASSWORDS_URL: stub.url,
    PWNED_PASSWORDS_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  entry.dynamo.on(entry.lib.ScanCommand).resolves({ Items: SEED });
  handler = entry.module.handler;
});
afterAll(async () => {
  for (const name of PWNED_ENV) delete process.env[name];
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.behaviour = { kind: 'range' };
});

const answer = async (body: unknown) => {
  const result = await handler(post(body));
  expect(result.statusCode).toBe(200);
  return JSON.parse(result.body) as Record<string, unknown>;
};

describe('with the check on', () => {
  it('a breached password fails with BreachedPassword, capped at Weak, never Compliant', async () => {
    expect(evaluatePassword(DEFAULT_POLICY, BREACHED, estimate)).toMatchObject({
      ComplianceLevelName: 'Excellent',
      Compliant: true,
      Failures: [],
    });
    const body = await answer({ Password: BREACHED });
    expect(body).toEqual(evaluatePassword(DEFAULT_POLICY, BREACHED, estimate, true));
    expect(body).toMatchObject({
      PasswordStrengthPolicyID: 1,
      ComplianceLevel: 1,
      ComplianceLevelName: 'Weak',
      Compliant: false,
      Failures: [
        {
          Rule: 'BreachedPassword',
          Required: 0,
          Found: 1,
          Message: 'This password appears in lists of breached passwords.',
        },
      ],
    });
    expect(stub.requests).toHaveLength(1);
  });

  it('under every seed policy', async () => {
    for (const policy of SEED) {
      const body = await answer({ PasswordStrengthPolicyID: policy.PasswordStrengthPolicyID, Password: BREACHED });
      expect(body).toEqual(evaluatePassword(policy, BREACHED, estimate, true));
      expect(body.Compliant).toBe(false);
      expect(body.ComplianceLevel as number).toBeLessThanOrEqual(1);
    }
  });

  it('a password the API does not list is evaluated as without the check', async () => {
    expect(await answer({ Password: NOT_BREACHED })).toEqual(evaluatePassword(DEFAULT_POLICY, NOT_BREACHED, estimate));
  });

  it.each([
    ['does not answer in time', { kind: 'hang' } as const],
    ['answers 503', { kind: 'status', status: 503 } as const],
  ])('when the API %s: 200, evaluated without it (fails open), within the bound', async (_what, behaviour) => {
    stub.behaviour = behaviour;
    const started = Date.now();
    expect(await answer({ Password: BREACHED })).toEqual(evaluatePassword(DEFAULT_POLICY, BREACHED, estimate));
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1000);
    expect(stub.requests).toHaveLength(1);
  });

  it('asks nothing for a refused request or an unknown policy', async () => {
    expect((await handler(post({ Password: '' }))).statusCode).toBe(400);
    expect((await handler(post({ PasswordStrengthPolicyID: 4242, Password: BREACHED }))).statusCode).toBe(404);
    expect(stub.requests).toEqual([]);
  });
});

describe('with the check off (the default)', () => {
  it('asks the API nothing and answers as before', async () => {
    const off = loadEvaluateEntry({
      PWNED_PASSWORDS_CHECK: 'false',
      PWNED_PASSWORDS_URL: stub.url,
    });
    off.dynamo.on(off.lib.ScanCommand).resolves({ Items: SEED });
    const result = await off.module.handler(post({ Password: BREACHED }));
    expect(JSON.parse(result.body)).toEqual(evaluatePassword(DEFAULT_POLICY, BREACHED, estimate));
    expect(stub.requests).toEqual([]);
  });
});
