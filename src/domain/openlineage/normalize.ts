/**
 * Turns an OpenLineage event body into the NormalizedEvent the ingest path writes: times in UTC,
 * service run ids, facets split into kept and deleted, and well-known facets promoted to fields.
 * Pure: no I/O, and the body is never mutated (facet objects are shared with `raw`, as sent).
 */
import { isUuid, uuidV5 } from '../uuid-v5.js';
import { canonicalJson } from '../versions.js';
import type {
  ColumnLineageEntry,
  ColumnLineageInput,
  DatasetRef,
  EventKind,
  EventType,
  Facets,
  NormalizedDataset,
  NormalizedEvent,
  NormalizedJob,
  NormalizedRun,
  ParentRef,
  ParseResult,
  SchemaField,
  Symlink,
} from './types.js';
import { eventKind, parseIsoDateTime, validateShape } from './validate.js';
import { limitProblems, nestingProblem } from './limits.js';

/**
 * Namespace of the name-based UUIDs given to non-UUID runIds. Fixed forever: changing it would give
 * already stored runs new ids.
 */
export const RUN_ID_NAMESPACE = '8f3d2c1b-7a6e-4d5c-9b8a-1f2e3d4c5b6a';

/** The schemaURL stored when an event has none (many producers omit it). */
export const DEFAULT_SCHEMA_URLS: Record<EventKind, string> = {
  run: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  job: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
  dataset: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A non-empty string, or null: facets read here are validated only loosely. */
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

// Any version and variant: Marquez (Java's UUID.fromString) keeps every 8-4-4-4-12 hex id as is.

/** A sent runId as the service's run id: UUIDs lower-cased, any other string a stable name-based UUID. */
export function serviceRunId(runId: string): string {
  return isUuid(runId) ? runId.toLowerCase() : uuidV5(runId, RUN_ID_NAMESPACE);
}

/** Any ISO-8601 date-time (any fraction precision; Z, ±hh:mm, ±hhmm, ±hh, or no offset = UTC) → `…T…sssZ`. */
export function normalizeEventTime(s: string): string | null {
  const millis = parseIsoDateTime(s);
  return millis === null ? null : new Date(millis).toISOString();
}

const optionalTime = (v: unknown): string | null => (typeof v === 'string' ? normalizeEventTime(v) : null);

/** A facet slot split into the facets to keep and the names of those sent with `_deleted: true`. */
export function splitFacets(slot: unknown): { facets: Facets; deleted: string[] } {
  const facets: Facets = {};
  const deleted: string[] = [];
  if (!isObj(slot)) return { facets, deleted };
  for (const [name, value] of Object.entries(slot)) {
    if (!isObj(value)) continue;
    if (value._deleted === true) deleted.push(name);
    else facets[name] = value;
  }
  return { facets, deleted };
}

/** `schema.fields`, recursively; `fields` appears on a column only when the producer sent nested columns. */
export function schemaFields(raw: unknown): SchemaField[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObj).map((f) => {
    const field: SchemaField = { name: String(f.name), type: str(f.type), description: str(f.description) };
    if (Array.isArray(f.fields)) field.fields = schemaFields(f.fields);
    return field;
  });
}

/** One column of a schema under the name the service addresses it by (`schemaColumns`). */
export interface SchemaColumn {
  /** Its dotted path: the names from the top-level column down, joined by dots (`addr.geo.lat`). */
  name: string;
  type: string | null;
  description: string | null;
}

/** Visits a schema's columns breadth first (top-level ones, then their members...), with their names from the top. */
function breadthFirst(fields: readonly SchemaField[], visit: (segments: string[], f: SchemaField) => void): void {
  let level: [string[], SchemaField][] = fields.map((f) => [[f.name], f]);
  while (level.length > 0) {
    const next: [string[], SchemaField][] = [];
    for (const [segments, f] of level) {
      visit(segments, f);
      for (const child of f.fields ?? []) next.push([[...segments, child.name], child]);
    }
    level = next;
  }
}

