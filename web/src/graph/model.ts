/**
 * What the graph views draw, derived from the lineage endpoints' answers: nodes with labels and
 * states, edges with their staleness, paths between two nodes. Pure (no DOM), unit-tested in Node.
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
    // `dataset.column`: columns of the same name in two datasets (`a` of two sources) read apart.
    return {
      id: n.id,
      kind: 'field',
      label: `${d.dataset}.${d.field}`,
      sub: d.dataset,
      namespace: d.namespace,
      name: d.dataset,
      state: null,
    };
  }
  const d = n.data as unknown as LineageDatasetData;
  const namespace = d.namespace ?? d.id?.namespace ?? '';
  const name = d.name ?? d.id?.name ?? n.id;
  return { id: n.id, kind: 'dataset', label: name, sub: namespace, namespace, name, state: null };
}

/**
 * A node for people and screen readers, telling apart nodes of the same name: `orders, dataset in
 * warehouse`, `report.orders_daily, job in shop`, `staging.orders.id, column in postgres://db`.
 */
export function describeNode(n: ViewNode): string {
  const kind = n.kind === 'field' ? 'column' : n.kind;
  return n.namespace ? `${n.label}, ${kind} in ${n.namespace}` : `${n.label}, ${kind}`;
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
