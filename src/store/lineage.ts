/**
 * The lineage graph: dataset-level (jobs and datasets), column-level and run-level (version) lineage.
 *
 * Every answer costs a constant number of round trips whatever the graph size, except run lineage
 * (one per level, at most `depth`): resolve the node id (one query over all candidate splits), then one
 * query that walks and renders every node with what its `data` needs (latestRun included).
 * Semantics are documented in docs/lineage.md.
 */
import neo4j from 'neo4j-driver';
import { cypher } from './cypher.js';
import { int, toNative, type Db, type Params } from './db.js';
import { minus, parseDuration, type Duration } from '../domain/duration.js';
import { FOREVER } from '../domain/edge-history.js';
import { iso } from './time.js';
import { toDataset, toJob } from './mappers.js';
import type { Dataset, Job, LineageEdge, LineageGraph, LineageNode, RunLineage } from '../api/types.js';
import { datasetNodeId, fieldNodeId, jobNodeId, type EntityRef, type FieldRef, type ParsedNodeId } from '../domain/node-id.js';
import { columnLineage as columnLineageEntries } from '../domain/openlineage/normalize.js';
import type { ColumnLineageInput } from '../domain/openlineage/types.js';

// The response shapes live with the other API types (shared with the web UI).
export type { LineageEdge, LineageGraph, LineageNode, RunLineage };

export type Direction = 'both' | 'upstream' | 'downstream';
export const DIRECTIONS: readonly Direction[] = ['both', 'upstream', 'downstream'];

/**
 * Which edges and nodes a dataset-level answer holds (docs/lineage.md, "Time"): the graph at `asOf`
 * (null: now, with everything stored) with the edges observed within `window` before it (null: all
 * history) plus each job's latest known I/O.
 */
export interface LineageView {
  asOf: Date | null;
  window: Duration | null;
}

export const DEFAULT_WINDOW: Duration = parseDuration('P30D')!;
// Without asOf, everything stored counts: asOf is the last instant before FOREVER, so an edge still
// held (heldUntil = FOREVER) is held then.
const END_OF_TIME = neo4j.types.DateTime.fromStandardDate(new Date(FOREVER - 1));
const START_OF_TIME = neo4j.types.DateTime.fromStandardDate(new Date(Date.UTC(1, 0, 1)));

export interface LineageOptions {
  /** Transaction timeout of lineage queries (ms; default: the Db's, QUERY_TIMEOUT_MS); past it the request answers 504. */
  timeoutMs?: number;
  /** Most nodes returned by one graph query; more sets `truncated`. */
  maxNodes?: number;
  /** The lineage window when a request names none (LINEAGE_WINDOW). */
  window?: Duration;
}

export const DEFAULT_MAX_NODES = 20_000;

interface Resolved {
  eid: string;
  namespace: string;
  name: string;
}

const MAX_RELS_MARK = /\b\d+\s*\/\*maxRels\*\//g;
const compacted = new Map<string, string>();

/**
 * The query text as sent: whole-line `//` comments dropped and whitespace collapsed, so every request
 * carries less text. (The driver writes Bolt messages in 1,400-byte chunks; before src/neo4j/no-delay.ts
 * turned on TCP_NODELAY, any RUN message over one chunk waited ~40 ms for a delayed ACK.)
 */
export function lineageQuery(name: string): string {
  let text = compacted.get(name);
  if (text === undefined) {
    text = cypher(name)
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('//'))
      .join('\n')
      .replace(/\s+/g, ' ')
      .trim();
    compacted.set(name, text);
  }
  return text;
}

/**
 * Query text with the quantifier bound marked `/*maxRels*\/` set to `maxRels` (a validated integer:
 * Cypher has no parameters there). Texts differ only in that number (and, for the graph, the walk's
 * direction), so there is one cached plan per direction and depth.
 */
