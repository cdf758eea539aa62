/**
 * GET /stats/lineage-events, /stats/jobs, /stats/datasets, /stats/sources: a JSON array of time
 * buckets (as Marquez answers). `period=DAY` (default): the last 24 hours, hourly; `period=WEEK`: the
 * last 7 days, daily. `timezone` (IANA zone id, default UTC) says where hours and days begin.
 */
import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { badRequest } from '../errors.js';
import { Param } from '../params.js';
import { routes, type RouteRuntime } from '../route.js';
import { PERIODS, STAT_KINDS } from '../../store/stats.js';
import { IntervalMetric, LineageMetric } from '../../api/schemas.js';

/** A zone both Intl and Neo4j must know; Neo4j's zone database may still reject a rare one. */
function zoneError(err: unknown, zone: string): Error {
  const code = (err as { code?: string }).code ?? '';
  if (code.startsWith('Neo.ClientError.Statement.')) return badRequest(`Time zone '${zone}' is not supported`);
  return err as Error;
}

const statsQuery = {
  period: Param.oneOf(PERIODS, {
    default: 'DAY',
    description: 'DAY: the last 24 hours, hourly; WEEK: the last 7 days, daily',
  }),
  timezone: Type.Optional(Param.timeZone('Where hours and days begin (IANA zone id; default UTC)')),
};

export function statsRouter({ stats }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  declare({
    method: 'GET',
    path: '/stats/lineage-events',
    operationId: 'statsLineageEvents',
    summary: 'Lineage events per time bucket, by event type',
    tags: ['Stats'],
    scope: 'read',
    query: statsQuery,
    success: { status: 200, description: 'The buckets, oldest first', schema: Type.Array(LineageMetric) },
    handler: async ({ query }) => {
      const zone = query.timezone ?? 'UTC';
      return stats.lineageEvents(query.period, zone).catch((err) => Promise.reject(zoneError(err, zone)));
    },
  });
  for (const kind of STAT_KINDS) {
    declare({
      method: 'GET',
      path: `/stats/${kind}`,
      operationId: `stats${kind[0].toUpperCase()}${kind.slice(1)}`,
      summary: `Cumulative count of ${kind} per time bucket`,
      tags: ['Stats'],
      scope: 'read',
      query: statsQuery,
      success: { status: 200, description: 'The buckets, oldest first', schema: Type.Array(IntervalMetric) },
      handler: async ({ query }) => {
        const zone = query.timezone ?? 'UTC';
        return stats.counts(kind, query.period, zone).catch((err) => Promise.reject(zoneError(err, zone)));
      },
    });
  }
  return router;
}
