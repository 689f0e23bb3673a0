/**
 * Evaluation in context end to end, over real HTTP against `npm start` (the local gateway in a child process, its
 * store on dynalite), with the Pwned Passwords check on against a stub of the range API on loopback, DEBUG logs
 * and event logging on, and a short POLICY_CACHE_TTL_SECONDS:
 *
 *   - the policy-file round trip: export → BannedWords edited in a file → plan (the words added and removed) →
 *     apply → the evaluation fails BannedWord, while the list and search answers keep their bodies and ETags;
 *     then put, history and rollback, each keeping the words;
 *   - UserInputs over HTTP: the evaluation in context, and each 400 naming no value;
 *   - secrecy: nothing the service printed and no request the stub received holds a UserInput; the stub got
 *     only the password's 5-character hash prefix.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../admin/policy';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import { errorEnvelope } from '../../functions/http';
import { runCli, type CliRun } from '../support/cli-output';
import { evaluateRequest, rawRequest, type RawResponse } from '../support/http-client';
import { spawnLocalService, type SpawnedService } from '../support/local-service';
import { PwnedPasswordsStub, sha1Hex } from '../support/pwned-passwords-stub';
import { LOCAL_CREDENTIALS, SEED_STRENGTH_POLICIES, seedStrengthPolicy } from '../support/seed-reference';
import { expectedEvaluation } from '../support/expected-evaluation';
import { LOCAL_ENV } from '../../local/local-environment';
import { ENV } from '../../functions/runtime';

const TTL_SECONDS = 2;
/** A user the tests invent: none of these words may reach the output or the stub. */
const USER = ['Quentin Zebulon', 'qzebulon@wolfram-hollow.example', 'Employee 5581923'];
const SECRETS = ['quentin', 'zebulon', 'wolfram', 'hollow', '5581923'];

let stub: PwnedPasswordsStub;
let service: SpawnedService;
let tmp: string;
beforeAll(async () => {
  stub = await PwnedPasswordsStub.start();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'context-e2e-'));
  service = await spawnLocalService({
    env: {
      PWNED_PASSWORDS_CHECK: 'true',
      PWNED_PASSWORDS_URL: stub.url,
      PWNED_PASSWORDS_TIMEOUT_MS: '1500',
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
      POWERTOOLS_LOGGER_LOG_EVENT: 'true',
      [ENV.policyCacheTtl]: String(TTL_SECONDS),
      [LOCAL_ENV.authorizerCacheTtl]: '0',
    },
  });
}, 120_000);
afterAll(async () => {
  expect(await service?.stop()).toEqual({ code: 0, signal: null });
  await stub?.close();
  await rm(tmp, { recursive: true, force: true });
});

const evaluate = (body: unknown): Promise<RawResponse> =>
  evaluateRequest(service.url, LOCAL_CREDENTIALS.passwordStrengthAPIKey, body);
const strength = (query = '') =>
  rawRequest(service.url, 'GET', `/api/passwordstrength${query}`, [
    ['APIKey', LOCAL_CREDENTIALS.passwordStrengthAPIKey],
  ]);

/** The store's endpoint, as the banner prints it for an operator. */
function storeEndpoint(): string {
  const match = /DynamoDB endpoint \([^)]*\): (http:\/\/\S+)/.exec(service.output());
  if (!match) throw new Error(`no DynamoDB endpoint in the banner:\n${service.output()}`);
  return match[1]!;
}
const cli = (...argv: string[]): Promise<CliRun> =>
  runCli(main, [...argv, '--collection', 'strength', '--endpoint', storeEndpoint(), '--actor', 'e2e']);

