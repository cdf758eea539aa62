/**
 * GET /search?q=...: case-insensitive substring search over dataset and job names.
 * `filter=dataset|job`, `sort=name|updated_at` (updated_at: most recent first), `limit` (default 10,
 * at most 1000), `offset`, `namespace`, `after`/`before` (YYYY-MM-DD, UTC: updatedAt on or after
 * `after`, strictly before `before`).
 */
import Router from '@koa/router';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Services } from '../context.js';
import { badRequest } from '../errors.js';
import { enumParam, pageParams, stringParam } from '../pagination.js';
import { SEARCH_FILTERS } from '../../store/search.js';

/** A `YYYY-MM-DD` calendar date → midnight UTC as ISO, 400 otherwise. */
export function dateParam(query: ParsedUrlQuery, name: string): string | null {
  const raw = stringParam(query, name);
  if (raw === undefined || raw === '') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !d || d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) {
    throw badRequest(`Query parameter '${name}' must be a date YYYY-MM-DD, got '${raw}'`);
  }
  return d.toISOString();
}

export function searchRouter({ search }: Services): Router {
  const router = new Router();
  router.get('/search', async (ctx) => {
    const q = stringParam(ctx.query, 'q');
    if (q === undefined || q.trim() === '') throw badRequest("Query parameter 'q' is required");
    const filter = enumParam(ctx.query, 'filter', [...SEARCH_FILTERS, 'all'] as const, 'all');
    // Marquez spells the second sort UPDATE_AT; accept both.
    const sort = enumParam(ctx.query, 'sort', ['name', 'updated_at', 'update_at'] as const, 'name');
    const { limit, offset } = pageParams(ctx.query, 10);
    const namespace = stringParam(ctx.query, 'namespace');
    ctx.body = await search.search({
      q,
      filter: filter === 'all' ? null : filter,
      sort: sort === 'name' ? 'name' : 'updated_at',
      namespace: namespace === undefined || namespace === '' ? null : namespace,
      after: dateParam(ctx.query, 'after'),
      before: dateParam(ctx.query, 'before'),
      offset,
      limit,
    });
  });
  return router;
}
