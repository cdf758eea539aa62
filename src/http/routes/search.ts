/**
 * GET /search?q=...: case-insensitive substring search over dataset and job names.
 * `filter=dataset|job`, `sort=name|updated_at|relevance` (updated_at: most recent first; relevance: exact
 * matches, then prefix matches, then the rest), `limit` (default 10,
 * at most 1000), `offset`, `namespace`, `after`/`before` (YYYY-MM-DD, UTC: updatedAt on or after
 * `after`, strictly before `before`).
 */
import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { pageQuery } from '../pagination.js';
import { Param } from '../params.js';
import { routes, type RouteRuntime } from '../route.js';
import { SEARCH_FILTERS } from '../../store/search.js';
import { SearchResults } from '../../api/schemas.js';

export function searchRouter({ search }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  routes(
    runtime,
    router,
  )({
    method: 'GET',
    path: '/search',
    operationId: 'search',
    summary: 'Search dataset and job names',
    description: 'Case-insensitive substring search over dataset and job names.',
    tags: ['Search'],
    scope: 'read',
    query: {
      q: Param.text({ description: 'The text to look for', examples: ['orders'] }),
      filter: Param.oneOf([...SEARCH_FILTERS, 'all'] as const, {
        default: 'all',
        description: 'Only datasets or only jobs',
      }),
      // Marquez spells the second sort UPDATE_AT; accept both. `relevance` is ours (the web UI's typeahead).
      sort: Param.oneOf(['name', 'updated_at', 'update_at', 'relevance'] as const, {
        default: 'name',
        description:
          '`updated_at`: most recently updated first; `relevance`: names equal to `q` first, then names starting ' +
          'with it, then the others (each by name)',
      }),
      ...pageQuery(10),
      namespace: Type.Optional(Param.text({ description: 'Only this namespace' })),
      after: Type.Optional(Param.calendarDate('Updated on or after this day (UTC)')),
      before: Type.Optional(Param.calendarDate('Updated strictly before this day (UTC)')),
    },
    success: { status: 200, description: 'The matches', schema: SearchResults },
    handler: async ({ query }) =>
      search.search({
        q: query.q,
        filter: query.filter === 'all' ? null : query.filter,
        sort: query.sort === 'update_at' ? 'updated_at' : query.sort,
        namespace: query.namespace ?? null,
        after: query.after?.toISOString() ?? null,
        before: query.before?.toISOString() ?? null,
        offset: query.offset,
        limit: query.limit,
      }),
  });
  return router;
}
