/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: Neo4j answers too, and the
 * start-up work registered in Services.readiness has settled); Prometheus `/metrics`.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../../services.js';
import { isConnectionError } from '../../neo4j/availability.js';
import { routes, type RouteRuntime } from '../route.js';
import { Health, NotReady, Ready } from '../../api/schemas.js';

/** Not ready: 503 with Retry-After, so balancers and clients come back shortly. */
function notReady(ctx: Context, body: Record<string, unknown>): void {
  ctx.status = 503;
  ctx.set('Retry-After', '1');
  ctx.body = { code: 503, ...body };
}

export function healthRouter(
  { db, metrics, readiness }: Services,
  runtime: RouteRuntime,
  opts: { metricsPublic: boolean },
): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  declare({
    method: 'GET',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness: the process answers',
    tags: ['Operations'],
    scope: 'public',
    static: true,
    success: { status: 200, description: 'Alive', schema: Health },
    handler: () => ({ status: 'ok' as const }),
  });
  declare({
    method: 'GET',
    path: '/readyz',
    operationId: 'ready',
    summary: 'Readiness: Neo4j answers and the start-up work is done',
    tags: ['Operations'],
    scope: 'public',
    static: true,
    success: { status: 200, description: 'Ready for traffic', schema: Ready },
    errors: {
      503: {
        description: 'Not ready: Neo4j does not answer, or the service is warming up (with Retry-After)',
        schema: NotReady,
      },
    },
    handler: async (_req, ctx) => {
      // Known down (a refused connection, or the local server's exit): say so without waiting.
      if (db.availability.isDown) {
        notReady(ctx, {
          error: 'unavailable',
          message: `Neo4j is not reachable: ${db.availability.reason}`,
          status: 'not_ready',
          neo4j: 'down',
          downForMs: Math.round(db.availability.downForMs),
        });
        return;
      }
      try {
        await db.ping(2000);
      } catch (err) {
        // A refused or lost connection makes requests fail fast from now on (availability.ts).
        if (isConnectionError(err)) db.availability.markDown((err as Error).message);
        notReady(ctx, {
          error: 'unavailable',
          message: `Neo4j is not reachable: ${(err as Error).message}`,
          status: 'not_ready',
          neo4j: 'down',
        });
        return;
      }
      const warmingUp = readiness.warmingUp;
      if (warmingUp.length > 0) {
        notReady(ctx, {
          error: 'warming_up',
          message: `Still starting: ${warmingUp.join(', ')}`,
          status: 'warming_up',
          neo4j: 'up',
          warmingUp,
        });
        return;
      }
      return { status: 'ready' as const, neo4j: 'up' as const };
    },
  });
  declare({
    method: 'GET',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description: 'Needs a key with scope `read` when auth is on, unless METRICS_PUBLIC=true.',
    tags: ['Operations'],
    scope: opts.metricsPublic ? 'public' : 'read',
    static: true,
    success: { status: 200, description: 'Metrics in the Prometheus text format', contentType: 'text/plain' },
    handler: async (_req, ctx) => {
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
    },
  });
  return router;
}
