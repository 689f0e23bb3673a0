/**
 * The online breached-password check end to end: `npm start` (the local gateway, in a child process) with
 * PWNED_PASSWORDS_CHECK=true and PWNED_PASSWORDS_URL on a stub of Have I Been Pwned's range API on loopback,
 * beside one with the check off. A breached password fails with the BreachedPassword failure when the check
 * is on; it is evaluated as before when the check is off, and when the API does not answer in time or fails.
 * Only the hash prefix reaches the API, and nothing the service prints holds the password or its hash.
 */
import { BREACHED_PASSWORD_FAILURE } from '../support/answers';
import { evaluateRequest } from '../support/http-client';
import { spawnLocalService, type SpawnedService } from '../support/local-service';
import { PwnedPasswordsStub, sha1Hex } from '../support/pwned-passwords-stub';
import { LOCAL_CREDENTIALS, seedStrengthPolicy } from '../support/seed-reference';
import { expectedEvaluation } from '../support/expected-evaluation';
import { LOCAL_ENV } from '../../local/local-environment';

/** Excellent and Compliant under policy 1 on its own merits; the stub lists it as breached. */
const BREACHED = 'Amber-Lighthouse-Sparrow-71!';
/** Passed through PWNED_PASSWORDS_TIMEOUT_MS; generous, so the child's first (cold) fetch on a busy machine is not a timeout. */
const TIMEOUT_MS = 1500;

let stub: PwnedPasswordsStub;
let on: SpawnedService;
let off: SpawnedService;
beforeAll(async () => {
  stub = await PwnedPasswordsStub.start();
  stub.add(BREACHED, 42);
  const pwned = { PWNED_PASSWORDS_URL: stub.url, PWNED_PASSWORDS_TIMEOUT_MS: String(TIMEOUT_MS) };
  [on, off] = await Promise.all([
    spawnLocalService({
      env: {
        ...pwned,
        PWNED_PASSWORDS_CHECK: 'true',
        POWERTOOLS_LOG_LEVEL: 'DEBUG',
        [LOCAL_ENV.authorizerCacheTtl]: '0',
      },
    }),
    spawnLocalService({ env: { ...pwned, PWNED_PASSWORDS_CHECK: 'false' } }),
  ]);
}, 120_000);
afterAll(async () => {
  expect(await on?.stop()).toEqual({ code: 0, signal: null });
  expect(await off?.stop()).toEqual({ code: 0, signal: null });
  await stub?.close();
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.behaviour = { kind: 'range' };
});

async function evaluate(service: SpawnedService, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await evaluateRequest(service.url, LOCAL_CREDENTIALS.passwordStrengthAPIKey, body);
  expect({ status: response.status, cache: response.headers['cache-control'] }).toEqual({
    status: 200,
    cache: 'no-store',
  });
  return JSON.parse(response.body) as Record<string, unknown>;
}

describe('the check on (PWNED_PASSWORDS_CHECK=true)', () => {
  it('banner says so, naming the API it asks', () => {
    expect(on.output()).toContain(`Pwned Passwords check: on (${stub.url})`);
    expect(off.output()).toContain('Pwned Passwords check: off (PWNED_PASSWORDS_CHECK=true turns it on)');
  });

  it('a breached password fails with BreachedPassword and is not Compliant, whatever its composition', async () => {
    expect(expectedEvaluation(seedStrengthPolicy(1), BREACHED)).toMatchObject({
      ComplianceLevelName: 'Excellent',
      Compliant: true,
    });
    const body = await evaluate(on, { Password: BREACHED });
    expect(body).toEqual(expectedEvaluation(seedStrengthPolicy(1), BREACHED, true));
    expect(body).toMatchObject({
      ComplianceLevel: 1,
      ComplianceLevelName: 'Weak',
      Compliant: false,
      Failures: [BREACHED_PASSWORD_FAILURE],
    });
  });

  it('sends the API only the 5-character prefix of the SHA-1, with Add-Padding', async () => {
    await evaluate(on, { PasswordStrengthPolicyID: 2, Password: BREACHED });
    expect(stub.requests.map((r) => [r.method, r.url, r.headers['add-padding']])).toEqual([
      ['GET', `/range/${sha1Hex(BREACHED).slice(0, 5)}`, 'true'],
    ]);
    expect(JSON.stringify(stub.requests).toUpperCase()).not.toContain(sha1Hex(BREACHED).slice(5, 15));
  });

  it('a password the API does not list is evaluated as before', async () => {
    const password = 'Copper-Meadow-Violin-36#';
    expect(await evaluate(on, { Password: password })).toEqual(expectedEvaluation(seedStrengthPolicy(1), password));
    expect(stub.requests).toHaveLength(1);
  });

  it.each([
    ['does not answer in time', { kind: 'hang' } as const, 'TimeoutError'],
    ['answers 503', { kind: 'status', status: 503 } as const, 'PwnedPasswordsAnswerError'],
  ])(
    'when the API %s, the breached password is evaluated as without the check (fails open), logged without it',
    async (_what, behaviour, errorKind) => {
      stub.behaviour = behaviour;
      const started = Date.now();
      expect(await evaluate(on, { Password: BREACHED })).toEqual(expectedEvaluation(seedStrengthPolicy(1), BREACHED));
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1500);
      expect(stub.requests).toHaveLength(1);
      const warning = on
        .output()
        .split('\n')
        .filter((line) => line.includes('Pwned Passwords lookup failed'))
        .pop();
      expect(JSON.parse(warning!)).toMatchObject({
        level: 'WARN',
        message: 'Pwned Passwords lookup failed; evaluated without it',
        error: errorKind,
      });
    },
  );

  it('nothing the service printed holds the password or its hash', () => {
    const printed = on.output();
    expect(printed).not.toContain(BREACHED);
    expect(printed.toUpperCase()).not.toContain(sha1Hex(BREACHED).slice(5, 15));
  });
});

describe('the check off (the default)', () => {
  it('the breached password is evaluated as before, and the API is never asked', async () => {
    for (const id of [1, 2, 3])
      expect(await evaluate(off, { PasswordStrengthPolicyID: id, Password: BREACHED })).toEqual(
        expectedEvaluation(seedStrengthPolicy(id), BREACHED),
      );
    expect(stub.requests).toEqual([]);
  });
});
