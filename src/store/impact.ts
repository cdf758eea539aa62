/**
 * Impact analysis on the lineage graph: blast radius (and root cause, its filtered form), column
 * impact, paths between two nodes and schema-change impact. Semantics: docs/impact.md.
 *
 * Built on the lineage graph's rules (src/store/lineage.ts): the same node-id resolution, the same time
 * view (asOf, window, LINEAGE_WINDOW) and the same edge and node predicates (written out in each
 * cypher/impact/*.cypher file; test/store/impact-plans.test.ts checks they are graph.cypher's).
 *
 * Every answer costs a constant number of round trips: resolve the id(s), one traversal query (plus,
 * for columns, one for the declarations in force; for schema changes, one for the readers'
 * declarations). Blast radius rows are handed to a sink one by one as the driver pulls them, so a CSV
 * answer of any size streams.
 */
import neo4j, { type Record as Neo4jRecord } from 'neo4j-driver';
import { int, type Db } from './db.js';
import type { BlastRadiusNode, ParamsOf, QueryName, RowOf } from './catalogue.js';
import {
  columnInput,
  edgeExtras,
  maxRelsFor,
  viewParams,
  withMaxRels,
  type ColumnInput,
  type EdgeExtras,
  type LineageRepository,
} from './lineage/index.js';
import { compactCypher, directed } from './cypher.js';
import type { Logger } from '../logger.js';
import type { Duration } from '../domain/duration.js';
import { iso } from './time.js';
import { datasetNodeId, fieldNodeId, jobNodeId, type ParsedNodeId } from '../domain/node-id.js';
import {
  diffSchemas,
  isEmptyDiff,
  ownersOf,
  pathTo,
  schemaFields,
  summarize,
  ViaPicker,
  DistanceThenIdOrder,
  type ImpactDirection,
  type ImpactSummary,
  type RunState,
  type SchemaDiff,
} from '../domain/impact.js';
import { compareText } from '../domain/compare.js';

type Props = Record<string, unknown>;

/** A node of a blast-radius record, with what ordering and `via` need. */
interface BlastRow {
  node: BlastRadiusNode;
  isJob: boolean;
  id: string;
  distance: number;
}

/** Most nodes in one blast-radius record: a record per node cost Neo4j and the service more than the node. */
const BLAST_RADIUS_CHUNK = 1000;

/** A job or dataset of a blast radius. */
export interface ImpactNode {
  id: string;
  type: 'JOB' | 'DATASET';
  namespace: string;
  name: string;
  /** Relationships on a shortest directed path from the start (0: the start). */
  distance: number;
  /** The node it was reached from on one shortest path (the first by id); null for the start. */
  via: string | null;
  tags: string[];
  /** Owner names from the `ownership` facet. */
  owners: string[];
  /** Jobs: the latest run's state and end (as of the answer's time); null for datasets. */
  latestRunState: string | null;
  latestRunEndedAt: string | null;
  /** Root cause only: the node ids from the start to this job, through each via. */
  path?: string[];
}

/** A column of a column-impact answer. */
export interface FieldImpactNode {
  id: string;
  type: 'DATASET_FIELD';
  namespace: string;
  dataset: string;
  field: string;
  distance: number;
  via: string | null;
  /** The job that maps `via` into this column (job:<namespace>:<name>), and its latest run's state. */
  viaJob: string | null;
  viaJobState: string | null;
  /** Transformations of that mapping, `TYPE` or `TYPE/SUBTYPE`. */
  transformationTypes: string[];
  tags: string[];
  owners: string[];
}

export type AnyImpactNode = ImpactNode | FieldImpactNode;

export interface ImpactQuery {
  direction: ImpactDirection;
  /** Job hops as in /api/v1/lineage (column hops for a column start). */
  depth: number;
  asOf: Date | null;
  /** undefined: the repository's window (LINEAGE_WINDOW); null: all history. */
  window?: Duration | null;
  /** Most nodes answered (the nearest). */
  limit: number;
  /** Root cause: only jobs whose latest run is in this state. */
  state: RunState | null;
}

export interface ImpactHead {
  start: AnyImpactNode;
  summary: ImpactSummary & { jobs?: string[] };
  /** The totals, when known before the first node (not for root cause: its jobs are counted as they stream). */
  totals?: ImpactTail;
}

export interface ImpactTail {
  /** Nodes that qualified (all reached, or the jobs in `state`), before the limit. */
  total: number;
  truncated: boolean;
}

