/**
 * POST /api/v1/lineage (one event) and POST /api/v1/lineage/batch (an array; each event all-or-nothing).
 * 201 is answered only after the event's transaction has committed.
 *
 * A key limited to some namespaces (AUTH_MODE=apikey) may send only events whose every namespace is
 * among them (src/domain/openlineage/namespaces.ts): another event is refused with 403 before anything
 * is written; in a batch, each such event is one failed entry (not retriable) and the others are written.
 */
import Router from '@koa/router';
import { Type, type TUnsafe } from '@sinclair/typebox';
import type { Services } from '../context.js';
import { HttpError } from '../errors.js';
import { normalizeValidatedEvent } from '../../domain/openlineage/normalize.js';
import { validateShape } from '../../domain/openlineage/validate.js';
import { eventNamespaces } from '../../domain/openlineage/namespaces.js';
import { eventSchema } from '../../domain/openlineage/event-schema.js';
import type { NormalizedEvent } from '../../domain/openlineage/types.js';
import { RunJobConflict } from '../../domain/batch-plan.js';
import { IngestOverloaded } from '../../ingest/committer.js';
import { toHttpError } from '../middleware/errors.js';
import { routes, type RouteRuntime } from '../route.js';
import { forbiddenNamespace, namespaceForbidden, principalOf, type Principal } from '../auth.js';
import { BatchResult } from '../../api/schemas.js';

function ingestError(err: unknown): HttpError {
  if (err instanceof RunJobConflict) return new HttpError(409, 'conflict', err.message);
  if (err instanceof IngestOverloaded) return new HttpError(503, 'overloaded', err.message);
  return toHttpError(err) ?? new HttpError(503, 'unavailable', 'The event could not be stored; retry later');
}

/** The OpenLineage event as the document and the validation both see it (the same object). */
export const OpenLineageEvent = eventSchema as unknown as TUnsafe<Record<string, unknown>>;

/** 403 when the caller's key may not write into one of the event's namespaces. */
export function checkNamespaces(principal: Principal | undefined, event: NormalizedEvent): void {
  const outside = forbiddenNamespace(principal, eventNamespaces(event));
  if (outside !== null) throw namespaceForbidden(principal!, outside);
}

export function lineageIngestRouter({ committer, metrics, logger }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  const declare = routes(runtime, router);

  /** Commits one normalized event; resolves once it is durable. */
  async function commit(event: NormalizedEvent): Promise<void> {
    try {
      await committer.submit(event);
    } catch (err) {
      const httpError = ingestError(err);
      if (httpError.status >= 500 && httpError.kind !== 'overloaded') logger.error({ err }, 'event not stored');
      metrics.eventsIngested.labels(event.kind, 'failed').inc();
      throw httpError;
    }
    metrics.eventsIngested.labels(event.kind, 'stored').inc();
  }

  declare({
    method: 'POST',
    path: '/lineage',
    operationId: 'postLineageEvent',
    summary: 'Send one OpenLineage event',
    description: 'Answers 201 (empty) once the event is committed. `Content-Encoding: gzip` is accepted.',
    tags: ['Ingestion'],
    scope: 'write',
    body: {
      schema: OpenLineageEvent,
      what: 'a JSON OpenLineage event',
      problems: (body) => {
        const problems = validateShape(body);
        if (problems.length) metrics.eventsIngested.labels('unknown', 'invalid').inc();
        return problems;
      },
    },
    success: { status: 201, description: 'The event is committed (empty body)' },
    errors: { 403: 'The key may not write into one of the event\'s namespaces (nothing is written)', 409: 'The run id belongs to another job' },
    handler: async ({ body }, ctx) => {
      const event = normalizeValidatedEvent(body);
      checkNamespaces(principalOf(ctx), event);
      await commit(event);
      // Marquez answers an empty 201 (without an explicit null body, Koa writes the status text).
      ctx.body = null;
      ctx.status = 201;
    },
  });

  declare({
    method: 'POST',
    path: '/lineage/batch',
    operationId: 'postLineageBatch',
    summary: 'Send many OpenLineage events',
    description:
      'Each event is all-or-nothing: the answer lists the events that failed, with whether sending them again may work (`retriable`). An event outside the key\'s namespaces is a failed entry; the others are written.',
    tags: ['Ingestion'],
    scope: 'write',
    body: { schema: Type.Array(OpenLineageEvent), what: 'a JSON array of OpenLineage events', problems: () => [] },
    success: { status: 200, description: 'What was stored and what failed', schema: BatchResult },
    handler: async ({ body }, ctx) => {
      const principal = principalOf(ctx);
      const failed: { index: number; reason: string; retriable: boolean }[] = [];
      await Promise.all(
        body.map(async (item, index) => {
          const problems = validateShape(item);
          if (problems.length) {
            failed.push({ index, reason: problems.map((p) => `${p.path || '/'} ${p.message}`).join('; '), retriable: false });
            return;
          }
          const event = normalizeValidatedEvent(item);
          const outside = forbiddenNamespace(principal, eventNamespaces(event));
          if (outside !== null) {
            failed.push({ index, reason: namespaceForbidden(principal!, outside).message, retriable: false });
            return;
          }
          try {
            await commit(event);
          } catch (err) {
            const e = err as HttpError;
            failed.push({ index, reason: e.message, retriable: e.status >= 500 });
          }
        }),
      );
      failed.sort((a, b) => a.index - b.index);
      const successful = body.length - failed.length;
      return {
        status: failed.length === 0 ? ('success' as const) : successful === 0 ? ('failure' as const) : ('partial_success' as const),
        summary: { received: body.length, successful, failed: failed.length },
        failed_events: failed,
      };
    },
  });

  return router;
}
