import type { APIGatewayProxyResult } from 'aws-lambda';
import { readFile } from 'node:fs/promises';
import { docsPageFiles, OPENAPI_FILE, type PageFile } from '../docs/docs-page';
import { allowHeader, errorResponse, JSON_CONTENT_TYPE, methodNotAllowedPhrase } from '../functions/http';

/** Where the docs page (docs/docs-page.md) is served; `/docs` redirects here. */
export const DOCS_PATH = '/docs/';

/** A file of the site: none of its paths is an API resource path, and none needs credentials. */
export type SiteFile = PageFile;
/** The site's files by request path, served as they are to GET, with no credentials. */
export type Site = ReadonlyMap<string, SiteFile>;

/** The API description at /openapi.json and the docs page under DOCS_PATH, read once at start. */
export async function docsSite(): Promise<Site> {
  // The document has one home, docs/openapi.json, and the page's copy is the same text.
  const openApiDocument = await readFile(OPENAPI_FILE, 'utf8');
  const site = new Map<string, SiteFile>([
    ['/openapi.json', { contentType: JSON_CONTENT_TYPE, body: Buffer.from(openApiDocument) }],
  ]);
  for (const [name, file] of docsPageFiles(openApiDocument))
    site.set(name === 'index.html' ? DOCS_PATH : `${DOCS_PATH}${name}`, file);
  return site;
}

const GET_ONLY = ['GET'];

/**
 * The answer of the site for a path, or undefined when the path is none of its. A file is answered to GET,
 * with or without one trailing slash as a resource is, and any other method is a 405, as on a resource. A
 * folder asked for without its slash (`/docs`) is redirected to it (`/docs/`), so that the page's relative
 * links resolve inside the folder.
 */
export function siteAnswer(
  site: Site,
  method: string | undefined,
  rawPath: string,
  resourcePath: string,
  query: string,
): APIGatewayProxyResult | undefined {
  const file = site.get(rawPath) ?? site.get(resourcePath);
  if (!file && !site.has(`${rawPath}/`)) return undefined;
  if (method !== 'GET') return errorResponse(405, methodNotAllowedPhrase(GET_ONLY), { Allow: allowHeader(GET_ONLY) });
  if (!file) return { statusCode: 301, headers: { Location: `${rawPath}/${query}` }, body: '' };
  return {
    statusCode: 200,
    // no-cache: a browser asks again each time, so a restarted gateway's document is never stale.
    headers: { 'Content-Type': file.contentType, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' },
    body: file.body.toString('base64'),
    isBase64Encoded: true,
  };
}