/** Receives the start and summary, then each node, nearest first; may return a promise (backpressure). */
export interface ImpactSink {
  head(head: ImpactHead): void | Promise<void>;
  node(node: AnyImpactNode): void | Promise<void>;
}

export interface PathEdge extends EdgeExtras {
  origin: string;
  destination: string;
}

export interface LineagePath {
  length: number;
  nodes: string[];
  edges: PathEdge[];
}

export interface SchemaChange {
  dataset: string;
  namespace: string;
  name: string;
  version: string;
  previousVersion: string;
  changedAt: string;
  runId: string | null;
  added: SchemaDiff['added'];
  removed: SchemaDiff['removed'];
  retyped: SchemaDiff['retyped'];
  downstreamJobs: number;
  downstreamDatasets: number;
  /** Columns that read a removed or retyped column of this dataset (column lineage in force). */
  affectedFields: { field: string; reader: string; job: string | null; transformationTypes: string[] }[];
}

export const DEFAULT_IMPACT_LIMIT = 10_000;
/** Most candidate columns a column-impact walk considers (then `truncated`). */
const MAX_COLUMN_CANDIDATES = 100_000;
/** Root cause reads every reached node (to know each path); this bounds it. */
const ROOT_CAUSE_MAX_ROWS = 1_000_000;

const num = (v: unknown): number => (neo4j.isInt(v) ? (v as neo4j.Integer).toNumber() : (v as number));

function transformationTypes(input: ColumnInput): string[] {
  return input.transformations
    .map((t) => [t.type, t.subtype].filter((x) => typeof x === 'string' && x !== '').join('/'))
    .filter((t) => t !== '');
}

/**
 * How the blast radius walks the graph: 'procedure' with the service's `lineage.blastRadius` (a
 * breadth-first search in the database, src/neo4j/procedures/), 'cypher' with a variable-length expand; 'auto' uses the
 * procedure where the database has it (the local Neo4j always does).
 */
export type BlastRadiusWalk = 'procedure' | 'cypher';
export type BlastRadiusWalkOption = BlastRadiusWalk | 'auto';

/**
 * The edition of the lineage procedures' rules this service expects (src/neo4j/procedures/lineage/Reach.java,
 * RULES): a jar of another edition refuses the call. Changed with the Java constant (a test compares them).
 */
export const REACH_RULES = '2026-12-01';

/**
 * Neo4j's answer to a call of a procedure it does not have, or has in another edition (a jar of
 * another release refuses the call, or takes other arguments): either way, before any record.
 */
function cannotReach(err: unknown): boolean {
  const { code, message } = err as { code?: string; message?: string };
  if (code === 'Neo.ClientError.Procedure.ProcedureNotFound') return true;
  return (
    (code === 'Neo.ClientError.Procedure.ProcedureCallFailed' || code === 'Neo.ClientError.Statement.SyntaxError') &&
    typeof message === 'string' &&
    message.includes('lineage.blastRadius')
  );
}

export class ImpactRepository {
  /** The walk in use: 'auto' tries the procedure first, and turns to Cypher for good if Neo4j lacks it. */
  private walkInUse: BlastRadiusWalk;

