import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JSON_CONTENT_TYPE } from '../functions/http';

/**
 * The interactive docs page (docs/docs-page.md): Swagger UI's files from swagger-ui-dist, our page (page/),
 * and the API description beside them. The local gateway serves these files at /docs/; `npm run docs`
 * writes the same files to a folder for a static host.
 */
export interface PageFile {
  readonly contentType: string;
  readonly body: Buffer;
}

/** The API description, which `npm run openapi` (openapi.ts) writes; the page and the local gateway serve it. */
export const OPENAPI_FILE = path.join(__dirname, 'openapi.json');
const PAGE_FOLDER = path.join(__dirname, 'page');
const SWAGGER_UI_FOLDER = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** Where `npm run docs` writes the page unless told otherwise (ignored by git). */
const DEFAULT_OUT = path.join(__dirname, '..', 'dist', 'docs');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': JSON_CONTENT_TYPE,
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/** Each file of the page by its name in the page's folder, index.html the page itself. */
export function docsPageFiles(openApiDocument: string): ReadonlyMap<string, PageFile> {
  const sources: [name: string, file: string][] = [
    ['index.html', path.join(PAGE_FOLDER, 'index.html')],
    ['swagger-init.js', path.join(PAGE_FOLDER, 'swagger-init.js')],
    ['swagger-ui-bundle.js', path.join(SWAGGER_UI_FOLDER, 'swagger-ui-bundle.js')],
    ['swagger-ui.css', path.join(SWAGGER_UI_FOLDER, 'swagger-ui.css')],
    ['favicon-32x32.png', path.join(SWAGGER_UI_FOLDER, 'favicon-32x32.png')],
    // Swagger UI is Apache-2.0: its licence and notices travel with the copy that is published.
    ['swagger-ui-LICENSE.txt', path.join(SWAGGER_UI_FOLDER, 'LICENSE')],
    ['swagger-ui-NOTICE.txt', path.join(SWAGGER_UI_FOLDER, 'NOTICE')],
    ['swagger-ui-bundle.js.LICENSE.txt', path.join(SWAGGER_UI_FOLDER, 'swagger-ui-bundle.js.LICENSE.txt')],
  ];
  const files = new Map<string, PageFile>(
    sources.map(([name, file]) => [
      name,
      { contentType: CONTENT_TYPES[path.extname(name)]!, body: readFileSync(file) },
    ]),
  );
  files.set('openapi.json', { contentType: CONTENT_TYPES['.json']!, body: Buffer.from(openApiDocument) });
  return files;
}

/** `npm run docs [-- <folder>]`: the page as static files (a file of the same name is overwritten; nothing is deleted). */
async function main(argv: string[]): Promise<void> {
  const out = path.resolve(argv[0] ?? DEFAULT_OUT);
  mkdirSync(out, { recursive: true });
  const files = docsPageFiles(readFileSync(OPENAPI_FILE, 'utf8'));
  for (const [name, file] of files) writeFileSync(path.join(out, name), file.body);
  console.log(`Wrote the docs page (${files.size} files) to ${out}; open index.html through any static web server.`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`Could not write the docs page: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
