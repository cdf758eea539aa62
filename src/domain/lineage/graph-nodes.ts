/**
 * Shaping a lineage answer (pure): a node's data (trimmed to what a graph view needs, or as it was at a
 * point in time) and the wiring of edges between the nodes of the answer. docs/lineage.md describes
 * the shapes.
 */
import type { Dataset, Job, LineageEdge, LineageNode } from '../../api/types.js';
import { parseStamps } from '../facet-stamps.js';
import { compareText } from '../compare.js';

type Props = Record<string, unknown>;

export type EdgeExtras = Omit<LineageEdge, 'origin' | 'destination'>;

/** What `include` adds to the nodes' data of a dataset-level answer. */
export type LineageInclude = 'facets' | 'latestRuns';
export const LINEAGE_INCLUDES: readonly LineageInclude[] = ['facets', 'latestRuns'];

/**
 * How much of each node a dataset-level answer carries: `full` (the default: Marquez's node data) or
 * `minimal` (what a graph view draws: the node's key, a job's latest run state and times; edges once,
 * in their origin's outEdges). See minimalNodeData.
 */
export type LineageFields = 'full' | 'minimal';
export const LINEAGE_FIELDS: readonly LineageFields[] = ['full', 'minimal'];

const JOB_FIELDS = [
  'id',
  'type',
  'name',
  'simpleName',
  'parentJobName',
  'createdAt',
  'updatedAt',
  'namespace',
  'inputs',
  'outputs',
  'location',
  'description',
  'latestRun',
  'currentVersion',
  'labels',
  'tags',
] as const;
const DATASET_FIELDS = [
  'id',
  'type',
  'name',
  'physicalName',
  'createdAt',
  'updatedAt',
  'namespace',
  'sourceName',
  'fields',
  'tags',
  'lastModifiedAt',
  'description',
  'lastLifecycleState',
  'currentVersion',
] as const;
const RUN_FIELDS = [
  'id',
  // The spec's run object in a lineage node has it (a short string: the job's code at that run).
  'location',
  'createdAt',
  'updatedAt',
  'nominalStartTime',
  'nominalEndTime',
  'state',
  'startedAt',
  'endedAt',
  'durationMs',
  'jobVersion',
] as const;

function pick(o: object, keys: readonly string[]): Props {
  const out: Props = {};
  for (const k of keys) out[k] = (o as Props)[k] ?? null;
  return out;
}

/**
 * A lineage node's data: the fields a graph view needs (Marquez's node data, plus the current version,
 * tags and labels), the latest run as its state and times; `include` adds facets (and a job's context,
 * a dataset's column lineage) and the latest run in full with `latestRuns`.
 */
export function nodeData(
  full: Job | Dataset,
  isJob: boolean,
  include: ReadonlySet<LineageInclude>,
): Record<string, unknown> {
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

/**
 * A node's data in the `minimal` projection: `{id, namespace, name}`, plus a job's `latestRun`
 * (`{id, state, startedAt, endedAt}` or null) as it was at `asOf` (null: now).
 */
export function minimalNodeData(node: Props, isJob: boolean, asOf: number | null): Record<string, unknown> {
  const data: Record<string, unknown> = {
    id: { namespace: node.namespace, name: node.name },
    namespace: node.namespace,
    name: node.name,
  };
  if (isJob) {
    const run = (node.latestRun ?? null) as Props | null;
    const then = asOf === null ? run : runAsOf(run, asOf);
    data.latestRun = then
      ? {
          id: then.id ?? null,
          state: then.state ?? null,
          startedAt: then.startedAt ?? null,
          endedAt: then.endedAt ?? null,
        }
      : null;
  }
  return data;
}

/**
 * A run as it was at `asOf`: not ended yet if it ended later, not started yet if it started later. Then
 * it was last updated by its start (or its creation), and had written no dataset version yet: outputs are
 * versioned when a run ends, as in Marquez.
 */
export function runAsOf(run: Props | null, asOf: number): Props | null {
  if (!run) return run;
  const started = typeof run.startedAt === 'string' && Date.parse(run.startedAt) <= asOf;
  const ended = typeof run.endedAt === 'string' && Date.parse(run.endedAt) <= asOf;
  if (ended) return run;
  return {
    ...run,
    endedAt: null,
    state: started ? 'RUNNING' : 'NEW',
    startedAt: started ? run.startedAt : null,
    updatedAt: started ? run.startedAt : run.createdAt,
    jobVersion: null,
    wrote: [],
  };
}

const latest = (...times: unknown[]) =>
  times
    .filter((t): t is string => typeof t === 'string')
    .reduce<string | null>((a, b) => (a === null || Date.parse(b) > Date.parse(a) ? b : a), null);

/**
 * A dataset as it was at `asOf`: its current version then gives the version, schema, lifecycle state
 * and last change (updatedAt too: what the dataset was last touched by later is not known as of then).
 * A version without a schema shows the dataset's own only if that was reported by then (its stamp):
 * a schema first reported later is not what the dataset had at `asOf`.
 */
export function datasetAsOf(node: Props, asOf: number): Props {
  const v = node.version as Props | null;
  const schemaAt = parseStamps(node.facetStamps as string[] | null).get('facet.schema')?.at;
  const ownFields = schemaAt === undefined || schemaAt <= asOf ? node.fields : null;
  if (!v) return { ...node, fields: ownFields, currentVersion: null, lastModifiedAt: null, updatedAt: node.createdAt };
  return {
    ...node,
    currentVersion: v.id,
    fields: v.fields ?? ownFields,
    // The placeholder runs read before anything was committed: nothing known had written the dataset.
    lastModifiedAt: v.placeholder ? null : v.committedAt,
    lastLifecycleState: v.lifecycleState ?? null,
    updatedAt: latest(node.createdAt, v.committedAt),
  };
}

/**
 * A job as it was at `asOf`: its latest run then, updatedAt from it, and as current version the one
 * that run had executed by then (null while it was running: which version was current then is not kept).
 */
export function jobAsOf(node: Props, asOf: number): Props {
  const run = runAsOf(node.latestRun as Props | null, asOf);
  return {
    ...node,
    latestRun: run,
    updatedAt: latest(node.createdAt, run?.startedAt, run?.endedAt),
    currentVersion: run?.jobVersion ?? null,
  };
}

function byOriginDestination(a: LineageEdge, b: LineageEdge): number {
  return compareText(a.origin, b.origin) || compareText(a.destination, b.destination);
}

/** An edge of an origin's outs: its destination alone, or with the extras to add. */
export type OutEdge = string | { destination: string; extras: EdgeExtras };

/** Adds the edges between nodes of the answer (both endpoints present) to both ends; sorts everything. */
export function wireEdges(nodes: LineageNode[], outs: Map<string, OutEdge[]>): LineageNode[] {
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
      const edge: LineageEdge = typeof d === 'string' ? { origin, destination } : { origin, destination, ...d.extras };
      from.outEdges.push(edge);
      to.inEdges.push(edge);
    }
  }
  for (const n of nodes) {
    n.inEdges.sort(byOriginDestination);
    n.outEdges.sort(byOriginDestination);
  }
  return nodes.sort((a, b) => compareText(a.id, b.id));
}
