/**
 * The query catalogue: for every query file the service runs (cypher/<area>/<name>.cypher, except
 * schema/ and examples/, which have loaders and tests of their own), its parameters and the fields of
 * the rows it returns, declared once. `Db.query` / `Db.command`, the loader (cypher.ts) and the
 * repositories' runners take a `QueryName`, so a misspelt file, a missing or extra parameter, a
 * parameter of the wrong type or a row field the query does not return is a compile error.
 *
 * The declarations are values (field name → type marker) rather than bare types so that a test can
 * hold them against the files: test/store/catalogue.test.ts checks every file is declared, its
 * `$parameters` are exactly the declared ones and named in its header, and its RETURN columns are
 * exactly the declared row fields (asked of Neo4j with EXPLAIN).
 *
 * Row fields are typed as the repositories read them; projections the mappers parse
 * (src/store/mappers.ts) are `unknown`.
 */
import type { DateTime, Integer } from 'neo4j-driver';
import type {
  AliasNameRow,
  ColumnEdgeRow,
  CommitRow,
  DatasetEventRow,
  DatasetRow,
  InputRow,
  JobRow,
  NamespaceRow,
  OutputRow,
  ParentJobRow,
  ParentRunRow,
  RunRow,
  StoredEvent,
  VersionRow,
} from '../domain/ingest/rows.js';
import type { DatasetRef } from '../domain/openlineage/types.js';
import type { EntityRef, FieldRef } from '../domain/node-id.js';
import type { edgeWriteParams } from './ingest.js';
import type { NestedFieldsRow } from './migrations.js';

/**
 * A node of a blast-radius record (cypher/impact/blast-radius.cypher): namespace, name, state, endedAt,
 * elementId, predecessors' elementIds, tags (null when not asked for), the ownership facet's JSON text.
 */
export type BlastRadiusNode = [
  namespace: string,
  name: string,
  state: string | null,
  // ISO text from Cypher, epoch milliseconds from the lineage.blastRadius procedure.
  endedAt: string | Integer | number | null,
  // The node's elementId, or (lineage.blastRadius) a shorter key of it within the answer.
  eid: string,
  preds: string[],
  tags: string[] | null,
  owner: string | null,
];

/** A dataset's edge to or from a job of a lineage graph record (cypher/lineage/graph.cypher). */
export type GraphEdgeRow = [
  jobNamespace: string,
  jobName: string,
  firstSeenAt: number | null,
  lastSeenAt: number | null,
  lastRunId: string | null,
  lastRunState: string | null,
];

/**
 * A node of a lineage graph record (cypher/lineage/graph.cypher, "Returns"): whether it is a job, a dataset's
 * outgoing and incoming edges to the answer's jobs (none for a job: they are its datasets'), its values by
 * position, and what only some answers ask for. src/store/lineage/graph.ts (graphNodeProps) reads it.
 */
export type GraphRow = [
  isJob: boolean,
  out: GraphEdgeRow[],
  inEdges: GraphEdgeRow[],
  values: unknown[],
  facetStamps: unknown,
  properties: Record<string, unknown> | null,
  latestRun: unknown[] | null,
  version: Record<string, unknown> | null,
];

/** A node of a `fields=minimal` lineage record (cypher/lineage/graph-minimal.cypher, "Returns"). */
export type MinimalGraphRow = [
  isJob: boolean,
  namespace: string,
  name: string,
  latestRun: [id: string, state: string | null, startedAt: number | null, endedAt: number | null] | null,
  out: GraphEdgeRow[],
];

/** A declared parameter or row field: its TypeScript type, at compile time only. */
export interface Field<T> {
  readonly type?: (value: T) => T;
}
const field = <T>(): Field<T> => ({});

// biome-ignore lint/suspicious/noExplicitAny: a field of any declared type
type Fields = Record<string, Field<any>>;
/** The object type a field list declares. */
type TypeOf<F extends Fields> = { [K in keyof F]: F[K] extends Field<infer T> ? T : never };

export interface QueryDeclaration<P extends Fields = Fields, R extends Fields = Fields> {
  params: P;
  row: R;
}
const query = <P extends Fields, R extends Fields>(params: P, row: R): QueryDeclaration<P, R> => ({ params, row });

