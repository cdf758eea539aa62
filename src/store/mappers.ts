/**
 * Record → API JSON for datasets, dataset versions, jobs, job versions and runs. Queries return
 * plain map projections (documented per function); these functions turn them into the API shapes
 * of src/api/types.ts: ISO times with a trailing Z, null rather than missing, facets as objects.
 */
import type {
  Dataset,
  DatasetField,
  DatasetVersion,
  EntityId,
  Job,
  JobVersion,
  Run,
  SearchResult,
  Source,
  Tag,
  VersionRef,
} from '../api/types.js';
import { FACET_PREFIX, facetsFromProps } from '../domain/facets.js';
import { parseStamps, wins, type Stamp } from '../domain/facet-stamps.js';
import {
  columnLineage as columnLineageEntries,
  pathOwners,
  schemaFields,
  topLevelColumns,
} from '../domain/openlineage/normalize.js';
import { toNative } from './db.js';
import { iso } from './time.js';
import { compareText } from '../domain/compare.js';

type Props = Record<string, unknown>;

/** The source of datasets whose producers named none (listed by /sources: cypher/sources/list.cypher). */
export const DEFAULT_SOURCE = 'default';

function json<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const refOrder = (a: EntityId, b: EntityId) => compareText(a.namespace, b.namespace) || compareText(a.name, b.name);
const refs = (pairs: unknown): EntityId[] =>
  ((pairs as [string, string][] | null) ?? []).map(([namespace, name]) => ({ namespace, name })).sort(refOrder);

/**
 * Run projection: `r {.*, reads: [(r)-[:READ]->(v) | <version ref>], wrote: [(r)-[:WROTE]->(v) | <version ref>]}`
 * (the run's properties, and the dataset versions it read and wrote). A version ref is either
 * `v {.*}` or, cheaper (no `fields` JSON read), `v {.id, .namespace, .name, facets: [k IN keys(v) WHERE
 * k STARTS WITH 'facet.' | [k, v[k]]]}`.
 */
export function toRun(raw: unknown): Run | null {
  if (!raw) return null;
  const r = toNative(raw) as Props;
  const versions = (list: unknown) =>
    ((list as Props[] | null) ?? [])
      .map((v) => ({
        ref: { namespace: v.namespace as string, name: v.name as string, version: v.id as string },
        facets: facetsFromProps(Array.isArray(v.facets) ? Object.fromEntries(v.facets as [string, unknown][]) : v),
      }))
      .sort((a, b) => refOrder(a.ref, b.ref));
  const reads = versions(r.reads);
  const wrote = versions(r.wrote);
  const startedAt = iso(r.startedAt);
  const endedAt = iso(r.endedAt);
  const jobFacets = facetsFromProps(r, 'jobFacet.');
  const sql = (jobFacets.sql as { query?: unknown } | undefined)?.query;
  const location = (jobFacets.sourceCodeLocation as { url?: unknown } | undefined)?.url;
  return {
    id: r.id as string,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    nominalStartTime: iso(r.nominalStartTime),
    nominalEndTime: iso(r.nominalEndTime),
    state: (r.state as Run['state'] | undefined) ?? 'NEW',
    startedAt,
    endedAt,
    durationMs: startedAt && endedAt ? Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)) : null,
    args: {},
    jobVersion: r.jobVersion
      ? { namespace: r.jobNamespace as string, name: r.jobName as string, version: r.jobVersion as string }
      : null,
    inputVersions: reads.map((v) => v.ref),
    outputVersions: wrote.map((v) => v.ref),
    inputDatasetVersions: reads.map((v) => ({ datasetVersionId: v.ref, facets: v.facets })),
    outputDatasetVersions: wrote.map((v) => ({ datasetVersionId: v.ref, facets: v.facets })),
    context: typeof sql === 'string' ? { sql } : {},
    location: typeof location === 'string' ? location : null,
    facets: facetsFromProps(r),
  };
}

