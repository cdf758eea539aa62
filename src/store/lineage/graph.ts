/**
 * Dataset-level lineage (jobs and datasets): resolve the node id, then one query that walks and
 * renders every node with what its `data` needs, whatever the graph size. docs/lineage.md.
 */
import { int } from '../db.js';
import { iso } from '../time.js';
import { compareText } from '../../domain/compare.js';
import { lineageNodeData, toDataset, toJob } from '../mappers.js';
import type { Duration } from '../../domain/duration.js';
import type { LineageGraph, LineageNode } from '../../api/types.js';
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
} from '../../domain/lineage/graph-nodes.js';
import type { LineageReader } from './resolver.js';
import type { GraphEdgeRow, GraphRow } from '../catalogue.js';
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
  const firstSeenAt = iso(e.firstSeenAt);
  if (pointInTime) return { firstSeenAt, lastSeenAt: null, lastRunId: null, lastRunState: null };
  return {
    firstSeenAt,
    lastSeenAt: iso(e.lastSeenAt),
    lastRunId: str(e.lastRunId),
    lastRunState: str(e.lastRunState),
  };
}

/** An edge's extras from its list in a graph.cypher record ([job namespace, job name, firstSeenAt, ...]). */
function edgeRowExtras(e: GraphEdgeRow, pointInTime: boolean): EdgeExtras {
  return edgeExtras({ firstSeenAt: e[2], lastSeenAt: e[3], lastRunId: e[4], lastRunState: e[5] }, pointInTime);
}

/**
 * A graph.cypher node back as the projection the mappers read (toJob / toDataset, lineageNodeData): the keys
 * of the node's type (null when the node lacks them), or with `include=facets` every property it has; its
 * times as graph.cypher gives them (epoch milliseconds), and the keys the mappers read beside them.
 */
export function graphNodeProps(row: GraphRow): Props {
  const [isJob, , , v, facetStamps, properties, run, version] = row;
  // One object literal per node type (no spreads): thousands of nodes per answer, each built on the answer's
  // critical path, and a literal gets one hidden class where spreading costs a copy and garbage.
  const node: Props = isJob
    ? {
        namespace: v[0],
        name: v[1],
        type: v[2],
        simpleName: v[3],
        parentJobName: v[4],
        createdAt: v[5],
        updatedAt: v[6],
        lastModifiedAt: null,
        location: v[7],
        description: v[8],
        currentVersion: v[9],
        integration: v[10],
        jobKind: v[11],
        currentVersionAt: null,
        deletedAt: null,
        lastEventAt: null,
        latestRunEndedAt: null,
        facetStamps: facetStamps ?? null,
        inputs: v[12],
        outputs: v[13],
        tags: v[14],
        fieldTags: [],
        version: null,
        latestRun: run ? runProps(run) : null,
      }
    : {
        namespace: v[0],
        name: v[1],
        type: v[2],
        createdAt: v[3],
        updatedAt: v[4],
        lastModifiedAt: v[9],
        description: v[5],
        physicalName: v[6],
        sourceName: v[7],
        fields: v[8],
        lastLifecycleState: v[10],
        currentVersion: v[11],
        currentVersionAt: null,
        deletedAt: null,
        lastEventAt: null,
        latestRunEndedAt: null,
        facetStamps: facetStamps ?? null,
        inputs: [],
        outputs: [],
        tags: v[12],
        fieldTags: v[13],
        version,
        latestRun: null,
      };
  // With `include=facets`: every property the node has, then what graph.cypher gave beside them.
  return properties ? withProperties(properties, node, NODE_OWN_KEYS) : node;
}

/** The keys of a node's projection that are graph.cypher's own, not its properties (its times: epoch ms). */
const NODE_OWN_KEYS = [
  'createdAt',
  'updatedAt',
  'lastModifiedAt',
  'currentVersionAt',
  'deletedAt',
  'lastEventAt',
  'latestRunEndedAt',
  'facetStamps',
  'inputs',
  'outputs',
  'tags',
  'fieldTags',
  'version',
  'latestRun',
];
/** The same for a run. */
const RUN_OWN_KEYS = [
  'startedAt',
  'endedAt',
  'createdAt',
  'updatedAt',
  'nominalStartTime',
  'nominalEndTime',
  'sortTime',
  'lastEventAt',
  'reads',
  'wrote',
];

/** `properties` with `keys` of `projection` over them: the projection of `p {.*, <keys>}`. */
function withProperties(properties: Props, projection: Props, keys: readonly string[]): Props {
  const out: Props = { ...properties };
  for (const k of keys) out[k] = projection[k];
  return out;
}