export function withMaxRels(name: string, maxRels: number): string {
  if (!Number.isSafeInteger(maxRels) || maxRels < 0 || maxRels > 1000) throw new Error(`invalid traversal bound ${maxRels}`);
  const text = lineageQuery(name);
  if (!text.includes('/*maxRels*/')) throw new Error(`cypher/${name}.cypher has no /*maxRels*/ bound`);
  return text.replace(MAX_RELS_MARK, `${maxRels} /*maxRels*/`);
}

// The walk's relationship in graph.cypher, `(()-[e:INPUT_TO|PRODUCES WHERE …]->/*downstream*/(x)`.
const WALK = /\(\(\)-\[(e:INPUT_TO\|PRODUCES WHERE .*?)\]->\/\*downstream\*\/\(x\)/;
const WALKS: Record<Direction, (rel: string) => string> = {
  downstream: (rel) => `(()-[${rel}]->/*downstream*/(x)`,
  upstream: (rel) => `(()<-[${rel}]-/*upstream*/(x)`,
  both: (rel) => `(()-[${rel}]-/*both*/(x)`,
};

/** The dataset-level traversal for one direction and bound (see cypher/lineage/graph.cypher). */
export function graphQuery(direction: Direction, maxRels: number): string {
  const text = withMaxRels('lineage/graph', maxRels);
  const m = WALK.exec(text);
  if (!m) throw new Error('cypher/lineage/graph.cypher lost its /*downstream*/ walk');
  return text.replace(WALK, WALKS[direction](m[1]));
}

/** The time parameters of graph.cypher for a view. */
export function viewParams(view: LineageView, now = Date.now()) {
  const asOf = view.asOf === null ? END_OF_TIME : neo4j.types.DateTime.fromStandardDate(view.asOf);
  const windowStart = view.window === null ? START_OF_TIME : neo4j.types.DateTime.fromStandardDate(new Date(minus(view.asOf?.getTime() ?? now, view.window)));
  return { asOf, windowStart, pointInTime: view.asOf !== null };
}

/**
 * Relationships from the start node for `depth` job hops: the jobs next to the start are hop 0, each
 * further job layer one more hop, and the datasets of every included job come with it. From a job:
 * job, dataset, job, ... = 2 * depth + 1; from a dataset one more.
 */
export function maxRelsFor(kind: 'job' | 'dataset', depth: number): number {
  return kind === 'job' ? 2 * depth + 1 : 2 * depth + 2;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function byOriginDestination(a: LineageEdge, b: LineageEdge): number {
  return a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : a.destination < b.destination ? -1 : a.destination > b.destination ? 1 : 0;
}

export type EdgeExtras = Omit<LineageEdge, 'origin' | 'destination'>;

/** Adds the edges between nodes of the result (both endpoints present) to both ends; sorts everything. */
function wireEdges(nodes: LineageNode[], outs: Map<string, (string | { destination: string; extras: EdgeExtras })[]>): LineageNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const [origin, destinations] of outs) {
    const from = byId.get(origin);
    if (!from) continue;
    const seen = new Set<string>();
    for (const d of destinations) {
      const destination = typeof d === 'string' ? d : d.destination;
      const to = byId.get(destination);
      if (!to || seen.has(destination)) continue;
      seen.add(destination);
      const edge = typeof d === 'string' ? { origin, destination } : { origin, destination, ...d.extras };
      from.outEdges.push(edge);
      to.inEdges.push(edge);
    }
  }
  for (const n of nodes) {
    n.inEdges.sort(byOriginDestination);
    n.outEdges.sort(byOriginDestination);
  }
  return nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

type Props = Record<string, unknown>;

// ---- the repository ----

export interface ColumnDeclaration {
  /** Output column → its declared inputs; null when the dataset had declared nothing by then. */
  fields: Map<string, ColumnLineageInput[]> | null;
  /** True when every FEEDS edge into the dataset counts (it never declared column lineage on a version). */
  open: boolean;
  versionAt: string | null;
}

export interface ColumnInput {
  namespace: string;
  dataset: string;
  field: string;
  jobNamespace: string | null;
  jobName: string | null;
  transformationDescription: string | null;
  transformationType: string | null;
  transformations: { type: unknown; subtype: unknown; description: unknown; masking: unknown }[];
}

function shapeTransformations(list: Props[]): ColumnInput['transformations'] {
  return list.map((t) => ({ type: t.type ?? null, subtype: t.subtype ?? null, description: t.description ?? null, masking: t.masking ?? null }));
}

/**
 * A FEEDS edge into `field` as an input of the answer, or null when the declaration in force does not
 * list it; transformations come from that declaration.
 */
export function columnInput(edge: Props, declaration: ColumnDeclaration | undefined, field: string): ColumnInput | null {
  let transformations: ColumnInput['transformations'];
  if (!declaration || declaration.open) {
    transformations = shapeTransformations((parseJson(edge.transformations) as Props[] | null) ?? []);
  } else {
    const declared = declaration.fields?.get(field)?.find((i) => i.namespace === edge.namespace && i.name === edge.dataset && i.field === edge.field);
    if (!declared) return null;
    transformations = shapeTransformations(declared.transformations as Props[]);
  }
  return {
    namespace: edge.namespace as string,
    dataset: edge.dataset as string,
    field: edge.field as string,
    jobNamespace: (edge.jobNamespace as string | null) ?? null,
    jobName: (edge.jobName as string | null) ?? null,
    transformationDescription: (transformations[0]?.description as string | null | undefined) ?? null,
    transformationType: (transformations[0]?.type as string | null | undefined) ?? null,
    transformations,
  };
}

/**
 * An edge's extras. A point-in-time answer gives only when the edge was first seen: its last
 * observation and run up to then are not kept at that precision (spans, src/domain/edge-history.ts),
 * and an answer about the past must not change when later events arrive.
 */
export function edgeExtras(e: Props, pointInTime: boolean): EdgeExtras {
  if (pointInTime) return { firstSeenAt: iso(e.firstSeenAt), lastSeenAt: null, lastRunId: null, lastRunState: null };
  return { firstSeenAt: iso(e.firstSeenAt), lastSeenAt: iso(e.lastSeenAt), lastRunId: str(e.lastRunId), lastRunState: str(e.lastRunState) };
}

/** A run as it was at `asOf`: not ended yet if it ended later, not started yet if it started later. */
function runAsOf(run: Props | null, asOf: number): Props | null {
  if (!run) return run;
  const started = typeof run.startedAt === 'string' && Date.parse(run.startedAt) <= asOf;
  const ended = typeof run.endedAt === 'string' && Date.parse(run.endedAt) <= asOf;
  if (ended) return run;
  return { ...run, endedAt: null, state: started ? 'RUNNING' : 'NEW', startedAt: started ? run.startedAt : null, jobVersion: null };
}

const latest = (...times: unknown[]) =>
  times.filter((t): t is string => typeof t === 'string').reduce<string | null>((a, b) => (a === null || Date.parse(b) > Date.parse(a) ? b : a), null);

/**
 * A dataset as it was at `asOf`: its current version then gives the version, schema, lifecycle state
 * and last change (updatedAt too: what the dataset was last touched by later is not known as of then).
 */
function datasetAsOf(node: Props): Props {
  const v = node.version as Props | null;
  if (!v) return { ...node, currentVersion: null, lastModifiedAt: null, updatedAt: node.createdAt };
  return {
    ...node,
    currentVersion: v.id,
    fields: v.fields ?? node.fields,
    lastModifiedAt: v.committedAt,
    lastLifecycleState: v.lifecycleState ?? null,
    updatedAt: latest(node.createdAt, v.committedAt),
  };
}

/**
 * A job as it was at `asOf`: its latest run then, updatedAt from it, and as current version the one
 * that run had executed by then (null while it was running: which version was current then is not kept).
 */
function jobAsOf(node: Props, asOf: number): Props {
  const run = runAsOf(node.latestRun as Props | null, asOf);
  return { ...node, latestRun: run, updatedAt: latest(node.createdAt, run?.startedAt, run?.endedAt), currentVersion: run?.jobVersion ?? null };
}

/** What `include` adds to the nodes' data of a dataset-level answer. */
export type LineageInclude = 'facets' | 'latestRuns';
export const LINEAGE_INCLUDES: readonly LineageInclude[] = ['facets', 'latestRuns'];

const JOB_FIELDS = ['id', 'type', 'name', 'simpleName', 'parentJobName', 'createdAt', 'updatedAt', 'namespace', 'inputs', 'outputs', 'location', 'description', 'latestRun', 'currentVersion', 'labels', 'tags'] as const;
const DATASET_FIELDS = ['id', 'type', 'name', 'physicalName', 'createdAt', 'updatedAt', 'namespace', 'sourceName', 'fields', 'tags', 'lastModifiedAt', 'description', 'lastLifecycleState', 'currentVersion'] as const;
const RUN_FIELDS = ['id', 'createdAt', 'updatedAt', 'nominalStartTime', 'nominalEndTime', 'state', 'startedAt', 'endedAt', 'durationMs', 'jobVersion'] as const;

const pick = (o: object, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, (o as Props)[k] ?? null]));

