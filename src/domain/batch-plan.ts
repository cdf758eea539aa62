/**
 * Plans a whole batch of events (one transaction) as one set of rows per ingest query, so a batch
 * costs a constant number of round trips however many events it holds. Events are folded in arrival
 * order: the events of one run see each other's effects exactly as if written one by one; events of
 * different runs in one batch are concurrent by nature, and the planner picks per job and per
 * dataset the newest candidate for each "current" pointer.
 */
import type { DatasetRef, NormalizedEvent } from './openlineage/types.js';
import {
  AliasMap,
  datasetEventVersion,
  datasetRows,
  jobUpsert,
  jobVersionParams,
  mergeDatasetRows,
  planRunEvent,
  storedEvent,
  type ColumnEdge,
  type DatasetUpsertRow,
  type JobUpsert,
  type RunEventPlan,
  type RunSoFar,
  type StoredEvent,
  type VersionParams,
} from './ingest-plan.js';
import { withoutUnchangedFacets, type DigestedRow } from './facet-digests.js';
import { jobEventObservations, planEdges, runEventObservations, type EdgeObservation, type EdgeWriteRow, type StoredEdge } from './edge-plan.js';

export interface Incoming {
  event: NormalizedEvent;
  receivedAt: string;
}

/** A run as known before this transaction (runs-prepare.cypher). */
export type PreparedRun = Omit<RunSoFar, 'aliases'>;

