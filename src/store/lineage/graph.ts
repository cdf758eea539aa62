/**
 * Dataset-level lineage (jobs and datasets): resolve the node id, then one query that walks and
 * renders every node with what its `data` needs, whatever the graph size. docs/lineage.md.
 */
import { int } from '../db.js';
import { keepJsonText, keepOwnJsonText } from '../../api/json-text.js';
import { iso } from '../time.js';
import { toDataset, toJob } from '../mappers.js';
import type { Duration } from '../../domain/duration.js';
import type { LineageEdge, LineageGraph, LineageNode } from '../../api/types.js';
import { datasetNodeId, jobNodeId, type ParsedNodeId } from '../../domain/node-id.js';
import {
  datasetAsOf,
  jobAsOf,
  minimalNodeData,
  nodeData,
  wireEdges,
  type EdgeExtras,
  type LineageFields,
  type LineageInclude,
  type OutEdge,
} from '../../domain/lineage/graph-nodes.js';
import type { LineageReader } from './resolver.js';
import { graphQuery, maxRelsFor, viewParams, type Direction } from './view.js';

type Props = Record<string, unknown>;

/**
 * Most nodes in one graph.cypher record. A record per node cost Neo4j and the service more than much of
 * the node; a record's nodes are rendered together, so this bounds what Neo4j holds of the answer at once
 * (about 6 MB with `include=facets,latestRuns`, whose nodes are about 13 KB).
 */
const GRAPH_CHUNK = 500;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * An edge's extras from its record. A point-in-time answer gives only when the edge was first seen:
 * its last observation and run up to then are not kept at that precision (spans,
 * src/domain/edge-history.ts), and an answer about the past must not change when later events arrive.
 */
export function edgeExtras(e: Props, pointInTime: boolean): EdgeExtras {
  if (pointInTime) return { firstSeenAt: iso(e.firstSeenAt), lastSeenAt: null, lastRunId: null, lastRunState: null };
  return {
    firstSeenAt: iso(e.firstSeenAt),
    lastSeenAt: iso(e.lastSeenAt),
    lastRunId: str(e.lastRunId),
    lastRunState: str(e.lastRunState),
  };
}

/** One row of cypher/lineage/graph.cypher as its answer node, and the node's outgoing edges (wired later). */
export function renderGraphRow(
  row: { isJob: boolean; node: Props; out: Props[] },
  asOf: number | null,
  include: ReadonlySet<LineageInclude>,
): { node: LineageNode; out: { destination: string; edge: LineageEdge }[] } {
  const { isJob, out } = row;
  let node = row.node;
  // A job's outputs are its out edges (graph.cypher reads them once).
  if (isJob) node.outputs = out.map((e) => e.to);
  const nodeId = (isJob ? jobNodeId : datasetNodeId)(node.namespace as string, node.name as string);
  if (asOf !== null) node = isJob ? jobAsOf(node, asOf) : datasetAsOf(node, asOf);
  const destinationId = isJob ? datasetNodeId : jobNodeId;
  return {
    // Its data is final here: its JSON text is made now, beside Neo4j, not after the last record.
    node: keepJsonText(
      {
        id: nodeId,
        type: isJob ? 'JOB' : 'DATASET',
        data: nodeData(isJob ? toJob(node) : toDataset(node), isJob, include),
        inEdges: [],
        outEdges: [],
      } as LineageNode,
      'data',
    ),
    // Each edge is made, and its JSON text too, while Neo4j still renders the rest (json-text.ts).
    out: out.map((e) => {
      const [a, b] = e.to as [string, string];
      const destination = destinationId(a, b);
      return {
        destination,
        edge: keepOwnJsonText({ origin: nodeId, destination, ...edgeExtras(e, asOf !== null) } as LineageEdge),
      };
    }),
  };
}

export class GraphLineage {
  constructor(
    private readonly reader: LineageReader,
    private readonly maxNodes: number,
    private readonly window: Duration,
  ) {}

