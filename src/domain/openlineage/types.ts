/**
 * The normalized form of an OpenLineage event: what the ingest path writes to the graph. Produced by
 * `parseEvent` (validate.ts + normalize.ts) from the raw JSON body; every field a repository needs is
 * explicit here, so store code never digs through raw facets.
 */

export type EventKind = 'run' | 'job' | 'dataset';
export type EventType = 'START' | 'RUNNING' | 'COMPLETE' | 'ABORT' | 'FAIL' | 'OTHER';

/** Facet name → facet object as sent (including `_producer`, `_schemaURL` and any custom keys). */
export type Facets = Record<string, Record<string, unknown>>;

export interface DatasetRef {
  namespace: string;
  name: string;
}

export interface SchemaField {
  name: string;
  type: string | null;
  description: string | null;
  /** Nested columns (structs), kept as sent. */
  fields?: SchemaField[];
}

export interface ColumnLineageInput {
  namespace: string;
  name: string;
  field: string;
  transformations: Record<string, unknown>[];
}

export interface ColumnLineageEntry {
  /** The output column of this dataset. */
  field: string;
  inputFields: ColumnLineageInput[];
}

export interface Symlink extends DatasetRef {
  type: string | null;
}

export interface NormalizedDataset extends DatasetRef {
  /** The `facets` slot, minus facets marked `_deleted: true`. */
  facets: Facets;
  /** Names of facets sent with `_deleted: true` (to remove from the stored entity). */
  deletedFacets: string[];
  inputFacets: Facets;
  outputFacets: Facets;
  /** Promoted from well-known facets; null when the facet is absent. */
  fields: SchemaField[] | null;
  source: { name: string; uri: string | null } | null;
  description: string | null;
  lifecycleState: string | null;
  /** From the `datasetType` facet (e.g. TABLE, VIEW, STREAM); null when absent. */
  datasetType: string | null;
  symlinks: Symlink[];
  columnLineage: ColumnLineageEntry[];
}

export interface NormalizedJob extends DatasetRef {
  facets: Facets;
  deletedFacets: string[];
  location: string | null;
  /** Job context as versioned and returned by the API, e.g. `{sql: "..."}`; `{}` when nothing known. */
  context: Record<string, string>;
  description: string | null;
  /** From the `jobType` facet. */
  jobType: { processingType: string | null; integration: string | null; jobType: string | null } | null;
}

export interface ParentRef {
  /** Service run id (UUID) of the parent run. */
  runId: string;
  /** The parent run id exactly as sent. */
  externalRunId: string;
  job: DatasetRef;
  root: { runId: string; externalRunId: string; job: DatasetRef } | null;
}

export interface NormalizedRun {
  /** Service run id: the sent runId lower-cased when it is a UUID, else a name-based UUID of it. */
  id: string;
  /** The runId exactly as sent. */
  externalId: string;
  facets: Facets;
  nominalStartTime: string | null;
  nominalEndTime: string | null;
  parent: ParentRef | null;
}

export interface NormalizedEvent {
  kind: EventKind;
  /** null when the event has no eventType (allowed by the spec). */
  eventType: EventType | null;
  /** ISO-8601 UTC with millisecond precision and trailing Z (no offset → treated as UTC). */
  eventTime: string;
  producer: string;
  schemaURL: string;
  /** Present for kind 'run'. */
  run: NormalizedRun | null;
  /** Present for kinds 'run' and 'job'. */
  job: NormalizedJob | null;
  inputs: NormalizedDataset[];
  outputs: NormalizedDataset[];
  /** Present for kind 'dataset'. */
  dataset: NormalizedDataset | null;
  /** The event exactly as received (kept for GET /api/v1/events/lineage). */
  raw: Record<string, unknown>;
}

export interface ValidationProblem {
  /** JSON pointer of the failing value, e.g. `/run/runId` or `/inputs/0/name`. */
  path: string;
  message: string;
  /** Set when the problem is an exceeded limit (limits.ts), named here. */
  limit?: string;
}

export type ParseResult = { ok: true; event: NormalizedEvent } | { ok: false; problems: ValidationProblem[] };