async function edit(file: string, change: (policy: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  await writeFile(file, `${JSON.stringify(change(JSON.parse(await readFile(file, 'utf8'))), null, 2)}\n`);
}

/** Evaluates until `served` holds, failing after the TTL plus a second of slack. */
async function evaluatedWithinTheBound(
  body: unknown,
  served: (evaluation: { Failures: { Rule: string }[] }) => boolean,
): Promise<Record<string, unknown>> {
  const start = Date.now();
  for (;;) {
    const response = await evaluate(body);
    expect(response.status).toBe(200);
    const evaluation = JSON.parse(response.body);
    if (served(evaluation)) return evaluation;
    if (Date.now() - start > TTL_SECONDS * 1000 + 1000) throw new Error(`not served in time: ${response.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const hasRule = (rule: string) => (evaluation: { Failures: { Rule: string }[] }) =>
  evaluation.Failures.some((f) => f.Rule === rule);

describe('BannedWords through the policy files of npm run policy', () => {
  it('export → edit → plan → apply: the evaluation fails BannedWord; the list and search answers keep their bodies and ETags', async () => {
    const [list, search] = [await strength(), await strength('/?search=domain')];
    expect([list.status, search.status]).toEqual([200, 200]);
    const dir = path.join(tmp, 'strength');
    expect((await cli('export', '--dir', dir)).code).toBe(0);
    await edit(path.join(dir, '2.json'), (p) => ({ ...p, BannedWords: ['Contoso', 'Initech'] }));

    const plan = await cli('plan', '--dir', dir);
    expect(plan.code).toBe(0);
    // The change and the summary; the lint's findings (information) follow.
    expect(plan.stdout.split('\n').slice(0, 3)).toEqual([
      `~ change strength policy 2 "${seedStrengthPolicy(2).PolicyName}" (version 1 → 2)`,
      '    BannedWords: + "Contoso", + "Initech"',
      `Plan: 0 to create, 1 to change, 0 to delete, ${SEED_STRENGTH_POLICIES.length - 1} unchanged.`,
    ]);
    expect((await cli('apply', '--dir', dir)).code).toBe(0);

    const policy2 = { ...seedStrengthPolicy(2), BannedWords: ['Contoso', 'Initech'] };
    const built = await evaluatedWithinTheBound(
      { PasswordStrengthPolicyID: 2, Password: 'Kontoso#2026' },
      hasRule('BannedWord'),
    );
    expect(built).toEqual(expectedEvaluation(policy2, 'Kontoso#2026'));
    expect(built).toMatchObject({ ComplianceLevel: 1, Compliant: false });
    // Policy 1 bans nothing: the same password is Compliant there.
    expect(JSON.parse((await evaluate({ PasswordStrengthPolicyID: 1, Password: 'Kontoso#2026' })).body)).toMatchObject({
      Compliant: true,
      Failures: [],
    });

    // The list functions reload within the TTL too: the same bodies and ETags as before the change.
    await new Promise((resolve) => setTimeout(resolve, TTL_SECONDS * 1000 + 200));
    const [listAfter, searchAfter] = [await strength(), await strength('/?search=domain')];
    expect({ body: listAfter.body, etag: listAfter.headers.etag }).toEqual({
      body: list.body,
      etag: list.headers.etag,
    });
    expect({ body: searchAfter.body, etag: searchAfter.headers.etag }).toEqual({
      body: search.body,
      etag: search.headers.etag,
    });
    for (const p of JSON.parse(listAfter.body) as object[]) expect(Object.keys(p)).toEqual(strengthPolicies.fields);
    expect(listAfter.body).not.toContain('Contoso');

    // An export writes the words back after the specification's fields.
    expect((await cli('export', '--dir', dir)).code).toBe(0);
    const exported = JSON.parse(await readFile(path.join(dir, '2.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(exported)).toEqual([...strengthPolicies.fields, 'BannedWords']);
    expect(exported.BannedWords).toEqual(['Contoso', 'Initech']);

    // A second edit: the plan shows the word added and the word removed; history shows both changes.
    await edit(path.join(dir, '2.json'), (p) => ({ ...p, BannedWords: ['Contoso', 'Acme'] }));
    expect((await cli('plan', '--dir', dir)).stdout).toContain('    BannedWords: + "Acme", - "Initech"\n');
    expect((await cli('apply', '--dir', dir)).code).toBe(0);
    const history = await cli('history', '--id', '2');
    expect(history.stdout).toContain('    BannedWords: + "Contoso", + "Initech"\n');
    expect(history.stdout).toContain('    BannedWords: + "Acme", - "Initech"\n');
    await evaluatedWithinTheBound({ PasswordStrengthPolicyID: 2, Password: '@cm3Rocks!2026' }, hasRule('BannedWord'));

    // Rollback to version 1 (no words): the password is judged as before.
    expect((await cli('rollback', '--id', '2', '--to-version', '1')).code).toBe(0);
    const restored = await evaluatedWithinTheBound(
      { PasswordStrengthPolicyID: 2, Password: '@cm3Rocks!2026' },
      (e) => !hasRule('BannedWord')(e),
    );
    expect(restored).toEqual(expectedEvaluation(seedStrengthPolicy(2), '@cm3Rocks!2026'));
    // And back to version 3, with the words: a rollback keeps them.
    expect((await cli('rollback', '--id', '2', '--to-version', '3')).code).toBe(0);
    expect(JSON.parse((await cli('get', '--id', '2')).stdout).BannedWords).toEqual(['Contoso', 'Acme']);
  }, 60_000);

  it('put: one policy from a file, with its words; a bad word is refused naming the file and the index', async () => {
    const file = path.join(tmp, '4.json');
    await writeFile(file, JSON.stringify({ ...seedStrengthPolicy(4), BannedWords: ['Fabrikam'] }));
    expect((await cli('put', '--file', file)).stdout).toContain('    BannedWords: + "Fabrikam"\n');
    await evaluatedWithinTheBound({ PasswordStrengthPolicyID: 4, Password: 'Fabr1kam#2026!' }, hasRule('BannedWord'));

    await writeFile(file, JSON.stringify({ ...seedStrengthPolicy(4), BannedWords: ['Fabrikam', 'ab'] }));
    const refused = await cli('put', '--file', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file}: BannedWords[1]: must have 3 to 64 characters (it has 2)`);
  }, 30_000);
});

