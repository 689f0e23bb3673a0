/**
 * The operator CLIs find `npm start`'s store by themselves (docs/administration.md, docs/credentials.md): the
 * real start command (tsx local/start.ts) writes its store file, and `npm run policy` and `npm run credentials`
 * (each as the npm script runs it, a process of its own) given no --endpoint and no AWS region read it, say
 * so on stderr and work on that store; the key the credentials CLI issues opens the running service. Once the
 * service has stopped, the file is gone and the same commands say what to pass.
 *
 * Run: npx jest test/e2e/cli-local-store
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { GENERATOR_ADMIN_ROLE } from '../../functions/routes';
import { rawRequest } from '../support/http-client';
import { PROJECT_ROOT, spawnLocalService, type SpawnedService } from '../support/local-service';
import { operatorEnvironment } from '../support/operator-environment';

const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const NOT_CONFIGURED =
  'No AWS region is configured and npm start is not running: pass --region REGION (or set AWS_REGION) for AWS, or --endpoint URL for a local store (npm start prints it as "DynamoDB endpoint").\n';

let service: SpawnedService;
beforeAll(async () => {
  service = await spawnLocalService();
}, 90_000);
afterAll(async () => {
  if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
});

/** `npm run -s <script> -- ...argv` as package.json runs it, with no AWS region anywhere and the service's store file. */
function cli(
  script: 'admin/policy.ts' | 'admin/credentials-cli.ts',
  ...argv: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['--require', './preload/sdk-node-warning.cjs', script, ...argv],
      { cwd: PROJECT_ROOT, env: operatorEnvironment(service.storeFile) },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number((error as { code?: number }).code), stdout, stderr });
      },
    );
  });
}

/** The endpoint the banner prints, the one the operator would otherwise have to copy. */
function bannerEndpoint(): string {
  const match = /DynamoDB endpoint \([^)]*\): (http:\/\/\S+)/.exec(service.output());
  if (!match) throw new Error(`no DynamoDB endpoint in the banner:\n${service.output()}`);
  return match[1]!;
}

it('npm start writes the store file: the endpoint its banner prints, the local tables, its pid', () => {
  expect(JSON.parse(readFileSync(service.storeFile, 'utf8'))).toEqual({
    endpoint: bannerEndpoint(),
    tables: {
      generator: 'GeneratorPolicies',
      strength: 'StrengthPolicies',
      credentials: 'Credentials',
      history: 'PolicyHistory',
    },
    // The process tsx starts for local/start.ts, below the child this test spawned.
    pid: expect.any(Number),
  });
  expect(service.output()).toContain(
    `  Store file (the operator CLIs use this store when given no --endpoint and no AWS region): ${service.storeFile}\n`,
  );
});

it('npm run policy -- list, without --endpoint: the seeded policies of the running service', async () => {
  expect(await cli('admin/policy.ts', 'list', '--collection', 'strength')).toEqual({
    code: 0,
    stdout: [
      '  ID  VERSION NAME',
      '   1  v1    Default Password Strength Policy',
      '   2  v1    Domain User Accounts',
      '   3  v1    Service Accounts',
      '   4  v1    Network Devices',
      '   5  v1    Database Accounts',
      '   6  v1    High Security (Privileged Accounts)',
      '   7  v1    PIN Codes',
      '   8  v1    Passphrases',
      '   9  v1    Legacy Systems',
      '  10  v1    Personal Password Lists',
      '10 strength policy(s).',
      '',
    ].join('\n'),
    stderr: `Using npm start's local store at ${bannerEndpoint()} (${service.storeFile}).\n`,
  });
}, 30_000);

it('npm run credentials -- user create and user issue-key, without --endpoint: the new key opens the running service', async () => {
  expect(
    await cli('admin/credentials-cli.ts', 'user', 'create', '--user-id', 'newcomer', '--role', GENERATOR_ADMIN_ROLE),
  ).toEqual({
    code: 0,
    stdout: `Created user "newcomer" with roles "${GENERATOR_ADMIN_ROLE}". Issue a key with: user issue-key --user-id newcomer\n`,
    stderr: `Using npm start's local store at ${bannerEndpoint()} (${service.storeFile}).\n`,
  });
  const issued = await cli('admin/credentials-cli.ts', 'user', 'issue-key', '--user-id', 'newcomer');
  expect(issued.code).toBe(0);
  expect(issued.stdout).toMatch(/^ppg_[0-9a-f]{12}_[A-Za-z0-9_-]{43}\n$/);
  expect(issued.stderr).toMatch(
    new RegExp(
      `^Using npm start's local store at ${bannerEndpoint()} \\(.+\\)\\.\\nIssued key id [0-9a-f]{12} for user "newcomer"\\.`,
    ),
  );
  const response = await rawRequest(service.url, 'GET', '/userapi/passwordgenerator/?search=default', [
    ['UserID', 'newcomer'],
    ['APIKey', issued.stdout.trim()],
  ]);
  expect(response.status).toBe(200);
}, 30_000);

it('once npm start has stopped, its file is gone and the CLIs say what to pass (exit 1)', async () => {
  expect(await service.stop()).toEqual({ code: 0, signal: null });
  expect(existsSync(service.storeFile)).toBe(false);
  expect(await cli('admin/policy.ts', 'list', '--collection', 'generator')).toEqual({
    code: 1,
    stdout: '',
    stderr: NOT_CONFIGURED,
  });
  expect(await cli('admin/credentials-cli.ts', 'list')).toEqual({ code: 1, stdout: '', stderr: NOT_CONFIGURED });
}, 60_000);
