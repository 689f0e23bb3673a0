/** What only the local gateway offers (the main e2e suite can also target a deployed API). */
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '../../docs/openapi';
import { rawRequest } from '../support/http-client';
import { spawnLocalService, type SpawnedService } from '../support/local-service';

let service: SpawnedService;
beforeAll(async () => {
  service = await spawnLocalService();
}, 90_000);
afterAll(async () => {
  expect(await service?.stop()).toEqual({ code: 0, signal: null });
});

describe('the local gateway serves the API description', () => {
  it('GET /openapi.json answers the committed document, with no credentials needed', async () => {
    const response = await rawRequest(service.url, 'GET', '/openapi.json');
    expect({ status: response.status, type: response.headers['content-type'], body: response.body }).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: readFileSync(OPENAPI_FILE, 'utf8'),
    });
  });
});

describe('the start banner', () => {
  /** The banner's curl commands, as arguments: they quote with single quotes only. */
  function curlCommands(output: string): string[][] {
    return output
      .split('\n')
      .filter((line) => line.trimStart().startsWith('curl '))
      .map((line) => [...line.trim().matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!));
  }

  it('prints four curl commands, one per key kind and the evaluation, and each one answers 200', async () => {
    const commands = curlCommands(service.output());
    expect(commands.map((args) => args[args.length - 1]!.replace(service.url, ''))).toEqual([
      '/userapi/passwordgenerator/?search=default',
      '/api/generatepassword/?PasswordGeneratorID=3&Qty=2',
      '/api/passwordstrength',
      '/api/passwordstrength/evaluate',
    ]);
    for (const args of commands) {
      const headers: [string, string][] = [];
      let method = 'GET';
      let body: string | undefined;
      for (let i = 1; i < args.length - 1; i += 1) {
        if (args[i] === '-H') {
          const header = args[++i]!;
          headers.push([header.slice(0, header.indexOf(':')), header.slice(header.indexOf(':') + 1).trim()]);
        } else if (args[i] === '-X') method = args[++i]!;
        else if (args[i] === '-d') body = args[++i]!;
        else expect(args[i]).toBe('-s');
      }
      const response = await rawRequest(service.url, method, args[args.length - 1]!.replace(service.url, ''), headers, 20_000, body);
      expect({ command: args.join(' '), status: response.status }).toEqual({ command: args.join(' '), status: 200 });
    }
  });
});
