/**
 * The API's shapes, declared once as JSON Schema (TypeBox). Each schema is used three ways: the
 * TypeScript type of the shape (src/api/types.ts: `Static<typeof X>`, shared by handlers, the web UI
 * and tests), the OpenAPI document's `components.schemas` (src/http/openapi.ts), and the tests, which
 * validate every response they receive against the document (test/helper.ts).
 *
 * Objects are declared without `additionalProperties: false`, so clients may tolerate new fields; the
 * tests check closed shapes (every field the service sends is declared here).
 */
import { Type, type TArray, type TInteger, type TSchema } from '@sinclair/typebox';

/** A value or null (absent values are null in this API, never missing). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** ISO 8601 UTC time with milliseconds and a trailing Z. */
export const Iso = Type.String({ format: 'date-time', examples: ['2024-06-01T10:00:00.000Z'] });

const OpenObject = Type.Record(Type.String(), Type.Unknown());
/** Facet name → facet object as the producer sent it. */
export const Facets = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Facet name → facet object, as sent by the producer',
});

export const EntityId = Type.Object({ namespace: Type.String(), name: Type.String() }, { $id: 'EntityId' });
export const VersionRef = Type.Object(
  { namespace: Type.String(), name: Type.String(), version: Type.String({ format: 'uuid' }) },
  { $id: 'VersionRef' },
);

export interface DatasetFieldShape {
  name: string;
  type: string | null;
  description: string | null;
  tags: string[];
  fields?: DatasetFieldShape[];
}
/** A column; `fields` (nested columns of a struct) only when the producer sent some. */
export const DatasetField = Type.Recursive(
  (Self) =>
    Type.Object({
      name: Type.String(),
      type: Nullable(Type.String()),
      description: Nullable(Type.String()),
      tags: Type.Array(Type.String()),
      fields: Type.Optional(Type.Array(Self)),
    }),
  { $id: 'DatasetField' },
);

const DatasetVersionUse = Type.Object({ datasetVersionId: VersionRef, facets: Facets });

export const Run = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    createdAt: Nullable(Iso),
    updatedAt: Nullable(Iso),
    nominalStartTime: Nullable(Iso),
    nominalEndTime: Nullable(Iso),
    state: Type.Union([
      Type.Literal('NEW'),
      Type.Literal('RUNNING'),
      Type.Literal('COMPLETED'),
      Type.Literal('FAILED'),
      Type.Literal('ABORTED'),
    ]),
    startedAt: Nullable(Iso),
    endedAt: Nullable(Iso),
    durationMs: Nullable(Type.Integer({ minimum: 0 })),
    args: OpenObject,
    jobVersion: Nullable(VersionRef),
    inputVersions: Type.Array(VersionRef),
    outputVersions: Type.Array(VersionRef),
    inputDatasetVersions: Type.Array(DatasetVersionUse),
    outputDatasetVersions: Type.Array(DatasetVersionUse),
    context: OpenObject,
    location: Nullable(Type.String()),
    facets: Facets,
  },
  { $id: 'Run' },
);

/** An input column of a dataset's column lineage, as Marquez's ColumnLineageInputField. */
export const ColumnLineageInputField = Type.Object(
  {
    namespace: Type.String(),
    dataset: Type.String(),
    field: Type.String(),
    transformationDescription: Nullable(Type.String({ description: "Its first transformation's description" })),
    transformationType: Nullable(Type.String({ description: "Its first transformation's type" })),
  },
  { $id: 'ColumnLineageInputField' },
);
/** An output column of a dataset and the input columns it derives from, as Marquez's ColumnLineage. */
export const ColumnLineage = Type.Object(
  {
    name: Type.String({ description: 'The output column' }),
    inputFields: Type.Array(ColumnLineageInputField),
    transformationDescription: Nullable(Type.String({ description: "Its first input column's" })),
    transformationType: Nullable(Type.String({ description: "Its first input column's" })),
  },
  { $id: 'ColumnLineage' },
);

