/**
 * Plans a whole batch of events (one transaction) as one set of rows per ingest stage, so a batch
 * costs a constant number of round trips however many events it holds.
 *
 * Every value it plans is a fold over the *set* of events, never over their arrival order (see
 * docs/ingest.md): times are minima and maxima of event times, a facet is the one reported last by
 * event time (facet-stamps.ts), a run's state follows its earliest terminal event (run-state.ts), a
 * run's job version is computed from its whole I/O and its latest code, and every "current" pointer
 * is the greatest by (time, id). The batch's events are folded onto what the graph already holds
 * about the same runs, jobs and datasets (read under their locks by the read statement), so the
 * planner knows which stored values change. Pure.
 */
import type { DatasetRef, Facets, NormalizedDataset, NormalizedEvent } from './openlineage/types.js';
import { applyEvent, stateOf, type RunTimes } from './run-state.js';
import { FACET_PREFIX, JOB_FACET_PREFIX, jsonOf } from './facets.js';
import { digest, FacetFold, reportsOf, type Report } from './facet-stamps.js';
import { parentRef, schemaFields } from './openlineage/normalize.js';
import { canonicalEvent, eventDatasetVersionId, eventFingerprint, initialDatasetVersionId, jobVersionId, sortedRefs, writtenDatasetVersionId } from './versions.js';
import { jobEventObservations, planEdges, runEventObservations, type EdgeObservation, type EdgeWriteRow, type StoredEdge } from './edge-plan.js';

export interface Incoming {
  event: NormalizedEvent;
  receivedAt: string;
}

const refKey = (r: DatasetRef) => JSON.stringify([r.namespace, r.name]);
export const datasetKey = refKey;
export const jobKey = refKey;
const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
const ref = (r: DatasetRef): DatasetRef => ({ namespace: r.namespace, name: r.name });
const ms = (iso: string) => Date.parse(iso);
const isoOf = (t: number) => new Date(t).toISOString();
const minIso = (a: string | null, b: string) => (a === null || ms(b) < ms(a) ? b : a);
const maxIso = (a: string | null, b: string) => (a === null || ms(b) > ms(a) ? b : a);
type Obj = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export class RunJobConflict extends Error {}

