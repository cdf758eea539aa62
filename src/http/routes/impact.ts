/**
 * Impact analysis: GET /api/v1/impact (blast radius; root cause with `state`; column impact from a
 * datasetField: node), /api/v1/impact/paths and /api/v1/impact/schema-changes. JSON, or CSV with
 * `Accept: text/csv` or `format=csv`. Semantics: docs/impact.md.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Services } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { toHttpError } from '../middleware/errors.js';
import { enumParam, intParam, stringParam } from '../pagination.js';
import { respondCsv, wantsCsv } from '../csv.js';
import { asOfParam, DEFAULT_DEPTH, MAX_DEPTH, nodeIdParam, notFoundFor, windowParam } from './lineage.js';
import { IMPACT_DIRECTIONS, RUN_STATES, type RunState } from '../../domain/impact.js';
import { minus, parseDuration } from '../../domain/duration.js';
import type { ParsedNodeId } from '../../domain/node-id.js';
import { DEFAULT_IMPACT_LIMIT, type AnyImpactNode, type FieldImpactNode, type ImpactHead, type ImpactNode, type ImpactQuery, type LineagePath, type PathEdge, type SchemaChange } from '../../store/impact.js';

export const MAX_IMPACT_LIMIT = 1_000_000;
export const DEFAULT_PATHS = 5;
export const MAX_PATHS = 100;
export const DEFAULT_SCHEMA_CHANGES_LIMIT = 1_000;
export const MAX_SCHEMA_CHANGES_LIMIT = 100_000;

/** The blast radius answer (JSON). */
export interface BlastRadiusResponse extends ImpactHead {
  direction: string;
  depth: number;
  asOf: string | null;
  window: string | null;
  state: RunState | null;
  nodes: AnyImpactNode[];
  total: number;
  truncated: boolean;
}

/** CSV columns of each answer: the keys of its JSON items, in order. */
export const NODE_COLUMNS = ['id', 'type', 'namespace', 'name', 'distance', 'via', 'tags', 'owners', 'latestRunState', 'latestRunEndedAt'] as const;
export const ROOT_CAUSE_COLUMNS = [...NODE_COLUMNS, 'path'] as const;
export const FIELD_COLUMNS = ['id', 'type', 'namespace', 'dataset', 'field', 'distance', 'via', 'viaJob', 'viaJobState', 'transformationTypes', 'tags', 'owners'] as const;
export const PATH_COLUMNS = ['path', 'step', 'origin', 'destination', 'firstSeenAt', 'lastSeenAt', 'lastRunId', 'lastRunState'] as const;
export const SCHEMA_CHANGE_COLUMNS = [
  'dataset', 'namespace', 'name', 'version', 'previousVersion', 'changedAt', 'runId', 'added', 'removed', 'retyped', 'downstreamJobs', 'downstreamDatasets', 'affectedFields',
] as const;

const pick = (item: object, columns: readonly string[]) => columns.map((c) => (item as Record<string, unknown>)[c] ?? null);

const formatParam = (query: ParsedUrlQuery) => {
  const raw = stringParam(query, 'format');
  return raw === undefined || raw === '' ? undefined : enumParam(query, 'format', ['json', 'csv'] as const, 'json');
};

function stateParam(query: ParsedUrlQuery): RunState | null {
  const raw = stringParam(query, 'state');
  if (raw === undefined || raw === '') return null;
  return enumParam(query, 'state', RUN_STATES, 'FAILED');
}

/** `since`: an ISO 8601 time, or a duration back from now (P1D, PT6H). Default: one day. */
function sinceParam(query: ParsedUrlQuery, now = Date.now()): Date {
  const raw = stringParam(query, 'since');
  if (raw === undefined || raw === '') return new Date(minus(now, parseDuration('P1D')!));
  if (/^P/i.test(raw.trim())) {
    const d = parseDuration(raw);
    if (!d) throw badRequest(`Query parameter 'since' must be an ISO 8601 time (2024-05-01T12:00:00Z) or duration (P1D, PT6H), got '${raw}'`);
    return new Date(minus(now, d));
  }
  return asOfParam(query, 'since')!;
}

function entityId(query: ParsedUrlQuery, name: string): Extract<ParsedNodeId, { kind: 'job' | 'dataset' }> {
  const id = nodeIdParam(query, name);
  if (id.kind === 'datasetField') throw badRequest(`Query parameter '${name}' names a dataset field; paths join jobs and datasets (use /api/v1/impact with a datasetField: node for column impact)`);
  return id;
}