/** A latest run of graph.cypher's (its list, see "Returns") as the run projection of the mappers. */
function runProps(r: unknown[]): Props {
  const run: Props = {
    id: r[0],
    state: r[1],
    startedAt: r[2],
    endedAt: r[3],
    createdAt: r[4],
    updatedAt: r[5],
    nominalStartTime: r[6],
    nominalEndTime: r[7],
    jobVersion: r[8],
    jobNamespace: r[9],
    jobName: r[10],
    'jobFacet.sourceCodeLocation': r[11],
    sortTime: null,
    lastEventAt: null,
    reads: r[13],
    wrote: r[14],
  };
  const properties = r[12] as Props | null;
  return properties ? withProperties(properties, run, RUN_OWN_KEYS) : run;
}

const NODE_TIMES = ['createdAt', 'updatedAt', 'lastModifiedAt'];
const RUN_TIMES = ['createdAt', 'updatedAt', 'startedAt', 'endedAt', 'nominalStartTime', 'nominalEndTime'];

/**
 * The node with its times (epoch milliseconds in graph.cypher's records) as ISO strings, as the point-in-time
 * rules (src/domain/lineage/graph-nodes.ts) read them.
 */
function isoTimes(node: Props): Props {
  const out: Props = { ...node };
  for (const k of NODE_TIMES) if (k in node) out[k] = iso(node[k]);
  const run = node.latestRun as Props | null | undefined;
  if (run) {
    const r: Props = { ...run };
    for (const k of RUN_TIMES) if (k in run) r[k] = iso(run[k]);
    out.latestRun = r;
  }
  return out;
}

/** A node of a streamed answer: its JSON text (that of a LineageNode), in node id order. */
export interface LineageSink {
  /** Called once, with the first node's record: the walk is done (an error from here may cut the answer short). */
  begin(): void;
  node(text: string): void;
}

type EdgeText = [other: string, text: string];

/** An edge list's JSON, one edge per other end, ordered by it (the answer orders edges by origin, destination). */
function edgesJson(edges: EdgeText[]): string {
  if (edges.length === 0) return '[]';
  edges.sort((a, b) => compareText(a[0], b[0]));
  let out = '[';
  let last: string | null = null;
  for (const [other, text] of edges) {
    if (other === last) continue;
    out += `${last === null ? '' : ','}${text}`;
    last = other;
  }
  return `${out}]`;
}

/**
 * Renders cypher/lineage/graph.cypher's records into the answer's nodes, each as its JSON text the moment
 * its record arrives. The records hold every dataset before every job (node id order), and a dataset's
 * record carries its edges to and from the answer's jobs: a job's edges are known when its record comes.
 */
export class GraphRenderer {
  /** A job's edges in the answer, from its datasets' records: [in, out]. */
  private readonly jobEdges = new Map<string, [EdgeText[], EdgeText[]]>();

  constructor(
    private readonly asOf: number | null,
    private readonly include: ReadonlySet<LineageInclude>,
  ) {}

  private edgesOf(jobId: string): [EdgeText[], EdgeText[]] {
    let edges = this.jobEdges.get(jobId);
    if (!edges) {
      edges = [[], []];
      this.jobEdges.set(jobId, edges);
    }
    return edges;
  }

