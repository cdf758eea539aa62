/** GET /sources, GET /sources/{source}: the data sources datasets come from. */
import Router from '@koa/router';
import type { Services } from '../context.js';
import { notFound } from '../errors.js';
import { pageParams } from '../pagination.js';

export function sourcesRouter({ sources }: Services): Router {
  const router = new Router();
  router.get('/sources', async (ctx) => {
    const { limit, offset } = pageParams(ctx.query);
    const page = await sources.list(offset, limit);
    ctx.body = { sources: page.items, totalCount: page.totalCount };
  });
  router.get('/sources/:source', async (ctx) => {
    const source = await sources.get(ctx.params.source);
    if (!source) throw notFound(`Source '${ctx.params.source}' not found.`);
    ctx.body = source;
  });
  return router;
}