const datasetProperties = {
  id: EntityId,
  type: Type.String({ examples: ['DB_TABLE'] }),
  name: Type.String(),
  physicalName: Type.String(),
  createdAt: Iso,
  updatedAt: Iso,
  namespace: Type.String(),
  sourceName: Type.String({
    description: "The dataSource facet's name; `default` when the dataset names none (as Marquez)",
  }),
  fields: Type.Array(DatasetField),
  tags: Type.Array(Type.String()),
  lastModifiedAt: Nullable(Iso),
  lastLifecycleState: Nullable(Type.String()),
  description: Nullable(Type.String()),
  currentVersion: Nullable(Type.String({ format: 'uuid' })),
  columnLineage: Nullable(
    Type.Array(ColumnLineage, {
      description: 'From the columnLineage facet (null: none); the facet itself, as sent, is in `facets`',
    }),
  ),
  facets: Facets,
  deleted: Type.Boolean(),
};
export const Dataset = Type.Object(datasetProperties, { $id: 'Dataset' });

const { updatedAt: _u, currentVersion: _c, deleted: _d, lastModifiedAt: _l, ...versionBase } = datasetProperties;
export const DatasetVersion = Type.Object(
  {
    ...versionBase,
    version: Type.String({ format: 'uuid' }),
    lifecycleState: Nullable(Type.String()),
    createdByRun: Nullable(Run),
  },
  { $id: 'DatasetVersion' },
);

const jobProperties = {
  id: EntityId,
  type: Type.String({ examples: ['BATCH'] }),
  name: Type.String(),
  simpleName: Type.String(),
  parentJobName: Nullable(Type.String()),
  parentJobNamespace: Nullable(
    Type.String({ description: "The parent job's namespace (an addition: Marquez names the parent by name only)" }),
  ),
  createdAt: Iso,
  updatedAt: Iso,
  namespace: Type.String(),
  inputs: Type.Array(EntityId),
  outputs: Type.Array(EntityId),
  location: Nullable(Type.String()),
  context: OpenObject,
  description: Nullable(Type.String()),
  latestRun: Nullable(Run),
  latestRuns: Type.Array(Run),
  currentVersion: Nullable(Type.String({ format: 'uuid' })),
  labels: Type.Array(Type.String(), {
    description: "The jobType facet's `jobType` then its `integration` (e.g. `['TASK', 'AIRFLOW']`), as Marquez",
  }),
  tags: Type.Array(Type.String()),
  facets: Facets,
};
export const Job = Type.Object(jobProperties, { $id: 'Job' });

const { currentVersion: _jc, latestRuns: _jl, id: _jid, ...jobVersionBase } = jobProperties;
/** A job version; its `id` names the version too, as Marquez's does. */
export const JobVersion = Type.Object(
  { id: VersionRef, ...jobVersionBase, version: Type.String({ format: 'uuid' }) },
  { $id: 'JobVersion' },
);

export const Namespace = Type.Object(
  {
    name: Type.String(),
    createdAt: Iso,
    updatedAt: Iso,
    ownerName: Type.String(),
    description: Nullable(Type.String()),
    isHidden: Type.Boolean(),
  },
  { $id: 'Namespace' },
);

export const Source = Type.Object(
  {
    type: Nullable(Type.String()),
    name: Type.String(),
    createdAt: Iso,
    updatedAt: Iso,
    connectionUrl: Nullable(Type.String()),
    description: Nullable(Type.String()),
  },
  { $id: 'Source' },
);

export const Tag = Type.Object({ name: Type.String(), description: Nullable(Type.String()) }, { $id: 'Tag' });

export const SearchResult = Type.Object(
  {
    type: Type.Union([Type.Literal('DATASET'), Type.Literal('JOB')]),
    name: Type.String(),
    updatedAt: Iso,
    namespace: Type.String(),
    nodeId: Type.String({
      description: 'The lineage node id: `dataset:<namespace>:<name>` or `job:<namespace>:<name>`',
    }),
  },
  { $id: 'SearchResult' },
);

