/**
 * Turns a normalized event (plus what the graph already knows about its run) into the parameters of
 * the ingest queries. Pure: every decision of the ingest path — symlink resolution, run state,
 * version ids — is made here and unit-testable; the store only executes.
 */
import type { DatasetRef, NormalizedDataset, NormalizedEvent, SchemaField } from './openlineage/types.js';
import { applyEvent, isTerminal, stateOf, type RunTimes, type TerminalState } from './run-state.js';
import { facetProps, JOB_FACET_PREFIX } from './facets.js';
import { canonicalEvent, eventDatasetVersionId, eventFingerprint, initialDatasetVersionId, jobVersionId, sortedRefs, writtenDatasetVersionId } from './versions.js';

/** What run-prepare.cypher returns about the run before this event. */
export interface RunSoFar {
  times: RunTimes;
  jobNamespace: string | null;
  jobName: string | null;
  inputs: DatasetRef[];
  outputs: DatasetRef[];
  /** The run's newest eventTime so far (ISO; null before its first event). */
  lastEventAt: string | null;
  aliases: { from: DatasetRef; to: DatasetRef }[];
}

const key = (r: DatasetRef) => JSON.stringify([r.namespace, r.name]);

export class AliasMap {
  private readonly map = new Map<string, DatasetRef>();
  constructor(aliases: { from: DatasetRef; to: DatasetRef }[]) {
    for (const a of aliases) this.map.set(key(a.from), a.to);
  }
  resolve<T extends DatasetRef>(d: T): T {
    const to = this.map.get(key(d));
    return to ? { ...d, namespace: to.namespace, name: to.name } : d;
  }
}

export interface DatasetUpsertRow {
  namespace: string;
  name: string;
  facetProps: Record<string, string | null>;
  description: string | null;
  lifecycleState: string | null;
  datasetType: string | null;
  source: { name: string; uri: string | null; type: string } | null;
  fields: string | null;
  fieldTypes: { name: string; type: string | null; description: string | null }[];
  symlinks: DatasetRef[];
}

function sourceType(uri: string | null, namespace: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(uri ?? namespace);
  return m ? m[1].toUpperCase() : 'UNKNOWN';
}

function fieldRows(fields: SchemaField[] | null) {
  return (fields ?? []).map((f) => ({ name: f.name, type: f.type, description: f.description }));
}

/** A later mention of a dataset wins field by field; facets replace by name; symlinks accumulate. */
export function mergeDatasetRows<T extends DatasetUpsertRow>(prev: T, next: T): T {
  return {
    ...prev,
    facetProps: { ...prev.facetProps, ...next.facetProps },
    description: next.description ?? prev.description,
    lifecycleState: next.lifecycleState ?? prev.lifecycleState,
    datasetType: next.datasetType ?? prev.datasetType,
    source: next.source ?? prev.source,
    fields: next.fields ?? prev.fields,
    fieldTypes: next.fields ? next.fieldTypes : prev.fieldTypes,
    symlinks: [...prev.symlinks, ...next.symlinks],
  };
}