/**
 * A lineage node's data: the fields a graph view needs (Marquez's node data, plus the current version,
 * tags and labels), the latest run as its state and times; `include` adds facets (and a job's context,
 * a dataset's column lineage) and the latest run in full with `latestRuns`.
 */
function nodeData(full: Job | Dataset, isJob: boolean, include: ReadonlySet<LineageInclude>): Record<string, unknown> {
  const data = pick(full, isJob ? JOB_FIELDS : DATASET_FIELDS);
  if (include.has('facets')) {
    data.facets = full.facets;
    if (isJob) data.context = (full as Job).context;
    else data.columnLineage = (full as Dataset).columnLineage;
  }
  if (isJob) {
    const job = full as Job;
    if (include.has('latestRuns')) data.latestRuns = job.latestRuns;
    else data.latestRun = job.latestRun ? pick(job.latestRun, RUN_FIELDS) : null;
  }
  return data;
}

export class LineageRepository {
  readonly timeoutMs: number | undefined;
  readonly maxNodes: number;
  readonly window: Duration;

  constructor(
    private readonly db: Db,
    opts: LineageOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs;
    this.maxNodes = opts.maxNodes ?? DEFAULT_MAX_NODES;
    this.window = opts.window ?? DEFAULT_WINDOW;
  }