/**
 * Who owns each dotted path of a schema: path → the JSON of the owning column's names from the top.
 * Two columns whose paths spell the same name (a top-level column literally named `a.b`, and `b` inside
 * `a`) are told apart by level: the name belongs to the column nearest the top, then to the one first in
 * the schema's order; the other has no name of its own (no node, no tags).
 */
export function pathOwners(fields: readonly SchemaField[]): Map<string, string> {
  const owners = new Map<string, string>();
  breadthFirst(fields, (segments) => {
    const name = segments.join('.');
    if (!owners.has(name)) owners.set(name, JSON.stringify(segments));
  });
  return owners;
}

/**
 * Every column of a schema, nested ones included, under its dotted path (`pathOwners`), each name once:
 * the names of DatasetField nodes, field tags and `datasetField:` node ids (cypher/README.md). A column
 * mentioned twice under the same names is one column, typed as its last mention (as a MERGE then SET per
 * mention did).
 */
export function schemaColumns(fields: readonly SchemaField[]): SchemaColumn[] {
  const byName = new Map<string, SchemaColumn>();
  // A flat schema (most, and every one on the ingest path's hot traffic) owns each name at its column.
  if (!fields.some((f) => f.fields && f.fields.length > 0)) {
    for (const f of fields) {
      byName.delete(f.name);
      byName.set(f.name, { name: f.name, type: f.type, description: f.description });
    }
    return [...byName.values()];
  }
  const owners = pathOwners(fields);
  breadthFirst(fields, (segments, f) => {
    const name = segments.join('.');
    if (owners.get(name) !== JSON.stringify(segments)) return;
    byName.delete(name);
    byName.set(name, { name, type: f.type, description: f.description });
  });
  return [...byName.values()];
}

export function symlinks(facet: Obj | undefined): Symlink[] {
  if (!facet || !Array.isArray(facet.identifiers)) return [];
  return facet.identifiers
    .filter(isObj)
    .map((i) => ({ namespace: String(i.namespace), name: String(i.name), type: str(i.type) }));
}

/**
 * Transformations of one input column. ColumnLineage 1-0-x described them once per output column
 * (`transformationType`/`transformationDescription`); they become one transformation object so the
 * store reads a single shape.
 */
function transformationsOf(input: Obj, outputColumn: Obj): Obj[] {
  const sent = Array.isArray(input.transformations) ? input.transformations.filter(isObj) : [];
  if (sent.length > 0) return sent;
  const type = str(outputColumn.transformationType);
  const description = str(outputColumn.transformationDescription);
  return type || description ? [{ type, description }] : [];
}

/** One input column of a column-lineage facet (an `inputFields` or `dataset` entry) with its transformations. */
function columnInput(input: Obj, transformations: Obj[]): ColumnLineageInput {
  return { namespace: String(input.namespace), name: String(input.name), field: String(input.field), transformations };
}

/**
 * The inputs of one output column, one per input column: a column named twice (directly in
 * `inputFields` and again in the facet's dataset-wide list) has the transformations of both, its
 * own first, so the store keeps one edge per input column with everything said about it.
 */
export function mergeInputs(inputs: ColumnLineageInput[]): ColumnLineageInput[] {
  const byColumn = new Map<string, ColumnLineageInput>();
  for (const input of inputs) {
    const key = JSON.stringify([input.namespace, input.name, input.field]);
    const seen = byColumn.get(key);
    if (!seen) {
      byColumn.set(key, { ...input, transformations: [...input.transformations] });
      continue;
    }
    // The same transformation written with its keys in another order is the same one.
    const known = new Set(seen.transformations.map((t) => canonicalJson(t)));
    for (const t of input.transformations) if (!known.has(canonicalJson(t))) seen.transformations.push(t);
  }
  return [...byColumn.values()];
}

