/**
 * Plans a batch's writes of dataset-level lineage edges (INPUT_TO, PRODUCES): what each run event
 * and JobEvent observed (see edge-history.ts for the rule), applied to the edges the graph holds for
 * the batch's jobs (read under the jobs' locks, jobs-state.cypher), giving one row per edge that is
 * new or changed. Pure.
 */
import type { DatasetRef } from './openlineage/types.js';
import {
  FOREVER,
  isCurrent,
  observe,
  sameHistory,
  withHeldUntil,
  type EdgeHistory,
  type Span,
} from './edge-history.js';
import { refKey, refOfKey } from './ingest/keys.js';

/** An edge as jobs-state.cypher returns it (times in epoch ms). */
export interface StoredEdge extends EdgeHistory {
  /** elementId of the relationship. */
  eid: string;
  /** INPUT_TO (true) or PRODUCES. */
  input: boolean;
  namespace: string;
  name: string;
}

export interface EdgeObservation {
  job: DatasetRef;
  input: boolean;
  dataset: DatasetRef;
  span: Span;
  runId: string | null;
}

/** The stored properties of an edge (times in epoch ms). */
export interface EdgeProps {
  firstSeenAt: number;
  lastSeenAt: number;
  lastRunId: string | null;
  lastRunState: string | null;
  seenFrom: number[];
  seenTo: number[];
  heldUntil: number[];
  current: boolean;
}

/** A row of lineage-edges.cypher: the edge, and those of its properties that change. */
export interface EdgeWriteRow {
  /**
   * The relationship's element id as the read statement returned it (under the job's lock, so it stays
   * valid until the transaction ends): the write finds it without looking up its two nodes. Null:
   * create the relationship (`set` then holds every property).
   */
  eid: string | null;
  input: boolean;
  jobNamespace: string;
  jobName: string;
  namespace: string;
  name: string;
  set: Partial<EdgeProps>;
}

/** The properties of `next` that differ from `prev` (all of them without a `prev`). */
function changedProps(prev: EdgeProps | null, next: EdgeProps): Partial<EdgeProps> {
  if (!prev) return next;
  const same = (a: unknown, b: unknown) =>
    Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b;
  const out: Partial<EdgeProps> = {};
  for (const key of Object.keys(next) as (keyof EdgeProps)[])
    if (!same(prev[key], next[key])) (out as Record<string, unknown>)[key] = next[key];
  return out;
}

function propsOf(e: EdgeHistory): EdgeProps {
  return {
    firstSeenAt: e.firstSeenAt,
    lastSeenAt: e.lastSeenAt,
    lastRunId: e.lastRunId,
    lastRunState: e.lastRunState,
    seenFrom: e.spans.map((s) => s.from),
    seenTo: e.spans.map((s) => s.to),
    heldUntil: e.heldUntil.map((h) => Math.min(h, FOREVER)),
    current: isCurrent(e),
  };
}

/**
 * What one run event observed: the datasets it names from its time until the run's last event, and,
 * when it is the run's newest event so far, the run's earlier I/O from its previous newest event on
 * (a run observes its I/O while it is alive). `lastEventAt` is the run's newest eventTime before
 * this event (null for a run's first event). Folding a run's events in any order gives the same
 * union of spans per dataset: from the first event naming it to the run's last event.
 */
export function runEventObservations(args: {
  job: DatasetRef;
  runId: string;
  eventTime: number;
  lastEventAt: number | null;
  inputs: DatasetRef[];
  outputs: DatasetRef[];
  earlierInputs: DatasetRef[];
  earlierOutputs: DatasetRef[];
}): EdgeObservation[] {
  const { job, runId, eventTime: t, lastEventAt: last } = args;
  const out: EdgeObservation[] = [];
  const add = (input: boolean, datasets: DatasetRef[], span: Span) => {
    for (const d of datasets) out.push({ job, input, dataset: { namespace: d.namespace, name: d.name }, span, runId });
  };
  const untilLast = { from: t, to: Math.max(last ?? t, t) };
  add(true, args.inputs, untilLast);
  add(false, args.outputs, untilLast);
  if (last !== null && t > last) {
    add(true, args.earlierInputs, { from: last, to: t });
    add(false, args.earlierOutputs, { from: last, to: t });
  }
  return out;
}

/** A JobEvent observes the I/O it declares at its eventTime. */
export function jobEventObservations(
  job: DatasetRef,
  eventTime: number,
  inputs: DatasetRef[],
  outputs: DatasetRef[],
): EdgeObservation[] {
  const span = { from: eventTime, to: eventTime };
  return [
    ...inputs.map((d) => ({ job, input: true, dataset: { namespace: d.namespace, name: d.name }, span, runId: null })),
    ...outputs.map((d) => ({
      job,
      input: false,
      dataset: { namespace: d.namespace, name: d.name },
      span,
      runId: null,
    })),
  ];
}

type Edge = EdgeHistory & { input: boolean; namespace: string; name: string; eid: string | null };

/**
 * The rows to write for the batch's jobs. `stored`: every edge of each job of the batch, by job key
 * (`refKey`; a job without edges may be absent); `runStates`: the state of
 * each run of the batch after it.
 */
export function planEdges(
  stored: Map<string, StoredEdge[]>,
  observations: EdgeObservation[],
  runStates: Map<string, string>,
): EdgeWriteRow[] {
  const byJob = new Map<string, { job: DatasetRef; observations: EdgeObservation[] }>();
  for (const o of observations) {
    const k = refKey(o.job);
    const entry = byJob.get(k) ?? { job: o.job, observations: [] };
    entry.observations.push(o);
    byJob.set(k, entry);
  }
  // Jobs with nothing observed still get their edges' lastRunState refreshed (a late terminal event).
  for (const jobKey of stored.keys()) {
    if (byJob.has(jobKey)) continue;
    byJob.set(jobKey, { job: refOfKey(jobKey), observations: [] });
  }
  const rows: EdgeWriteRow[] = [];
  for (const [jobKey, { job, observations: seen }] of byJob) {
    const before = new Map<string, Edge>();
    for (const e of stored.get(jobKey) ?? []) before.set(`${e.input} ${refKey(e)}`, e);
    const after = new Map<string, Edge>(before);
    for (const o of seen) {
      const k = `${o.input} ${refKey(o.dataset)}`;
      const prev = after.get(k);
      after.set(k, {
        ...observe(prev ?? null, o.span, o.runId),
        input: o.input,
        namespace: o.dataset.namespace,
        name: o.dataset.name,
        eid: prev?.eid ?? null,
      });
    }
    const refreshed = [...after.values()].map((e) => ({
      ...e,
      lastRunState: e.lastRunId === null ? null : (runStates.get(e.lastRunId) ?? e.lastRunState),
    }));
    const planned = [
      ...withHeldUntil(refreshed.filter((e) => e.input)),
      ...withHeldUntil(refreshed.filter((e) => !e.input)),
    ];
    for (const e of planned) {
      const old = before.get(`${e.input} ${refKey(e)}`);
      if (old && sameHistory(old, e)) continue;
      rows.push({
        eid: e.eid,
        input: e.input,
        jobNamespace: job.namespace,
        jobName: job.name,
        namespace: e.namespace,
        name: e.name,
        set: changedProps(old ? propsOf(old) : null, propsOf(e)),
      });
    }
  }
  return rows;
}
