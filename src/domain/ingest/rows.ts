/**
 * The rows each write stage of an ingest batch takes (each stage's .cypher header documents its own),
 * and the batch's events as they come in.
 */
import type { DatasetRef, NormalizedEvent } from '../openlineage/types.js';
import type { EdgeWriteRow } from '../edge-plan.js';

export interface Incoming {
  event: NormalizedEvent;
  receivedAt: string;
}

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
  /**
   * Columns of every other schema reported with new content: field nodes exist for every column ever reported.
   * Nested columns, here and in `fieldTypes`, are named by their dotted path (normalize.ts, `schemaColumns`).
   */
  otherFieldNames: string[];
  /** The dataSource facet that now holds (when it changed): its source, or null when removed. */
  source: { name: string; uri: string | null; type: string } | null;
  sourceChanged: boolean;
  /**
   * Every source reported, with the earliest report time (ISO): sources are created, and dated, by their first report.
   */
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
  /** Facets whose content is the dataset's after the batch: copied from the dataset node, not sent. */
  sameAsDataset: string[];
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