export class AliasMap {
  private readonly map = new Map<string, DatasetRef>();
  constructor(aliases: { from: DatasetRef; to: DatasetRef }[] = []) {
    for (const a of aliases) this.map.set(refKey(a.from), a.to);
  }
  resolve<T extends DatasetRef>(d: T): T {
    const to = this.map.get(refKey(d));
    return to ? { ...d, namespace: to.namespace, name: to.name } : d;
  }
  has(d: DatasetRef): boolean {
    return this.map.has(refKey(d));
  }
  /** This map with more aliases (those a batch declares), for the batch's own events. */
  with(more: { from: DatasetRef; to: DatasetRef }[]): AliasMap {
    const out = new AliasMap();
    for (const [k, v] of this.map) out.map.set(k, v);
    for (const a of more) if (!out.map.has(refKey(a.from))) out.map.set(refKey(a.from), this.resolve(a.to));
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// What the read statement returns (src/store/ingest.ts turns records into these).

/** A run as stored before this transaction (runs-prepare.cypher). */
export interface StoredRun {
  times: RunTimes;
  /** ISO; null for a run this batch creates. */
  createdAt: string | null;
  /** The run's newest own eventTime so far (null: no event of its own yet, e.g. only named as a parent). */
  lastEventAt: string | null;
  jobNamespace: string | null;
  jobName: string | null;
  jobVersion: string | null;
  stamps: string[] | null;
  /** The stored job facets its version depends on (JSON or null). */
  code: { sourceCodeLocation: string | null; sql: string | null; jobType: string | null };
  reads: { namespace: string; name: string; at: string | null; stamps: string[] | null }[];
  writes: { namespace: string; name: string; createdAt: string | null; stamps: string[] | null }[];
}

export const NEW_RUN: StoredRun = {
  times: { startedAt: null, endedAt: null, terminalState: null },
  createdAt: null,
  lastEventAt: null,
  jobNamespace: null,
  jobName: null,
  jobVersion: null,
  stamps: null,
  code: { sourceCodeLocation: null, sql: null, jobType: null },
  reads: [],
  writes: [],
};

export interface StoredState {
  runs: Map<string, StoredRun>;
  aliases: AliasMap;
  /** facetStamps of each mentioned primary dataset that exists, by datasetKey. */
  datasetStamps: Map<string, readonly string[]>;
  /** facetStamps of each job of the batch, by jobKey. */
  jobStamps: Map<string, readonly string[]>;
  /** Every lineage edge of each job of the batch, by jobKey. */
  edges: Map<string, StoredEdge[]>;
}

// ---------------------------------------------------------------------------------------------
// The rows each write stage takes (the stage's .cypher header documents them too).

export interface DatasetRow {
  namespace: string;
  name: string;
  /** Earliest and latest eventTime mentioning it (ISO). */
  firstSeen: string;
  lastSeen: string;
  /** `facet.<name>` properties whose content changed (null: removed). */
  facetProps: Record<string, string | null>;
  /** Values promoted from facets that changed: fields, description, type, lastLifecycleState (null: removed). */
  derived: Record<string, string | null>;
  /** The new schema's columns (when the schema changed): [{name, type, description}]. */
  fieldTypes: { name: string; type: string | null; description: string | null }[] | null;
  /** Columns of every other schema reported with new content: field nodes exist for every column ever reported. */
  otherFieldNames: string[];
  /** The dataSource facet that now holds (when it changed): its source, or null when removed. */
  source: { name: string; uri: string | null; type: string } | null;
  sourceChanged: boolean;
  /** Every source reported, with the earliest report time (ISO): sources are created, and dated, by their first report. */
  sources: { name: string; uri: string | null; type: string; at: string }[];
  /** Symlink aliases it declares, each with its earliest declaration (ISO). */
  symlinks: (DatasetRef & { at: string })[];
  /** The new facetStamps list, or null when unchanged. */
  facetStamps: string[] | null;
}

export interface JobRow {
  namespace: string;
  name: string;
  /** Earliest and latest eventTime of the job's own events (RunEvents and JobEvents), ISO. */
  firstSeen: string;
  lastSeen: string;
  facetProps: Record<string, string | null>;
  derived: Record<string, string | null>;
  /** The parent job that now holds (when it changed), or null when none. */
  parent: DatasetRef | null;
  parentChanged: boolean;
  /** The simple name under that parent. */
  simpleName: string;
  facetStamps: string[] | null;
}

/** A job named as some run's parent: created (and dated) by its earliest mention if it has no events. */
export interface ParentJobRow {
  namespace: string;
  name: string;
  at: string;
}

export interface RunRow {
  id: string;
  job: DatasetRef;
  firstSeen: string;
  lastSeen: string;
  state: string;
  startedAt: string | null;
  endedAt: string | null;
  terminalState: string | null;
  facetProps: Record<string, string | null>;
  /** The nominal times when the nominalTime facet changed. */
  nominalChanged: boolean;
  nominalStartTime: string | null;
  nominalEndTime: string | null;
  /** The parent run that now holds (when the parent facet changed), or null when none. */
  parentChanged: boolean;
  parentRunId: string | null;
  facetStamps: string[] | null;
  /** The newest run of its job in this batch (by sortTime, then id): may become LATEST_RUN. */
  latestCandidate: boolean;
  /** Its sortTime moved earlier: if it is its job's LATEST_RUN, that pointer is chosen again. */
  sortTimeDecreased: boolean;
}

/** A run named as some run's parent: created (and dated) by its earliest mention if it has no events. */
export interface ParentRunRow {
  runId: string;
  externalRunId: string;
  job: DatasetRef;
  at: string;
  /** The batch holds events of this run itself (they decide its job). */
  own: boolean;
}

export interface InputRow {
  runId: string;
  namespace: string;
  name: string;
  /** When the run first named the input (ISO): it reads the dataset's version committed last by then. */
  at: string;
  /** Resolve the version read (a new READ, or `at` moved earlier). */
  resolve: boolean;
  initialVersionId: string;
  facetProps: Record<string, string | null>;
  facetStamps: string[] | null;
}

export interface OutputRow {
  runId: string;
  namespace: string;
  name: string;
  versionId: string;
  /** The earliest event of the run naming the output (ISO). */
  createdAt: string;
  facetProps: Record<string, string | null>;
  derived: Record<string, string | null>;
  facetStamps: string[] | null;
}

/** A dataset version whose commit time may change (null: not committed). versions-commit.cypher moves the pointers. */
export interface CommitRow {
  versionId: string;
  namespace: string;
  name: string;
  committedAt: string | null;
  /** The dataset's placeholder version (read before anything was committed). */
  placeholderId: string;
}

export interface DatasetEventRow {
  namespace: string;
  name: string;
  versionId: string;
  at: string;
  facetProps: Record<string, string | null>;
  derived: Record<string, string | null>;
}

export interface VersionRow {
  id: string;
  job: DatasetRef;
  /** The run that executes it (null: declared by JobEvents). */
  runId: string | null;
  /** The version the run executed before this batch, when another one. */
  previous: string | null;
  /** The run's version time (its end, or start while running), or the JobEvent's time (ISO). */
  time: string;
  /** The run stays on this version but its time changed: recompute the version's times. */
  retimed: boolean;
  location: string | null;
  context: string;
  inputs: DatasetRef[];
  outputs: DatasetRef[];
}

export interface ColumnEdgeRow {
  jobNamespace: string;
  jobName: string;
  namespace: string;
  name: string;
  field: string;
  inNamespace: string;
  inName: string;
  inField: string;
  transformations: string;
  at: string;
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
  datasetNamespace: string | null;
  datasetName: string | null;
  payload: string;
  receivedAt: string;
}

/** A namespace a batch names, with the earliest event naming it. */
export interface NamespaceRow {
  name: string;
  at: string;
}

/** A name a batch mentions that resolves to another dataset (a symlink alias): dated by its mentions too. */
export interface AliasNameRow {
  namespace: string;
  name: string;
  firstSeen: string;
  lastSeen: string;
}

export interface BatchPlan {
  namespaces: NamespaceRow[];
  datasets: DatasetRow[];
  aliasNames: AliasNameRow[];
  /**
   * Names this batch makes symlink aliases that were not aliases before: whatever the graph recorded
   * under such a name as a dataset of its own is rebuilt under its primary (store/alias-repair.ts).
   */
  newAliases: DatasetRef[];
  jobs: JobRow[];
  parentJobs: ParentJobRow[];
  runs: RunRow[];
  parentRuns: ParentRunRow[];
  outputs: OutputRow[];
  datasetEvents: DatasetEventRow[];
  commits: CommitRow[];
  inputs: InputRow[];
  columnEdges: ColumnEdgeRow[];
  versions: VersionRow[];
  lineageEdges: EdgeWriteRow[];
  events: StoredEvent[];
}

// ---------------------------------------------------------------------------------------------
// Accumulators: one per entity of the batch.

interface DatasetAcc {
  ref: DatasetRef;
  firstSeen: string;
  lastSeen: string;
  fold: FacetFold<Obj>;
  /** Schema reports by content digest → column names (for field nodes of every schema ever reported). */
  schemas: Map<string, string[]>;
  sources: Map<string, { name: string; uri: string | null; type: string; at: string }>;
  symlinks: Map<string, DatasetRef & { at: string }>;
}

interface JobAcc {
  ref: DatasetRef;
  firstSeen: string | null;
  lastSeen: string | null;
  fold: FacetFold<Obj>;
}

interface ReadAcc {
  ref: DatasetRef;
  at: string;
  storedAt: string | null;
  fold: FacetFold<Obj>;
}

interface WriteAcc {
  ref: DatasetRef;
  createdAt: string;
  storedCreatedAt: string | null;
  fold: FacetFold<Obj>;
}

interface RunAcc {
  id: string;
  job: DatasetRef;
  stored: StoredRun;
  times: RunTimes;
  firstSeen: string;
  lastSeen: string;
  /** Newest own eventTime so far, while folding (for edge observations). */
  lastEventAt: string | null;
  inputs: Map<string, DatasetRef>;
  outputs: Map<string, DatasetRef>;
  fold: FacetFold<Obj>;
  reads: Map<string, ReadAcc>;
  writes: Map<string, WriteAcc>;
}

const facetReports = (facets: Facets, deleted: readonly string[], prefix = FACET_PREFIX): Report<Obj>[] => reportsOf<Obj>(facets, deleted, prefix, jsonOf);

function sourceType(uri: string | null, namespace: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(uri ?? namespace);
  return m ? m[1].toUpperCase() : 'UNKNOWN';
}

function dataSourceOf(facet: Obj | null, namespace: string): { name: string; uri: string | null; type: string } | null {
  if (!facet) return null;
  const uri = str(facet.uri);
  return { name: str(facet.name) ?? uri ?? namespace, uri, type: sourceType(uri, namespace) };
}

/** The values a dataset (or version) promotes from its facets, for those facets the batch changed. */
function promoted(fold: FacetFold<Obj>, keys: readonly (keyof typeof PROMOTED)[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const key of keys) {
    const report = fold.changed(`${FACET_PREFIX}${key}`);
    if (report) Object.assign(out, PROMOTED[key](report.object));
  }
  return out;
}

const PROMOTED = {
  schema: (f: Obj | null) => ({ fields: f ? JSON.stringify(schemaFields(f.fields)) : null }),
  documentation: (f: Obj | null) => ({ description: str(f?.description) }),
  datasetType: (f: Obj | null) => ({ type: str(f?.datasetType) ?? 'DB_TABLE' }),
  lifecycleStateChange: (f: Obj | null) => ({ lastLifecycleState: str(f?.lifecycleStateChange) }),
} as const;

const DATASET_PROMOTED = ['schema', 'documentation', 'datasetType', 'lifecycleStateChange'] as const;

/** A dataset version promotes its schema and lifecycle state. */
function versionPromoted(fold: FacetFold<Obj>): Record<string, string | null> {
  const { fields, lastLifecycleState } = promoted(fold, ['schema', 'lifecycleStateChange']);
  const out: Record<string, string | null> = {};
  if (fields !== undefined) out.fields = fields;
  if (lastLifecycleState !== undefined) out.lifecycleState = lastLifecycleState;
  return out;
}

function jobPromoted(fold: FacetFold<Obj>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const doc = fold.changed(`${FACET_PREFIX}documentation`);
  if (doc) out.description = str(doc.object?.description);
  const type = fold.changed(`${FACET_PREFIX}jobType`);
  if (type) {
    const processing = str(type.object?.processingType)?.toUpperCase() ?? null;
    out.type = processing === 'STREAMING' ? 'STREAM' : 'BATCH';
    out.integration = str(type.object?.integration);
    out.jobKind = str(type.object?.jobType);
  }
  return out;
}

/** The simple name of a job under a parent (as Marquez: the part after the last dot). */
export function simpleName(name: string, parent: DatasetRef | null): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && parent ? name.slice(dot + 1) : name;
}

const parseJson = (text: string | null): Obj | null => {
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Obj) : null;
  } catch {
    return null;
  }
};