export const LineageMetric = Type.Object(
  {
    startInterval: Iso,
    endInterval: Iso,
    start: Type.Integer(),
    running: Type.Integer(),
    complete: Type.Integer(),
    fail: Type.Integer(),
    abort: Type.Integer(),
    other: Type.Integer(),
  },
  { $id: 'LineageMetric', description: 'Lineage events per time bucket, by event type' },
);
export const IntervalMetric = Type.Object(
  { startInterval: Iso, endInterval: Iso, count: Type.Integer() },
  { $id: 'IntervalMetric', description: 'A cumulative count at the end of a time bucket' },
);

/** A list envelope: `{<key>: [...], totalCount}`, the total matching the same filter. */
function list<K extends string, T extends TSchema>(key: K, item: T, id: string) {
  const properties = { [key]: Type.Array(item), totalCount: Type.Integer({ minimum: 0 }) } as {
    [P in K]: TArray<T>;
  } & { totalCount: TInteger };
  return Type.Object(properties, { $id: id });
}
export const NamespaceList = list('namespaces', Namespace, 'NamespaceList');
export const SourceList = list('sources', Source, 'SourceList');
export const DatasetList = list('datasets', Dataset, 'DatasetList');
export const DatasetVersionList = list('versions', DatasetVersion, 'DatasetVersionList');
export const JobList = list('jobs', Job, 'JobList');
export const JobVersionList = list('versions', JobVersion, 'JobVersionList');
export const RunList = list('runs', Run, 'RunList');
export const TagList = list('tags', Tag, 'TagList');
export const SearchResults = Type.Object(
  { totalCount: Type.Integer({ minimum: 0 }), results: Type.Array(SearchResult) },
  { $id: 'SearchResults' },
);
export const LineageEventList = Type.Object(
  {
    events: Type.Array(OpenObject, { description: 'The stored raw OpenLineage events, as received' }),
    totalCount: Type.Integer({ minimum: 0 }),
  },
  { $id: 'LineageEventList' },
);
export const RunFacets = Type.Object({ runId: Type.String({ format: 'uuid' }), facets: Facets }, { $id: 'RunFacets' });

// ---- lineage (docs/lineage.md) ----

export const LineageEdge = Type.Object(
  {
    origin: Type.String(),
    destination: Type.String(),
    firstSeenAt: Type.Optional(Nullable(Iso)),
    lastSeenAt: Type.Optional(Nullable(Iso)),
    lastRunId: Type.Optional(Nullable(Type.String())),
    lastRunState: Type.Optional(Nullable(Type.String())),
  },
  {
    $id: 'LineageEdge',
    description: 'Dataset-level edges carry when they were first and last observed (up to asOf), and by which run',
  },
);

export const LineageNode = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.Literal('JOB'), Type.Literal('DATASET'), Type.Literal('DATASET_FIELD')]),
    data: OpenObject,
    inEdges: Type.Array(LineageEdge),
    outEdges: Type.Array(LineageEdge),
  },
  { $id: 'LineageNode' },
);

export const LineageGraph = Type.Object(
  {
    graph: Type.Array(LineageNode),
    truncated: Type.Boolean({ description: 'True when the result hit the node cap: the nearest nodes are kept' }),
  },
  { $id: 'LineageGraph' },
);

export const RunLineage = Type.Object(
  {
    runs: Type.Array(
      Type.Object({
        job: Type.Object({
          namespace: Nullable(Type.String()),
          name: Nullable(Type.String()),
          version: Nullable(Type.String()),
        }),
        run: Type.Object({
          id: Type.String(),
          start: Nullable(Iso),
          end: Nullable(Iso),
          status: Nullable(Type.String()),
        }),
        inputs: Type.Array(
          Type.Object({
            namespace: Type.String(),
            name: Type.String(),
            version: Type.String(),
            producedByRunId: Nullable(Type.String()),
          }),
        ),
      }),
    ),
  },
  { $id: 'RunLineage' },
);