  private async run(op: string, text: string, params: Params) {
    const res = await this.db.read({ op, timeoutMs: this.timeoutMs }, (tx) => tx.run(text, params));
    return res.records;
  }

  /** The job or (primary) dataset a parsed id names, or null when none of its splits existed (undeleted) at `asOf`. */
  async resolve(kind: 'job' | 'dataset', candidates: EntityRef[], asOf = END_OF_TIME): Promise<Resolved | null> {
    const recs = await this.run(`lineage/resolve-${kind}`, lineageQuery(`lineage/resolve-${kind}`), { candidates, asOf });
    if (!recs.length) return null;
    const r = recs[0];
    return { eid: r.get('eid'), namespace: r.get('namespace'), name: r.get('name') };
  }

  async resolveField(candidates: FieldRef[]): Promise<(FieldRef & { eid: string }) | null> {
    const recs = await this.run('lineage/resolve-field', lineageQuery('lineage/resolve-field'), { candidates });
    if (!recs.length) return null;
    const r = recs[0];
    return { eid: r.get('eid'), namespace: r.get('namespace'), dataset: r.get('dataset'), field: r.get('field') };
  }

  /**
   * Dataset-level lineage at a point in time (see LineageView; the repository's window when the view
   * names none); null when the node id names no job or dataset that existed, undeleted, at asOf.
   */
  async lineage(
    id: Extract<ParsedNodeId, { kind: 'job' | 'dataset' }>,
    depth: number,
    direction: Direction,
    view: { asOf: Date | null; window?: Duration | null } = { asOf: null },
    include: ReadonlySet<LineageInclude> = new Set(),
  ): Promise<LineageGraph | null> {
    const timeParams = viewParams({ asOf: view.asOf, window: view.window === undefined ? this.window : view.window });
    const start = await this.resolve(id.kind, id.candidates, timeParams.asOf);
    if (!start) return null;
    const text = graphQuery(direction, maxRelsFor(id.kind, depth));
    const recs = await this.run('lineage/graph', text, {
      startId: start.eid,
      ...timeParams,
      facets: include.has('facets'),
      runDetails: include.has('latestRuns'),
      maxNodes: int(this.maxNodes + 1),
    });
    const truncated = recs.length > this.maxNodes;
    const asOf = view.asOf?.getTime() ?? null;
    const nodes: LineageNode[] = [];
    const outs = new Map<string, { destination: string; extras: EdgeExtras }[]>();
    for (const rec of recs.slice(0, this.maxNodes)) {
      let node = rec.get('node') as Props;
      const ns = node.namespace as string;
      const name = node.name as string;
      const isJob = rec.get('isJob') as boolean;
      const nodeId = isJob ? jobNodeId(ns, name) : datasetNodeId(ns, name);
      if (asOf !== null) node = isJob ? jobAsOf(node, asOf) : datasetAsOf(node);
      const data = nodeData(isJob ? toJob(node) : toDataset(node), isJob, include);
      nodes.push({ id: nodeId, type: isJob ? 'JOB' : 'DATASET', data, inEdges: [], outEdges: [] });
      const destinationId = isJob ? datasetNodeId : jobNodeId;
      outs.set(
        nodeId,
        (rec.get('out') as Props[]).map((e) => {
          const [a, b] = e.to as [string, string];
          return { destination: destinationId(a, b), extras: edgeExtras(e, asOf !== null) };
        }),
      );
    }
    return { graph: wireEdges(nodes, outs), truncated };
  }