/**
 * The output columns a column-lineage facet's dataset-wide inputs feed besides those it names under
 * `fields`: the schema's top-level columns, each name once. Not the members of STRUCT columns: producers
 * that spread dataset-wide inputs themselves (Spark without `datasetLineageEnabled`) list them under the
 * top-level output columns, and the FEEDS edges stay proportional to the schema's width, not its depth.
 * A nested column named under `fields` gets them too (docs/lineage.md, "Dataset-wide inputs").
 */
export function topLevelColumns(fields: readonly SchemaField[] | null): string[] {
  return fields ? [...new Set(fields.map((f) => f.name))] : [];
}

/**
 * `columnLineage.fields` as entries sorted by output column, so equal facets give equal output.
 * ColumnLineage 1-2-0 adds `dataset`: input columns that affect the whole output dataset (filters,
 * joins, grouping, sorting), stated once instead of under every output column. They feed every
 * output column: each one the facet names under `fields`, and each of `columns`, the output's schema
 * columns (`topLevelColumns`: of the schema sent with the facet at ingest, of the declaring version's
 * or the dataset's schema when a stored facet is read), exactly as if each column had listed them
 * (which is how producers without that option write the same lineage), so impact analysis through a
 * filter column is the same whichever form the producer chose. A column of `columns` that the facet
 * does not name has an entry only when there are dataset-wide inputs.
 */
export function columnLineage(facet: Obj | undefined, columns: readonly string[] = []): ColumnLineageEntry[] {
  if (!facet || !isObj(facet.fields)) return [];
  const datasetWide = Array.isArray(facet.dataset)
    ? facet.dataset
        .filter(isObj)
        .map((input) =>
          columnInput(input, Array.isArray(input.transformations) ? input.transformations.filter(isObj) : []),
        )
    : [];
  const entries: ColumnLineageEntry[] = [];
  const named = new Set<string>();
  for (const [field, outputColumn] of Object.entries(facet.fields)) {
    if (!isObj(outputColumn)) continue;
    named.add(field);
    const own = Array.isArray(outputColumn.inputFields)
      ? outputColumn.inputFields
          .filter(isObj)
          .map((input) => columnInput(input, transformationsOf(input, outputColumn)))
      : [];
    entries.push({ field, inputFields: mergeInputs([...own, ...datasetWide]) });
  }
  if (datasetWide.length > 0)
    for (const field of new Set(columns))
      if (!named.has(field)) entries.push({ field, inputFields: mergeInputs(datasetWide) });
  return entries.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}

function dataSource(facet: Obj | undefined, namespace: string): NormalizedDataset['source'] {
  if (!facet) return null;
  const uri = str(facet.uri);
  return { name: str(facet.name) ?? uri ?? namespace, uri };
}

/** Promoted fields come from the `facets` slot only; inputFacets/outputFacets are kept as they are. */
export function normalizeDataset(raw: Obj): NormalizedDataset {
  const namespace = raw.namespace as string;
  const { facets, deleted } = splitFacets(raw.facets);
  const fields = facets.schema ? schemaFields(facets.schema.fields) : null;
  return {
    namespace,
    name: raw.name as string,
    facets,
    deletedFacets: deleted,
    inputFacets: splitFacets(raw.inputFacets).facets,
    outputFacets: splitFacets(raw.outputFacets).facets,
    fields,
    source: dataSource(facets.dataSource, namespace),
    description: str(facets.documentation?.description),
    lifecycleState: str(facets.lifecycleStateChange?.lifecycleStateChange),
    datasetType: str(facets.datasetType?.datasetType),
    symlinks: symlinks(facets.symlinks),
    // Dataset-wide inputs feed the columns of the schema sent with the facet (a stored facet is read with
    // its version's schema: src/store/lineage/columns.ts).
    columnLineage: columnLineage(facets.columnLineage, topLevelColumns(fields)),
  };
}