// ---- impact (docs/impact.md) ----

const Counts = Type.Record(Type.String(), Type.Integer());
export const ImpactSummary = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    byDistance: Counts,
    byType: Counts,
    failedJobs: Type.Integer({ minimum: 0 }),
    jobs: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'ImpactSummary' },
);

export const ImpactNode = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.Literal('JOB'), Type.Literal('DATASET')]),
    namespace: Type.String(),
    name: Type.String(),
    distance: Type.Integer({
      minimum: 0,
      description: 'Relationships on a shortest directed path from the start (0: the start)',
    }),
    via: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    owners: Type.Array(Type.String()),
    latestRunState: Nullable(Type.String()),
    latestRunEndedAt: Nullable(Iso),
    path: Type.Optional(
      Type.Array(Type.String(), { description: 'Root cause only: the node ids from the start to this job' }),
    ),
  },
  { $id: 'ImpactNode' },
);

export const FieldImpactNode = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('DATASET_FIELD'),
    namespace: Type.String(),
    dataset: Type.String(),
    field: Type.String(),
    distance: Type.Integer({ minimum: 0 }),
    via: Nullable(Type.String()),
    viaJob: Nullable(Type.String()),
    viaJobState: Nullable(Type.String()),
    transformationTypes: Type.Array(Type.String()),
    tags: Type.Array(Type.String()),
    owners: Type.Array(Type.String()),
  },
  { $id: 'FieldImpactNode' },
);

const AnyImpactNode = Type.Union([ImpactNode, FieldImpactNode]);

export const BlastRadius = Type.Object(
  {
    start: AnyImpactNode,
    summary: ImpactSummary,
    direction: Type.String(),
    depth: Type.Integer(),
    asOf: Nullable(Iso),
    window: Nullable(Type.String()),
    state: Nullable(Type.String()),
    nodes: Type.Array(AnyImpactNode),
    total: Type.Integer({ minimum: 0 }),
    truncated: Type.Boolean(),
  },
  { $id: 'BlastRadius' },
);

const PathEdge = Type.Object({
  origin: Type.String(),
  destination: Type.String(),
  firstSeenAt: Type.Optional(Nullable(Iso)),
  lastSeenAt: Type.Optional(Nullable(Iso)),
  lastRunId: Type.Optional(Nullable(Type.String())),
  lastRunState: Type.Optional(Nullable(Type.String())),
});
export const LineagePaths = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    paths: Type.Array(
      Type.Object({
        length: Type.Integer({ minimum: 0 }),
        nodes: Type.Array(Type.String()),
        edges: Type.Array(PathEdge),
      }),
    ),
  },
  { $id: 'LineagePaths' },
);

const SchemaColumn = Type.Object({ name: Type.String(), type: Nullable(Type.String()) });
export const SchemaChanges = Type.Object(
  {
    since: Iso,
    namespace: Nullable(Type.String()),
    changes: Type.Array(
      Type.Object({
        dataset: Type.String(),
        namespace: Type.String(),
        name: Type.String(),
        version: Type.String(),
        previousVersion: Type.String(),
        changedAt: Iso,
        runId: Nullable(Type.String()),
        added: Type.Array(SchemaColumn),
        removed: Type.Array(SchemaColumn),
        retyped: Type.Array(
          Type.Object({ name: Type.String(), from: Nullable(Type.String()), to: Nullable(Type.String()) }),
        ),
        downstreamJobs: Type.Integer({ minimum: 0 }),
        downstreamDatasets: Type.Integer({ minimum: 0 }),
        affectedFields: Type.Array(
          Type.Object({
            field: Type.String(),
            reader: Type.String(),
            job: Nullable(Type.String()),
            transformationTypes: Type.Array(Type.String()),
          }),
        ),
      }),
    ),
    truncated: Type.Boolean(),
  },
  { $id: 'SchemaChanges' },
);