  /**
   * Column-level lineage from a dataset (all its columns), a column, or a job (the columns of the
   * datasets it writes); null when the id names nothing (or an unknown version of it).
   */
  async columnLineage(id: ParsedNodeId, depth: number, withDownstream: boolean, asOf: Date | null = null): Promise<LineageGraph | null> {
    let startIds: string[];
    let versionFields: Set<string> | null = null;
    // A `#version` answer is the column lineage in force when that version was created; an `asOf`
    // answer (without #version) the column lineage in force at that time.
    let at: string | null = null;
    let datasetVersionOverride: { namespace: string; dataset: string; version: string } | null = null;
    if (id.kind === 'datasetField') {
      const f = await this.resolveField(id.candidates);
      if (!f) return null;
      if (id.version) {
        const start = await this.columnStart(await this.resolve('dataset', [{ namespace: f.namespace, name: f.dataset }]), 'dataset', id.version);
        if (!start || !start.fieldNames || !start.fieldNames.has(f.field)) return null;
        datasetVersionOverride = { namespace: f.namespace, dataset: f.dataset, version: id.version };
        at = start.at;
      } else if (asOf) {
        at = asOf.toISOString();
      }
      startIds = [f.eid];
    } else {
      const entity = await this.resolve(id.kind, id.candidates, asOf && !id.version ? neo4j.types.DateTime.fromStandardDate(asOf) : undefined);
      if (!entity) return null;
      const start = await this.columnStart(entity, id.kind, id.version);
      if (!start) return null;
      startIds = start.fieldIds;
      at = start.at ?? asOf?.toISOString() ?? null;
      if (id.kind === 'dataset' && id.version) {
        versionFields = start.fieldNames;
        datasetVersionOverride = { namespace: entity.namespace, dataset: entity.name, version: id.version };
      }
      if (!startIds.length) return { graph: [], truncated: false };
    }
    // The FEEDS walk finds every column reachable over any mapping ever declared (a superset of the
    // answer at any point in time); the declarations in force then say which of those edges count.
    // A quantifier cannot be {0, 0}: depth 0 walks one hop and keeps the start columns only.
    const text = withMaxRels('lineage/column-graph', Math.max(depth, 1));
    const all = await this.run('lineage/column-graph', text, { startIds, withDownstream, maxNodes: int(this.maxNodes + 1) });
    const truncated = all.length > this.maxNodes;
    const recs = all.slice(0, this.maxNodes).filter((r) => !r.get('deleted'));
    const declarations = await this.columnDeclarations(recs.map((r) => ({ namespace: r.get('namespace') as string, name: r.get('dataset') as string })), at);

    interface Candidate {
      nodeId: string;
      rec: (typeof recs)[number];
      inputs: ColumnInput[];
    }
    const candidates = new Map<string, Candidate>();
    const startNodes: string[] = [];
    const startSet = new Set(startIds);
    for (const rec of recs) {
      const namespace = rec.get('namespace') as string;
      const dataset = rec.get('dataset') as string;
      const field = rec.get('field') as string;
      const nodeId = fieldNodeId(namespace, dataset, field);
      const declaration = declarations.get(datasetNodeId(namespace, dataset));
      const inputs = (rec.get('inputs') as Props[])
        .map((i) => columnInput(i, declaration, field))
        .filter((i): i is ColumnInput => i !== null);
      candidates.set(nodeId, { nodeId, rec, inputs });
      const isVersionedStart = datasetVersionOverride && datasetVersionOverride.namespace === namespace && datasetVersionOverride.dataset === dataset;
      // A point-in-time dataset start keeps only the columns of that version's schema.
      if (startSet.has(rec.get('eid') as string) && !(isVersionedStart && versionFields && !versionFields.has(field))) startNodes.push(nodeId);
    }

    // Breadth-first over the edges in force, upstream (and downstream when asked), `depth` column hops.
    const consumers = new Map<string, string[]>();
    for (const c of candidates.values()) {
      for (const i of c.inputs) {
        const from = fieldNodeId(i.namespace, i.dataset, i.field);
        consumers.set(from, [...(consumers.get(from) ?? []), c.nodeId]);
      }
    }
    const reached = new Set(startNodes);
    const walk = (next: (nodeId: string) => string[]) => {
      let frontier = [...startNodes];
      const seen = new Set(startNodes);
      for (let hop = 0; hop < depth && frontier.length; hop++) {
        const following: string[] = [];
        for (const n of frontier) {
          for (const m of next(n)) {
            if (seen.has(m) || !candidates.has(m)) continue;
            seen.add(m);
            reached.add(m);
            following.push(m);
          }
        }
        frontier = following;
      }
    };
    walk((n) => (candidates.get(n)?.inputs ?? []).map((i) => fieldNodeId(i.namespace, i.dataset, i.field)));
    if (withDownstream) walk((n) => consumers.get(n) ?? []);

    const nodes: LineageNode[] = [];
    const outs = new Map<string, string[]>();
    for (const c of candidates.values()) {
      if (!reached.has(c.nodeId)) continue;
      const { rec } = c;
      const namespace = rec.get('namespace') as string;
      const dataset = rec.get('dataset') as string;
      const isVersioned = datasetVersionOverride && datasetVersionOverride.namespace === namespace && datasetVersionOverride.dataset === dataset;
      const datasetVersion = isVersioned
        ? datasetVersionOverride!.version
        : at !== null
          ? (declarations.get(datasetNodeId(namespace, dataset))?.versionAt ?? null)
          : ((rec.get('datasetVersion') as string | null) ?? null);
      // Input fields and edges only among the columns of the answer.
      const inputs = c.inputs.filter((i) => reached.has(fieldNodeId(i.namespace, i.dataset, i.field)));
      inputs.sort((a, b) => fieldNodeId(a.namespace, a.dataset, a.field).localeCompare(fieldNodeId(b.namespace, b.dataset, b.field)));
      nodes.push({
        id: c.nodeId,
        type: 'DATASET_FIELD',
        data: {
          namespace,
          dataset,
          datasetVersion,
          field: rec.get('field') as string,
          fieldType: rec.get('fieldType') ?? null,
          transformationDescription: inputs[0]?.transformationDescription ?? null,
          transformationType: inputs[0]?.transformationType ?? null,
          inputFields: inputs,
        },
        inEdges: [],
        outEdges: [],
      });
      outs.set(c.nodeId, (consumers.get(c.nodeId) ?? []).filter((m) => reached.has(m)));
    }
    return { graph: wireEdges(nodes, outs), truncated };
  }

