/**
 * What the graph views draw, derived from the lineage endpoints' answers: nodes with labels and
 * states, edges with their staleness, paths between two nodes and downstream hop counts. Pure (no
 * DOM), unit-tested in Node.
 */
import type { ColumnFieldData, LineageDatasetData, LineageGraph, LineageJobData, LineageNode } from '../api/types.js';

export type NodeKind = 'job' | 'dataset' | 'field';
export type Staleness = 'fresh' | 'recent' | 'stale' | 'unknown';

export interface ViewNode {
  id: string;
  kind: NodeKind;
  label: string;
  /** Second line: the namespace (or the dataset of a column). */
  sub: string;
  namespace: string;
  name: string;
  /** A job's latest run state (RUNNING, COMPLETED, FAILED, ABORTED, NEW); null for datasets. */
  state: string | null;
}

export interface ViewEdge {
  id: string;
  source: string;
  target: string;
  lastSeenAt: string | null;
  firstSeenAt: string | null;
  lastRunState: string | null;
  staleness: Staleness;
}

export interface GraphModel {
  nodes: ViewNode[];
  edges: ViewEdge[];
  byId: Map<string, ViewNode>;
  out: Map<string, ViewEdge[]>;
  in: Map<string, ViewEdge[]>;
}

const DAY = 86_400_000;

/** Fresh: seen within a day of `now`; recent: within 7 days; stale: longer ago. */
export function staleness(lastSeenAt: string | null | undefined, now: number): Staleness {
  if (!lastSeenAt) return 'unknown';
  const age = now - Date.parse(lastSeenAt);
  if (Number.isNaN(age)) return 'unknown';
  return age <= DAY ? 'fresh' : age <= 7 * DAY ? 'recent' : 'stale';
}

function viewNode(n: LineageNode): ViewNode {
  if (n.type === 'JOB') {
    const d = n.data as unknown as LineageJobData;
    const namespace = d.namespace ?? d.id?.namespace ?? '';
    const name = d.name ?? d.id?.name ?? n.id;
    return { id: n.id, kind: 'job', label: name, sub: namespace, namespace, name, state: d.latestRun?.state ?? null };
  }
  if (n.type === 'DATASET_FIELD') {
    const d = n.data as unknown as ColumnFieldData;
    return { id: n.id, kind: 'field', label: d.field, sub: d.dataset, namespace: d.namespace, name: d.dataset, state: null };
  }
  const d = n.data as unknown as LineageDatasetData;
  const namespace = d.namespace ?? d.id?.namespace ?? '';
  const name = d.name ?? d.id?.name ?? n.id;
  return { id: n.id, kind: 'dataset', label: name, sub: namespace, namespace, name, state: null };
}

/** The answer of /lineage or /column-lineage as nodes and edges; `now` (or asOf) dates staleness. */
export function toModel(answer: LineageGraph, now = Date.now()): GraphModel {
  const nodes = answer.graph.map(viewNode);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges: ViewEdge[] = [];
  const out = new Map<string, ViewEdge[]>();
  const inn = new Map<string, ViewEdge[]>();
  for (const n of nodes) {
    out.set(n.id, []);
    inn.set(n.id, []);
  }
  const seen = new Set<string>();
  for (const n of answer.graph) {
    for (const e of n.outEdges) {
      const id = `${e.origin}->${e.destination}`;
      if (seen.has(id) || !byId.has(e.origin) || !byId.has(e.destination)) continue;
      seen.add(id);
      const edge: ViewEdge = {
        id,
        source: e.origin,
        target: e.destination,
        lastSeenAt: e.lastSeenAt ?? null,
        firstSeenAt: e.firstSeenAt ?? null,
        lastRunState: e.lastRunState ?? null,
        staleness: staleness(e.lastSeenAt ?? null, now),
      };
      edges.push(edge);
      out.get(e.origin)!.push(edge);
      inn.get(e.destination)!.push(edge);
    }
  }
  return { nodes, edges, byId, out, in: inn };
}

/**
 * The shortest path from `a` to `b` following the arrows, else from `b` to `a`, else ignoring them:
 * node ids and edge ids in order; null when they are not connected.
 */
export function shortestPath(m: GraphModel, a: string, b: string): { nodes: string[]; edges: string[] } | null {
  if (!m.byId.has(a) || !m.byId.has(b)) return null;
  const walk = (from: string, to: string, mode: 'out' | 'any') => {
    const prev = new Map<string, ViewEdge | null>([[from, null]]);
    const queue = [from];
    for (let h = 0; h < queue.length; h++) {
      const v = queue[h];
      if (v === to) break;
      const next = mode === 'out' ? m.out.get(v)! : [...m.out.get(v)!, ...m.in.get(v)!];
      for (const e of next) {
        const w = e.source === v ? e.target : e.source;
        if (!prev.has(w)) {
          prev.set(w, e);
          queue.push(w);
        }
      }
    }
    if (!prev.has(to)) return null;
    const nodes = [to];
    const edges: string[] = [];
    for (let v = to; v !== from; ) {
      const e = prev.get(v)!;
      edges.push(e.id);
      v = e.source === v ? e.target : e.source;
      nodes.push(v);
    }
    return { nodes: nodes.reverse(), edges: edges.reverse() };
  };
  return walk(a, b, 'out') ?? walk(b, a, 'out') ?? walk(a, b, 'any');
}

export interface DownstreamEntry {
  node: ViewNode;
  /** Edges from the start on the shortest downstream path. */
  distance: number;
  /** Jobs on that path, the entry itself included (a dataset written by a job next to the start: 1). */
  jobHops: number;
  /** The node it is reached from on that path. */
  via: string | null;
  /** When the edge it is reached by was last observed. */
  lastSeenAt: string | null;
}

/**
 * Everything downstream of `start` in a lineage answer (a strict walk along the arrows), nearest
 * first: the blast radius of a change to `start`.
 */
export function downstreamOf(m: GraphModel, start: string): DownstreamEntry[] {
  if (!m.byId.has(start)) return [];
  const entries = new Map<string, DownstreamEntry>();
  const queue = [start];
  const dist = new Map<string, { distance: number; jobHops: number }>([[start, { distance: 0, jobHops: 0 }]]);
  for (let h = 0; h < queue.length; h++) {
    const v = queue[h];
    const here = dist.get(v)!;
    for (const e of m.out.get(v) ?? []) {
      const w = e.target;
      if (dist.has(w)) continue;
      const node = m.byId.get(w)!;
      const d = { distance: here.distance + 1, jobHops: here.jobHops + (node.kind === 'job' ? 1 : 0) };
      dist.set(w, d);
      entries.set(w, { node, ...d, via: v, lastSeenAt: e.lastSeenAt });
      queue.push(w);
    }
  }
  return [...entries.values()].sort((x, y) => x.distance - y.distance || x.node.kind.localeCompare(y.node.kind) || x.node.id.localeCompare(y.node.id));
}

function csvCell(v: string | number | null): string {
  const s = v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The downstream list as CSV (RFC 4180), one row per node. */
export function downstreamCsv(entries: DownstreamEntry[]): string {
  const rows = [['type', 'namespace', 'name', 'distance', 'job_hops', 'latest_run_state', 'via', 'last_seen_at']];
  for (const e of entries) rows.push([e.node.kind, e.node.namespace, e.node.name, String(e.distance), String(e.jobHops), e.node.state ?? '', e.via ?? '', e.lastSeenAt ?? '']);
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
