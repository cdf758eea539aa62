/**
 * The impact view's rows and summary, derived from GET /api/v1/impact's answer (docs/impact.md): the
 * service walks the graph, measures distances and picks `via`; the view only turns distances into
 * job hops and ids into names. Pure (no DOM), unit-tested in Node.
 */
import type { BlastRadius, FieldImpactNode, ImpactNode } from './api/types.js';

export type ImpactKind = 'job' | 'dataset' | 'field';
type StartType = BlastRadius['start']['type'];

export interface ImpactRow {
  id: string;
  kind: ImpactKind;
  /** What the table shows: a job or dataset name, or `dataset.field` for a column. */
  label: string;
  namespace: string;
  /** A job's or dataset's name; a column's dataset. */
  name: string;
  /** Relationships from the start on a shortest path (as the service counts them). */
  distance: number;
  /** Jobs on that path, the row itself included and the start excluded. */
  jobHops: number;
  /** The node it was reached from (the service's `via`), and that node's label. */
  via: string | null;
  viaLabel: string | null;
  /** A job's latest run state; for a column, the state of the job that maps into it. */
  state: string | null;
  /** A job's latest run end. */
  endedAt: string | null;
  /** A column: the job (node id) mapping `via` into it. */
  viaJob: string | null;
  owners: string[];
  tags: string[];
}

/**
 * Job hops from a distance, as the API's `depth` counts them (docs/impact.md), so that a row's hops are
 * the least depth that shows it: from a dataset the jobs are at odd distances (1, 3, …) and the jobs
 * next to it are hop 0; from a job the next jobs are at distance 2, hop 1; for columns every FEEDS hop
 * goes through one job.
 */
export function jobHops(start: StartType, distance: number): number {
  if (start === 'DATASET_FIELD') return distance;
  return start === 'JOB' ? Math.floor(distance / 2) : Math.max(0, Math.ceil(distance / 2) - 1);
}

const isField = (n: ImpactNode | FieldImpactNode): n is FieldImpactNode => n.type === 'DATASET_FIELD';

function labelOf(n: ImpactNode | FieldImpactNode): string {
  return isField(n) ? `${n.dataset}.${n.field}` : n.name;
}

/** The answer's nodes as table rows, in the service's order (nearest first, then by id). */
export function impactRows(answer: BlastRadius): ImpactRow[] {
  const labels = new Map<string, string>([[answer.start.id, labelOf(answer.start)]]);
  for (const n of answer.nodes) labels.set(n.id, labelOf(n));
  return answer.nodes.map((n) => ({
    id: n.id,
    kind: isField(n) ? 'field' : n.type === 'JOB' ? 'job' : 'dataset',
    label: labelOf(n),
    namespace: n.namespace,
    name: isField(n) ? n.dataset : n.name,
    distance: n.distance,
    jobHops: jobHops(answer.start.type, n.distance),
    via: n.via,
    viaLabel: n.via === null ? null : (labels.get(n.via) ?? n.via),
    state: isField(n) ? n.viaJobState : n.latestRunState,
    endedAt: isField(n) ? null : n.latestRunEndedAt,
    viaJob: isField(n) ? n.viaJob : null,
    owners: n.owners,
    tags: n.tags,
  }));
}

export interface ImpactSummaryView {
  /** Every node reached (the start excluded), also past the limit. */
  total: number;
  jobs: number;
  datasets: number;
  columns: number;
  failingJobs: number;
  /** Nodes reached per job hop, nearest first: [hops, count]. */
  byHops: [number, number][];
  /** Rows in the answer, and whether the service cut the list at `limit`. */
  shown: number;
  truncated: boolean;
}

export function impactSummary(answer: BlastRadius): ImpactSummaryView {
  const s = answer.summary;
  const byHops = new Map<number, number>();
  for (const [distance, count] of Object.entries(s.byDistance)) {
    const hops = jobHops(answer.start.type, Number(distance));
    byHops.set(hops, (byHops.get(hops) ?? 0) + count);
  }
  return {
    total: s.total,
    jobs: s.byType.JOB ?? s.jobs?.length ?? 0,
    datasets: s.byType.DATASET ?? 0,
    columns: s.byType.DATASET_FIELD ?? 0,
    failingJobs: s.failedJobs,
    byHops: [...byHops.entries()].sort((a, b) => a[0] - b[0]),
    shown: answer.nodes.length,
    truncated: answer.truncated,
  };
}

/**
 * The CSV download's file name for a start node's label: letters and digits of any script stay (a dataset
 * named in Cyrillic keeps its name), every other run of characters, path separators included, becomes '_'.
 */
export function csvFileName(startLabel: string): string {
  return `impact-${startLabel.replace(/[^\p{L}\p{N}.-]+/gu, '_')}.csv`;
}
