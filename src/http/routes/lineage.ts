/**
 * The lineage graph: GET /api/v1/lineage (and /api/v1-beta/lineage), /api/v1/column-lineage and
 * /api/v1/runlineage/upstream. Semantics: docs/lineage.md.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import { notFound } from '../errors.js';
import { Param } from '../params.js';
import { clientGone } from '../client-gone.js';
import { respondStreamedJson } from '../streamed-json.js';
import { badQueryParameter, routes, type Request, type RouteRuntime } from '../route.js';
import type { ParsedNodeId } from '../../domain/node-id.js';
import { DIRECTIONS, LINEAGE_FIELDS, LINEAGE_INCLUDES, type LineageRepository } from '../../store/lineage/index.js';
import { LineageGraph, RunLineage } from '../../api/schemas.js';

export const DEFAULT_DEPTH = 20;
export const MAX_DEPTH = 100;

/** `depth` as the lineage routes read it: job hops, 0..MAX_DEPTH, default DEFAULT_DEPTH. */
export const depthParam = (description = 'Job hops from the start (a dataset-job-dataset step is one)') =>
  Param.integer({
    minimum: 0,
    maximum: MAX_DEPTH,
    default: DEFAULT_DEPTH,
    description: `${description}; default ${DEFAULT_DEPTH}, at most ${MAX_DEPTH}`,
  });
/** `asOf`: an ISO 8601 time (an offset or Z; none means UTC, as for event times). Absent: now. */
export const asOfParam = () => Type.Optional(Param.instant('The graph as it was at this time (default: now)'));
export const windowParam = () => Type.Optional(Param.window());

export function notFoundFor(id: ParsedNodeId): Error {
  const what = id.kind === 'datasetField' ? 'Dataset field' : id.kind === 'job' ? 'Job' : 'Dataset';
  return notFound(`${what} '${id.raw}' not found.`);
}

const lineageQuery = {
  nodeId: Param.nodeId(),
  depth: depthParam(),
  direction: Param.oneOf(DIRECTIONS, {
    default: 'both',
    description: 'Follow edges downstream, upstream or both ways',
  }),
  asOf: asOfParam(),
  window: windowParam(),
  include: Type.Optional(
    Param.listOf(LINEAGE_INCLUDES, {
      description:
        "Adds facets (and a job's context, a dataset's column lineage) or the latest run in full to each node's data.",
    }),
  ),
  fields: Param.oneOf(LINEAGE_FIELDS, {
    default: 'full',
    description:
      "How much of each node: `full` (Marquez's node data) or `minimal`, what a graph view draws: each node's data " +
      "is `{id, namespace, name}` plus a job's `latestRun` `{id, state, startedAt, endedAt}`, and each edge is " +
      "listed once, in its origin's `outEdges` (`inEdges` are empty). Same nodes and edges; not with `include`.",
  }),
};

/** The dataset-level lineage handler, shared by /api/v1/lineage and /api/v1-beta/lineage. */
function lineageHandler(lineage: LineageRepository) {
  return async ({ query }: Request<{}, typeof lineageQuery, never>, ctx: Context) => {
    const id = query.nodeId;
    if (id.kind === 'datasetField') {
      throw badQueryParameter(
        'nodeId',
        `'${id.raw}' names a dataset field; use /api/v1/column-lineage for column-level lineage`,
      );
    }
    if (query.fields === 'minimal' && (query.include ?? []).length > 0)
      throw badQueryParameter('include', 'adds to the full node data: it cannot be combined with fields=minimal');
    const view = { asOf: query.asOf ?? null, window: query.window };
    // A deep lineage can run for seconds: if the client disconnects, Neo4j stops it.
    const signal = clientGone(ctx);
    if (query.fields === 'minimal') {
      const graph = await lineage.lineage(id, query.depth, query.direction, view, new Set(), signal, 'minimal');
      if (!graph) throw notFoundFor(id);
      return graph;
    }
    // Streamed: each node is written (and compressed, and read by the client) while Neo4j renders the rest.
    await respondStreamedJson<never>(ctx, 'graph', async (out) => {
      const end = await lineage.streamLineage(
        id,
        query.depth,
        query.direction,
        view,
        new Set(query.include ?? []),
        { begin: () => out.begin({}), node: (text) => void out.itemText(text) },
        signal,
      );
      if (!end) throw notFoundFor(id);
      return { truncated: end.truncated };
    });
    // The body is the stream respondStreamedJson set.
    return undefined;
  };
}

const lineageRoute = (
  lineage: LineageRepository,
  operationId: string,
  extra: { description?: string; deprecated?: boolean } = {},
) =>
  ({
    method: 'GET',
    path: '/lineage',
    operationId,
    summary: 'The lineage graph around a job or dataset',
    description:
      "Edges seen within the window (plus each job's latest known inputs and outputs), as of a time. See " +
      'docs/lineage.md.' +
      (extra.description ?? ''),
    tags: ['Lineage'],
    scope: 'read',
    query: lineageQuery,
    success: { status: 200, description: 'The graph: nodes with their edges', schema: LineageGraph },
    errors: { 404: 'No such job or dataset' },
    handler: lineageHandler(lineage),
  }) as const;

export function lineageRouter({ lineage }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  declare(lineageRoute(lineage, 'getLineage'));

  declare({
    method: 'GET',
    path: '/column-lineage',
    operationId: 'getColumnLineage',
    summary: 'Column-level lineage from a dataset, a column or a job',
    tags: ['Lineage'],
    scope: 'read',
    query: {
      nodeId: Param.nodeId(),
      depth: depthParam('Column hops'),
      withDownstream: Param.boolean({ default: false, description: 'Also the columns fed by the start' }),
      asOf: asOfParam(),
      // Accepted for symmetry with /lineage and validated; a column mapping stays in force until a newer
      // declaration replaces it, so the window does not narrow column lineage (docs/lineage.md).
      window: windowParam(),
    },
    success: {
      status: 200,
      description:
        'The graph of DATASET_FIELD nodes; when nodeId names a #version, every node id ends in its dataset version',
      schema: LineageGraph,
    },
    errors: { 404: 'No such job, dataset or column' },
    handler: async ({ query }) => {
      const graph = await lineage.columnLineage(query.nodeId, query.depth, query.withDownstream, query.asOf ?? null);
      if (!graph) throw notFoundFor(query.nodeId);
      return graph;
    },
  });

  declare({
    method: 'GET',
    path: '/runlineage/upstream',
    operationId: 'getRunLineageUpstream',
    summary: 'The runs upstream of a run: what produced the exact versions it read',
    tags: ['Lineage'],
    scope: 'read',
    query: {
      runId: Param.runId({ maxLength: 1024, description: 'The run id as its producer sent it' }),
      depth: depthParam('Run hops'),
    },
    success: { status: 200, description: 'The upstream runs', schema: RunLineage },
    errors: { 404: 'No such run' },
    handler: async ({ query }, ctx) => {
      const result = await lineage.runLineageUpstream(query.runId, query.depth);
      if (!result) throw notFound(`Run '${String(ctx.query.runId)}' not found.`);
      return result;
    },
  });
  return router;
}

/** GET /api/v1-beta/lineage: the spec's path of the same graph. */
export function lineageBetaRouter({ lineage }: Services, runtime: RouteRuntime): Router {
  const router = new Router();
  routes(
    runtime,
    router,
  )(
    lineageRoute(lineage, 'getLineageBeta', {
      description: ' The same as /api/v1/lineage, at the path of the OpenLineage spec.',
    }),
  );
  return router;
}
