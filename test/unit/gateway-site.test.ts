/** The local gateway's site (the API description, the docs page) lives beside the API, never on one of its paths. */
import type { AuthorizerEmulation } from '../../local/authorizer-emulation';
import type { SiteFile } from '../../local/docs-site';
import { createGateway } from '../../local/gateway';
import { resourcePaths } from '../../functions/routes';

const FILE: SiteFile = { contentType: 'text/plain; charset=utf-8', body: Buffer.from('x') };
const gatewayWithSite = (paths: string[]) =>
  createGateway({ functions: {}, authorizer: {} as AuthorizerEmulation, site: new Map(paths.map((p) => [p, FILE])) });

it.each(resourcePaths().flatMap((route) => [route.path, `${route.path}/`]))(
  'refuses a site file at the API resource path %s',
  (path) => {
    expect(() => gatewayWithSite(['/docs/', path])).toThrow(`${path} is both a file of the site and an API resource`);
  },
);

it('takes a site beside the API', () => {
  const server = gatewayWithSite(['/openapi.json', '/docs/', '/docs/swagger-init.js']);
  expect(server.listening).toBe(false);
});
