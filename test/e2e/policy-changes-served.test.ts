/**
 * Policy administration end to end (docs/administration.md#propagation): the policy CLI changes policies in
 * the store of the local gateway (`tsx local/start.ts`, what `npm start` runs, at the DynamoDB endpoint its
 * banner prints), and the API serves the change, with a new ETag, within POLICY_CACHE_TTL_SECONDS, set
 * short here. Nothing is mocked: the CLI and the gateway's functions talk to the same store over HTTP.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../admin/policy';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import { runCli, type CliRun } from '../support/cli-output';
import { rawRequest, type RawResponse } from '../support/http-client';
import { useLocalService } from '../support/local-service';
import { LOCAL_CREDENTIALS } from '../support/seed-reference';
import { ENV } from '../../functions/runtime';

const TTL_SECONDS = 2;
const local = useLocalService({ env: { [ENV.policyCacheTtl]: String(TTL_SECONDS) } });
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'policy-e2e-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** The store's endpoint, as the banner prints it for an operator. */
function storeEndpoint(): string {
  const match = /DynamoDB endpoint \([^)]*\): (http:\/\/\S+)/.exec(local.service.output());
  if (!match) throw new Error(`no DynamoDB endpoint in the banner:\n${local.service.output()}`);
  return match[1]!;
}

const cli = (...argv: string[]): Promise<CliRun> =>
  runCli(main, [...argv, '--endpoint', storeEndpoint(), '--actor', 'e2e']);

const generatorList = () =>
  rawRequest(local.service.url, 'GET', '/userapi/passwordgenerator', [
    ['UserID', LOCAL_CREDENTIALS.generatorAdmin.UserID],
    ['APIKey', LOCAL_CREDENTIALS.generatorAdmin.APIKey],
  ]);
const strengthList = () =>
  rawRequest(local.service.url, 'GET', '/api/passwordstrength', [['APIKey', LOCAL_CREDENTIALS.passwordStrengthAPIKey]]);

/** Polls until `served` holds, failing after the TTL plus a second of slack (the bound, docs/administration.md). */
async function servedWithinTheBound(
  get: () => Promise<RawResponse>,
  served: (policies: Record<string, unknown>[]) => boolean,
): Promise<{ response: RawResponse; afterMs: number }> {
  const start = Date.now();
  for (;;) {
    const response = await get();
    const afterMs = Date.now() - start;
    if (response.status === 200 && served(JSON.parse(response.body))) return { response, afterMs };
    if (afterMs > TTL_SECONDS * 1000 + 1000)
      throw new Error(`not served ${afterMs} ms after the change: ${response.body.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function edit(dir: string, id: number, change: Record<string, unknown>): Promise<void> {
  const file = path.join(dir, `${id}.json`);
  await writeFile(file, `${JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), ...change }, null, 2)}\n`);
}

describe('a change through the policy CLI is served within POLICY_CACHE_TTL_SECONDS', () => {
  it('apply: the new description and a new ETag; every object keeps exactly the specification fields', async () => {
    const first = await generatorList();
    expect(first.status).toBe(200);
    const dir = path.join(tmp, 'generator');
    expect((await cli('export', '--collection', 'generator', '--dir', dir)).code).toBe(0);
    await edit(dir, 2, { GeneratorDescription: 'Edited in git, applied by the CLI.' });
    expect((await cli('apply', '--collection', 'generator', '--dir', dir)).code).toBe(0);

    const { response, afterMs } = await servedWithinTheBound(
      generatorList,
      (policies) => policies[1]?.GeneratorDescription === 'Edited in git, applied by the CLI.',
    );

    expect(afterMs).toBeLessThanOrEqual(TTL_SECONDS * 1000 + 1000);
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(response.headers.etag).not.toBe(first.headers.etag);
    const policies = JSON.parse(response.body) as Record<string, unknown>[];
    expect(policies).toHaveLength(12);
    for (const policy of policies) expect(Object.keys(policy)).toEqual(generatorPolicies.fields);
  });

  it('an apply resting on an export older than the change is refused, and the API keeps serving the change', async () => {
    const mine = path.join(tmp, 'strength-mine');
    const theirs = path.join(tmp, 'strength-theirs');
    expect((await cli('export', '--collection', 'strength', '--dir', mine)).code).toBe(0);
    expect((await cli('export', '--collection', 'strength', '--dir', theirs)).code).toBe(0);
    await edit(theirs, 4, { PolicyName: 'Theirs' });
    expect((await cli('apply', '--collection', 'strength', '--dir', theirs)).code).toBe(0);
    await edit(mine, 4, { PolicyName: 'Mine' });

    const refused = await cli('apply', '--collection', 'strength', '--dir', mine);

    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      '! strength policy 4: changed in the store after the export (version 1 then, 2 now); export again.',
    );
    const { response } = await servedWithinTheBound(strengthList, (policies) => policies[3]?.PolicyName === 'Theirs');
    await new Promise((resolve) => setTimeout(resolve, TTL_SECONDS * 1000 + 200));
    expect((JSON.parse((await strengthList()).body) as Record<string, unknown>[])[3]?.PolicyName).toBe('Theirs');
    for (const policy of JSON.parse(response.body) as Record<string, unknown>[])
      expect(Object.keys(policy)).toEqual(strengthPolicies.fields);
  });

  it('rollback: the old policy is served again, with the ETag of the old body', async () => {
    const original = await strengthList();
    const dir = path.join(tmp, 'strength-rollback');
    expect((await cli('export', '--collection', 'strength', '--dir', dir)).code).toBe(0);
    await edit(dir, 6, { PreferredPasswordLength: 30 });
    expect((await cli('apply', '--collection', 'strength', '--dir', dir)).code).toBe(0);
    const changed = await servedWithinTheBound(strengthList, (policies) => policies[5]?.PreferredPasswordLength === 30);
    expect(changed.response.headers.etag).not.toBe(original.headers.etag);

    const rolledBack = await cli('rollback', '--collection', 'strength', '--id', '6', '--to-version', '1');
    expect(rolledBack.code).toBe(0);

    const restored = await servedWithinTheBound(
      strengthList,
      (policies) => policies[5]?.PreferredPasswordLength !== 30,
    );
    expect(restored.response.body).toBe(original.body);
    expect(restored.response.headers.etag).toBe(original.headers.etag);
  });
});
