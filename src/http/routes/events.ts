/**
 * GET /events/lineage: the stored raw events as received, by eventTime.
 * `after`/`before` (ISO-8601 date-times with an offset or Z, or YYYY-MM-DD; inclusive),
 * `sortDirection=desc|asc` (default desc: newest first), `limit`, `offset`.
 */
import Router from '@koa/router';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Services } from '../context.js';
import { badRequest } from '../errors.js';
import { enumParam, pageParams, stringParam } from '../pagination.js';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An instant given as ISO-8601 (no offset = UTC) → ISO with Z; 400 otherwise. */
export function instantParam(query: ParsedUrlQuery, name: string, fallback: string): string {
  const raw = stringParam(query, name);
  if (raw === undefined || raw === '') return fallback;
  let text = raw.trim().replace(' ', 'T');
  if (DATE_TIME.test(text)) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += 'T00:00:00Z';
    else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) text += 'Z';
    // Drop sub-millisecond digits, which Date does not parse everywhere.
    text = text.replace(/(\.\d{3})\d+/, '$1');
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  throw badRequest(`Query parameter '${name}' must be an ISO-8601 date-time (e.g. 2024-01-31T12:00:00Z), got '${raw}'`);
}

export function eventsRouter({ events }: Services): Router {
  const router = new Router();
  router.get('/events/lineage', async (ctx) => {
    const after = instantParam(ctx.query, 'after', '1970-01-01T00:00:00.000Z');
    const before = instantParam(ctx.query, 'before', '9999-12-31T23:59:59.999Z');
    const direction = enumParam(ctx.query, 'sortDirection', ['desc', 'asc'] as const, 'desc');
    const { limit, offset } = pageParams(ctx.query);
    const page = await events.list({ after, before, direction }, offset, limit);
    ctx.body = { events: page.items, totalCount: page.totalCount };
  });
  return router;
}
