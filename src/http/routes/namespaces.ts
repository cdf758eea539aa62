import Router from '@koa/router';
import type { Services } from '../context.js';
import { notFound } from '../errors.js';
import { pageParams } from '../pagination.js';

export function namespacesRouter({ namespaces }: Services): Router {
  const router = new Router();
  router.get('/namespaces', async (ctx) => {
    const { limit, offset } = pageParams(ctx.query);
    const page = await namespaces.list(offset, limit);
    ctx.body = { namespaces: page.items, totalCount: page.totalCount };
  });
  router.get('/namespaces/:namespace', async (ctx) => {
    const ns = await namespaces.get(ctx.params.namespace);
    if (!ns) throw notFound(`Namespace '${ctx.params.namespace}' not found.`);
    ctx.body = ns;
  });
  return router;
}
