/**
 * Impact analysis: GET /api/v1/impact (blast radius; root cause with `state`; column impact from a
 * datasetField: node), /api/v1/impact/paths and /api/v1/impact/schema-changes. JSON, or CSV with
 * `Accept: text/csv` or `format=csv`. Semantics: docs/impact.md.
 */
import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { HttpError } from '../errors.js';
import { toHttpError } from '../middleware/errors.js';
import { Param } from '../params.js';
import { badQueryParameter, routes, type RouteRuntime } from '../route.js';
import { respondStreamedJson } from '../streamed-json.js';
import { respondCsv, wantsCsv } from '../csv.js';
import { asOfParam, depthParam, notFoundFor, windowParam } from './lineage.js';
import { IMPACT_DIRECTIONS, RUN_STATES, type RunState } from '../../domain/impact.js';
import { BlastRadius as BlastRadiusSchema, LineagePaths, SchemaChanges } from '../../api/schemas.js';
import { minus, parseDuration } from '../../domain/duration.js';
import type { ParsedNodeId } from '../../domain/node-id.js';
import {
  DEFAULT_IMPACT_LIMIT,
  type AnyImpactNode,
  type FieldImpactNode,
  type ImpactHead,
  type ImpactNode,
  type ImpactQuery,
  type LineagePath,
  type PathEdge,
  type SchemaChange,
} from '../../store/impact.js';

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
export const NODE_COLUMNS = [
  'id',
  'type',
  'namespace',
  'name',
  'distance',
  'via',
  'tags',
  'owners',
  'latestRunState',
  'latestRunEndedAt',
] as const;
export const ROOT_CAUSE_COLUMNS = [...NODE_COLUMNS, 'path'] as const;
export const FIELD_COLUMNS = [
  'id',
  'type',
  'namespace',
  'dataset',
  'field',
  'distance',
  'via',
  'viaJob',
  'viaJobState',
  'transformationTypes',
  'tags',
  'owners',
] as const;
export const PATH_COLUMNS = [
  'path',
  'step',
  'origin',
  'destination',
  'firstSeenAt',
  'lastSeenAt',
  'lastRunId',
  'lastRunState',
] as const;
export const SCHEMA_CHANGE_COLUMNS = [
  'dataset',
  'namespace',
  'name',
  'version',
  'previousVersion',
  'changedAt',
  'runId',
  'added',
  'removed',
  'retyped',
  'downstreamJobs',
  'downstreamDatasets',
  'affectedFields',
] as const;

const pick = (item: object, columns: readonly string[]) =>
  columns.map((c) => (item as Record<string, unknown>)[c] ?? null);

const formatParam = () =>
  Type.Optional(
    Param.oneOf(['json', 'csv'] as const, {
      description: "The answer's format; default: by the Accept header (JSON unless it prefers text/csv)",
    }),
  );

function entityId(id: ParsedNodeId, name: string): Extract<ParsedNodeId, { kind: 'job' | 'dataset' }> {
  if (id.kind === 'datasetField')
    throw badQueryParameter(
      name,
      'names a dataset field; paths join jobs and datasets (use /api/v1/impact with a datasetField: node for ' +
        'column impact)',
    );
  return id;
}

/** A traversal past QUERY_TIMEOUT_MS answers 504 with what to narrow. */
function timeoutAdvice(err: unknown): unknown {
  const http = toHttpError(err);
  if (http?.status !== 504) return err;
  return new HttpError(
    504,
    'timeout',
    'The impact traversal took longer than the query timeout (QUERY_TIMEOUT_MS); ask for less: a smaller depth, a ' +
      'smaller limit, a shorter window, or a point in time (asOf)',
  );
}