const refKey = (r: DatasetRef) => JSON.stringify([r.namespace, r.name]);
export const datasetKey = refKey;
export const jobKey = refKey;
const minIso = (a: string, b: string) => (Date.parse(a) <= Date.parse(b) ? a : b);
const maxIso = (a: string, b: string) => (Date.parse(a) >= Date.parse(b) ? a : b);
const byKey = <T>(key: (t: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

export interface DatasetRow extends DatasetUpsertRow {
  firstSeen: string;
  lastSeen: string;
}
export interface JobRow extends JobUpsert {
  firstSeen: string;
  lastSeen: string;
}
export interface RunRow extends Omit<RunEventPlan['run'], 'parent'> {
  /** linkJob: whether the parent reference may give the parent run its job (not when the parent run's own events are in the batch). */
  parent: (NonNullable<RunEventPlan['run']['parent']> & { linkJob: boolean }) | null;
  job: DatasetRef;
  firstSeen: string;
  lastSeen: string;
  latestCandidate: boolean;
}
export interface InputRow {
  runId: string;
  eventTime: string;
  namespace: string;
  name: string;
  initialVersionId: string;
  versionFacetProps: Record<string, string | null>;
}
export interface OutputRow extends Omit<InputRow, 'initialVersionId'> {
  versionId: string;
  fields: string | null;
  lifecycleState: string | null;
}
export interface VersionRow extends VersionParams {
  job: DatasetRef;
  runId: string | null;
  eventTime: string;
  versionTime: string;
  candidate: boolean;
}
export interface EdgeRow extends ColumnEdge {
  jobNamespace: string;
  jobName: string;
}
export type DatasetEventRow = ReturnType<typeof datasetEventVersion> & { eventTime: string };

export interface BatchPlan {
  datasets: (DatasetRow & DigestedRow)[];
  jobs: JobRow[];
  runs: RunRow[];
  inputs: InputRow[];
  outputs: OutputRow[];
  edges: EdgeRow[];
  versions: VersionRow[];
  completedRunIds: string[];
  /** INPUT_TO / PRODUCES edges that are new or changed (edge-plan.ts). */
  lineageEdges: EdgeWriteRow[];
  datasetEvents: DatasetEventRow[];
  events: (StoredEvent & { receivedAt: string })[];
}

/** Accumulates rows keyed by identity, merging later mentions into earlier ones. */
class Rows<T> {
  readonly map = new Map<string, T>();
  constructor(private readonly merge: (prev: T, next: T) => T) {}
  add(key: string, row: T) {
    const prev = this.map.get(key);
    this.map.set(key, prev ? this.merge(prev, row) : row);
  }
  values(): T[] {
    return [...this.map.values()];
  }
}

function mergeDataset(a: DatasetRow, b: DatasetRow): DatasetRow {
  return { ...mergeDatasetRows(a, b), firstSeen: minIso(a.firstSeen, b.firstSeen), lastSeen: maxIso(a.lastSeen, b.lastSeen) };
}

function mergeJob(a: JobRow, b: JobRow): JobRow {
  return {
    ...a,
    firstSeen: minIso(a.firstSeen, b.firstSeen),
    lastSeen: maxIso(a.lastSeen, b.lastSeen),
    facetProps: { ...a.facetProps, ...b.facetProps },
    description: b.description ?? a.description,
    type: b.type ?? a.type,
    integration: b.integration ?? a.integration,
    jobKind: b.jobKind ?? a.jobKind,
    parent: b.parent ?? a.parent,
  };
}

/** Later events of a run carry its folded state; facets accumulate across them. */
function mergeRun(a: RunRow, b: RunRow): RunRow {
  return {
    ...b,
    firstSeen: minIso(a.firstSeen, b.firstSeen),
    lastSeen: maxIso(a.lastSeen, b.lastSeen),
    facetProps: { ...a.facetProps, ...b.facetProps },
    jobFacetProps: { ...a.jobFacetProps, ...b.jobFacetProps },
    nominalStartTime: b.nominalStartTime ?? a.nominalStartTime,
    nominalEndTime: b.nominalEndTime ?? a.nominalEndTime,
    parent: b.parent ?? a.parent,
  };
}

function mergeInput(a: InputRow, b: InputRow): InputRow {
  return { ...a, eventTime: minIso(a.eventTime, b.eventTime), versionFacetProps: { ...a.versionFacetProps, ...b.versionFacetProps } };
}

function mergeOutput(a: OutputRow, b: OutputRow): OutputRow {
  return {
    ...a,
    eventTime: minIso(a.eventTime, b.eventTime),
    versionFacetProps: { ...a.versionFacetProps, ...b.versionFacetProps },
    fields: b.fields ?? a.fields,
    lifecycleState: b.lifecycleState ?? a.lifecycleState,
  };
}

function withTimes<T>(row: T, time: string): T & { firstSeen: string; lastSeen: string } {
  return { ...row, firstSeen: time, lastSeen: time };
}

/** The refs every event in the batch mentions (for symlink resolution before planning). */
export function mentionedRefs(items: Incoming[]): DatasetRef[] {
  const seen = new Map<string, DatasetRef>();
  for (const { event } of items) {
    for (const d of [...event.inputs, ...event.outputs, ...(event.dataset ? [event.dataset] : [])]) seen.set(refKey(d), { namespace: d.namespace, name: d.name });
  }
  return [...seen.values()];
}

/** The jobs the batch's run events and JobEvents name, sorted (jobs-state.cypher locks them in this order). */
export function mentionedJobs(items: Incoming[]): DatasetRef[] {
  const seen = new Map<string, DatasetRef>();
  for (const { event } of items) if (event.job) seen.set(refKey(event.job), { namespace: event.job.namespace, name: event.job.name });
  return [...seen.values()].sort(byKey(refKey));
}

/**
 * `digests`: the stored facet digests of the datasets that exist (by datasetKey); a dataset absent
 * from it is new and gets all its facets written. `edges`: every lineage edge of the batch's jobs
 * (by jobKey), as stored.
 */
export function planBatch(
  items: Incoming[],
  prepared: Map<string, PreparedRun>,
  aliases: AliasMap,
  digests = new Map<string, readonly string[]>(),
  edges = new Map<string, StoredEdge[]>(),
): BatchPlan {
  const datasets = new Rows<DatasetRow>(mergeDataset);
  const jobs = new Rows<JobRow>(mergeJob);
  const runs = new Rows<RunRow>(mergeRun);
  const inputs = new Rows<InputRow>(mergeInput);
  const outputs = new Rows<OutputRow>(mergeOutput);
  const columnEdges = new Map<string, EdgeRow>();
  const observations: EdgeObservation[] = [];
  const versionsByRun = new Map<string, VersionRow>();
  const jobEventVersions: VersionRow[] = [];
  const completed = new Set<string>();
  const datasetEvents: DatasetEventRow[] = [];
  const events: (StoredEvent & { receivedAt: string })[] = [];
  const state = new Map<string, RunSoFar>();

  const addDatasets = (rows: DatasetUpsertRow[], time: string) => {
    for (const row of rows) datasets.add(refKey(row), withTimes(row, time));
  };

  for (const { event, receivedAt } of items) {
    const t = event.eventTime;
    events.push({ ...storedEvent(event), receivedAt });
    if (event.kind === 'run') {
      const runId = event.run!.id;
      const soFar = state.get(runId) ?? { ...(prepared.get(runId) as PreparedRun), aliases: [] };
      const plan = planRunEvent(event, soFar, aliases);
      const job = { namespace: plan.job.namespace, name: plan.job.name };
      const time = Date.parse(t);
      const lastEventAt = soFar.lastEventAt === null ? null : Date.parse(soFar.lastEventAt);
      observations.push(
        ...runEventObservations({ job, runId, eventTime: time, lastEventAt, inputs: plan.inputs, outputs: plan.outputs, earlierInputs: soFar.inputs, earlierOutputs: soFar.outputs }),
      );
      state.set(runId, {
        times: { startedAt: plan.run.startedAt, endedAt: plan.run.endedAt, terminalState: plan.run.terminalState },
        jobNamespace: job.namespace,
        jobName: job.name,
        inputs: [...soFar.inputs, ...plan.inputs.map((i) => ({ namespace: i.namespace, name: i.name }))],
        outputs: [...soFar.outputs, ...plan.outputs.map((o) => ({ namespace: o.namespace, name: o.name }))],
        lastEventAt: lastEventAt === null || time > lastEventAt ? t : soFar.lastEventAt,
        aliases: [],
      });
      addDatasets(plan.datasets, t);
      jobs.add(refKey(job), withTimes(plan.job, t));
      runs.add(runId, { ...withTimes(plan.run, t), parent: plan.run.parent && { ...plan.run.parent, linkJob: true }, job, latestCandidate: false });
      for (const i of plan.inputs) inputs.add(`${runId} ${refKey(i)}`, { ...i, runId, eventTime: t });
      for (const o of plan.outputs) outputs.add(`${runId} ${refKey(o)}`, { ...o, runId, eventTime: t });
      for (const e of plan.columnEdges) {
        const row = { ...e, jobNamespace: job.namespace, jobName: job.name };
        columnEdges.set(JSON.stringify([row.jobNamespace, row.jobName, e.namespace, e.name, e.field, e.inNamespace, e.inName, e.inField]), row);
      }
      if (plan.jobVersion) {
        versionsByRun.set(runId, { ...plan.jobVersion, job, runId, eventTime: t, versionTime: plan.versionTime, candidate: false });
      }
      if (plan.completed) completed.add(runId);
    } else if (event.kind === 'job') {
      const ins = event.inputs.map((d) => aliases.resolve(d));
      const outs = event.outputs.map((d) => aliases.resolve(d));
      const j = event.job!;
      addDatasets(datasetRows([...ins, ...outs]), t);
      jobs.add(refKey(j), withTimes(jobUpsert(event), t));
      const v = jobVersionParams(j.namespace, j.name, j.location, j.context, ins, outs);
      observations.push(...jobEventObservations({ namespace: j.namespace, name: j.name }, Date.parse(t), ins, outs));
      jobEventVersions.push({ ...v, job: { namespace: j.namespace, name: j.name }, runId: null, eventTime: t, versionTime: t, candidate: false });
    } else {
      const dataset = aliases.resolve(event.dataset!);
      addDatasets(datasetRows([dataset]), t);
      datasetEvents.push({ ...datasetEventVersion({ ...event, dataset }), eventTime: t });
    }
  }

  // One candidate per job for LATEST_RUN and CURRENT_VERSION; the queries still compare with the graph.
  const runRows = runs.values();
  const newestRun = new Map<string, RunRow>();
  const sortTime = (r: RunRow) => r.startedAt ?? r.endedAt ?? r.firstSeen;
  for (const r of runRows) {
    const k = refKey(r.job);
    const cur = newestRun.get(k);
    if (!cur || Date.parse(sortTime(r)) > Date.parse(sortTime(cur)) || (sortTime(r) === sortTime(cur) && r.id > cur.id)) newestRun.set(k, r);
  }
  for (const r of newestRun.values()) r.latestCandidate = true;
  // A run's own events, not another run's parent facet, give it its job.
  for (const r of runRows) if (r.parent && runs.map.has(r.parent.runId)) r.parent.linkJob = false;

  const versions = [...versionsByRun.values(), ...jobEventVersions];
  const newestVersion = new Map<string, VersionRow>();
  for (const v of versions) {
    const k = refKey(v.job);
    const cur = newestVersion.get(k);
    if (!cur || Date.parse(v.versionTime) >= Date.parse(cur.versionTime)) newestVersion.set(k, v);
  }
  for (const v of newestVersion.values()) v.candidate = true;

  const sortRefs = byKey<DatasetRef>(refKey);
  return {
    // Fixed lock orders keep deadlocks with other writers rare.
    datasets: datasets
      .values()
      .map((row) => withoutUnchangedFacets(row, digests.get(refKey(row)) ?? []))
      .sort(sortRefs),
    jobs: jobs.values().sort(sortRefs),
    runs: runRows.sort(byKey((r) => r.id)),
    inputs: inputs.values(),
    // An output version whose schema is the dataset's (as upserted by this batch) takes its fields
    // from the dataset in run-outputs.cypher: the same JSON is not sent twice.
    outputs: outputs.values().map((o) => (o.fields !== null && o.fields === datasets.map.get(refKey(o))?.fields ? { ...o, fields: null } : o)),
    edges: [...columnEdges.values()],
    versions,
    completedRunIds: [...completed],
    lineageEdges: planEdges(edges, observations, new Map(runRows.map((r) => [r.id, r.state]))),
    datasetEvents,
    events,
  };
}