  /** Per dataset (by dataset node id): the column-lineage declaration in force at `at` (null: now). */
  async columnDeclarations(refs: EntityRef[], at: string | null): Promise<Map<string, ColumnDeclaration>> {
    const unique = new Map(refs.map((r) => [datasetNodeId(r.namespace, r.name), r]));
    const out = new Map<string, ColumnDeclaration>();
    if (!unique.size) return out;
    const recs = await this.run('lineage/column-declarations', lineageQuery('lineage/column-declarations'), { datasets: [...unique.values()], at });
    for (const r of recs) {
      const json = r.get('declaration') as string | null;
      const facet = json === null ? null : (parseJson(json) as Props | null);
      const fields = facet === null ? null : new Map(columnLineageEntries(facet).map((e) => [e.field, e.inputFields]));
      // No declaration anywhere (lineage known only from JobEvents): every FEEDS edge counts, now.
      out.set(datasetNodeId(r.get('namespace'), r.get('name')), { fields, open: at === null && !r.get('hasAny'), versionAt: r.get('versionAt') ?? null });
    }
    return out;
  }

  private async columnStart(
    entity: Resolved | null,
    kind: 'dataset' | 'job',
    version: string | null,
  ): Promise<{ fieldIds: string[]; fieldNames: Set<string> | null; at: string | null } | null> {
    if (!entity) return null;
    const recs = await this.run('lineage/column-start', lineageQuery('lineage/column-start'), { eid: entity.eid, kind, version });
    if (!recs.length || !recs[0].get('found')) return null;
    const fieldsJson = recs[0].get('fieldsJson') as string | null;
    const fieldNames = fieldsJson === null ? null : new Set(((parseJson(fieldsJson) as Props[] | null) ?? []).map((f) => f.name as string));
    return { fieldIds: recs[0].get('fieldIds') as string[], fieldNames, at: (recs[0].get('at') as string | null) ?? null };
  }