function jobType(facet: Obj | undefined): NormalizedJob['jobType'] {
  if (!facet) return null;
  return {
    processingType: str(facet.processingType),
    integration: str(facet.integration),
    jobType: str(facet.jobType),
  };
}

export function normalizeJob(raw: Obj): NormalizedJob {
  const { facets, deleted } = splitFacets(raw.facets);
  const sql = str(facets.sql?.query);
  return {
    namespace: raw.namespace as string,
    name: raw.name as string,
    facets,
    deletedFacets: deleted,
    location: str(facets.sourceCodeLocation?.url),
    context: sql ? { sql } : {},
    description: str(facets.documentation?.description),
    jobType: jobType(facets.jobType),
  };
}

/** `{run: {runId}, job: {namespace, name}}` as ids, or null when any part is missing or not a string. */
function runAndJob(value: unknown): { runId: string; externalRunId: string; job: DatasetRef } | null {
  if (!isObj(value) || !isObj(value.run) || !isObj(value.job)) return null;
  const runId = str(value.run.runId);
  const namespace = str(value.job.namespace);
  const name = str(value.job.name);
  if (!runId || !namespace || !name) return null;
  return { runId: serviceRunId(runId), externalRunId: runId, job: { namespace, name } };
}

/**
 * The parent run facet. An incomplete one is ignored rather than rejected: the run itself is still
 * worth recording, and producers have sent partial parents (e.g. no job) in the wild.
 */
export function parentRef(facet: Obj | undefined): ParentRef | null {
  const parent = runAndJob(facet);
  if (!parent) return null;
  return { ...parent, root: runAndJob(facet?.root) };
}

export function normalizeRun(raw: Obj): NormalizedRun {
  const { facets } = splitFacets(raw.facets);
  const runId = raw.runId as string;
  return {
    id: serviceRunId(runId),
    externalId: runId,
    facets,
    nominalStartTime: optionalTime(facets.nominalTime?.nominalStartTime),
    nominalEndTime: optionalTime(facets.nominalTime?.nominalEndTime),
    parent: parentRef(facets.parent),
  };
}

const datasets = (list: unknown): NormalizedDataset[] =>
  Array.isArray(list) ? list.filter(isObj).map(normalizeDataset) : [];

/** Normalizes a body that validateShape accepted. */
function normalizeValidEvent(raw: Obj, kind: EventKind): NormalizedEvent {
  const carriesJob = kind !== 'dataset';
  return {
    kind,
    eventType: (raw.eventType as EventType | null | undefined) ?? null,
    eventTime: normalizeEventTime(raw.eventTime as string) as string,
    producer: raw.producer as string,
    schemaURL: str(raw.schemaURL) ?? DEFAULT_SCHEMA_URLS[kind],
    run: kind === 'run' ? normalizeRun(raw.run as Obj) : null,
    job: carriesJob ? normalizeJob(raw.job as Obj) : null,
    inputs: carriesJob ? datasets(raw.inputs) : [],
    outputs: carriesJob ? datasets(raw.outputs) : [],
    dataset: kind === 'dataset' ? normalizeDataset(raw.dataset as Obj) : null,
    raw,
  };
}

/** An event body that validateShape and the limits found no problem with, normalized. */
export function normalizeValidatedEvent(body: Record<string, unknown>): NormalizedEvent {
  return normalizeValidEvent(body, eventKind(body) as EventKind);
}

/**
 * Validates an event body and, when it is valid and within the limits (limits.ts), normalizes it.
 * Nesting is checked first: validation and canonical JSON recurse over the body.
 */
export function parseEvent(body: unknown): ParseResult {
  const deep = nestingProblem(body);
  if (deep) return { ok: false, problems: [deep] };
  const problems = validateShape(body);
  if (problems.length > 0) return { ok: false, problems };
  const raw = body as Obj;
  const event = normalizeValidEvent(raw, eventKind(raw) as EventKind);
  const limits = limitProblems(event);
  if (limits.length > 0) return { ok: false, problems: limits };
  return { ok: true, event };
}