// ---- ingestion ----

export const BatchResult = Type.Object(
  {
    status: Type.Union([Type.Literal('success'), Type.Literal('partial_success'), Type.Literal('failure')]),
    summary: Type.Object({
      received: Type.Integer({ minimum: 0 }),
      successful: Type.Integer({ minimum: 0 }),
      failed: Type.Integer({ minimum: 0 }),
    }),
    failed_events: Type.Array(
      Type.Object({
        index: Type.Integer({ minimum: 0 }),
        reason: Type.String(),
        retriable: Type.Boolean({ description: 'true for 503s (overloaded, unavailable): send the event again later' }),
      }),
    ),
  },
  { $id: 'BatchResult' },
);

// ---- errors and operations ----

export const ErrorDetail = Type.Object(
  {
    path: Type.String({
      description: 'JSON pointer of the failing value within `in` (e.g. `/run/runId`, `/limit`); empty for the whole',
    }),
    message: Type.String(),
    in: Type.Optional(
      Type.Union([Type.Literal('body'), Type.Literal('query'), Type.Literal('path'), Type.Literal('header')]),
    ),
    limit: Type.Optional(
      Type.String({
        description: 'With error `limit_exceeded`: the limit this value is past (docs/operations.md#limits)',
      }),
    ),
  },
  { $id: 'ErrorDetail' },
);

export const ErrorBody = Type.Object(
  {
    code: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status' }),
    error: Type.String({
      description:
        'A stable machine-readable word: bad_request, unauthorized, forbidden, not_found, validation_failed, ...',
    }),
    message: Type.String(),
    errors: Type.Optional(Type.Array(ErrorDetail)),
    limits: Type.Optional(
      Type.Array(Type.String(), { description: 'With error `limit_exceeded`: every limit the request is past' }),
    ),
  },
  {
    $id: 'Error',
    additionalProperties: true,
    description: 'Every error answer. Some add details (e.g. readiness adds `status`, `neo4j`)',
  },
);

export const Health = Type.Object({ status: Type.Literal('ok') }, { $id: 'Health' });
export const Ready = Type.Object({ status: Type.Literal('ready'), neo4j: Type.Literal('up') }, { $id: 'Ready' });
export const NotReady = Type.Object(
  {
    code: Type.Literal(503),
    error: Type.String(),
    message: Type.String(),
    status: Type.Union([Type.Literal('not_ready'), Type.Literal('warming_up')]),
    neo4j: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    warmingUp: Type.Optional(Type.Array(Type.String())),
    downForMs: Type.Optional(Type.Integer({ description: 'How long Neo4j has been known to be down' })),
  },
  { $id: 'NotReady' },
);

/** Every named schema, for the OpenAPI document's components (by `$id`). */
export const NAMED_SCHEMAS: TSchema[] = [
  EntityId,
  VersionRef,
  DatasetField,
  Run,
  ColumnLineageInputField,
  ColumnLineage,
  Dataset,
  DatasetVersion,
  Job,
  JobVersion,
  Namespace,
  Source,
  Tag,
  SearchResult,
  LineageMetric,
  IntervalMetric,
  NamespaceList,
  SourceList,
  DatasetList,
  DatasetVersionList,
  JobList,
  JobVersionList,
  RunList,
  TagList,
  SearchResults,
  LineageEventList,
  RunFacets,
  LineageEdge,
  LineageNode,
  LineageGraph,
  RunLineage,
  ImpactSummary,
  ImpactNode,
  FieldImpactNode,
  BlastRadius,
  LineagePaths,
  SchemaChanges,
  BatchResult,
  ErrorDetail,
  ErrorBody,
  Health,
  Ready,
  NotReady,
];
