/**
 * The API contract: GET /api/v1/openapi.json (the OpenAPI 3.1 document, built from the route
 * declarations at the first request) and /api/docs, a Swagger UI page served from node_modules
 * (swagger-ui-dist: no CDN), with its "Authorize" button for an API key.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors.js';
import { routes, type RouteRuntime } from '../route.js';
import type { OpenApiDocument } from '../openapi.js';

const require = createRequire(import.meta.url);

/** The viewer's files, read once: only these names can be served. */
const VIEWER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lineage Graph Service API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

// The page's own script, as a file so the page's CSP allows no inline script.
const INIT =
  `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true, ` +
  `tryItOutEnabled: false });\n`;

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src " +
  "'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

function loadViewer(): Map<string, { body: Buffer | string; type: string }> {
  const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, { body: Buffer | string; type: string }>();
  for (const [name, type] of Object.entries(VIEWER_FILES))
    files.set(name, { body: fs.readFileSync(path.join(dir, name)), type });
  files.set('init.js', { body: INIT, type: 'text/javascript; charset=utf-8' });
  return files;
}

export function docsRouter(runtime: RouteRuntime, document: () => OpenApiDocument): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  let viewer: ReturnType<typeof loadViewer> | null = null;
  const tags = ['Documentation'];
  declare({
    method: 'GET',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tags,
    scope: 'public',
    static: true,
    success: {
      status: 200,
      description: 'The OpenAPI 3.1 document',
      schema: Type.Object({ openapi: Type.String() }, { additionalProperties: true }),
    },
    handler: () => document() as unknown as { openapi: string },
  });
  declare({
    method: 'GET',
    path: '/api/docs',
    operationId: 'getApiDocs',
    summary: 'The API documentation in the browser (Swagger UI)',
    tags,
    scope: 'public',
    static: true,
    success: { status: 200, description: 'The page', contentType: 'text/html' },
    handler: (_req, ctx) => {
      ctx.set('Content-Security-Policy', CSP);
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
    },
  });
  declare({
    method: 'GET',
    path: '/api/docs/:file',
    operationId: 'getApiDocsFile',
    summary: "A file of the documentation page's viewer",
    tags,
    scope: 'public',
    static: true,
    params: { file: Type.String({ description: "One of the viewer's files" }) },
    success: {
      status: 200,
      description: 'The file: a style sheet, a script or an image',
      contentType: ['text/css', 'text/javascript', 'image/png'],
    },
    errors: { 404: 'No such file' },
    handler: ({ params }, ctx) => {
      viewer ??= loadViewer();
      const file = viewer.get(params.file);
      if (!file) throw notFound(`No file ${params.file} in the documentation viewer`);
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.type = file.type;
      ctx.body = file.body;
    },
  });
  return router;
}