/** The job facets a run's version depends on, after the batch: the batch's winner or the stored one. */
function runCode(acc: RunAcc) {
  const value = (name: 'sourceCodeLocation' | 'sql' | 'jobType'): Obj | null => {
    const report = acc.fold.winner(`${JOB_FACET_PREFIX}${name}`);
    return report ? report.object : parseJson(acc.stored.code[name]);
  };
  const sql = str(value('sql')?.query);
  const context: Record<string, string> = sql ? { sql } : {};
  return {
    location: str(value('sourceCodeLocation')?.url),
    context,
    streaming: str(value('jobType')?.processingType)?.toUpperCase() === 'STREAMING',
  };
}

/** When a run's version takes effect: its end, else its start (a streaming run), else its first event. */
function versionTime(times: RunTimes, createdAt: string | null): string | null {
  return times.endedAt ?? times.startedAt ?? createdAt;
}

const sortTime = (times: RunTimes, createdAt: string | null): string | null => times.startedAt ?? times.endedAt ?? createdAt;

// ---------------------------------------------------------------------------------------------

/** The refs every event in the batch mentions (for symlink resolution before planning). */
export function mentionedRefs(items: Incoming[]): DatasetRef[] {
  const seen = new Map<string, DatasetRef>();
  const add = (d: DatasetRef) => seen.set(refKey(d), ref(d));
  for (const { event } of items) {
    for (const d of [...event.inputs, ...event.outputs, ...(event.dataset ? [event.dataset] : [])]) {
      add(d);
      for (const c of d.columnLineage) for (const i of c.inputFields) add(i);
      for (const l of d.symlinks) add(l);
    }
  }
  return [...seen.values()].sort(byKey(refKey));
}

