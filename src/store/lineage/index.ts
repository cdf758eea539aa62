/**
 * The lineage graph: dataset-level (graph.ts), column-level (columns.ts) and run-level (runs.ts)
 * lineage over the same node-id resolution (resolver.ts) and time rules (view.ts). Every answer costs
 * a constant number of round trips whatever the graph size, except run lineage (one per level, at
 * most `depth`). Semantics are documented in docs/lineage.md.
 */
import type { Db } from '../db.js';
import type { Duration } from '../../domain/duration.js';
import type { FieldRef, EntityRef, ParsedNodeId } from '../../domain/node-id.js';
import type { LineageGraph, RunLineage } from '../../api/types.js';
import type { LineageFields, LineageInclude } from '../../domain/lineage/graph-nodes.js';
import { ColumnLineage, type ColumnDeclaration } from './columns.js';
import { GraphLineage, type LineageSink } from './graph.js';
import { LineageReader, type Resolved } from './resolver.js';
import { RunLineageReader } from './runs.js';
import { DEFAULT_WINDOW, END_OF_TIME, type Direction } from './view.js';

export type { LineageEdge, LineageGraph, LineageNode, RunLineage } from '../../api/types.js';
export {
  DIRECTIONS,
  DEFAULT_WINDOW,
  graphQuery,
  maxRelsFor,
  viewParams,
  type Direction,
  type LineageView,
} from './view.js';
export {
  LINEAGE_FIELDS,
  LINEAGE_INCLUDES,
  type EdgeExtras,
  type LineageFields,
  type LineageInclude,
} from '../../domain/lineage/graph-nodes.js';
export type { ColumnInput } from '../../domain/lineage/column-walk.js';
export { columnInput, type ColumnDeclaration } from './columns.js';
export { edgeExtras, graphNodeProps, type LineageSink } from './graph.js';
export { withMaxRels } from '../cypher.js';

export interface LineageOptions {
  /**
   * Transaction timeout of lineage queries (ms; default: the Db's, QUERY_TIMEOUT_MS); past it the request answers 504.
   */
  timeoutMs?: number;
  /** Most nodes returned by one graph query; more sets `truncated`. */
  maxNodes?: number;
  /** The lineage window when a request names none (LINEAGE_WINDOW). */
  window?: Duration;
}

export const DEFAULT_MAX_NODES = 20_000;

export class LineageRepository {
  readonly timeoutMs: number | undefined;
  readonly maxNodes: number;
  readonly window: Duration;
  private readonly reader: LineageReader;
  readonly graph: GraphLineage;
  readonly columns: ColumnLineage;
  readonly runs: RunLineageReader;

  constructor(db: Db, opts: LineageOptions = {}) {
    this.timeoutMs = opts.timeoutMs;
    this.maxNodes = opts.maxNodes ?? DEFAULT_MAX_NODES;
    this.window = opts.window ?? DEFAULT_WINDOW;
    this.reader = new LineageReader(db, this.timeoutMs);
    this.graph = new GraphLineage(this.reader, this.maxNodes, this.window);
    this.columns = new ColumnLineage(this.reader, this.maxNodes);
    this.runs = new RunLineageReader(this.reader);
  }

  resolve(kind: 'job' | 'dataset', candidates: EntityRef[], asOf = END_OF_TIME): Promise<Resolved | null> {
    return this.reader.resolve(kind, candidates, asOf);
  }

  resolveField(candidates: FieldRef[]): Promise<(FieldRef & { eid: string }) | null> {
    return this.reader.resolveField(candidates);
  }

  lineage(
    id: Extract<ParsedNodeId, { kind: 'job' | 'dataset' }>,
    depth: number,
    direction: Direction,
    view?: { asOf: Date | null; window?: Duration | null },
    include?: ReadonlySet<LineageInclude>,
    /** Aborted (the HTTP client disconnected): the query is ended in Neo4j. */
    signal?: AbortSignal,
    /** `minimal`: node keys and job states only (graph-minimal.cypher). */
    fields: LineageFields = 'full',
  ): Promise<LineageGraph | null> {
    return this.graph.lineage(id, depth, direction, view, include, signal, fields);
  }

  /**
   * The full dataset-level answer, each node handed to `sink` as its JSON text as it arrives (GraphLineage.stream);
   * null when the start node is unknown.
   */
  streamLineage(
    id: Extract<ParsedNodeId, { kind: 'job' | 'dataset' }>,
    depth: number,
    direction: Direction,
    view: { asOf: Date | null; window?: Duration | null },
    include: ReadonlySet<LineageInclude>,
    sink: LineageSink,
    signal?: AbortSignal,
  ): Promise<{ truncated: boolean } | null> {
    return this.graph.stream(id, depth, direction, view, include, sink, signal);
  }

  columnLineage(
    id: ParsedNodeId,
    depth: number,
    withDownstream: boolean,
    asOf: Date | null = null,
  ): Promise<LineageGraph | null> {
    return this.columns.lineage(id, depth, withDownstream, asOf);
  }

  columnDeclarations(refs: EntityRef[], at: string | null): Promise<Map<string, ColumnDeclaration>> {
    return this.columns.declarations(refs, at);
  }

  runLineageUpstream(runId: string, depth: number): Promise<RunLineage | null> {
    return this.runs.upstream(runId, depth);
  }
}
