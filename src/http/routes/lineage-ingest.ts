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
import type { Services } from '../../services.js';
import { HttpError, unprocessable } from '../errors.js';
import { parseEvent } from '../../domain/openlineage/normalize.js';
import { eventNamespaces } from '../../domain/openlineage/namespaces.js';
import { eventSchema } from '../../domain/openlineage/event-schema.js';
import type { NormalizedEvent, ValidationProblem } from '../../domain/openlineage/types.js';
import { RunJobConflict } from '../../domain/ingest/run-fold.js';
import { IngestOverloaded } from '../../ingest/committer.js';
import { toHttpError } from '../middleware/errors.js';
import { routes, type RouteRuntime } from '../route.js';
import { forbiddenNamespace, namespaceForbidden, principalOf, type Principal } from '../auth.js';
import { BatchResult, ErrorBody } from '../../api/schemas.js';
import type { Metrics } from '../../metrics.js';

/**
 * 422: `limit_exceeded` naming the limits (docs/operations.md#limits) when the event is past one, else
 * `validation_failed`.
 */
export function invalidEvent(problems: ValidationProblem[]): HttpError {
  const message = problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ');
  const errors = problems.map((p) => ({ ...p, in: 'body' }));
  const limits = [...new Set(problems.flatMap((p) => (p.limit ? [p.limit] : [])))];
  if (limits.length > 0)
    return new HttpError(422, 'limit_exceeded', `OpenLineage event over a limit: ${message}`, { errors, limits });
  return unprocessable(`Invalid OpenLineage event: ${message}`, { errors });
}

function ingestError(err: unknown): HttpError {
  if (err instanceof RunJobConflict) return new HttpError(409, 'conflict', err.message);
  if (err instanceof IngestOverloaded) return new HttpError(503, 'overloaded', err.message);
  return toHttpError(err) ?? new HttpError(503, 'unavailable', 'The event could not be stored; retry later');
}

/** The OpenLineage event as the document and the validation both see it (the same object). */
export const OpenLineageEvent = eventSchema as unknown as TUnsafe<Record<string, unknown>>;

/**
 * 403 when the caller's key may not write into one of the event's namespaces; the event is counted
 * in lineage_events_total with outcome `forbidden`.
 */
export function checkNamespaces(principal: Principal | undefined, event: NormalizedEvent, metrics: Metrics): void {
  const outside = forbiddenNamespace(principal, eventNamespaces(event));
  if (outside === null) return;
  metrics.eventsIngested.labels(event.kind, 'forbidden').inc();
  throw namespaceForbidden(principal!, outside);
}

export function lineageIngestRouter(
  { committer, facetKeys, metrics, logger }: Services,
  runtime: RouteRuntime,
): Router {
  const router = new Router();
  const declare = routes(runtime, router);

  /** Commits one normalized event; resolves once it is durable. */
  async function commit(event: NormalizedEvent): Promise<void> {
    try {
      await facetKeys.admit(event);
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
      // The event's own checks (nesting first, the shape, then the limits) run in the handler: a
      // limit gets its own 422 code.
      problems: () => [],
    },
    success: { status: 201, description: 'The event is committed (empty body)' },
    errors: {
      403: "The key may not write into one of the event's namespaces (nothing is written)",
      409: 'The run id belongs to another job',
      503:
        'Not stored for now (overloaded: the ingest queue or BODY_BYTES_IN_FLIGHT is full; or Neo4j unavailable): ' +
        'send it again after Retry-After',
    },
    handler: async ({ body }, ctx) => {
      const parsed = parseEvent(body);
      if (!parsed.ok) {
        metrics.eventsIngested.labels('unknown', 'invalid').inc();
        throw invalidEvent(parsed.problems);
      }
      const event = parsed.event;
      checkNamespaces(principalOf(ctx), event, metrics);
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
      'Each event is all-or-nothing: the answer lists the events that failed, with whether sending them again may ' +
      "work (`retriable`). An event outside the key's namespaces is a failed entry; the others are written.",
    tags: ['Ingestion'],
    scope: 'write',
    body: { schema: Type.Array(OpenLineageEvent), what: 'a JSON array of OpenLineage events', problems: () => [] },
    success: { status: 200, description: 'What was stored and what failed', schema: BatchResult },
    errors: {
      503: {
        description:
          'Nothing stored and something worth retrying (overloaded, Neo4j unavailable), with Retry-After; the body ' +
          'lists each event as for 200. Refused before its body was read (BODY_BYTES_IN_FLIGHT taken): an ' +
          'Error',
        schema: Type.Union([BatchResult, ErrorBody]),
      },
    },
    handler: async ({ body }, ctx) => {
      const principal = principalOf(ctx);
      const failed: { index: number; reason: string; retriable: boolean }[] = [];
      await Promise.all(
        body.map(async (item, index) => {
          const parsed = parseEvent(item);
          if (!parsed.ok) {
            metrics.eventsIngested.labels('unknown', 'invalid').inc();
            failed.push({
              index,
              reason: parsed.problems.map((p) => `${p.path || '/'} ${p.message}`).join('; '),
              retriable: false,
            });
            return;
          }
          const event = parsed.event;
          try {
            checkNamespaces(principal, event, metrics);
          } catch (err) {
            failed.push({ index, reason: (err as HttpError).message, retriable: false });
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
      const result = {
        status:
          failed.length === 0
            ? ('success' as const)
            : successful === 0
              ? ('failure' as const)
              : ('partial_success' as const),
        summary: { received: body.length, successful, failed: failed.length },
        failed_events: failed,
      };
      // The request's log line says what was refused (request-log.ts), as for an error answer.
      if (failed.length > 0) {
        ctx.state.refusal = {
          error: result.status,
          reason:
            `${failed.length} of ${body.length} events refused; first, #${failed[0].index}: ${failed[0].reason}`.slice(
              0,
              500,
            ),
        };
      }
      // Nothing stored and something worth retrying (overload, Neo4j away): a 503 with Retry-After, so
      // a producer backs off instead of reading a 200 whose every event was refused.
      if (successful === 0 && failed.some((f) => f.retriable)) {
        ctx.status = 503;
        ctx.set('Retry-After', '1');
        ctx.body = result;
        return;
      }
      return result;
    },
  });

  return router;
}
