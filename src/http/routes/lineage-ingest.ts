/**
 * POST /api/v1/lineage (one event) and POST /api/v1/lineage/batch (an array; each event all-or-nothing).
 * 201 is answered only after the event's transaction has committed.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../context.js';
import { HttpError, badRequest, unprocessable } from '../errors.js';
import { parseEvent } from '../../domain/openlineage/normalize.js';
import { RunJobConflict } from '../../domain/ingest/run-fold.js';
import type { ValidationProblem } from '../../domain/openlineage/types.js';
import { IngestOverloaded } from '../../ingest/committer.js';
import { toHttpError } from '../middleware/errors.js';

function requireJson(ctx: Context): unknown {
  if (!ctx.is('application/json', '+json')) {
    throw new HttpError(415, 'unsupported_media_type', `Content-Type must be application/json, got '${ctx.get('content-type') || 'none'}'`);
  }
  const raw = (ctx.request as unknown as { rawBody?: string }).rawBody;
  if (raw === undefined || raw.trim() === '') throw badRequest('The request body is empty; expected a JSON OpenLineage event');
  return ctx.request.body;
}

/** 422: `limit_exceeded` naming the limits (docs/operations.md#limits) when the event is past one, else `validation_failed`. */
function invalidEvent(problems: ValidationProblem[]): HttpError {
  const message = problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ');
  const limits = [...new Set(problems.flatMap((p) => (p.limit ? [p.limit] : [])))];
  if (limits.length > 0) return new HttpError(422, 'limit_exceeded', `OpenLineage event over a limit: ${message}`, { errors: problems, limits });
  return unprocessable(`Invalid OpenLineage event: ${message}`, { errors: problems });
}

function ingestError(err: unknown): HttpError {
  if (err instanceof RunJobConflict) return new HttpError(409, 'conflict', err.message);
  if (err instanceof IngestOverloaded) return new HttpError(503, 'overloaded', err.message);
  return toHttpError(err) ?? new HttpError(503, 'unavailable', 'The event could not be stored; retry later');
}

export function lineageIngestRouter({ committer, facetKeys, metrics, logger }: Services): Router {
  const router = new Router();

  router.post('/lineage', async (ctx) => {
    const parsed = parseEvent(requireJson(ctx));
    if (!parsed.ok) {
      metrics.eventsIngested.labels('unknown', 'invalid').inc();
      throw invalidEvent(parsed.problems);
    }
    try {
      await facetKeys.admit(parsed.event);
      await committer.submit(parsed.event);
    } catch (err) {
      const httpError = ingestError(err);
      if (httpError.status >= 500 && httpError.kind !== 'overloaded') logger.error({ err }, 'event not stored');
      metrics.eventsIngested.labels(parsed.event.kind, 'failed').inc();
      throw httpError;
    }
    metrics.eventsIngested.labels(parsed.event.kind, 'stored').inc();
    ctx.status = 201;
  });

  router.post('/lineage/batch', async (ctx) => {
    const body = requireJson(ctx);
    if (!Array.isArray(body)) throw badRequest('The batch body must be a JSON array of OpenLineage events');
    const failed: { index: number; reason: string; retriable: boolean }[] = [];
    await Promise.all(
      body.map(async (item, index) => {
        const parsed = parseEvent(item);
        if (!parsed.ok) {
          failed.push({ index, reason: parsed.problems.map((p) => `${p.path || '/'} ${p.message}`).join('; '), retriable: false });
          return;
        }
        try {
          await facetKeys.admit(parsed.event);
          await committer.submit(parsed.event);
          metrics.eventsIngested.labels(parsed.event.kind, 'stored').inc();
        } catch (err) {
          const e = ingestError(err);
          failed.push({ index, reason: e.message, retriable: e.status >= 500 });
          metrics.eventsIngested.labels(parsed.event.kind, 'failed').inc();
        }
      }),
    );
    failed.sort((a, b) => a.index - b.index);
    const successful = body.length - failed.length;
    // Nothing stored and something worth retrying (overload, Neo4j away): a 503 with Retry-After, so
    // a producer backs off instead of reading a 200 whose every event was refused.
    const refusedForNow = successful === 0 && failed.some((f) => f.retriable);
    ctx.status = refusedForNow ? 503 : 200;
    if (refusedForNow) ctx.set('Retry-After', '1');
    ctx.body = {
      status: failed.length === 0 ? 'success' : successful === 0 ? 'failure' : 'partial_success',
      summary: { received: body.length, successful, failed: failed.length },
      failed_events: failed,
    };
  });

  return router;
}
