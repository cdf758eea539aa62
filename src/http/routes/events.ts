/**
 * GET /events/lineage: the stored raw events as received, by eventTime.
 * `after` (inclusive) and `before` (exclusive, as in Marquez: windows that meet do not share an event);
 * ISO-8601 date-times with an offset or Z, or YYYY-MM-DD,
 * `sortDirection=desc|asc` (default desc: newest first), `limit`, `offset`.
 */
import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { pageQuery } from '../pagination.js';
import { Param } from '../params.js';
import { routes, type RouteRuntime } from '../route.js';
import { LineageEventList } from '../../api/schemas.js';

export function eventsRouter({ events }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  routes(
    runtime,
    router,
  )({
    method: 'GET',
    path: '/events/lineage',
    operationId: 'listLineageEvents',
    summary: 'List the stored OpenLineage events, as received',
    tags: ['Lineage events'],
    scope: 'read',
    query: {
      after: Type.Optional(Param.instant('Events at or after this time (no offset: UTC)')),
      before: Type.Optional(Param.instant('Events before this time, not at it (no offset: UTC)')),
      sortDirection: Param.oneOf(['desc', 'asc'] as const, {
        default: 'desc',
        description: 'By eventTime; desc: newest first',
      }),
      ...pageQuery(),
    },
    success: { status: 200, description: 'One page of events', schema: LineageEventList },
    handler: async ({ query }) => {
      // Every event: event times reach back to year 0 (Marquez's default, 1970, hid the earlier ones).
      const after = query.after?.toISOString() ?? '0000-01-01T00:00:00.000Z';
      const before = query.before?.toISOString() ?? '9999-12-31T23:59:59.999Z';
      const page = await events.list({ after, before, direction: query.sortDirection }, query.offset, query.limit);
      return { events: page.items, totalCount: page.totalCount };
    },
  });
  return router;
}