// Field types used below.
const str = field<string>();
const strOrNull = field<string | null>();
const bool = field<boolean>();
const integer = field<Integer>();
const dateTime = field<DateTime<number | Integer>>();
const dateTimeOrNull = field<DateTime<number | Integer> | null>();
/** A value the mappers parse (src/store/mappers.ts) or convert with toNative. */
const parsed = field<unknown>();
const list = field<unknown[]>();
const strings = field<string[]>();
const statsParams = { period: field<'DAY' | 'WEEK'>(), timezone: str, now: str };
/** Bucketed stats rows: bounds as driver DateTimes, counts as Integers (toMetric converts them). */
const statsRow = { startInterval: dateTime, endInterval: dateTime, count: integer };
const page = { offset: integer, limit: integer };
const ref = { namespace: str, name: str };
const dataset = { dataset: parsed };
const job = { job: parsed };
const none = {};
const blastRadiusParams = {
  startId: str,
  asOf: dateTime,
  windowStart: dateTime,
  pointInTime: bool,
  rows: integer,
  state: strOrNull,
  chunk: integer,
};
const blastRadiusRow = {
  isJob: bool,
  distance: integer,
  nodes: field<BlastRadiusNode[]>(),
  total: field<Integer | null>(),
  counts: field<[unknown, boolean, unknown, unknown][] | null>(),
};

