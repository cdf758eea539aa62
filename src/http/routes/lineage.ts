/**
 * The lineage graph: GET /api/v1/lineage (and /api/v1-beta/lineage), /api/v1/column-lineage and
 * /api/v1/runlineage/upstream. Semantics: docs/lineage.md.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Services } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { enumParam, intParam, stringParam } from '../pagination.js';
import { NodeIdError, parseNodeId, type ParsedNodeId } from '../../domain/node-id.js';
import { serviceRunId } from '../../domain/openlineage/normalize.js';
import { DIRECTIONS, LINEAGE_INCLUDES, type LineageInclude, type LineageRepository } from '../../store/lineage/index.js';
import { parseDuration, type Duration } from '../../domain/duration.js';

export const DEFAULT_DEPTH = 20;
export const MAX_DEPTH = 100;

export function nodeIdParam(query: ParsedUrlQuery, name = 'nodeId'): ParsedNodeId {
  const raw = stringParam(query, name);
  if (raw === undefined || raw === '') throw badRequest(`Query parameter '${name}' is required (e.g. dataset:<namespace>:<name>)`);
  try {
    return parseNodeId(raw);
  } catch (err) {
    if (err instanceof NodeIdError) throw badRequest(err.message);
    throw err;
  }
}

function boolParam(query: ParsedUrlQuery, name: string, fallback: boolean): boolean {
  const raw = stringParam(query, name);
  if (raw === undefined || raw === '') return fallback;
  if (/^true$/i.test(raw)) return true;
  if (/^false$/i.test(raw)) return false;
  throw badRequest(`Query parameter '${name}' must be true or false, got '${raw}'`);
}

const depthParam = (query: ParsedUrlQuery) => intParam(query, 'depth', DEFAULT_DEPTH, 0, MAX_DEPTH);

/** `asOf`: an ISO 8601 time (an offset or Z; none means UTC, as for event times). Absent: now. */
export function asOfParam(query: ParsedUrlQuery, name = 'asOf'): Date | null {
  const raw = stringParam(query, name);
  if (raw === undefined || raw === '') return null;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(raw.trim());
  const time = m ? Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${m[3] ?? 'Z'}`) : NaN;
  if (!m || Number.isNaN(time)) throw badRequest(`Query parameter '${name}' must be an ISO 8601 time such as 2024-05-01T12:00:00Z, got '${raw}'`);
  return new Date(time);
}

/** `include`: a comma-separated list (or repeated parameter) of facets, latestRuns. */
function includeParam(query: ParsedUrlQuery): Set<LineageInclude> {
  const raw = query.include;
  const parts = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const out = new Set<LineageInclude>();
  for (const part of parts) {
    const match = LINEAGE_INCLUDES.find((i) => i.toLowerCase() === part.toLowerCase());
    if (!match) throw badRequest(`Query parameter 'include' takes ${LINEAGE_INCLUDES.join(', ')}, got '${part}'`);
    out.add(match);
  }
  return out;
}

/** `window`: an ISO 8601 duration (P30D, PT12H) or `all`. Absent: undefined (the service's default). */
export function windowParam(query: ParsedUrlQuery): Duration | null | undefined {
  const raw = stringParam(query, 'window');
  if (raw === undefined || raw === '') return undefined;
  if (raw.toLowerCase() === 'all') return null;
  const d = parseDuration(raw);
  if (!d) throw badRequest(`Query parameter 'window' must be an ISO 8601 duration such as P30D or PT12H, or 'all', got '${raw}'`);
  return d;
}

export function notFoundFor(id: ParsedNodeId): Error {
  const what = id.kind === 'datasetField' ? 'Dataset field' : id.kind === 'job' ? 'Job' : 'Dataset';
  return notFound(`${what} '${id.raw}' not found.`);
}

/** The dataset-level lineage handler, shared by /api/v1/lineage and /api/v1-beta/lineage. */
function lineageRoute(lineage: LineageRepository): Middleware {
  return async (ctx) => {
    const id = nodeIdParam(ctx.query);
    const depth = depthParam(ctx.query);
    const direction = enumParam(ctx.query, 'direction', DIRECTIONS, 'both');
    const asOf = asOfParam(ctx.query);
    const window = windowParam(ctx.query);
    if (id.kind === 'datasetField') {
      throw badRequest(`Node id '${id.raw}' names a dataset field; use /api/v1/column-lineage for column-level lineage`);
    }
    const graph = await lineage.lineage(id, depth, direction, { asOf, window }, includeParam(ctx.query));
    if (!graph) throw notFoundFor(id);
    ctx.body = graph;
  };
}

export function lineageRouter({ lineage }: Services): Router {
  const router = new Router();
  router.get('/lineage', lineageRoute(lineage));

  router.get('/column-lineage', async (ctx) => {
    const id = nodeIdParam(ctx.query);
    const depth = depthParam(ctx.query);
    const withDownstream = boolParam(ctx.query, 'withDownstream', false);
    const asOf = asOfParam(ctx.query);
    // Accepted for symmetry with /lineage and validated; a column mapping stays in force until a newer
    // declaration replaces it, so the window does not narrow column lineage (docs/lineage.md).
    windowParam(ctx.query);
    const graph = await lineage.columnLineage(id, depth, withDownstream, asOf);
    if (!graph) throw notFoundFor(id);
    ctx.body = graph;
  });

  router.get('/runlineage/upstream', async (ctx) => {
    const runId = stringParam(ctx.query, 'runId');
    if (runId === undefined || runId === '') throw badRequest("Query parameter 'runId' is required");
    if (runId.length > 1024) throw badRequest("Query parameter 'runId' is longer than 1024 characters");
    const depth = depthParam(ctx.query);
    // The runId as its producer sent it: a UUID, or any other string (stored under a name-based UUID).
    const result = await lineage.runLineageUpstream(serviceRunId(runId), depth);
    if (!result) throw notFound(`Run '${runId}' not found.`);
    ctx.body = result;
  });
  return router;
}

/** GET /api/v1-beta/lineage: the spec's path of the same graph. */
export function lineageBetaRouter({ lineage }: Services): Router {
  const router = new Router();
  router.get('/lineage', lineageRoute(lineage));
  return router;
}
