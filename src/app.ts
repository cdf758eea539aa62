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
import { createServices, type Services } from './services.js';
import { bodyError, errorHandler } from './http/middleware/errors.js';
import { declaredLengthLimit, stateChangingRequests } from './http/middleware/request-guards.js';
import { admission, type AdmissionOptions } from './http/middleware/admission.js';
import { requestLog } from './http/middleware/request-log.js';
import { streamLargeJson } from './http/middleware/json-stream.js';
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
import { legacyRouter } from './http/routes/legacy.js';
import { docsRouter } from './http/routes/docs.js';
import { buildOpenApi, type OpenApiDocument } from './http/openapi.js';
import type { RouteRuntime } from './http/route.js';
import { AUTH_OFF, createAuthorizer, type AuthOptions } from './http/auth.js';
import { requestId } from './http/middleware/request-id.js';
import { reserveBody } from './http/body-budget.js';
import { securityHeaders } from './http/middleware/security.js';
import cors from '@koa/cors';
import { packageVersion } from './paths.js';
import type { CommitterOptions } from './ingest/committer.js';
import type { Duration } from './domain/duration.js';

export interface AppOptions {
  db: Db;
  logger: Logger;
  bodyLimitBytes: number;
  /** Request-body bytes in flight at once (BODY_BYTES_IN_FLIGHT; 0 off); unset: the default (12 MiB). */
  bodyBytesInFlight?: number;
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
  /** API keys and scopes (AUTH_MODE; default off: every route open). */
  auth?: AuthOptions;
  /** Origins allowed to call the API from a browser (CORS_ORIGINS; `*` any); empty: no CORS headers. */
  corsOrigins?: readonly string[];
  /** Trust X-Forwarded-For/-Proto/-Host (TRUST_PROXY): true, or the number of proxies in front. */
  trustProxy?: boolean | number;
}

export interface App {
  koa: Koa;
  services: Services;
  /** Every route, as mounted (the OpenAPI document and the auth tests read it). */
  router: Router;
  /** The OpenAPI document of `router`, served at /api/v1/openapi.json. */
  openapi(): OpenApiDocument;
}

export function createApp(opts: AppOptions): App {
  const metrics = opts.metrics ?? createMetrics();
  const services = createServices(
    opts.db,
    opts.logger,
    metrics,
    opts.ingest,
    { window: opts.lineageWindow },
    opts.queries,
    opts.facetKeysMax,
    opts.bodyBytesInFlight,
  );
  const koa = new Koa();
  koa.proxy = opts.trustProxy !== undefined && opts.trustProxy !== false;
  if (typeof opts.trustProxy === 'number') koa.maxIpsCount = opts.trustProxy;
  // Errors are answered and logged by our middleware; keep Koa's default stderr printing quiet.
  koa.silent = true;

  koa.use(requestId());
  koa.use(requestLog(opts.logger, metrics));
  koa.use(securityHeaders());
  const origins = opts.corsOrigins ?? [];
  if (origins.length > 0) {
    koa.use(
      cors({
        origin: (ctx) => (origins.includes('*') ? '*' : origins.includes(ctx.get('Origin')) ? ctx.get('Origin') : ''),
        allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
        allowHeaders: ['Authorization', 'X-Api-Key', 'Content-Type', 'Content-Encoding', 'X-Request-Id'],
        exposeHeaders: [
          'X-Request-Id',
          'WWW-Authenticate',
          'Retry-After',
          'Content-Disposition',
          'X-Total-Count',
          'X-Truncated',
        ],
        maxAge: 600,
      }),
    );
  }
  // gzip or br by Accept-Encoding above 1 KiB: a deep lineage answer is tens of MB of JSON, a few
  // hundred KB compressed. Fast levels (br 3 / gzip 3: 2.4 / 2 ms per MB of lineage JSON on the 2-core VM,
  // against 3.4 / 5.2 ms at br 4 / gzip 6) for answers 5% / 26% larger: on a big lineage answer the
  // compressor runs after the last record, on the critical path (docs/performance/README.md).
  // An Accept-Encoding that accepts nothing we have (`*;q=0` without identity, malformed q values)
  // gets the body unencoded: koa-compress would fail on it with a 500.
  koa.use(async (ctx, next) => {
    if (ctx.get('accept-encoding') !== '' && !ctx.acceptsEncodings('br', 'gzip', 'identity')) ctx.compress = false;
    await next();
  });
  koa.use(
    compress({
      threshold: 1024,
      br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 3 } },
      gzip: { level: 3 },
      deflate: false,
    }),
  );
  koa.use(streamLargeJson());
  koa.use(errorHandler(opts.logger));
  koa.use(declaredLengthLimit(opts.bodyLimitBytes));
  koa.use(stateChangingRequests(origins));
  koa.use(admission(services.admission));

  // Bodies are parsed by the routes that declare one, after the caller's key is checked (route.ts).
  const runtime: RouteRuntime = {
    authorize: createAuthorizer(opts.auth ?? AUTH_OFF),
    parseBody: bodyParser({
      enableTypes: ['json'],
      // Every `application/*+json` the routes accept (the parser alone knows only a few of them).
      extendTypes: { json: ['+json'] },
      jsonLimit: `${opts.bodyLimitBytes}b`,
      strict: true,
      onerror: (err) => {
        throw bodyError(err);
      },
    }),
    reserveBody: (ctx) => reserveBody(services.bodyBudget, opts.bodyLimitBytes, ctx),
  };
  const api = new Router({ prefix: '/api/v1' });
  for (const make of [
    namespacesRouter,
    lineageIngestRouter,
    datasetsRouter,
    jobsRouter,
    sourcesRouter,
    tagsRouter,
    searchRouter,
    eventsRouter,
    statsRouter,
    lineageRouter,
    impactRouter,
    legacyRouter,
  ]) {
    const r = make(services, runtime);
    api.use(r.routes(), r.allowedMethods());
  }
  const beta = new Router({ prefix: '/api/v1-beta' });
  const lineageBeta = lineageBetaRouter(services, runtime);
  beta.use(lineageBeta.routes(), lineageBeta.allowedMethods());
  const root = new Router();
  const health = healthRouter(services, runtime, { metricsPublic: opts.auth?.metricsPublic ?? false });
  root.use(health.routes(), health.allowedMethods());
  let document: OpenApiDocument | null = null;
  const openapi = () => (document ??= buildOpenApi(root, { version: packageVersion }));
  const docs = docsRouter(runtime, openapi);
  root.use(docs.routes(), docs.allowedMethods());
  root.use(api.routes(), api.allowedMethods());
  root.use(beta.routes(), beta.allowedMethods());
  koa.use(root.routes());
  koa.use(root.allowedMethods());
  if (opts.webRoot !== undefined) {
    const ui = loadWebUi(opts.webRoot);
    if (!ui) opts.logger.warn({ webRoot: opts.webRoot }, 'the web UI is not built: run npm run build to serve it at /');
    koa.use(webUiMiddleware(ui));
  }
  return { koa, services, router: root, openapi };
}
