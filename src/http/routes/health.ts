/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: Neo4j answers too, and the
 * start-up work registered in Services.readiness has settled).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../context.js';
import { isConnectionError } from '../../neo4j/availability.js';

/** Not ready: 503 with Retry-After, so balancers and clients come back shortly. */
function notReady(ctx: Context, body: Record<string, unknown>): void {
  ctx.status = 503;
  ctx.set('Retry-After', '1');
  ctx.body = { code: 503, ...body };
}

export function healthRouter({ db, metrics, readiness }: Services): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    // Known down (a refused connection, or the local server's exit): say so without waiting.
    if (db.availability.isDown) {
      notReady(ctx, { error: 'unavailable', message: `Neo4j is not reachable: ${db.availability.reason}`, status: 'not_ready', neo4j: 'down', downForMs: Math.round(db.availability.downForMs) });
      return;
    }
    try {
      await db.ping(2000);
    } catch (err) {
      // A refused or lost connection makes requests fail fast from now on (availability.ts).
      if (isConnectionError(err)) db.availability.markDown((err as Error).message);
      notReady(ctx, { error: 'unavailable', message: `Neo4j is not reachable: ${(err as Error).message}`, status: 'not_ready', neo4j: 'down' });
      return;
    }
    const warmingUp = readiness.warmingUp;
    if (warmingUp.length > 0) notReady(ctx, { error: 'warming_up', message: `Still starting: ${warmingUp.join(', ')}`, status: 'warming_up', neo4j: 'up', warmingUp });
    else ctx.body = { status: 'ready', neo4j: 'up' };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}