export function impactRouter({ impact }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  router.use(async (_ctx, next) => {
    try {
      await next();
    } catch (err) {
      throw timeoutAdvice(err);
    }
  });
  const declare = routes(runtime, router);
  const tags = ['Impact'];

  declare({
    method: 'GET',
    path: '/impact',
    operationId: 'getImpact',
    summary: 'Blast radius, root cause or column impact of a node',
    description:
      'Everything downstream (or upstream) of a job, dataset or column, nearest first, each with its distance and ' +
      'the node it was reached from. `state` keeps only the jobs whose latest run is in that state (root cause). ' +
      'See docs/impact.md.',
    tags,
    scope: 'read',
    query: {
      nodeId: Param.nodeId(),
      direction: Param.oneOf(IMPACT_DIRECTIONS, { default: 'downstream', description: 'Which way to walk' }),
      depth: depthParam(),
      asOf: asOfParam(),
      window: windowParam(),
      limit: Param.integer({
        minimum: 1,
        maximum: MAX_IMPACT_LIMIT,
        default: DEFAULT_IMPACT_LIMIT,
        description: 'Most nodes answered (the nearest)',
      }),
      state: Type.Optional(
        Param.oneOf(RUN_STATES, { description: 'Root cause: only jobs whose latest run is in this state' }),
      ),
      format: formatParam(),
    },
    success: {
      status: 200,
      description: 'The nodes reached, nearest first, with a summary',
      schema: BlastRadiusSchema,
      csv: true,
      headers: {
        'X-Total-Count': 'CSV answers: the nodes there are (`total` of the JSON answer)',
        'X-Truncated': 'CSV answers: true when the rows stop at `limit` (`truncated` of the JSON answer)',
      },
    },
    errors: { 404: 'No such node' },
    handler: async ({ query }, ctx) => {
      const id = query.nodeId;
      const q: ImpactQuery = {
        direction: query.direction,
        depth: query.depth,
        asOf: query.asOf ?? null,
        window: query.window,
        limit: query.limit,
        state: query.state ?? null,
      };
      const columns = id.kind === 'datasetField' ? FIELD_COLUMNS : q.state ? ROOT_CAUSE_COLUMNS : NODE_COLUMNS;
      if (wantsCsv(ctx, query.format)) {
        await respondCsv<AnyImpactNode>(
          ctx,
          'impact.csv',
          columns,
          (n) => pick(n, columns),
          async (out) => {
            // The totals go in headers, before the first row: when the store counts them only as rows stream
            // (root cause), the rows (at most `limit` jobs) wait for them.
            let held: AnyImpactNode[] | null = null;
            const tail = await impact.blastRadius(id, q, {
              head: ({ totals }) => {
                if (totals) out.begin(totals);
                else held = [];
              },
              node: (n) => (held ? void held.push(n) : out.row(n)),
            });
            if (!tail) throw notFoundFor(id);
            if (held) {
              out.begin(tail);
              for (const n of held as AnyImpactNode[]) await out.row(n);
            }
          },
        );
        return;
      }
      // Streamed: the start and summary come with the first record, the nodes as Neo4j returns them.
      await respondStreamedJson<AnyImpactNode>(ctx, 'nodes', async (out) => {
        const tail = await impact.blastRadius(id, q, {
          head: ({ start, summary }) =>
            out.begin({
              start,
              summary,
              direction: q.direction,
              depth: q.depth,
              asOf: q.asOf?.toISOString() ?? null,
              window: q.window === undefined ? impact.defaultWindow.text : (q.window?.text ?? 'all'),
              state: q.state,
            } satisfies Omit<BlastRadiusResponse, 'nodes' | 'total' | 'truncated'>),
          node: (n) => out.item(n),
        });
        if (!tail) throw notFoundFor(id);
        return { total: tail.total, truncated: tail.truncated } satisfies Pick<
          BlastRadiusResponse,
          'total' | 'truncated'
        >;
      });
      // The body is the stream respondStreamedJson set.
      return undefined;
    },
  });

  declare({
    method: 'GET',
    path: '/impact/paths',
    operationId: 'getImpactPaths',
    summary: 'The shortest directed paths between two jobs or datasets',
    tags,
    scope: 'read',
    query: {
      from: Param.nodeId('Where the paths start: a job or dataset node id'),
      to: Param.nodeId('Where the paths end: a job or dataset node id'),
      limit: Param.integer({
        minimum: 1,
        maximum: MAX_PATHS,
        default: DEFAULT_PATHS,
        description: 'Most paths answered',
      }),
      maxDepth: depthParam('Longest path, in job hops'),
      asOf: asOfParam(),
      window: windowParam(),
      format: formatParam(),
    },
    success: { status: 200, description: 'The paths, shortest first', schema: LineagePaths, csv: true },
    errors: { 404: 'No such node' },
    handler: async ({ query }, ctx) => {
      const from = entityId(query.from, 'from');
      const to = entityId(query.to, 'to');
      const result = await impact.paths(from, to, {
        k: query.limit,
        maxDepth: query.maxDepth,
        asOf: query.asOf ?? null,
        window: query.window,
      });
      if ('missing' in result) throw notFoundFor(result.missing === 'from' ? from : to);
      if (wantsCsv(ctx, query.format)) {
        type Step = PathEdge & { path: number; step: number };
        const steps: Step[] = result.paths.flatMap((p: LineagePath, i) =>
          p.edges.map((e, j) => ({ ...e, path: i + 1, step: j + 1 })),
        );
        await respondCsv<Step>(
          ctx,
          'paths.csv',
          PATH_COLUMNS,
          (s) => pick(s, PATH_COLUMNS),
          async (out) => {
            out.begin();
            for (const s of steps) await out.row(s);
          },
        );
        return;
      }
      return result;
    },
  });

  declare({
    method: 'GET',
    path: '/impact/schema-changes',
    operationId: 'getSchemaChanges',
    summary: 'Recent schema changes and what is downstream of each',
    tags,
    scope: 'read',
    query: {
      since: Type.Optional(Param.since('Changes after this time, or this long ago (ISO 8601 duration); default P1D')),
      namespace: Type.Optional(Param.text({ description: 'Only datasets of this namespace' })),
      depth: depthParam(),
      window: windowParam(),
      limit: Param.integer({
        minimum: 1,
        maximum: MAX_SCHEMA_CHANGES_LIMIT,
        default: DEFAULT_SCHEMA_CHANGES_LIMIT,
        description: 'Most changes answered',
      }),
      format: formatParam(),
    },
    success: {
      status: 200,
      description: 'The changes, newest first',
      schema: SchemaChanges,
      csv: true,
      headers: { 'X-Truncated': 'CSV answers: true when there were more changes than `limit`' },
    },
    handler: async ({ query }, ctx) => {
      const since = query.since ?? new Date(minus(Date.now(), parseDuration('P1D')!));
      const namespace = query.namespace ?? null;
      const result = await impact.schemaChanges({
        since,
        namespace,
        depth: query.depth,
        window: query.window,
        limit: query.limit,
      });
      if (wantsCsv(ctx, query.format)) {
        await respondCsv<SchemaChange>(
          ctx,
          'schema-changes.csv',
          SCHEMA_CHANGE_COLUMNS,
          (c) => pick(c, SCHEMA_CHANGE_COLUMNS),
          async (out) => {
            out.begin({ truncated: result.truncated });
            for (const c of result.changes) await out.row(c);
          },
        );
        return;
      }
      return { since: since.toISOString(), namespace, ...result };
    },
  });

  return router;
}

export type { ImpactNode, FieldImpactNode };