/** The jobs the batch's run events and JobEvents name, sorted (jobs-state.cypher locks them in this order). */
export function mentionedJobs(items: Incoming[]): DatasetRef[] {
  const seen = new Map<string, DatasetRef>();
  for (const { event } of items) if (event.job) seen.set(refKey(event.job), ref(event.job));
  return [...seen.values()].sort(byKey(refKey));
}

/** The runs of the batch, each with its earliest event time, sorted by id (runs-prepare.cypher locks them in this order). */
export function mentionedRuns(items: Incoming[]): { id: string; externalId: string; eventTime: string }[] {
  const runs = new Map<string, { id: string; externalId: string; eventTime: string }>();
  for (const { event } of items) {
    if (event.kind !== 'run') continue;
    const r = event.run!;
    const prev = runs.get(r.id);
    if (!prev || ms(event.eventTime) < ms(prev.eventTime)) runs.set(r.id, { id: r.id, externalId: r.externalId, eventTime: event.eventTime });
  }
  return [...runs.values()].sort(byKey((r) => r.id));
}

/** The symlink aliases a batch declares: each symlinks identifier of a dataset names that dataset. */
function declaredAliases(items: Incoming[], known: AliasMap): { from: DatasetRef; to: DatasetRef }[] {
  const out = new Map<string, { from: DatasetRef; to: DatasetRef }>();
  for (const { event } of items) {
    for (const d of [...event.inputs, ...event.outputs, ...(event.dataset ? [event.dataset] : [])]) {
      const primary = known.resolve(d);
      for (const l of d.symlinks) {
        if ((l.namespace === primary.namespace && l.name === primary.name) || known.has(l)) continue;
        out.set(refKey(l), { from: ref(l), to: ref(primary) });
      }
    }
  }
  return [...out.values()].sort(byKey((a) => refKey(a.from)));
}