/** A traversal past QUERY_TIMEOUT_MS answers 504 with what to narrow. */
function timeoutAdvice(err: unknown): unknown {
  const http = toHttpError(err);
  if (http?.status !== 504) return err;
  return new HttpError(
    504,
    'timeout',
    'The impact traversal took longer than the query timeout (QUERY_TIMEOUT_MS); ask for less: a smaller depth, a smaller limit, a shorter window, or a point in time (asOf)',
  );
}

export function impactRouter({ impact }: Services): Router {
  const router = new Router();
  router.use(async (_ctx, next) => {
    try {
      await next();
    } catch (err) {
      throw timeoutAdvice(err);
    }
  });

  router.get('/impact', async (ctx: Context) => {
    const id = nodeIdParam(ctx.query);
    const q: ImpactQuery = {
      direction: enumParam(ctx.query, 'direction', IMPACT_DIRECTIONS, 'downstream'),
      depth: intParam(ctx.query, 'depth', DEFAULT_DEPTH, 0, MAX_DEPTH),
      asOf: asOfParam(ctx.query),
      window: windowParam(ctx.query),
      limit: intParam(ctx.query, 'limit', DEFAULT_IMPACT_LIMIT, 1, MAX_IMPACT_LIMIT),
      state: stateParam(ctx.query),
    };
    const format = formatParam(ctx.query);
    const columns = id.kind === 'datasetField' ? FIELD_COLUMNS : q.state ? ROOT_CAUSE_COLUMNS : NODE_COLUMNS;
    if (wantsCsv(ctx, format)) {
      await respondCsv<AnyImpactNode>(ctx, 'impact.csv', columns, (n) => pick(n, columns), async (out) => {
        const tail = await impact.blastRadius(id, q, { head: () => out.begin(), node: (n) => out.row(n) });
        if (!tail) throw notFoundFor(id);
      });
      return;
    }
    let head: ImpactHead | null = null;
    const nodes: AnyImpactNode[] = [];
    const tail = await impact.blastRadius(id, q, {
      head: (h) => void (head = h),
      node: (n) => void nodes.push(n),
    });
    if (!tail || !head) throw notFoundFor(id);
    const body: BlastRadiusResponse = {
      ...(head as ImpactHead),
      direction: q.direction,
      depth: q.depth,
      asOf: q.asOf?.toISOString() ?? null,
      window: q.window === undefined ? impact.defaultWindow.text : (q.window?.text ?? 'all'),
      state: q.state,
      nodes,
      total: tail.total,
      truncated: tail.truncated,
    };
    ctx.body = body;
  });

  router.get('/impact/paths', async (ctx: Context) => {
    const from = entityId(ctx.query, 'from');
    const to = entityId(ctx.query, 'to');
    const k = intParam(ctx.query, 'limit', DEFAULT_PATHS, 1, MAX_PATHS);
    const maxDepth = intParam(ctx.query, 'maxDepth', DEFAULT_DEPTH, 0, MAX_DEPTH);
    const asOf = asOfParam(ctx.query);
    const window = windowParam(ctx.query);
    const format = formatParam(ctx.query);
    const result = await impact.paths(from, to, { k, maxDepth, asOf, window });
    if ('missing' in result) throw notFoundFor(result.missing === 'from' ? from : to);
    if (wantsCsv(ctx, format)) {
      type Step = PathEdge & { path: number; step: number };
      const steps: Step[] = result.paths.flatMap((p: LineagePath, i) => p.edges.map((e, j) => ({ ...e, path: i + 1, step: j + 1 })));
      await respondCsv<Step>(ctx, 'paths.csv', PATH_COLUMNS, (s) => pick(s, PATH_COLUMNS), async (out) => {
        out.begin();
        for (const s of steps) await out.row(s);
      });
      return;
    }
    ctx.body = result;
  });

  router.get('/impact/schema-changes', async (ctx: Context) => {
    const since = sinceParam(ctx.query);
    const namespace = stringParam(ctx.query, 'namespace') || null;
    const depth = intParam(ctx.query, 'depth', DEFAULT_DEPTH, 0, MAX_DEPTH);
    const window = windowParam(ctx.query);
    const limit = intParam(ctx.query, 'limit', DEFAULT_SCHEMA_CHANGES_LIMIT, 1, MAX_SCHEMA_CHANGES_LIMIT);
    const format = formatParam(ctx.query);
    const result = await impact.schemaChanges({ since, namespace, depth, window, limit });
    if (wantsCsv(ctx, format)) {
      await respondCsv<SchemaChange>(ctx, 'schema-changes.csv', SCHEMA_CHANGE_COLUMNS, (c) => pick(c, SCHEMA_CHANGE_COLUMNS), async (out) => {
        out.begin();
        for (const c of result.changes) await out.row(c);
      });
      return;
    }
    ctx.body = { since: since.toISOString(), namespace, ...result };
  });

  return router;
}

export type { ImpactNode, FieldImpactNode };
