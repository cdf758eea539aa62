/**
 * GET /stats/lineage-events, /stats/jobs, /stats/datasets, /stats/sources: a JSON array of time
 * buckets (as Marquez answers). `period=DAY` (default): the last 24 hours, hourly; `period=WEEK`: the
 * last 7 days, daily. `timezone` (IANA zone id, default UTC) says where hours and days begin.
 */
import Router from '@koa/router';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Services } from '../context.js';
import { badRequest } from '../errors.js';
import { enumParam, stringParam } from '../pagination.js';
import { PERIODS, STAT_KINDS } from '../../store/stats.js';

function timezoneParam(query: ParsedUrlQuery): string {
  const raw = stringParam(query, 'timezone');
  if (raw === undefined || raw.trim() === '') return 'UTC';
  try {
    // Canonical spelling (e.g. 'europe/paris' → 'Europe/Paris'); throws RangeError for unknown zones.
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: raw.trim() }).resolvedOptions().timeZone;
    return zone === 'Etc/UTC' || zone === 'Etc/GMT' ? 'UTC' : zone;
  } catch {
    throw badRequest(`Query parameter 'timezone' must be a time zone id such as UTC or Europe/Paris, got '${raw}'`);
  }
}

/** A zone both Intl and Neo4j must know; Neo4j's zone database may still reject a rare one. */
function zoneError(err: unknown, zone: string): Error {
  const code = (err as { code?: string }).code ?? '';
  if (code.startsWith('Neo.ClientError.Statement.')) return badRequest(`Time zone '${zone}' is not supported`);
  return err as Error;
}

export function statsRouter({ stats }: Services): Router {
  const router = new Router();
  router.get('/stats/lineage-events', async (ctx) => {
    const period = enumParam(ctx.query, 'period', PERIODS, 'DAY');
    const zone = timezoneParam(ctx.query);
    ctx.body = await stats.lineageEvents(period, zone).catch((err) => Promise.reject(zoneError(err, zone)));
  });
  for (const kind of STAT_KINDS) {
    router.get(`/stats/${kind}`, async (ctx) => {
      const period = enumParam(ctx.query, 'period', PERIODS, 'DAY');
      const zone = timezoneParam(ctx.query);
      ctx.body = await stats.counts(kind, period, zone).catch((err) => Promise.reject(zoneError(err, zone)));
    });
  }
  return router;
}
