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