export const catalogue = {
  'datasets/delete': query(ref, dataset),
  'datasets/field-tag': query({ ...ref, field: str, tag: str, now: str }, { fieldExists: bool, ...dataset }),
  'datasets/field-untag': query({ ...ref, field: str, tag: str }, { fieldExists: bool, ...dataset }),
  'datasets/get': query(ref, dataset),
  'datasets/list': query({ namespace: str, ...page }, { totalCount: integer, datasets: list }),
  'datasets/tag': query({ ...ref, tag: str, now: str }, dataset),
  'datasets/untag': query({ ...ref, tag: str }, dataset),
  'datasets/version': query({ ...ref, version: str }, { dataset: parsed, version: parsed, run: parsed }),
  'datasets/versions': query({ ...ref, ...page }, { totalCount: integer, dataset: parsed, versions: list }),

  'events/list-asc': query({ after: str, before: str, ...page }, { totalCount: integer, events: list }),
  'events/list-desc': query({ after: str, before: str, ...page }, { totalCount: integer, events: list }),
  'events/store': query({ events: field<StoredEvent[]>() }, none),

  'facets/property-keys': query({ facet: str, jobFacet: str }, { keys: strings }),

  'impact/blast-radius': query(blastRadiusParams, blastRadiusRow),
  // The same answer, walked, grouped and rendered by the lineage.blastRadius procedure (told the direction
  // and bound as parameters).
  'impact/blast-radius-procedure': query(
    { ...blastRadiusParams, rules: str, downstream: bool, maxRels: integer },
    blastRadiusRow,
  ),
  'impact/column-blast-radius': query(
    { startId: str, maxNodes: integer },
    {
      eid: str,
      namespace: str,
      dataset: str,
      field: str,
      deleted: bool,
      tags: strings,
      owner: parsed,
      inputs: field<Record<string, unknown>[]>(),
    },
  ),
  'impact/paths': query(
    { fromId: str, toId: str, asOf: dateTime, windowStart: dateTime },
    { nodes: field<[boolean, string, string][]>(), edges: field<Record<string, unknown>[]>() },
  ),
  'impact/schema-changes': query(
    { since: dateTime, namespace: strOrNull, asOf: dateTime, windowStart: dateTime, limit: integer },
    {
      namespace: str,
      name: str,
      version: str,
      previousVersion: str,
      changedAt: str,
      runId: strOrNull,
      fields: parsed,
      previousFields: parsed,
      downstreamJobs: integer,
      downstreamDatasets: integer,
      readers: field<Record<string, unknown>[]>(),
    },
  ),

  'ingest/alias-names': query({ names: field<AliasNameRow[]>() }, none),
  'ingest/alias-repair': query({ names: field<DatasetRef[]>() }, { events: strings }),
  'ingest/column-lineage': query({ edges: field<ColumnEdgeRow[]>() }, none),
  'ingest/dataset-event-versions': query({ datasets: field<DatasetEventRow[]>() }, none),
  'ingest/datasets-state': query({ datasets: field<DatasetRef[]>() }, { datasets: list }),
  'ingest/datasets-upsert': query({ datasets: field<DatasetRow[]>() }, none),
  'ingest/job-versions': query({ versions: field<VersionRow[]>() }, none),
  'ingest/jobs-state': query({ jobs: field<DatasetRef[]>() }, { jobs: list }),
  'ingest/jobs-upsert': query({ jobs: field<JobRow[]>() }, none),
  'ingest/lineage-edges': query({ edges: field<ReturnType<typeof edgeWriteParams>>() }, none),
  'ingest/namespaces': query({ namespaces: field<NamespaceRow[]>() }, none),
  'ingest/parent-jobs': query({ parents: field<ParentJobRow[]>() }, none),
  'ingest/parent-runs': query({ parents: field<ParentRunRow[]>() }, none),
  'ingest/run-inputs': query({ inputs: field<InputRow[]>() }, none),
  'ingest/run-outputs': query({ outputs: field<OutputRow[]>() }, none),
  'ingest/runs-prepare': query(
    { runs: field<{ id: string; externalId: string; eventTime: string }[]>() },
    { runs: list },
  ),
  'ingest/runs-upsert': query({ runs: field<RunRow[]>() }, none),
  'ingest/versions-commit': query({ commits: field<CommitRow[]>() }, none),

  'jobs/children': query({ ...ref, ...page }, { totalCount: integer, jobs: list }),
  'jobs/delete': query(ref, job),
  'jobs/get': query(ref, job),
  'jobs/list': query(
    { states: field<string[] | null>(), ...page, runsPerJob: integer },
    { namespaceExists: bool, totalCount: integer, jobs: list },
  ),
  'jobs/list-in-namespace': query(
    { namespace: str, states: field<string[] | null>(), ...page, runsPerJob: integer },
    { namespaceExists: bool, totalCount: integer, jobs: list },
  ),
  'jobs/runs': query({ ...ref, ...page }, { totalCount: integer, runs: list }),
  'jobs/tag': query({ ...ref, tag: str, now: str }, job),
  'jobs/untag': query({ ...ref, tag: str }, job),
  'jobs/version': query({ ...ref, version: str }, { job: parsed, version: parsed, latestRun: parsed }),
  'jobs/versions': query({ ...ref, ...page }, { totalCount: integer, job: parsed, versions: list }),

  'lineage/alias-primaries': query(
    { datasets: field<EntityRef[]>() },
    { namespace: str, name: str, primaryNamespace: str, primaryName: str },
  ),
  'lineage/column-declarations': query(
    { datasets: field<EntityRef[]>(), at: strOrNull, endOfTime: dateTime },
    {
      namespace: str,
      name: str,
      declaration: strOrNull,
      declarationFields: strOrNull,
      hasAny: bool,
      versionAt: strOrNull,
    },
  ),
  'lineage/column-graph': query(
    { startIds: strings, withDownstream: bool, maxNodes: integer },
    {
      eid: str,
      namespace: str,
      dataset: str,
      field: str,
      fieldType: strOrNull,
      datasetVersion: strOrNull,
      deleted: bool,
      inputs: field<Record<string, unknown>[]>(),
      outs: field<Record<string, unknown>[]>(),
    },
  ),
  'lineage/column-start': query(
    { eid: str, kind: field<'dataset' | 'job'>(), version: strOrNull },
    { found: bool, fieldIds: strings, fieldsJson: strOrNull, at: strOrNull },
  ),
  'lineage/graph': query(
    {
      startId: str,
      asOf: dateTime,
      windowStart: dateTime,
      pointInTime: bool,
      facets: bool,
      runDetails: bool,
      maxNodes: integer,
      chunk: integer,
    },
    { truncated: bool, at: integer, nodes: field<GraphRow[]>() },
  ),
  'lineage/graph-minimal': query(
    { startId: str, asOf: dateTime, windowStart: dateTime, pointInTime: bool, maxNodes: integer, chunk: integer },
    { at: integer, nodes: field<MinimalGraphRow[]>() },
  ),
  'lineage/resolve-dataset': query(
    { candidates: field<EntityRef[]>(), asOf: dateTime },
    { eid: str, namespace: str, name: str },
  ),
  'lineage/resolve-field': query(
    { candidates: field<FieldRef[]>() },
    { eid: str, namespace: str, dataset: str, field: str },
  ),
  'lineage/resolve-job': query(
    { candidates: field<EntityRef[]>(), asOf: dateTime },
    { eid: str, namespace: str, name: str },
  ),
  'lineage/run-upstream-step': query(
    { runIds: strings },
    {
      id: str,
      externalId: strOrNull,
      jobNamespace: strOrNull,
      jobName: strOrNull,
      jobVersion: strOrNull,
      startedAt: dateTimeOrNull,
      endedAt: dateTimeOrNull,
      state: strOrNull,
      inputs: parsed,
    },
  ),

  'migrations/applied': query({ name: str }, { applied: bool }),
  'migrations/edge-history-clear': query({ jobs: field<EntityRef[]>() }, none),
  'migrations/edge-history-runs': query(
    { afterNamespace: strOrNull, afterName: strOrNull, limit: integer },
    { ...ref, runs: parsed, declared: parsed },
  ),
  'migrations/fold-bookkeeping': query({ after: str, limit: integer }, { last: strOrNull }),
  'migrations/latest-run-end': query({ limit: integer }, { jobs: integer }),
  'migrations/latest-run-parents': query({ after: str, limit: integer }, { last: strOrNull, runs: integer }),
  'migrations/dataset-wide-column-lineage': query(
    { after: str, limit: integer },
    { last: strOrNull, events: field<[payload: string, receivedAt: string][]>() },
  ),
  'migrations/deleted-label': query({ limit: integer }, { nodes: integer }),
  'migrations/column-lineage-count': query({ limit: integer }, { datasets: integer }),
  'migrations/job-version-links': query({ limit: integer }, { versions: integer }),
  'migrations/simple-names': query({ limit: integer }, { jobs: integer }),
  'migrations/placeholder-last-modified': query({ limit: integer }, { datasets: integer }),
  'migrations/nested-fields-read': query(
    { afterNamespace: strOrNull, afterName: strOrNull, limit: integer },
    { ...ref, fields: strOrNull, versionFields: strings },
  ),
  'migrations/nested-fields': query({ datasets: field<NestedFieldsRow[]>() }, none),
  'migrations/new-database': query(none, { empty: bool }),
  'migrations/record': query({ name: str, now: str }, none),

  'namespaces/delete': query({ name: str, now: str }, { namespace: parsed }),
  'namespaces/ensure-default': query({ now: str }, none),
  'namespaces/get': query({ name: str }, { namespace: parsed }),
  'namespaces/list': query(page, { totalCount: integer, namespaces: list }),
  'namespaces/upsert': query({ name: str, ownerName: str, description: strOrNull, now: str }, { namespace: parsed }),

  'runs/get': query({ id: str }, { run: parsed }),

  'search/search': query(
    {
      q: str,
      filter: field<'all' | 'dataset' | 'job'>(),
      namespace: strOrNull,
      after: strOrNull,
      before: strOrNull,
      sort: field<string>(),
      ...page,
    },
    { totalCount: integer, results: list },
  ),

  'sources/get': query({ name: str }, { source: parsed }),
  'sources/list': query(page, { totalCount: integer, sources: list }),
  'sources/upsert': query(
    { name: str, type: strOrNull, connectionUrl: strOrNull, description: strOrNull, now: str },
    { source: parsed },
  ),

  'stats/datasets': query(statsParams, statsRow),
  'stats/jobs': query(statsParams, statsRow),
  'stats/lineage-events': query(statsParams, {
    startInterval: dateTime,
    endInterval: dateTime,
    start: integer,
    running: integer,
    complete: integer,
    fail: integer,
    abort: integer,
    other: integer,
  }),
  'stats/sources': query(statsParams, statsRow),

  'tags/list': query(page, { totalCount: integer, tags: list }),
  'tags/upsert': query({ name: str, description: strOrNull, now: str }, { tag: parsed }),

  'warm-up/others-running': query({ database: str, ignoredOps: strings }, { running: integer }),
} satisfies Record<string, QueryDeclaration>;

type Catalogue = typeof catalogue;

/** A query file the service runs: cypher/<QueryName>.cypher. */
export type QueryName = keyof Catalogue;
/** The parameters cypher/<K>.cypher takes, every one of them. */
export type ParamsOf<K extends QueryName> = TypeOf<Catalogue[K]['params']>;
/** The fields of a row cypher/<K>.cypher returns. */
export type RowOf<K extends QueryName> = TypeOf<Catalogue[K]['row']>;

/** `name` as a QueryName, for names found at run time (a folder listing); throws when it is not declared. */
export function queryName(name: string): QueryName {
  if (!Object.hasOwn(catalogue, name))
    throw new Error(`cypher/${name}.cypher is not declared in src/store/catalogue.ts`);
  return name as QueryName;
}