describe('UserInputs over HTTP', () => {
  it('a password built on the user’s name fails UserInput; the answer is the evaluator’s', async () => {
    const response = await evaluate({ PasswordStrengthPolicyID: 2, Password: 'Zebulon$Rocks26', UserInputs: USER });
    expect({ status: response.status, cache: response.headers['cache-control'] }).toEqual({
      status: 200,
      cache: 'no-store',
    });
    expect(JSON.parse(response.body)).toEqual(
      expectedEvaluation(seedStrengthPolicy(2), 'Zebulon$Rocks26', false, USER),
    );
    expect(JSON.parse(response.body)).toMatchObject({
      ComplianceLevel: 1,
      Compliant: false,
      Failures: [{ Rule: 'UserInput' }],
    });
  });

  it.each([
    [
      'not an array',
      'Quentin Zebulon',
      'UserInputs must be a JSON array of 1 to 20 strings (the user name, display name, email address and the like); leave it out when there are none.',
    ],
    [
      'null',
      null,
      'UserInputs must be a JSON array of 1 to 20 strings (the user name, display name, email address and the like); leave it out when there are none.',
    ],
    ['a number item', ['Quentin Zebulon', 5581923], 'UserInputs[1] must be a JSON string.'],
    ['an empty string', ['Quentin Zebulon', ''], 'UserInputs[1] must not be empty.'],
    [
      '21 items',
      Array.from({ length: 21 }, (_, i) => `Zebulon ${i}`),
      'UserInputs must hold at most 20 strings; this one holds 21.',
    ],
    [
      '257 characters',
      ['Zebulon'.repeat(37)],
      'UserInputs[0] must be at most 256 characters, both as sent and after Unicode NFKC normalization (which expands some characters, such as ligatures, into several).',
    ],
    [
      '65 characters that NFKC makes 260',
      ['Quentin Zebulon', '\u2A0C'.repeat(65)],
      'UserInputs[1] must be at most 256 characters, both as sent and after Unicode NFKC normalization (which expands some characters, such as ligatures, into several).',
    ],
    ['a control character', ['Quentin\tZebulon'], 'UserInputs[0] must not contain control characters.'],
  ])('%s: 400 in the envelope, naming no value', async (_what, userInputs, phrase) => {
    const response = await evaluate({ Password: 'Zebulon$Rocks26', UserInputs: userInputs });
    expect({ status: response.status, type: response.headers['content-type'], body: response.body }).toEqual({
      status: 400,
      type: 'application/json; charset=utf-8',
      body: errorEnvelope(400, phrase),
    });
  });
});

describe('no UserInput leaves the function', () => {
  it('the Pwned Passwords stub got only 5-character hash prefixes of the passwords evaluated, and nothing the service printed holds a UserInput', async () => {
    stub.requests.length = 0;
    for (const password of ['Zebulon$Rocks26', 'Amber-Lighthouse-Sparrow-71!']) {
      expect((await evaluate({ PasswordStrengthPolicyID: 2, Password: password, UserInputs: USER })).status).toBe(200);
    }
    expect(stub.requests.map((r) => r.url)).toEqual(
      ['Zebulon$Rocks26', 'Amber-Lighthouse-Sparrow-71!'].map((p) => `/range/${sha1Hex(p).slice(0, 5)}`),
    );
    const seen = `${JSON.stringify(stub.requests)}\n${service.output()}`.toLowerCase();
    // The events were logged (DEBUG, event logging on), so this is the redaction at work, not silence.
    expect(service.output()).toContain('"httpMethod":"POST"');
    for (const secret of SECRETS) expect(seen).not.toContain(secret);
  });
});