/** A stored column as the API shows it when none of its dataset's columns is tagged (most datasets). */
function untagged(f: Props): DatasetField {
  return {
    name: f.name as string,
    type: (f.type as string | null) ?? null,
    description: (f.description as string | null) ?? null,
    tags: [],
    ...(Array.isArray(f.fields) ? { fields: (f.fields as Props[]).map(untagged) } : {}),
  };
}

/**
 * A `fields` JSON with each column's tags. Tags are kept per column name, a nested column's being its
 * dotted path (`addr.city`); a path two columns spell goes to the one that owns it (normalize.ts,
 * `pathOwners`: a top-level column literally named `a.b` before `b` inside `a`).
 */
function fieldsWithTags(fieldsJson: unknown, fieldTags: unknown): DatasetField[] {
  const tagsOf = new Map<string, string[]>();
  for (const [field, tag] of (fieldTags as [string, string][] | null) ?? [])
    tagsOf.set(field, [...(tagsOf.get(field) ?? []), tag].sort());
  const fields = json<Props[]>(fieldsJson, []);
  if (tagsOf.size === 0) return fields.map(untagged);
  const owners = pathOwners(schemaFields(fields));
  const withTags = (f: Props, parent: string[]): DatasetField => {
    const segments = [...parent, f.name as string];
    const path = segments.join('.');
    return {
      name: f.name as string,
      type: (f.type as string | null) ?? null,
      description: (f.description as string | null) ?? null,
      tags: (owners.get(path) === JSON.stringify(segments) && tagsOf.get(path)) || [],
      ...(Array.isArray(f.fields) ? { fields: (f.fields as Props[]).map((c) => withTags(c, segments)) } : {}),
    };
  };
  return fields.map((f) => withTags(f, []));
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * A `columnLineage` facet as Marquez's `Dataset.columnLineage`: one entry per output column with its input
 * columns as `{namespace, dataset, field, transformationDescription, transformationType}`, null when the
 * dataset has no such facet. Entries and inputs are read as column lineage reads them (normalize.ts: both
 * forms of the facet, dataset-wide inputs under every output column: those the facet names, and the
 * top-level columns of `fieldsJson`, the dataset's schema). An input's transformation is its
 * first one, as GET /column-lineage reports it; ColumnLineage 1-0-x's one transformation per output column
 * is its every input's, as Marquez copies it. Marquez's output column carries its first input's.
 */
function marquezColumnLineage(facet: unknown, fieldsJson: unknown): Dataset['columnLineage'] {
  if (!facet || typeof facet !== 'object' || !(facet as Props).fields || typeof (facet as Props).fields !== 'object')
    return null;
  const columns = topLevelColumns(schemaFields(json<Props[]>(fieldsJson, [])));
  return columnLineageEntries(facet as Props, columns).map((entry) => {
    const inputFields = entry.inputFields.map((i) => ({
      namespace: i.namespace,
      dataset: i.name,
      field: i.field,
      transformationDescription: text(i.transformations[0]?.description),
      transformationType: text(i.transformations[0]?.type),
    }));
    return {
      name: entry.field,
      inputFields,
      transformationDescription: inputFields[0]?.transformationDescription ?? null,
      transformationType: inputFields[0]?.transformationType ?? null,
    };
  });
}

/**
 * Per facet name, the value reported last among `holders` (property maps with `facet.*` JSON and their
 * `facetStamps`), by src/domain/facet-stamps.ts's rule; a facet without a stamp counts only where no other has it.
 */
function latestFacets(holders: Props[]): Map<string, { stamp: Stamp | undefined; value: unknown }> {
  const best = new Map<string, { stamp: Stamp | undefined; value: unknown }>();
  for (const holder of holders) {
    const stamps = parseStamps(holder.facetStamps as string[] | undefined);
    for (const [key, value] of Object.entries(facetsFromProps(holder))) {
      const stamp = stamps.get(FACET_PREFIX + key);
      const cur = best.get(key);
      if (!cur || (stamp && wins(stamp, cur.stamp))) best.set(key, { stamp, value });
    }
  }
  return best;
}

const byName = (entries: [string, unknown][]) => Object.fromEntries(entries.sort(([a], [b]) => compareText(a, b)));

/**
 * A dataset's facets and, as Marquez shows them, the facets that readers of its current version reported and the
 * dataset does not hold (input facets: `dataQualityMetrics`, `dataQualityAssertions`), per facet the one reported
 * last. The dataset's own stamps come first: a facet it deleted later than a reader reported it stays deleted.
 */
function withReadersFacets(own: Record<string, unknown>, d: Props): Record<string, unknown> {
  const reads = (d.readFacets as { stamps: string[]; facets: [string, unknown][] }[] | undefined) ?? [];
  if (reads.length === 0) return own;
  const ownStamps = parseStamps(d.facetStamps as string[] | undefined);
  const added = [
    ...latestFacets(reads.map((r) => ({ ...Object.fromEntries(r.facets), facetStamps: r.stamps }))).entries(),
  ].filter(([name, { stamp }]) => {
    const ownStamp = ownStamps.get(FACET_PREFIX + name);
    return !Object.hasOwn(own, name) && !(ownStamp && !(stamp && wins(stamp, ownStamp)));
  });
  return byName([...Object.entries(own), ...added.map(([name, { value }]): [string, unknown] => [name, value])]);
}

/**
 * Dataset projection: `d {.*, tags: [name], fieldTags: [[field, tag]], readFacets?: [{stamps, facets: [[key,
 * JSON]]}]}` (readFacets: see datasets/list.cypher).
 */
export function toDataset(raw: unknown): Dataset {
  const d = toNative(raw) as Props;
  const facets = withReadersFacets(facetsFromProps(d), d);
  return {
    id: { namespace: d.namespace as string, name: d.name as string },
    type: (d.type as string) ?? 'DB_TABLE',
    name: d.name as string,
    physicalName: (d.physicalName as string) ?? (d.name as string),
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
    namespace: d.namespace as string,
    // As Marquez: a dataset whose producers named no dataSource comes from the `default` source.
    sourceName: (d.sourceName as string | undefined) ?? DEFAULT_SOURCE,
    fields: fieldsWithTags(d.fields, d.fieldTags),
    tags: [...((d.tags as string[] | null) ?? [])].sort(),
    lastModifiedAt: iso(d.lastModifiedAt),
    lastLifecycleState: (d.lastLifecycleState as string | undefined) ?? null,
    description: (d.description as string | undefined) ?? null,
    currentVersion: (d.currentVersion as string | undefined) ?? null,
    columnLineage: marquezColumnLineage(facets.columnLineage, d.fields),
    facets,
    deleted: Boolean(d.isDeleted),
  };
}

/**
 * A version's facets: its writer's (the version's own properties) and those its readers attached to
 * the READs of it, per facet the one reported last (src/domain/facet-stamps.ts).
 */
function versionFacets(v: Props): Record<string, unknown> {
  // readFacets: per facet, the latest [stamp, JSON] among the READs (datasets/version.cypher).
  const readers = ((v.readFacets as [string, string][] | undefined) ?? []).map(
    ([stamp, json]): Props => ({ facetStamps: [stamp], [stamp.slice(0, stamp.indexOf(' '))]: json }),
  );
  return byName([...latestFacets([v, ...readers])].map(([key, { value }]): [string, unknown] => [key, value]));
}

/**
 * Dataset version projection: `{dataset: <dataset projection>, version: v {.*, readFacets}, run: <run projection> |
 * null}`.
 */
export function toDatasetVersion(row: { dataset: unknown; version: unknown; run: unknown }): DatasetVersion {
  const d = toDataset(row.dataset);
  const v = toNative(row.version) as Props;
  const facets = versionFacets(v);
  // A version nobody reported a schema for as its writer (a placeholder for reads) shows the schema its readers
  // reported.
  const readSchema = (facets.schema as { fields?: unknown } | undefined)?.fields;
  const fieldsJson = v.fields ?? (Array.isArray(readSchema) ? JSON.stringify(schemaFields(readSchema)) : null);
  return {
    id: d.id,
    type: d.type,
    name: d.name,
    physicalName: d.physicalName,
    createdAt: iso(v.createdAt)!,
    namespace: d.namespace,
    sourceName: d.sourceName,
    fields: fieldsWithTags(fieldsJson, (toNative(row.dataset) as Props).fieldTags),
    tags: d.tags,
    lastLifecycleState: (v.lifecycleState as string | undefined) ?? null,
    lifecycleState: (v.lifecycleState as string | undefined) ?? null,
    description: d.description,
    columnLineage: d.columnLineage,
    version: v.id as string,
    createdByRun: toRun(row.run),
    facets,
  };
}

/**
 * Job projection: `j {.*, inputs: [[ns, name]], outputs: [[ns, name]], tags: [name], latestRun: <run projection> |
 * null, latestRuns?: [<run projection>]}`. Without `latestRuns` (tag, delete, children, lineage nodes) the
 * latest run stands alone.
 */
export function toJob(raw: unknown): Job {
  const j = toNative(raw) as Props;
  const latestRun = toRun(j.latestRun);
  const latestRuns = Array.isArray(j.latestRuns)
    ? (j.latestRuns as unknown[]).map((r) => toRun(r)!)
    : latestRun
      ? [latestRun]
      : [];
  return {
    id: { namespace: j.namespace as string, name: j.name as string },
    type: (j.type as string) ?? 'BATCH',
    name: j.name as string,
    simpleName: (j.simpleName as string) ?? (j.name as string),
    parentJobName: (j.parentJobName as string | undefined) ?? null,
    parentJobNamespace: (j.parentJobNamespace as string | undefined) ?? null,
    createdAt: iso(j.createdAt)!,
    updatedAt: iso(j.updatedAt)!,
    namespace: j.namespace as string,
    inputs: refs(j.inputs),
    outputs: refs(j.outputs),
    location: (j.location as string | undefined) ?? null,
    context: json<Record<string, unknown>>(j.context, {}),
    description: (j.description as string | undefined) ?? null,
    latestRun,
    latestRuns,
    currentVersion: (j.currentVersion as string | undefined) ?? null,
    // As Marquez: the jobType facet's jobType, then its integration.
    labels: [j.jobKind, j.integration].filter((x): x is string => typeof x === 'string'),
    tags: [...((j.tags as string[] | null) ?? [])].sort(),
    facets: facetsFromProps(j),
  };
}

/**
 * Job version projection: `{job: <job projection>, version: v {.*, inputs, outputs}, latestRun: <run projection> |
 * null}`.
 */
export function toJobVersion(row: { job: unknown; version: unknown; latestRun: unknown }): JobVersion {
  const job = toJob(row.job);
  const v = toNative(row.version) as Props;
  const { currentVersion: _c, latestRuns: _l, ...rest } = job;
  return {
    ...rest,
    // Marquez's job version id names the version too.
    id: { ...rest.id, version: v.id as string },
    createdAt: iso(v.createdAt)!,
    updatedAt: iso(v.updatedAt)!,
    inputs: refs(v.inputs),
    outputs: refs(v.outputs),
    location: (v.location as string | undefined) ?? null,
    context: json<Record<string, unknown>>(v.context, {}),
    latestRun: toRun(row.latestRun),
    version: v.id as string,
  };
}

export type { VersionRef };

/** Source projection: `s {.*}`. */
export function toSource(raw: unknown): Source {
  const s = toNative(raw) as Props;
  return {
    type: (s.type as string | undefined) ?? null,
    name: s.name as string,
    createdAt: iso(s.createdAt)!,
    updatedAt: iso(s.updatedAt)!,
    connectionUrl: (s.connectionUrl as string | undefined) ?? null,
    description: (s.description as string | undefined) ?? null,
  };
}

/** Tag projection: `t {.*}`. */
export function toTag(raw: unknown): Tag {
  const t = toNative(raw) as Props;
  return { name: t.name as string, description: (t.description as string | undefined) ?? null };
}

/** Search row: `{type: 'DATASET' | 'JOB', namespace, name, updatedAt}`. */
export function toSearchResult(raw: unknown): SearchResult {
  const r = toNative(raw) as Props;
  const type = r.type as SearchResult['type'];
  return {
    type,
    name: r.name as string,
    updatedAt: iso(r.updatedAt)!,
    namespace: r.namespace as string,
    nodeId: `${type === 'JOB' ? 'job' : 'dataset'}:${r.namespace as string}:${r.name as string}`,
  };
}

/** A stored event's `payload` (JSON text) back as the object that was received. */
export function toLineageEvent(payload: unknown): Record<string, unknown> {
  return json<Record<string, unknown>>(payload, {});
}

/** Stats row: `{startInterval, endInterval, ...counts}` (counts as integers). */
export function toMetric<T>(raw: Record<string, unknown>): T {
  const r = toNative(raw) as Props;
  const out: Props = {};
  for (const [k, v] of Object.entries(r)) out[k] = k === 'startInterval' || k === 'endInterval' ? iso(v) : v;
  return out as T;
}

/**
 * A lineage node's data without `include` (src/domain/lineage/graph-nodes.ts, nodeData): the same JSON as
 * `nodeData(toJob(raw) | toDataset(raw), isJob, none)`, built from the lean projection of
 * cypher/lineage/graph.cypher without the full API object on the way (its facets, run versions and column
 * lineage, which that data leaves out): a deep answer maps thousands of nodes, and the service's time per
 * node is on the answer's critical path. test/store/mappers.test.ts checks both agree.
 */
export function lineageNodeData(raw: Props, isJob: boolean): Record<string, unknown> {
  const n = raw;
  const id = { namespace: n.namespace as string, name: n.name as string };
  if (!isJob) {
    return {
      id,
      type: (n.type as string | undefined) ?? 'DB_TABLE',
      name: n.name,
      physicalName: (n.physicalName as string | undefined) ?? n.name,
      createdAt: iso(n.createdAt),
      updatedAt: iso(n.updatedAt),
      namespace: n.namespace,
      sourceName: (n.sourceName as string | undefined) ?? DEFAULT_SOURCE,
      fields: fieldsWithTags(n.fields, n.fieldTags),
      tags: [...((n.tags as string[] | null) ?? [])].sort(),
      lastModifiedAt: iso(n.lastModifiedAt),
      description: (n.description as string | undefined) ?? null,
      lastLifecycleState: (n.lastLifecycleState as string | undefined) ?? null,
      currentVersion: (n.currentVersion as string | undefined) ?? null,
    };
  }
  return {
    id,
    type: (n.type as string | undefined) ?? 'BATCH',
    name: n.name,
    simpleName: (n.simpleName as string | undefined) ?? n.name,
    parentJobName: (n.parentJobName as string | undefined) ?? null,
    createdAt: iso(n.createdAt),
    updatedAt: iso(n.updatedAt),
    namespace: n.namespace,
    inputs: refs(n.inputs),
    outputs: refs(n.outputs),
    location: (n.location as string | undefined) ?? null,
    description: (n.description as string | undefined) ?? null,
    latestRun: lineageRunData(n.latestRun as Props | null | undefined),
    currentVersion: (n.currentVersion as string | undefined) ?? null,
    labels: [n.jobKind, n.integration].filter((x): x is string => typeof x === 'string'),
    tags: [...((n.tags as string[] | null) ?? [])].sort(),
  };
}

/** A lineage node's latest run without `include`: toRun's fields that graph-nodes.ts's RUN_FIELDS keep. */
function lineageRunData(r: Props | null | undefined): Record<string, unknown> | null {
  if (!r) return null;
  const startedAt = iso(r.startedAt);
  const endedAt = iso(r.endedAt);
  const location = (json<Props | null>(r['jobFacet.sourceCodeLocation'], null) as { url?: unknown } | null)?.url;
  return {
    id: r.id ?? null,
    location: typeof location === 'string' ? location : null,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    nominalStartTime: iso(r.nominalStartTime),
    nominalEndTime: iso(r.nominalEndTime),
    state: (r.state as string | undefined) ?? 'NEW',
    startedAt,
    endedAt,
    durationMs: startedAt && endedAt ? Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)) : null,
    jobVersion: r.jobVersion
      ? { namespace: r.jobNamespace as string, name: r.jobName as string, version: r.jobVersion as string }
      : null,
  };
}