  constructor(
    private readonly db: Db,
    private readonly lineage: LineageRepository,
    private readonly walkOption: BlastRadiusWalkOption = 'auto',
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {
    this.walkInUse = walkOption === 'cypher' ? 'cypher' : 'procedure';
  }

  /** How the blast radius walks now (the procedure, or Cypher where the database lacks it). */
  get blastRadiusWalk(): BlastRadiusWalk {
    return this.walkInUse;
  }

  private get timeoutMs() {
    return this.lineage.timeoutMs;
  }

  /** The window of a request that names none (LINEAGE_WINDOW). */
  get defaultWindow(): Duration {
    return this.lineage.window;
  }

  /** `text` is cypher/<op>.cypher as sent (bounded, directed). */
  private async run<K extends QueryName>(op: K, text: string, params: ParamsOf<K>): Promise<Neo4jRecord<RowOf<K>>[]> {
    const res = await this.db.execute<RowOf<K>>('READ', op, text, params, { timeoutMs: this.timeoutMs });
    return res.records;
  }

  private view(asOf: Date | null, window: Duration | null | undefined) {
    return viewParams({ asOf, window: window === undefined ? this.lineage.window : window });
  }

  /** The elementId of the job or dataset an id names at the view's time, or null. */
  private async resolveEntity(
    id: Extract<ParsedNodeId, { kind: 'job' | 'dataset' }>,
    asOf: ReturnType<typeof viewParams>['asOf'],
  ) {
    return this.lineage.resolve(id.kind, id.candidates, asOf);
  }

  /**
   * Blast radius (or root cause, with `q.state`) of a job, dataset or column: the sink gets the start and
   * summary, then every node nearest first; resolves to the totals, or null when the id names nothing.
   */
  async blastRadius(id: ParsedNodeId, q: ImpactQuery, sink: ImpactSink): Promise<ImpactTail | null> {
    if (id.kind === 'datasetField') return this.columnImpact(id, q, sink);
    const view = this.view(q.asOf, q.window);
    const start = await this.resolveEntity(id, view.asOf);
    if (!start) return null;
    const rootCause = q.state !== null;
    const maxRels = maxRelsFor(id.kind, q.depth);
    const params: ParamsOf<'impact/blast-radius'> = {
      startId: start.eid,
      ...view,
      rows: int(rootCause ? ROOT_CAUSE_MAX_ROWS : q.limit + 1),
      state: q.state,
      chunk: int(BLAST_RADIUS_CHUNK),
    };
    const walk = this.walkInUse;
    try {
      return await this.streamBlastRadius(walk, maxRels, q, params, sink);
    } catch (err) {
      // A Neo4j without the procedure (or with another release's) refuses the query before its first
      // record, so nothing has streamed: the same answer is walked in Cypher, and so is every later one.
      if (this.walkOption !== 'auto' || walk !== 'procedure' || !cannotReach(err)) throw err;
      this.walkInUse = 'cypher';
      this.logger?.warn(
        { procedure: 'lineage.blastRadius', rules: REACH_RULES, why: (err as Error).message },
        'Neo4j has no lineage.blastRadius procedure of this release: blast radius walks in Cypher from now on, ' +
          "with the same answers, more slowly (install this release's jar: src/neo4j/procedures/README.md)",
      );
      return this.streamBlastRadius('cypher', maxRels, q, params, sink);
    }
  }

  private async streamBlastRadius(
    walk: BlastRadiusWalk,
    maxRels: number,
    q: ImpactQuery,
    params: ParamsOf<'impact/blast-radius'>,
    sink: ImpactSink,
  ): Promise<ImpactTail> {
    const rootCause = q.state !== null;
    // The procedure takes the direction and bound as parameters; the Cypher walk has them in its text.
    const { op, text, runParams } =
      walk === 'procedure'
        ? {
            op: 'impact/blast-radius-procedure' as const,
            text: compactCypher('impact/blast-radius-procedure'),
            runParams: {
              ...params,
              rules: REACH_RULES,
              downstream: q.direction === 'downstream',
              maxRels: int(maxRels),
            },
          }
        : {
            op: 'impact/blast-radius' as const,
            text: directed(withMaxRels('impact/blast-radius', maxRels), q.direction),
            runParams: params,
          };
    const via = new ViaPicker();
    const vias = rootCause ? new Map<string, string | null>() : null;
    let emitted = 0;
    let matched = 0;
    let total = 0;
    // A transaction of its own (not executeQuery): the records go to the sink as they arrive.
    await this.db.read({ op, timeoutMs: this.timeoutMs }, async (tx) => {
      const result = tx.run<RowOf<'impact/blast-radius'>>(text, runParams);
      // The query returns rows in distance order; each distance is put in id order here.
      const order = new DistanceThenIdOrder<BlastRow>();
      // Returns the sink's promise only when it has one (a CSV socket that is full), so that a row costs
      // no promise otherwise.
      let counts: [number, string, number, number][] = [];
      const emit = ({ node: row, isJob, id: nodeId, distance }: BlastRow): void | Promise<void> => {
        const [namespace, name, state, endedAt, eid, preds, tags, owner] = row;
        // Predecessors come as elementIds, or keys within the answer (no property read): the picker knows
        // the previous layer's.
        const nodeVia = via.next(nodeId, distance, preds, eid);
        vias?.set(nodeId, nodeVia);
        const node: ImpactNode = {
          id: nodeId,
          type: isJob ? 'JOB' : 'DATASET',
          namespace,
          name,
          distance,
          via: nodeVia,
          // Sorted: the procedure may read them in another order than the node's own relationships.
          tags: tags && tags.length > 1 ? [...tags].sort() : (tags ?? []),
          owners: ownersOf(owner),
          latestRunState: isJob ? (state ?? null) : null,
          latestRunEndedAt: isJob ? iso(endedAt) : null,
        };
        if (distance === 0) {
          emitted++;
          return sink.head({
            start: node,
            summary: summarize(counts),
            totals: rootCause ? undefined : { total, truncated: total > q.limit },
          });
        }
        if (rootCause) {
          if (!isJob || node.latestRunState !== q.state) return;
          matched++;
          if (matched > q.limit) return;
          node.path = pathTo(nodeId, vias!) ?? [nodeId];
        } else if (emitted > q.limit) {
          // The query returns every row up to the distance of the limit-th: those that tie with it too.
          return;
        }
        emitted++;
        return sink.node(node);
      };
      try {
        for await (const rec of result) {
          const isJob = rec.get('isJob');
          const distance = num(rec.get('distance'));
          const recordCounts = rec.get('counts');
          if (recordCounts !== null) {
            // The first record's: the summary over every node reached.
            total = num(rec.get('total'));
            counts = recordCounts.map(([d, job, n, failed]) => [num(d), job ? 'JOB' : 'DATASET', num(n), num(failed)]);
          }
          for (const node of rec.get('nodes')) {
            const id = isJob ? jobNodeId(node[0], node[1]) : datasetNodeId(node[0], node[1]);
            for (const row of order.push({ node, isJob, id, distance })) {
              const pending = emit(row);
              if (pending) await pending;
            }
          }
        }
        for (const row of order.flush()) {
          const pending = emit(row);
          if (pending) await pending;
        }
      } catch (err) {
        // Rows already streamed must not be streamed again by a retry of the transaction.
        if (emitted > 0 && neo4j.isRetriableError(err))
          throw new Error(`impact stream interrupted: ${(err as Error).message}`);
        throw err;
      }
    });
    const qualified = rootCause ? matched : total;
    return { total: qualified, truncated: qualified > q.limit };
  }

  /** Column impact: the columns downstream (or upstream) of a column over the column lineage in force. */
  private async columnImpact(
    id: Extract<ParsedNodeId, { kind: 'datasetField' }>,
    q: ImpactQuery,
    sink: ImpactSink,
  ): Promise<ImpactTail | null> {
    const f = await this.lineage.resolveField(id.candidates);
    if (!f) return null;
    const text = directed(withMaxRels('impact/column-blast-radius', Math.max(q.depth, 1)), q.direction);
    const all = await this.run('impact/column-blast-radius', text, {
      startId: f.eid,
      maxNodes: int(MAX_COLUMN_CANDIDATES + 1),
    });
    const capped = all.length > MAX_COLUMN_CANDIDATES;
    const recs = all.slice(0, MAX_COLUMN_CANDIDATES).filter((r) => !r.get('deleted'));
    const at = q.asOf?.toISOString() ?? null;
    const declarations = await this.lineage.columnDeclarations(
      recs.map((r) => ({ namespace: r.get('namespace') as string, name: r.get('dataset') as string })),
      at,
    );

    interface Column {
      id: string;
      rec: Neo4jRecord;
      inputs: (ColumnInput & { jobState: string | null })[];
    }
    const columns = new Map<string, Column>();
    for (const rec of recs) {
      const namespace = rec.get('namespace') as string;
      const dataset = rec.get('dataset') as string;
      const field = rec.get('field') as string;
      const declaration = declarations.get(datasetNodeId(namespace, dataset));
      const inputs = (rec.get('inputs') as Props[]).flatMap((i) => {
        const input = columnInput(i, declaration, field);
        return input ? [{ ...input, jobState: (i.jobState as string | null) ?? null }] : [];
      });
      const nodeId = fieldNodeId(namespace, dataset, field);
      columns.set(nodeId, { id: nodeId, rec, inputs });
    }
    // Edges in force, in the walk's direction: from → [{to, input (the FEEDS edge's data)}].
    const next = new Map<string, { to: string; input: Column['inputs'][number] }[]>();
    for (const c of columns.values()) {
      for (const input of c.inputs) {
        const from = fieldNodeId(input.namespace, input.dataset, input.field);
        if (!columns.has(from)) continue;
        const [a, b] = q.direction === 'downstream' ? [from, c.id] : [c.id, from];
        next.set(a, [...(next.get(a) ?? []), { to: b, input }]);
      }
    }
    // Breadth-first over the edges in force: distance, and via = the first by id among the nearer ones.
    const startId = fieldNodeId(f.namespace, f.dataset, f.field);
    const reached = new Map<string, { distance: number; via: string | null; input: Column['inputs'][number] | null }>([
      [startId, { distance: 0, via: null, input: null }],
    ]);
    let frontier = [startId];
    for (let d = 1; d <= q.depth && frontier.length; d++) {
      const found = new Map<string, { via: string; input: Column['inputs'][number] }>();
      for (const from of [...frontier].sort()) {
        for (const { to, input } of next.get(from) ?? []) {
          if (reached.has(to) || found.has(to)) continue;
          found.set(to, { via: from, input });
        }
      }
      for (const [to, r] of found) reached.set(to, { distance: d, ...r });
      frontier = [...found.keys()];
    }
    const ordered = [...reached.entries()].sort(([a, x], [b, y]) => x.distance - y.distance || compareText(a, b));
    const toNode = ([nodeId, r]: (typeof ordered)[number]): FieldImpactNode => {
      const c = columns.get(nodeId)!;
      return {
        id: nodeId,
        type: 'DATASET_FIELD',
        namespace: c.rec.get('namespace') as string,
        dataset: c.rec.get('dataset') as string,
        field: c.rec.get('field') as string,
        distance: r.distance,
        via: r.via,
        viaJob: r.input?.jobName ? jobNodeId(r.input.jobNamespace ?? '', r.input.jobName) : null,
        viaJobState: r.input?.jobState ?? null,
        transformationTypes: r.input ? transformationTypes(r.input) : [],
        tags: (c.rec.get('tags') as string[]) ?? [],
        owners: ownersOf(c.rec.get('owner')),
      };
    };
    const nodes = ordered.map(toNode);
    const startNode = nodes.shift()!;
    const jobStates = new Map<string, string | null>();
    for (const n of nodes) if (n.viaJob) jobStates.set(n.viaJob, n.viaJobState);
    const counts = new Map<number, number>();
    for (const n of nodes) counts.set(n.distance, (counts.get(n.distance) ?? 0) + 1);
    const summary = summarize([...counts].map(([d, n]) => [d, 'DATASET_FIELD', n, 0] as const));
    summary.failedJobs = [...jobStates.values()].filter((s) => s === 'FAILED').length;
    const selected = q.state === null ? nodes : nodes.filter((n) => n.viaJobState === q.state);
    const totals = { total: selected.length, truncated: capped || selected.length > q.limit };
    await sink.head({ start: startNode, summary: { ...summary, jobs: [...jobStates.keys()].sort() }, totals });
    for (const n of selected.slice(0, q.limit)) await sink.node(n);
    return totals;
  }

  /** Up to `k` shortest directed paths from one job or dataset to another; null when either is unknown. */
  async paths(
    from: Extract<ParsedNodeId, { kind: 'job' | 'dataset' }>,
    to: Extract<ParsedNodeId, { kind: 'job' | 'dataset' }>,
    opts: { k: number; maxDepth: number; asOf: Date | null; window?: Duration | null },
  ): Promise<{ from: string; to: string; paths: LineagePath[] } | { missing: 'from' | 'to' }> {
    const view = this.view(opts.asOf, opts.window);
    const [a, b] = await Promise.all([this.resolveEntity(from, view.asOf), this.resolveEntity(to, view.asOf)]);
    if (!a) return { missing: 'from' };
    if (!b) return { missing: 'to' };
    const fromId = from.kind === 'job' ? jobNodeId(a.namespace, a.name) : datasetNodeId(a.namespace, a.name);
    const toId = to.kind === 'job' ? jobNodeId(b.namespace, b.name) : datasetNodeId(b.namespace, b.name);
    if (!Number.isSafeInteger(opts.k) || opts.k < 1 || opts.k > 1000) throw new Error(`invalid path count ${opts.k}`);
    // A node reaches itself by the empty path, the shortest there is (a symlink name and its primary too).
    if (a.eid === b.eid) return { from: fromId, to: toId, paths: [{ length: 0, nodes: [fromId], edges: [] }] };
    const text = withMaxRels('impact/paths', maxRelsFor(from.kind, opts.maxDepth)).replace(
      /\b\d+\s*\/\*k\*\//,
      `${opts.k} /*k*/`,
    );
    const recs = await this.run('impact/paths', text, {
      fromId: a.eid,
      toId: b.eid,
      asOf: view.asOf,
      windowStart: view.windowStart,
    });
    const paths = recs.map((rec): LineagePath => {
      const nodes = (rec.get('nodes') as [boolean, string, string][]).map(([isJob, ns, name]) =>
        isJob ? jobNodeId(ns, name) : datasetNodeId(ns, name),
      );
      const edges = (rec.get('edges') as Props[]).map((e, i) => ({
        origin: nodes[i],
        destination: nodes[i + 1],
        ...edgeExtras(e, view.pointInTime),
      }));
      return { length: edges.length, nodes, edges };
    });
    // Shortest first; equal lengths in node-id order, so answers are stable.
    paths.sort((x, y) => x.length - y.length || compareLists(x.nodes, y.nodes));
    return { from: fromId, to: toId, paths };
  }

  /**
   * Schema changes since `since`: each consecutive pair of a dataset's versions whose columns differ,
   * with what it puts at risk downstream. Newest first, at most `limit` (+ `truncated`).
   */
  async schemaChanges(opts: {
    since: Date;
    namespace: string | null;
    depth: number;
    window?: Duration | null;
    limit: number;
  }): Promise<{ changes: SchemaChange[]; truncated: boolean }> {
    const view = this.view(null, opts.window);
    const text = withMaxRels('impact/schema-changes', maxRelsFor('dataset', opts.depth));
    const recs = await this.run('impact/schema-changes', text, {
      since: neo4j.types.DateTime.fromStandardDate(opts.since),
      namespace: opts.namespace,
      asOf: view.asOf,
      windowStart: view.windowStart,
      limit: int(opts.limit + 1),
    });
    const truncated = recs.length > opts.limit;
    const rows = recs.slice(0, opts.limit).flatMap((rec) => {
      const diff = diffSchemas(schemaFields(rec.get('previousFields')), schemaFields(rec.get('fields')));
      return diff && !isEmptyDiff(diff) ? [{ rec, diff }] : [];
    });
    // The readers' column lineage in force now decides which FEEDS edges still read a column.
    const readerDatasets = rows.flatMap(({ rec }) =>
      (rec.get('readers') as Props[]).map((r) => ({ namespace: r.namespace as string, name: r.dataset as string })),
    );
    const declarations = await this.lineage.columnDeclarations(readerDatasets, null);
    const changes = rows.map(({ rec, diff }): SchemaChange => {
      const namespace = rec.get('namespace') as string;
      const name = rec.get('name') as string;
      const atRisk = new Set([...diff.removed.map((f) => f.name), ...diff.retyped.map((f) => f.name)]);
      const affectedFields = (rec.get('readers') as Props[])
        .filter((r) => atRisk.has(r.field as string))
        .flatMap((r) => {
          const declaration = declarations.get(datasetNodeId(r.namespace as string, r.dataset as string));
          const input = columnInput(
            {
              namespace,
              dataset: name,
              field: r.field,
              jobNamespace: r.jobNamespace,
              jobName: r.jobName,
              transformations: r.transformations,
            },
            declaration,
            r.name as string,
          );
          if (!input) return [];
          return [
            {
              field: r.field as string,
              reader: fieldNodeId(r.namespace as string, r.dataset as string, r.name as string),
              job: input.jobName ? jobNodeId(input.jobNamespace ?? '', input.jobName) : null,
              transformationTypes: transformationTypes(input),
            },
          ];
        })
        .sort((x, y) => (`${x.field}\n${x.reader}` < `${y.field}\n${y.reader}` ? -1 : 1));
      return {
        dataset: datasetNodeId(namespace, name),
        namespace,
        name,
        version: rec.get('version') as string,
        previousVersion: rec.get('previousVersion') as string,
        changedAt: new Date(rec.get('changedAt') as string).toISOString(),
        runId: (rec.get('runId') as string | null) ?? null,
        added: diff.added,
        removed: diff.removed,
        retyped: diff.retyped,
        downstreamJobs: num(rec.get('downstreamJobs')),
        downstreamDatasets: num(rec.get('downstreamDatasets')),
        affectedFields,
      };
    });
    return { changes, truncated };
  }
}

function compareLists(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

/** The query text of a cypher/impact file as sent (comments dropped), for plan tests and benches. */
export function impactQuery(
  name: 'blast-radius' | 'column-blast-radius' | 'paths' | 'schema-changes',
  direction: ImpactDirection,
  maxRels: number,
): string {
  return directed(withMaxRels(`impact/${name}`, maxRels), direction);
}