/** Merges repeated mentions of one dataset in an event (e.g. read and written) into one upsert row. */
export function datasetRows(datasets: NormalizedDataset[], extraRefs: DatasetRef[] = []): DatasetUpsertRow[] {
  const rows = new Map<string, DatasetUpsertRow>();
  for (const d of datasets) {
    const row: DatasetUpsertRow = {
      namespace: d.namespace,
      name: d.name,
      facetProps: facetProps(d.facets, d.deletedFacets),
      description: d.description,
      lifecycleState: d.lifecycleState,
      datasetType: d.datasetType,
      source: d.source ? { name: d.source.name, uri: d.source.uri, type: sourceType(d.source.uri, d.namespace) } : null,
      fields: d.fields ? JSON.stringify(d.fields) : null,
      fieldTypes: fieldRows(d.fields),
      symlinks: d.symlinks.map((s) => ({ namespace: s.namespace, name: s.name })),
    };
    const prev = rows.get(key(d));
    rows.set(key(d), prev ? mergeDatasetRows(prev, row) : row);
  }
  for (const ref of extraRefs) {
    if (!rows.has(key(ref))) {
      rows.set(key(ref), {
        namespace: ref.namespace,
        name: ref.name,
        facetProps: {},
        description: null,
        lifecycleState: null,
        datasetType: null,
        source: null,
        fields: null,
        fieldTypes: [],
        symlinks: [],
      });
    }
  }
  // A fixed lock order across transactions keeps deadlocks (and their retries) rare.
  return [...rows.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export interface JobUpsert {
  namespace: string;
  name: string;
  simpleName: string;
  facetProps: Record<string, string | null>;
  description: string | null;
  type: string | null;
  integration: string | null;
  jobKind: string | null;
  parent: DatasetRef | null;
}

export function jobUpsert(event: NormalizedEvent): JobUpsert {
  const job = event.job!;
  const processing = job.jobType?.processingType?.toUpperCase() ?? null;
  const parent = event.run?.parent?.job ?? null;
  const dot = job.name.lastIndexOf('.');
  return {
    namespace: job.namespace,
    name: job.name,
    simpleName: dot > 0 && parent ? job.name.slice(dot + 1) : job.name,
    facetProps: facetProps(job.facets, job.deletedFacets),
    description: job.description,
    type: processing === 'STREAMING' ? 'STREAM' : processing === 'BATCH' ? 'BATCH' : null,
    integration: job.jobType?.integration ?? null,
    jobKind: job.jobType?.jobType ?? null,
    parent: parent && !(parent.namespace === job.namespace && parent.name === job.name) ? parent : null,
  };
}

export interface VersionParams {
  id: string;
  location: string | null;
  context: string;
  inputs: DatasetRef[];
  outputs: DatasetRef[];
}

export function jobVersionParams(namespace: string, name: string, location: string | null, context: Record<string, string>, inputs: DatasetRef[], outputs: DatasetRef[]): VersionParams {
  const sortedIn = sortedRefs(inputs);
  const sortedOut = sortedRefs(outputs);
  return {
    id: jobVersionId({ namespace, name, location, context, inputs: sortedIn, outputs: sortedOut }),
    location,
    context: JSON.stringify(context),
    inputs: sortedIn,
    outputs: sortedOut,
  };
}

export interface ColumnEdge {
  namespace: string;
  name: string;
  field: string;
  inNamespace: string;
  inName: string;
  inField: string;
  transformations: string;
}

function columnEdges(outputs: NormalizedDataset[], aliases: AliasMap): ColumnEdge[] {
  const edges: ColumnEdge[] = [];
  for (const out of outputs) {
    for (const entry of out.columnLineage) {
      for (const input of entry.inputFields) {
        const inRef = aliases.resolve({ namespace: input.namespace, name: input.name });
        edges.push({
          namespace: out.namespace,
          name: out.name,
          field: entry.field,
          inNamespace: inRef.namespace,
          inName: inRef.name,
          inField: input.field,
          transformations: JSON.stringify(input.transformations),
        });
      }
    }
  }
  return edges;
}

export interface RunEventPlan {
  datasets: DatasetUpsertRow[];
  job: JobUpsert;
  run: {
    id: string;
    state: string;
    startedAt: string | null;
    endedAt: string | null;
    terminalState: TerminalState | null;
    nominalStartTime: string | null;
    nominalEndTime: string | null;
    facetProps: Record<string, string | null>;
    jobFacetProps: Record<string, string | null>;
    parent: { runId: string; externalRunId: string; job: DatasetRef } | null;
  };
  inputs: { namespace: string; name: string; initialVersionId: string; versionFacetProps: Record<string, string | null> }[];
  outputs: { namespace: string; name: string; versionId: string; versionFacetProps: Record<string, string | null>; fields: string | null; lifecycleState: string | null }[];
  columnEdges: ColumnEdge[];
  /** Set when the run is (now) terminal, or a streaming job's I/O is known. */
  jobVersion: VersionParams | null;
  /** eventTime deciding whether the job version becomes current: the run's end (or this event). */
  versionTime: string;
  completed: boolean;
}

export class RunJobConflict extends Error {}

export function planRunEvent(event: NormalizedEvent, soFar: RunSoFar, aliases = new AliasMap(soFar.aliases)): RunEventPlan {
  const run = event.run!;
  const job = event.job!;
  // A run with no events of its own yet (lastEventAt null) is known only from another run's parent
  // facet, which may name any job: the run's own events decide its job.
  if (soFar.jobName !== null && soFar.lastEventAt !== null && (soFar.jobNamespace !== job.namespace || soFar.jobName !== job.name)) {
    throw new RunJobConflict(
      `Run '${run.externalId}' belongs to job '${soFar.jobNamespace}:${soFar.jobName}', not '${job.namespace}:${job.name}'`,
    );
  }
  const inputs = event.inputs.map((d) => aliases.resolve(d));
  const outputs = event.outputs.map((d) => aliases.resolve(d));
  const edges = columnEdges(outputs, aliases);
  const edgeInputs = edges.map((e) => ({ namespace: e.inNamespace, name: e.inName }));

  const times = applyEvent(soFar.times, event.eventType, event.eventTime);
  const state = stateOf(times);
  const terminal = times.terminalState !== null;
  const streaming = job.jobType?.processingType?.toUpperCase() === 'STREAMING';
  const allInputs = [...soFar.inputs, ...inputs];
  const allOutputs = [...soFar.outputs, ...outputs];
  const versioned = terminal || (streaming && allInputs.length + allOutputs.length > 0);

  return {
    datasets: datasetRows([...inputs, ...outputs], edgeInputs),
    job: jobUpsert(event),
    run: {
      id: run.id,
      state,
      startedAt: times.startedAt,
      endedAt: times.endedAt,
      terminalState: times.terminalState,
      nominalStartTime: run.nominalStartTime,
      nominalEndTime: run.nominalEndTime,
      facetProps: facetProps(run.facets),
      jobFacetProps: facetProps(job.facets, job.deletedFacets, JOB_FACET_PREFIX),
      parent: run.parent ? { runId: run.parent.runId, externalRunId: run.parent.externalRunId, job: run.parent.job } : null,
    },
    inputs: inputs.map((d) => ({
      namespace: d.namespace,
      name: d.name,
      initialVersionId: initialDatasetVersionId(d),
      versionFacetProps: facetProps({ ...d.facets, ...d.inputFacets }, d.deletedFacets),
    })),
    outputs: outputs.map((d) => ({
      namespace: d.namespace,
      name: d.name,
      versionId: writtenDatasetVersionId(d, run.id),
      versionFacetProps: facetProps({ ...d.facets, ...d.outputFacets }, d.deletedFacets),
      fields: d.fields ? JSON.stringify(d.fields) : null,
      lifecycleState: d.lifecycleState,
    })),
    columnEdges: edges,
    jobVersion: versioned ? jobVersionParams(job.namespace, job.name, job.location, job.context, allInputs, allOutputs) : null,
    versionTime: times.endedAt ?? event.eventTime,
    completed: state === 'COMPLETED',
  };
}

export function isTerminalEvent(event: NormalizedEvent): boolean {
  return isTerminal(event.eventType);
}

export interface StoredEvent {
  id: string;
  kind: string;
  eventType: string | null;
  eventTime: string;
  producer: string;
  schemaURL: string;
  runId: string | null;
  jobNamespace: string | null;
  jobName: string | null;
  payload: string;
}

export function storedEvent(event: NormalizedEvent): StoredEvent {
  return {
    id: eventFingerprint(event.raw),
    kind: event.kind,
    eventType: event.eventType,
    eventTime: event.eventTime,
    producer: event.producer,
    schemaURL: event.schemaURL,
    runId: event.run?.id ?? null,
    jobNamespace: event.job?.namespace ?? null,
    jobName: event.job?.name ?? null,
    payload: canonicalEvent(event.raw).json,
  };
}

export function datasetEventVersion(event: NormalizedEvent) {
  const d = event.dataset!;
  return {
    namespace: d.namespace,
    name: d.name,
    versionId: eventDatasetVersionId(d, eventFingerprint(event.raw)),
    versionFacetProps: facetProps(d.facets, d.deletedFacets),
    fields: d.fields ? JSON.stringify(d.fields) : null,
    lifecycleState: d.lifecycleState,
  };
}
