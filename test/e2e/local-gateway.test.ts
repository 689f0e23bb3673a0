/** What only the local gateway offers (the main e2e suite can also target a deployed API). */
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '../../lib/openapi';
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
