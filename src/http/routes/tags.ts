/** GET /tags, PUT /tags/{tag} {description?}. (Tagging datasets, fields and jobs: datasets.ts, jobs.ts.) */
import Router from '@koa/router';
import type { Services } from '../context.js';
import { pageParams } from '../pagination.js';
import { jsonObjectBody, optionalString } from './namespaces.js';

export function tagsRouter({ tags }: Services): Router {
  const router = new Router();
  router.get('/tags', async (ctx) => {
    const { limit, offset } = pageParams(ctx.query);
    const page = await tags.list(offset, limit);
    ctx.body = { tags: page.items, totalCount: page.totalCount };
  });
  router.put('/tags/:tag', async (ctx) => {
    // The body is optional: no body (or {}) creates the tag without a description.
    const hasBody = ((ctx.request as unknown as { rawBody?: string }).rawBody ?? '').trim() !== '';
    const body = hasBody ? jsonObjectBody(ctx, '{"description": "..."}') : {};
    ctx.body = await tags.upsert(ctx.params.tag, optionalString(body, 'description'));
  });
  return router;
}