export function planBatch(items: Incoming[], stored: StoredState): BatchPlan {
  // The batch's own symlink declarations resolve its other events too, whatever their order.
  const declared_ = declaredAliases(items, stored.aliases);
  const aliases = stored.aliases.with(declared_);
  const aliasNames = new Map<string, AliasNameRow>();
  /** Resolves a mentioned name to its primary, dating the alias name by the mention. */
  const resolve = <T extends DatasetRef>(d: T, t: string): T => {
    const to = aliases.resolve(d);
    if (to.namespace !== d.namespace || to.name !== d.name) {
      const k = refKey(d);
      const prev = aliasNames.get(k);
      aliasNames.set(k, { namespace: d.namespace, name: d.name, firstSeen: minIso(prev?.firstSeen ?? null, t), lastSeen: maxIso(prev?.lastSeen ?? null, t) });
    }
    return to;
  };
  const datasets = new Map<string, DatasetAcc>();
  const jobs = new Map<string, JobAcc>();
  const runs = new Map<string, RunAcc>();
  const parentJobs = new Map<string, ParentJobRow>();
  const parentRuns = new Map<string, ParentRunRow>();
  const columnEdges = new Map<string, ColumnEdgeRow>();
  const declared = new Map<string, VersionRow>();
  const datasetEvents = new Map<string, DatasetEventRow>();
  const observations: EdgeObservation[] = [];
  const events: StoredEvent[] = [];

  const datasetAcc = (d: DatasetRef, t: string): DatasetAcc => {
    const k = refKey(d);
    let acc = datasets.get(k);
    if (!acc) {
      acc = { ref: ref(d), firstSeen: t, lastSeen: t, fold: new FacetFold(stored.datasetStamps.get(k)), schemas: new Map(), sources: new Map(), symlinks: new Map() };
      datasets.set(k, acc);
    }
    acc.firstSeen = minIso(acc.firstSeen, t);
    acc.lastSeen = maxIso(acc.lastSeen, t);
    return acc;
  };

  /** A dataset named by an event: its facets, schema, source and symlinks. */
  const mentionDataset = (d: NormalizedDataset, t: string) => {
    const acc = datasetAcc(d, t);
    const reports = facetReports(d.facets, d.deletedFacets);
    acc.fold.offer(reports, ms(t));
    const schema = reports.find((r) => r.key === `${FACET_PREFIX}schema` && r.json !== null);
    if (schema && schema.json !== null) acc.schemas.set(schema.json, schemaFields(schema.object!.fields).map((f) => f.name));
    const source = dataSourceOf(d.facets.dataSource ?? null, d.namespace);
    if (source) {
      const prev = acc.sources.get(source.name);
      if (!prev || ms(t) < ms(prev.at)) acc.sources.set(source.name, { ...source, uri: source.uri ?? prev?.uri ?? null, at: t });
    }
    for (const l of d.symlinks) {
      if (l.namespace === d.namespace && l.name === d.name) continue;
      const prev = acc.symlinks.get(refKey(l));
      acc.symlinks.set(refKey(l), { ...ref(l), at: minIso(prev?.at ?? null, t) });
    }
  };

  const jobAcc = (j: DatasetRef): JobAcc => {
    const k = refKey(j);
    let acc = jobs.get(k);
    if (!acc) {
      acc = { ref: ref(j), firstSeen: null, lastSeen: null, fold: new FacetFold(stored.jobStamps.get(k)) };
      jobs.set(k, acc);
    }
    return acc;
  };

  const jobEvent = (event: NormalizedEvent, t: string) => {
    const job = event.job!;
    const acc = jobAcc(job);
    acc.firstSeen = minIso(acc.firstSeen, t);
    acc.lastSeen = maxIso(acc.lastSeen, t);
    acc.fold.offer(facetReports(job.facets, job.deletedFacets), ms(t));
    return acc;
  };

  const addColumnEdges = (job: DatasetRef, outputs: NormalizedDataset[], t: string) => {
    for (const out of outputs) {
      for (const entry of out.columnLineage) {
        for (const input of entry.inputFields) {
          const inRef = resolve({ namespace: input.namespace, name: input.name }, t);
          datasetAcc(inRef, t);
          const row: ColumnEdgeRow = {
            jobNamespace: job.namespace,
            jobName: job.name,
            namespace: out.namespace,
            name: out.name,
            field: entry.field,
            inNamespace: inRef.namespace,
            inName: inRef.name,
            inField: input.field,
            transformations: JSON.stringify(input.transformations),
            at: t,
          };
          const k = JSON.stringify([row.jobNamespace, row.jobName, row.namespace, row.name, row.field, row.inNamespace, row.inName, row.inField]);
          const prev = columnEdges.get(k);
          // The mapping reported last (by event time) holds; at one time, the greater text.
          if (!prev || ms(t) > ms(prev.at) || (t === prev.at && row.transformations > prev.transformations)) columnEdges.set(k, row);
        }
      }
    }
  };

  for (const { event, receivedAt } of items) {
    const t = event.eventTime;
    events.push({ ...storedEvent(event), receivedAt });
    if (event.kind === 'run') {
      const run = event.run!;
      const job = ref(event.job!);
      let acc = runs.get(run.id);
      if (!acc) {
        const s = stored.runs.get(run.id) ?? NEW_RUN;
        if (s.jobName !== null && (s.jobNamespace !== job.namespace || s.jobName !== job.name)) {
          throw new RunJobConflict(`Run '${run.externalId}' belongs to job '${s.jobNamespace}:${s.jobName}', not '${job.namespace}:${job.name}'`);
        }
        acc = {
          id: run.id,
          job,
          stored: s,
          times: s.times,
          firstSeen: t,
          lastSeen: t,
          lastEventAt: s.lastEventAt,
          inputs: new Map(s.reads.map((r) => [refKey(r), ref(r)])),
          outputs: new Map(s.writes.map((w) => [refKey(w), ref(w)])),
          fold: new FacetFold(s.stamps),
          reads: new Map(),
          writes: new Map(),
        };
        runs.set(run.id, acc);
      } else if (acc.job.namespace !== job.namespace || acc.job.name !== job.name) {
        throw new RunJobConflict(`Run '${run.externalId}' belongs to job '${acc.job.namespace}:${acc.job.name}', not '${job.namespace}:${job.name}'`);
      }
      const inputs = event.inputs.map((d) => resolve(d, t));
      const outputs = event.outputs.map((d) => resolve(d, t));
      const time = ms(t);
      observations.push(
        ...runEventObservations({
          job,
          runId: run.id,
          eventTime: time,
          lastEventAt: acc.lastEventAt === null ? null : ms(acc.lastEventAt),
          inputs,
          outputs,
          earlierInputs: [...acc.inputs.values()],
          earlierOutputs: [...acc.outputs.values()],
        }),
      );
      acc.times = applyEvent(acc.times, event.eventType, t);
      acc.firstSeen = minIso(acc.firstSeen, t);
      acc.lastSeen = maxIso(acc.lastSeen, t);
      acc.lastEventAt = maxIso(acc.lastEventAt, t);
      acc.fold.offer([...facetReports(run.facets, []), ...facetReports(event.job!.facets, event.job!.deletedFacets, JOB_FACET_PREFIX)], time);

      const j = jobEvent(event, t);
      const parent = run.parent;
      if (parent) {
        const parentJob = parent.job;
        if (!(parentJob.namespace === job.namespace && parentJob.name === job.name)) {
          j.fold.offer([{ key: 'parent', json: JSON.stringify([parentJob.namespace, parentJob.name]), object: { namespace: parentJob.namespace, name: parentJob.name } }], time);
          const pk = refKey(parentJob);
          const prev = parentJobs.get(pk);
          if (!prev || time < ms(prev.at)) parentJobs.set(pk, { namespace: parentJob.namespace, name: parentJob.name, at: t });
        }
        if (parent.runId !== run.id) {
          const prev = parentRuns.get(parent.runId);
          if (!prev || time < ms(prev.at)) parentRuns.set(parent.runId, { runId: parent.runId, externalRunId: parent.externalRunId, job: ref(parentJob), at: t, own: false });
        }
      }

      for (const d of [...inputs, ...outputs]) mentionDataset(d, t);
      for (const d of inputs) {
        acc.inputs.set(refKey(d), ref(d));
        const k = refKey(d);
        let read = acc.reads.get(k);
        if (!read) {
          const s = acc.stored.reads.find((r) => r.namespace === d.namespace && r.name === d.name);
          read = { ref: ref(d), at: s?.at ?? t, storedAt: s?.at ?? null, fold: new FacetFold(s?.stamps) };
          acc.reads.set(k, read);
        }
        read.at = minIso(read.at, t);
        read.fold.offer(facetReports({ ...d.facets, ...d.inputFacets }, d.deletedFacets), time);
      }
      for (const d of outputs) {
        acc.outputs.set(refKey(d), ref(d));
        const k = refKey(d);
        let write = acc.writes.get(k);
        if (!write) {
          const s = acc.stored.writes.find((w) => w.namespace === d.namespace && w.name === d.name);
          write = { ref: ref(d), createdAt: s?.createdAt ?? t, storedCreatedAt: s?.createdAt ?? null, fold: new FacetFold(s?.stamps) };
          acc.writes.set(k, write);
        }
        write.createdAt = minIso(write.createdAt, t);
        write.fold.offer(facetReports({ ...d.facets, ...d.outputFacets }, d.deletedFacets), time);
      }
      addColumnEdges(job, outputs, t);
    } else if (event.kind === 'job') {
      const job = ref(event.job!);
      const ins = event.inputs.map((d) => resolve(d, t));
      const outs = event.outputs.map((d) => resolve(d, t));
      jobEvent(event, t);
      for (const d of [...ins, ...outs]) mentionDataset(d, t);
      addColumnEdges(job, outs, t);
      observations.push(...jobEventObservations(job, ms(t), ins, outs));
      const v = versionOf(job, event.job!.location, event.job!.context, ins, outs);
      // One row per declaration: the stage keeps the earliest and the latest time of each version.
      declared.set(`${v.id} ${t}`, { ...v, job, runId: null, previous: null, time: t, retimed: false });
    } else {
      const d = resolve(event.dataset!, t);
      mentionDataset(d, t);
      const fingerprint = eventFingerprint(event.raw);
      const versionId = eventDatasetVersionId(d, fingerprint);
      const fold = new FacetFold<Obj>(null);
      fold.offer(facetReports(d.facets, d.deletedFacets), ms(t));
      datasetEvents.set(versionId, { namespace: d.namespace, name: d.name, versionId, at: t, facetProps: fold.props(), derived: versionPromoted(fold) });
    }
  }

  // Runs: state, LATEST_RUN candidates, versions, commits.
  const runRows: RunRow[] = [];
  const versions: VersionRow[] = [...declared.values()];
  const commits = new Map<string, CommitRow>();
  const newestRun = new Map<string, { row: RunRow; sort: string }>();
  const inputRows: InputRow[] = [];
  const outputRows: OutputRow[] = [];
  for (const acc of runs.values()) {
    const createdAt = minIso(acc.stored.createdAt, acc.firstSeen);
    const state = stateOf(acc.times);
    const nominal = acc.fold.changed(`${FACET_PREFIX}nominalTime`);
    const parent = acc.fold.changed(`${FACET_PREFIX}parent`);
    const parentRun = parent ? parentRef(parent.object ?? undefined) : null;
    const row: RunRow = {
      id: acc.id,
      job: acc.job,
      firstSeen: acc.firstSeen,
      lastSeen: acc.lastSeen,
      state,
      startedAt: acc.times.startedAt,
      endedAt: acc.times.endedAt,
      terminalState: acc.times.terminalState,
      facetProps: acc.fold.props(),
      nominalChanged: nominal !== undefined,
      nominalStartTime: nominal?.object ? isoOrNull(nominal.object.nominalStartTime) : null,
      nominalEndTime: nominal?.object ? isoOrNull(nominal.object.nominalEndTime) : null,
      parentChanged: parent !== undefined,
      parentRunId: parentRun && parentRun.runId !== acc.id ? parentRun.runId : null,
      facetStamps: acc.fold.stamps(),
      latestCandidate: false,
      sortTimeDecreased: false,
    };
    const sort = sortTime(acc.times, createdAt)!;
    const storedSort = sortTime(acc.stored.times, acc.stored.createdAt);
    // Only a run with events of its own is a LATEST_RUN: one known only as a parent is not.
    row.sortTimeDecreased = acc.stored.lastEventAt !== null && storedSort !== null && ms(sort) < ms(storedSort);
    runRows.push(row);
    const k = refKey(acc.job);
    const cur = newestRun.get(k);
    if (!cur || ms(sort) > ms(cur.sort) || (ms(sort) === ms(cur.sort) && acc.id > cur.row.id)) newestRun.set(k, { row, sort });

    // The version: from the run's whole I/O and its latest code, once it ended (or a streaming run has I/O).
    const code = runCode(acc);
    const ins = [...acc.inputs.values()];
    const outs = [...acc.outputs.values()];
    if (acc.times.terminalState !== null || (code.streaming && ins.length + outs.length > 0)) {
      const v = versionOf(acc.job, code.location, code.context, ins, outs);
      const time = versionTime(acc.times, createdAt)!;
      const storedTime = versionTime(acc.stored.times, acc.stored.createdAt);
      const moved = acc.stored.jobVersion !== v.id;
      if (moved || storedTime === null || ms(storedTime) !== ms(time)) {
        versions.push({ ...v, job: acc.job, runId: acc.id, previous: moved ? acc.stored.jobVersion : null, time, retimed: !moved, location: v.location });
      }
    }

    // Output versions commit when the run completes (at its end), and stop being committed if it did not.
    const completed = state === 'COMPLETED';
    const wasCompleted = acc.stored.times.terminalState === 'COMPLETED';
    for (const out of outs) {
      const isNew = acc.writes.has(refKey(out)) && acc.writes.get(refKey(out))!.storedCreatedAt === null;
      if (completed && (isNew || !wasCompleted || acc.stored.times.endedAt !== acc.times.endedAt)) {
        commits.set(writtenDatasetVersionId(out, acc.id), commitRow(writtenDatasetVersionId(out, acc.id), out, acc.times.endedAt));
      } else if (!completed && wasCompleted) {
        commits.set(writtenDatasetVersionId(out, acc.id), commitRow(writtenDatasetVersionId(out, acc.id), out, null));
      }
    }

    for (const read of acc.reads.values()) {
      const resolve = read.storedAt === null || ms(read.at) < ms(read.storedAt);
      const stamps = read.fold.stamps();
      if (!resolve && stamps === null) continue;
      inputRows.push({
        runId: acc.id,
        namespace: read.ref.namespace,
        name: read.ref.name,
        at: read.at,
        resolve,
        initialVersionId: initialDatasetVersionId(read.ref),
        facetProps: read.fold.props(),
        facetStamps: stamps,
      });
    }
    for (const write of acc.writes.values()) {
      const stamps = write.fold.stamps();
      const isNew = write.storedCreatedAt === null;
      if (!isNew && stamps === null && ms(write.createdAt) >= ms(write.storedCreatedAt!)) continue;
      outputRows.push({
        runId: acc.id,
        namespace: write.ref.namespace,
        name: write.ref.name,
        versionId: writtenDatasetVersionId(write.ref, acc.id),
        createdAt: write.createdAt,
        facetProps: write.fold.props(),
        derived: versionPromoted(write.fold),
        facetStamps: stamps,
      });
    }
  }
  for (const { row } of newestRun.values()) row.latestCandidate = true;
  for (const e of datasetEvents.values()) commits.set(e.versionId, commitRow(e.versionId, e, e.at));

  const datasetRows: DatasetRow[] = [...datasets.values()].map((acc) => {
    const schema = acc.fold.changed(`${FACET_PREFIX}schema`);
    const fieldTypes = schema ? (schema.object ? schemaFields(schema.object.fields).map((f) => ({ name: f.name, type: f.type, description: f.description })) : []) : null;
    // Field nodes exist for every column ever reported: a schema that loses to a later one still
    // brings its columns (without type: only the dataset's schema types its columns). The stored
    // schema's columns have nodes already.
    const storedSchema = acc.fold.storedDigest(`${FACET_PREFIX}schema`);
    const otherFieldNames = new Set<string>();
    for (const [json, names] of acc.schemas) {
      if (json === schema?.json || digest(json) === storedSchema) continue;
      for (const n of names) otherFieldNames.add(n);
    }
    const source = acc.fold.changed(`${FACET_PREFIX}dataSource`);
    return {
      namespace: acc.ref.namespace,
      name: acc.ref.name,
      firstSeen: acc.firstSeen,
      lastSeen: acc.lastSeen,
      facetProps: acc.fold.props(),
      derived: promoted(acc.fold, DATASET_PROMOTED),
      fieldTypes,
      otherFieldNames: [...otherFieldNames].filter((n) => !fieldTypes?.some((f) => f.name === n)).sort(),
      source: source ? dataSourceOf(source.object, acc.ref.namespace) : null,
      sourceChanged: source !== undefined,
      sources: [...acc.sources.values()].sort(byKey((s) => s.name)),
      symlinks: [...acc.symlinks.values()].sort(byKey(refKey)),
      facetStamps: acc.fold.stamps(),
    };
  });

  const jobRows: JobRow[] = [...jobs.values()].map((acc) => {
    const parent = acc.fold.changed('parent');
    const parentRef_ = parent?.object ? (parent.object as unknown as DatasetRef) : null;
    return {
      namespace: acc.ref.namespace,
      name: acc.ref.name,
      firstSeen: acc.firstSeen!,
      lastSeen: acc.lastSeen!,
      facetProps: acc.fold.props(),
      derived: jobPromoted(acc.fold),
      parent: parentRef_,
      parentChanged: parent !== undefined,
      simpleName: simpleName(acc.ref.name, parentRef_),
      facetStamps: acc.fold.stamps(),
    };
  });

  const namespaces = new Map<string, string>();
  const dateNamespace = (name: string, at: string) => namespaces.set(name, minIso(namespaces.get(name) ?? null, at));
  for (const d of datasetRows) {
    dateNamespace(d.namespace, d.firstSeen);
    for (const l of d.symlinks) dateNamespace(l.namespace, l.at);
  }
  for (const a of aliasNames.values()) dateNamespace(a.namespace, a.firstSeen);
  for (const j of jobRows) dateNamespace(j.namespace, j.firstSeen);
  for (const p of parentJobs.values()) dateNamespace(p.namespace, p.at);

  const runStates = new Map(runRows.map((r) => [r.id, r.state]));
  const sortRefs = byKey<DatasetRef>(refKey);
  return {
    // Fixed lock orders keep deadlocks with other writers rare.
    namespaces: [...namespaces.entries()].map(([name, at]) => ({ name, at })).sort(byKey((n) => n.name)),
    datasets: datasetRows.sort(sortRefs),
    aliasNames: [...aliasNames.values()].sort(sortRefs),
    newAliases: declared_.map((a) => a.from),
    jobs: jobRows.sort(sortRefs),
    parentJobs: [...parentJobs.values()].sort(sortRefs),
    runs: runRows.sort(byKey((r) => r.id)),
    parentRuns: [...parentRuns.values()].map((p) => ({ ...p, own: runs.has(p.runId) })).sort(byKey((r) => r.runId)),
    outputs: outputRows,
    datasetEvents: [...datasetEvents.values()],
    commits: [...commits.values()].sort(byKey((c) => c.versionId)),
    inputs: inputRows,
    columnEdges: [...columnEdges.values()],
    versions,
    lineageEdges: planEdges(stored.edges, observations, runStates),
    events,
  };
}

function commitRow(versionId: string, dataset: DatasetRef, committedAt: string | null): CommitRow {
  return { versionId, namespace: dataset.namespace, name: dataset.name, committedAt, placeholderId: initialDatasetVersionId(dataset) };
}

function isoOrNull(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : isoOf(t);
}

function versionOf(job: DatasetRef, location: string | null, context: Record<string, string>, inputs: DatasetRef[], outputs: DatasetRef[]) {
  const sortedIn = sortedRefs(inputs);
  const sortedOut = sortedRefs(outputs);
  return {
    id: jobVersionId({ namespace: job.namespace, name: job.name, location, context, inputs: sortedIn, outputs: sortedOut }),
    location,
    context: JSON.stringify(context),
    inputs: sortedIn,
    outputs: sortedOut,
  };
}

function storedEvent(event: NormalizedEvent): Omit<StoredEvent, 'receivedAt'> {
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
    datasetNamespace: event.dataset?.namespace ?? null,
    datasetName: event.dataset?.name ?? null,
    payload: canonicalEvent(event.raw).json,
  };
}
