/**
 * The Koa application, built from its collaborators so tests and the server construct it the same
 * way. Holds no process concerns (ports, signals, the Neo4j process): see server.ts.
 */
import Koa from 'koa';
import Router from '@koa/router';
import bodyParser from 'koa-bodyparser';
import compress from 'koa-compress';
import { constants as zlib } from 'node:zlib';
import type { Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import type { Db } from './store/db.js';
import { createServices, type Services } from './http/context.js';
import { bodyError, errorHandler } from './http/middleware/errors.js';
import { declaredLengthLimit, stateChangingRequests } from './http/middleware/request-guards.js';
import { admission, type AdmissionOptions } from './http/middleware/admission.js';
import { requestLog } from './http/middleware/request-log.js';
import { healthRouter } from './http/routes/health.js';
import { namespacesRouter } from './http/routes/namespaces.js';
import { lineageIngestRouter } from './http/routes/lineage-ingest.js';
import { datasetsRouter } from './http/routes/datasets.js';
import { jobsRouter } from './http/routes/jobs.js';
import { sourcesRouter } from './http/routes/sources.js';
import { tagsRouter } from './http/routes/tags.js';
import { searchRouter } from './http/routes/search.js';
import { eventsRouter } from './http/routes/events.js';
import { statsRouter } from './http/routes/stats.js';
import { lineageRouter, lineageBetaRouter } from './http/routes/lineage.js';
import { loadWebUi, webUiMiddleware } from './http/web-ui.js';
import { impactRouter } from './http/routes/impact.js';
import type { CommitterOptions } from './ingest/committer.js';
import type { Duration } from './domain/duration.js';

export interface AppOptions {
  db: Db;
  logger: Logger;
  bodyLimitBytes: number;
  /** Group-commit settings (see CommitterOptions); unset ones take the committer's defaults. */
  ingest?: Partial<CommitterOptions>;
  /** The lineage window when a request names none (LINEAGE_WINDOW; default P30D). */
  lineageWindow?: Duration;
  /** Admission of query API requests (QUERY_MAX_CONCURRENT, QUERY_MAX_WAIT_MS); unset ones take the defaults. */
  queries?: Partial<AdmissionOptions>;
  /** Most facet property keys in the database (FACET_KEYS_MAX). */
  facetKeysMax?: number;
  metrics?: Metrics;
  /**
   * The built web UI to serve at `/` (server.ts: `dist/web`). Unset: no UI, and every non-API path
   * is a JSON 404, as before; set but not built: non-API pages answer a 404 that says to build it.
   */
  webRoot?: string;
}

export interface App {
  koa: Koa;
  services: Services;
}

export function createApp(opts: AppOptions): App {
  const metrics = opts.metrics ?? createMetrics();
  const services = createServices(opts.db, opts.logger, metrics, opts.ingest, { window: opts.lineageWindow }, opts.queries, opts.facetKeysMax);
  const koa = new Koa();
  koa.proxy = true;
  // Errors are answered and logged by our middleware; keep Koa's default stderr printing quiet.
  koa.silent = true;

  koa.use(requestLog(opts.logger, metrics));
  // gzip or br by Accept-Encoding above 1 KiB: a deep lineage answer is tens of MB of JSON, a few
  // hundred KB compressed. Moderate levels: br 4 / gzip 6 cost a few ms per MB on the 2-core VM.
  // An Accept-Encoding that accepts nothing we have (`*;q=0` without identity, malformed q values)
  // gets the body unencoded: koa-compress would fail on it with a 500.
  koa.use(async (ctx, next) => {
    if (ctx.get('accept-encoding') !== '' && !ctx.acceptsEncodings('br', 'gzip', 'identity')) ctx.compress = false;
    await next();
  });
  koa.use(
    compress({
      threshold: 1024,
      br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
      gzip: { level: 6 },
      deflate: false,
    }),
  );
  koa.use(errorHandler(opts.logger));
  koa.use(declaredLengthLimit(opts.bodyLimitBytes));
  koa.use(stateChangingRequests());
  koa.use(admission(services.admission));
  koa.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: `${opts.bodyLimitBytes}b`,
      strict: true,
      onerror: (err) => {
        throw bodyError(err);
      },
    }),
  );

  const api = new Router({ prefix: '/api/v1' });
  for (const r of [namespacesRouter(services), lineageIngestRouter(services), datasetsRouter(services), jobsRouter(services), sourcesRouter(services), tagsRouter(services), searchRouter(services), eventsRouter(services), statsRouter(services)]) api.use(r.routes(), r.allowedMethods());
  const lineageApi = lineageRouter(services);
  api.use(lineageApi.routes(), lineageApi.allowedMethods());
  const impactApi = impactRouter(services);
  api.use(impactApi.routes(), impactApi.allowedMethods());
  const beta = new Router({ prefix: '/api/v1-beta' });
  const lineageBeta = lineageBetaRouter(services);
  beta.use(lineageBeta.routes(), lineageBeta.allowedMethods());
  const root = new Router();
  const health = healthRouter(services);
  root.use(health.routes(), health.allowedMethods());
  root.use(api.routes(), api.allowedMethods());
  root.use(beta.routes(), beta.allowedMethods());
  koa.use(root.routes());
  koa.use(root.allowedMethods());
  if (opts.webRoot !== undefined) {
    const ui = loadWebUi(opts.webRoot);
    if (!ui) opts.logger.warn({ webRoot: opts.webRoot }, 'the web UI is not built: run npm run build to serve it at /');
    koa.use(webUiMiddleware(ui));
  }
  return { koa, services };
}
