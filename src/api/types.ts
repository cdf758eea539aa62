/** The JSON shapes of the read API (Marquez-compatible plus the spec's fields), shared by handlers and tests. */

export type Facets = Record<string, unknown>;
export type Iso = string;

export interface EntityId {
  namespace: string;
  name: string;
}

export interface VersionRef extends EntityId {
  version: string;
}

export interface DatasetField {
  name: string;
  type: string | null;
  description: string | null;
  tags: string[];
  fields?: DatasetField[];
}

export interface Run {
  id: string;
  createdAt: Iso | null;
  updatedAt: Iso | null;
  nominalStartTime: Iso | null;
  nominalEndTime: Iso | null;
  state: string;
  startedAt: Iso | null;
  endedAt: Iso | null;
  durationMs: number | null;
  args: Record<string, unknown>;
  jobVersion: VersionRef | null;
  inputVersions: VersionRef[];
  outputVersions: VersionRef[];
  inputDatasetVersions: { datasetVersionId: VersionRef; facets: Facets }[];
  outputDatasetVersions: { datasetVersionId: VersionRef; facets: Facets }[];
  context: Record<string, unknown>;
  location: string | null;
  facets: Facets;
}

export interface Dataset {
  id: EntityId;
  type: string;
  name: string;
  physicalName: string;
  createdAt: Iso;
  updatedAt: Iso;
  namespace: string;
  sourceName: string | null;
  fields: DatasetField[];
  tags: string[];
  lastModifiedAt: Iso | null;
  lastLifecycleState: string | null;
  description: string | null;
  currentVersion: string | null;
  columnLineage: unknown[] | null;
  facets: Facets;
  deleted: boolean;
}

export interface DatasetVersion extends Omit<Dataset, 'updatedAt' | 'currentVersion' | 'deleted' | 'lastModifiedAt'> {
  version: string;
  lifecycleState: string | null;
  createdByRun: Run | null;
}

export interface Job {
  id: EntityId;
  type: string;
  name: string;
  simpleName: string;
  parentJobName: string | null;
  createdAt: Iso;
  updatedAt: Iso;
  namespace: string;
  inputs: EntityId[];
  outputs: EntityId[];
  location: string | null;
  context: Record<string, unknown>;
  description: string | null;
  latestRun: Run | null;
  latestRuns: Run[];
  currentVersion: string | null;
  labels: string[];
  tags: string[];
  facets: Facets;
}

export interface JobVersion extends Omit<Job, 'currentVersion' | 'latestRuns'> {
  version: string;
}

export interface Page<T> {
  items: T[];
  totalCount: number;
}

export interface Namespace {
  name: string;
  createdAt: Iso;
  updatedAt: Iso;
  ownerName: string;
  description: string | null;
  isHidden: boolean;
}

export interface Source {
  type: string | null;
  name: string;
  createdAt: Iso;
  updatedAt: Iso;
  connectionUrl: string | null;
  description: string | null;
}

export interface Tag {
  name: string;
  description: string | null;
}

export interface SearchResult {
  type: 'DATASET' | 'JOB';
  name: string;
  updatedAt: Iso;
  namespace: string;
  /** The lineage node id: `dataset:<namespace>:<name>` or `job:<namespace>:<name>`. */
  nodeId: string;
}

/** Lineage events per time bucket, by event type (GET /stats/lineage-events). */
export interface LineageMetric {
  startInterval: Iso;
  endInterval: Iso;
  start: number;
  running: number;
  complete: number;
  fail: number;
  abort: number;
  other: number;
}

/** A cumulative count at the end of a time bucket (GET /stats/jobs, /stats/datasets, /stats/sources). */
export interface IntervalMetric {
  startInterval: Iso;
  endInterval: Iso;
  count: number;
}

// Response envelopes of the list endpoints.
export interface NamespaceList { namespaces: Namespace[]; totalCount: number }
export interface SourceList { sources: Source[]; totalCount: number }
export interface DatasetList { datasets: Dataset[]; totalCount: number }
export interface DatasetVersionList { versions: DatasetVersion[]; totalCount: number }
export interface JobList { jobs: Job[]; totalCount: number }
export interface JobVersionList { versions: JobVersion[]; totalCount: number }
export interface RunList { runs: Run[]; totalCount: number }
export interface TagList { tags: Tag[]; totalCount: number }
export interface SearchResults { totalCount: number; results: SearchResult[] }
/** The stored raw OpenLineage events, as received. */
export interface LineageEventList { events: Record<string, unknown>[]; totalCount: number }
export interface RunFacets { runId: string; facets: Facets }

// ---- lineage (GET /api/v1/lineage, /column-lineage, /runlineage/upstream; docs/lineage.md) ----

export interface LineageEdge {
  origin: string;
  destination: string;
  /** Dataset-level edges: when the edge was first and last observed (up to asOf), and by which run. */
  firstSeenAt?: string | null;
  lastSeenAt?: string | null;
  lastRunId?: string | null;
  lastRunState?: string | null;
}

export interface LineageNode {
  id: string;
  type: 'JOB' | 'DATASET' | 'DATASET_FIELD';
  data: Record<string, unknown>;
  inEdges: LineageEdge[];
  outEdges: LineageEdge[];
}

export interface LineageGraph {
  graph: LineageNode[];
  /** True when the result hit the node cap (`maxNodes`, default DEFAULT_MAX_NODES): the nearest nodes are kept. */
  truncated: boolean;
}

export interface RunLineage {
  runs: {
    job: { namespace: string | null; name: string | null; version: string | null };
    run: { id: string; start: string | null; end: string | null; status: string | null };
    inputs: { namespace: string; name: string; version: string; producedByRunId: string | null }[];
  }[];
}