  /**
   * Dataset-level lineage at a point in time (the view's window, or the service's when it names none);
   * null when the node id names no job or dataset that existed, undeleted, at asOf.
   */
  async lineage(
    id: Extract<ParsedNodeId, { kind: 'job' | 'dataset' }>,
    depth: number,
    direction: Direction,
    view: { asOf: Date | null; window?: Duration | null } = { asOf: null },
    include: ReadonlySet<LineageInclude> = new Set(),
    signal?: AbortSignal,
    fields: LineageFields = 'full',
  ): Promise<LineageGraph | null> {
    const timeParams = viewParams({ asOf: view.asOf, window: view.window === undefined ? this.window : view.window });
    const start = await this.reader.resolve(id.kind, id.candidates, timeParams.asOf, signal);
    if (!start) return null;
    if (fields === 'minimal') return this.minimal(start.eid, id.kind, depth, direction, timeParams, view.asOf, signal);
    const asOf = view.asOf?.getTime() ?? null;
    // Mapped as the records arrive: the node data is built while Neo4j still walks and renders the rest.
    const rendered = await this.reader.runMapped(
      'lineage/graph',
      graphQuery(direction, maxRelsFor(id.kind, depth)),
      {
        startId: start.eid,
        ...timeParams,
        facets: include.has('facets'),
        runDetails: include.has('latestRuns'),
        maxNodes: int(this.maxNodes + 1),
        chunk: int(GRAPH_CHUNK),
      },
      (rec) => rec.get('nodes').map(([isJob, out, node]) => renderGraphRow({ isJob, node, out }, asOf, include)),
      signal,
    );
    const rows = rendered.flat();
    const truncated = rows.length > this.maxNodes;
    const nodes: LineageNode[] = [];
    const outs = new Map<string, OutEdge[]>();
    for (const { node, out } of rows.slice(0, this.maxNodes)) {
      nodes.push(node);
      outs.set(node.id, out);
    }
    return { graph: wireEdges(nodes, outs), truncated };
  }

  /** The `fields=minimal` answer (graph-minimal.cypher): node keys and job states; edges only in outEdges. */
  private async minimal(
    startId: string,
    kind: 'job' | 'dataset',
    depth: number,
    direction: Direction,
    timeParams: ReturnType<typeof viewParams>,
    asOfDate: Date | null,
    signal?: AbortSignal,
  ): Promise<LineageGraph> {
    const recs = await this.reader.run(
      'lineage/graph-minimal',
      graphQuery(direction, maxRelsFor(kind, depth), 'lineage/graph-minimal'),
      {
        startId,
        asOf: timeParams.asOf,
        windowStart: timeParams.windowStart,
        pointInTime: timeParams.pointInTime,
        maxNodes: int(this.maxNodes + 1),
      },
      signal,
    );
    const truncated = recs.length > this.maxNodes;
    const asOf = asOfDate?.getTime() ?? null;
    const nodes: LineageNode[] = [];
    const outs = new Map<string, { destination: string; extras: EdgeExtras }[]>();
    for (const rec of recs.slice(0, this.maxNodes)) {
      const node = rec.get('node') as Props;
      const isJob = rec.get('isJob') as boolean;
      const nodeId = (isJob ? jobNodeId : datasetNodeId)(node.namespace as string, node.name as string);
      const run = node.latestRun as Props | null;
      if (run) node.latestRun = { ...run, startedAt: iso(run.startedAt), endedAt: iso(run.endedAt) };
      nodes.push({
        id: nodeId,
        type: isJob ? 'JOB' : 'DATASET',
        data: minimalNodeData(node, isJob, asOf),
        inEdges: [],
        outEdges: [],
      });
      const destinationId = isJob ? datasetNodeId : jobNodeId;
      outs.set(
        nodeId,
        (rec.get('out') as Props[]).map((e) => {
          const [a, b] = e.to as [string, string];
          return { destination: destinationId(a, b), extras: edgeExtras(e, asOf !== null) };
        }),
      );
    }
    const graph = wireEdges(nodes, outs);
    // Each edge once, in its origin's outEdges: a graph view needs no second copy.
    for (const n of graph) n.inEdges = [];
    return { graph, truncated };
  }
}