  /** The node's JSON text (a LineageNode's: id, type, data, inEdges, outEdges). */
  render(row: GraphRow): string {
    const [isJob, out, ins] = row;
    const pointInTime = this.asOf !== null;
    let node = graphNodeProps(row);
    const nodeId = (isJob ? jobNodeId : datasetNodeId)(node.namespace as string, node.name as string);
    if (this.asOf !== null) {
      node = isoTimes(node);
      node = isJob ? jobAsOf(node, this.asOf) : datasetAsOf(node, this.asOf);
    }
    const data =
      this.include.size === 0
        ? lineageNodeData(node, isJob)
        : nodeData(isJob ? toJob(node) : toDataset(node), isJob, this.include);
    let inEdges: EdgeText[];
    let outEdges: EdgeText[];
    if (isJob) {
      [inEdges, outEdges] = this.jobEdges.get(nodeId) ?? [[], []];
      this.jobEdges.delete(nodeId);
    } else {
      // Each edge's text is made once, here, for both of its ends.
      outEdges = out.map((e) => {
        const destination = jobNodeId(e[0], e[1]);
        const text = JSON.stringify({ origin: nodeId, destination, ...edgeRowExtras(e, pointInTime) });
        this.edgesOf(destination)[0].push([nodeId, text]);
        return [destination, text];
      });
      inEdges = ins.map((e) => {
        const origin = jobNodeId(e[0], e[1]);
        const text = JSON.stringify({ origin, destination: nodeId, ...edgeRowExtras(e, pointInTime) });
        this.edgesOf(origin)[1].push([nodeId, text]);
        return [origin, text];
      });
    }
    return (
      `{"id":${JSON.stringify(nodeId)},"type":"${isJob ? 'JOB' : 'DATASET'}","data":${JSON.stringify(data)},` +
      `"inEdges":${edgesJson(inEdges)},"outEdges":${edgesJson(outEdges)}}`
    );
  }
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
    const nodes: LineageNode[] = [];
    const end = await this.streamFrom(start.eid, id.kind, depth, direction, timeParams, view.asOf, include, signal, {
      begin: () => undefined,
      node: (text) => nodes.push(JSON.parse(text) as LineageNode),
    });
    return { graph: nodes, truncated: end.truncated };
  }

  /**
   * The full (not `fields=minimal`) answer, each node handed to `sink` as its JSON text the moment its record
   * arrives, in the answer's order: a deep answer is written to the client while Neo4j still renders the rest,
   * and the service holds a node only until it is written. Null when the start node is unknown (nothing is
   * handed on).
   */
  async stream(
    id: Extract<ParsedNodeId, { kind: 'job' | 'dataset' }>,
    depth: number,
    direction: Direction,
    view: { asOf: Date | null; window?: Duration | null },
    include: ReadonlySet<LineageInclude>,
    sink: LineageSink,
    signal?: AbortSignal,
  ): Promise<{ truncated: boolean } | null> {
    const timeParams = viewParams({ asOf: view.asOf, window: view.window === undefined ? this.window : view.window });
    const start = await this.reader.resolve(id.kind, id.candidates, timeParams.asOf, signal);
    if (!start) return null;
    return this.streamFrom(start.eid, id.kind, depth, direction, timeParams, view.asOf, include, signal, sink);
  }

  private async streamFrom(
    startId: string,
    kind: 'job' | 'dataset',
    depth: number,
    direction: Direction,
    timeParams: ReturnType<typeof viewParams>,
    asOfDate: Date | null,
    include: ReadonlySet<LineageInclude>,
    signal: AbortSignal | undefined,
    sink: LineageSink,
  ): Promise<{ truncated: boolean }> {
    const renderer = new GraphRenderer(asOfDate?.getTime() ?? null, include);
    let truncated = false;
    let begun = false;
    await this.reader.runMapped(
      'lineage/graph',
      graphQuery(direction, maxRelsFor(kind, depth)),
      {
        startId,
        ...timeParams,
        facets: include.has('facets'),
        runDetails: include.has('latestRuns'),
        maxNodes: int(this.maxNodes),
        chunk: int(GRAPH_CHUNK),
      },
      (rec) => {
        // A retry of the transaction (the driver's, on a lost connection) starts the records again: nodes
        // already handed on must not be handed on twice, so the answer ends there, cut short.
        if (begun && rec.get('at').toNumber() === 0) throw new Error('lineage stream interrupted: Neo4j retried');
        if (!begun) {
          begun = true;
          truncated = rec.get('truncated');
          sink.begin();
        }
        for (const row of rec.get('nodes')) sink.node(renderer.render(row));
        return null;
      },
      signal,
    );
    return { truncated };
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
        chunk: int(GRAPH_CHUNK),
      },
      signal,
    );
    const rows = recs.flatMap((rec) => rec.get('nodes'));
    const truncated = rows.length > this.maxNodes;
    const asOf = asOfDate?.getTime() ?? null;
    const nodes: LineageNode[] = [];
    const outs = new Map<string, { destination: string; extras: EdgeExtras }[]>();
    for (const [isJob, namespace, name, run, out] of rows.slice(0, this.maxNodes)) {
      const nodeId = (isJob ? jobNodeId : datasetNodeId)(namespace, name);
      const latestRun = run ? { id: run[0], state: run[1], startedAt: iso(run[2]), endedAt: iso(run[3]) } : null;
      nodes.push({
        id: nodeId,
        type: isJob ? 'JOB' : 'DATASET',
        data: minimalNodeData({ namespace, name, latestRun }, isJob, asOf),
        inEdges: [],
        outEdges: [],
      });
      const destinationId = isJob ? datasetNodeId : jobNodeId;
      outs.set(
        nodeId,
        out.map((e) => ({ destination: destinationId(e[0], e[1]), extras: edgeRowExtras(e, asOf !== null) })),
      );
    }
    const graph = wireEdges(nodes, outs);
    // Each edge once, in its origin's outEdges: a graph view needs no second copy.
    for (const n of graph) n.inEdges = [];
    return { graph, truncated };
  }
}