  /**
   * Version-level provenance: the run, the runs that wrote the exact dataset versions it read, and so
   * on up to `depth` producer hops (breadth-first, each run once). Null when the run is unknown.
   */
  async runLineageUpstream(runId: string, depth: number): Promise<RunLineage | null> {
    const seen = new Set<string>();
    const runs: RunLineage['runs'] = [];
    let frontier = [runId];
    for (let level = 0; level <= depth && frontier.length; level++) {
      for (const id of frontier) seen.add(id);
      const recs = await this.run('lineage/run-upstream-step', lineageQuery('lineage/run-upstream-step'), { runIds: frontier });
      if (level === 0 && !recs.length) return null;
      const next = new Set<string>();
      for (const rec of recs) {
        const inputs = toNative(rec.get('inputs')) as RunLineage['runs'][number]['inputs'];
        runs.push({
          job: { namespace: str(rec.get('jobNamespace')), name: str(rec.get('jobName')), version: str(rec.get('jobVersion')) },
          run: { id: rec.get('id') as string, start: iso(rec.get('startedAt')), end: iso(rec.get('endedAt')), status: str(rec.get('state')) },
          inputs: inputs.map((i) => ({ namespace: i.namespace, name: i.name, version: i.version, producedByRunId: i.producedByRunId ?? null })),
        });
        for (const i of inputs) if (i.producedByRunId && !seen.has(i.producedByRunId)) next.add(i.producedByRunId);
      }
      frontier = [...next];
    }
    return { runs };
  }
}
