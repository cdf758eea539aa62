/**
 * Serves the web UI (the Vite build of web/, `dist/web` after `npm run build`) beside the API.
 *
 * The set of files is read once at start-up: a request can only ever get one of those files (no path
 * from a URL reaches the file system), and they are held in memory (the build is a few hundred KB).
 * - `/assets/*` are content-hashed by Vite: `Cache-Control: public, max-age=31536000, immutable`;
 *   an unknown `/assets/...` is a 404, never index.html (a stale tab must not get HTML as a script).
 * - index.html and the other files: `no-cache` with an ETag, so a deploy is picked up at once and an
 *   unchanged page costs a 304.
 * - Any other GET/HEAD outside `/api` (a client-side route such as `/datasets/ns/name`) gets
 *   index.html, so every page of the UI can be opened from a pasted link.
 * - `/api...` paths never reach this middleware's fallback: an unknown API path stays a JSON 404.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import { HttpError } from './errors.js';

export interface WebUiFile {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

export interface WebUi {
  /** URL path → file, e.g. `/index.html`, `/assets/index-3f2a1c.js`. */
  files: Map<string, WebUiFile>;
  index: WebUiFile;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
// The page loads only its own files and talks only to this origin (no CDN, no remote font).
const CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

function walk(dir: string, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const url = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...walk(full, url));
    else if (entry.isFile()) out.push([url, full]);
  }
  return out;
}

/** The built UI under `root`, or null when there is none (no index.html: `npm run build` not run). */
export function loadWebUi(root: string): WebUi | null {
  if (!fs.existsSync(path.join(root, 'index.html'))) return null;
  const files = new Map<string, WebUiFile>();
  for (const [url, full] of walk(root)) {
    const body = fs.readFileSync(full);
    files.set(url, {
      body,
      type: TYPES[path.extname(url).toLowerCase()] ?? 'application/octet-stream',
      etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      cacheControl: url.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
    });
  }
  return { files, index: files.get('/index.html')! };
}

/** True for the paths the API and the operations endpoints own; the UI never answers them. */
export function isApiPath(p: string): boolean {
  return p === '/api' || /^\/api[/-]/.test(p) || p === '/healthz' || p === '/readyz' || p === '/metrics';
}

/**
 * The UI middleware, mounted after the API routers. `ui` null: the UI is not built; non-API GETs
 * answer a JSON 404 that says so.
 */
export function webUiMiddleware(ui: WebUi | null): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path) || ctx.body !== undefined) return next();
    (ctx as { _matchedRoute?: string })._matchedRoute = 'web-ui';
    if (!ui)
      throw new HttpError(
        404,
        'not_found',
        `No endpoint ${ctx.method} ${ctx.path}; the web UI is not built here (run npm run build)`,
      );
    let file = ui.files.get(ctx.path);
    if (!file) {
      if (ctx.path.startsWith('/assets/'))
        throw new HttpError(404, 'not_found', `No file ${ctx.path} in this build of the web UI`);
      file = ui.index; // a client-side route
    }
    ctx.set('Cache-Control', file.cacheControl);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (file === ui.index) {
      ctx.set('Content-Security-Policy', CSP);
      ctx.set('Referrer-Policy', 'same-origin');
    }
    ctx.etag = file.etag;
    ctx.type = file.type;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = file.body;
  };
}
