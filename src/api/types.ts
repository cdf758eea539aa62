/**
 * The JSON shapes of the API as TypeScript types, shared by handlers, the web UI and tests. Each is
 * derived from its declaration in src/api/schemas.ts, the one source of the OpenAPI document too.
 */
import type { Static } from '@sinclair/typebox';
import type * as S from './schemas.js';

export type Facets = Record<string, unknown>;
export type Iso = string;

export type EntityId = Static<typeof S.EntityId>;
export type VersionRef = Static<typeof S.VersionRef>;
export type DatasetField = S.DatasetFieldShape;
export type ColumnLineage = Static<typeof S.ColumnLineage>;
export type ColumnLineageInputField = Static<typeof S.ColumnLineageInputField>;
export type Run = Static<typeof S.Run>;
export type Dataset = Static<typeof S.Dataset>;
export type DatasetVersion = Static<typeof S.DatasetVersion>;
export type Job = Static<typeof S.Job>;
export type JobVersion = Static<typeof S.JobVersion>;
export type Namespace = Static<typeof S.Namespace>;
export type Source = Static<typeof S.Source>;
export type Tag = Static<typeof S.Tag>;
export type SearchResult = Static<typeof S.SearchResult>;
/** Lineage events per time bucket, by event type (GET /stats/lineage-events). */
export type LineageMetric = Static<typeof S.LineageMetric>;
/** A cumulative count at the end of a time bucket (GET /stats/jobs, /stats/datasets, /stats/sources). */
export type IntervalMetric = Static<typeof S.IntervalMetric>;

export interface Page<T> {
  items: T[];
  totalCount: number;
}

// Response envelopes of the list endpoints.
export type NamespaceList = Static<typeof S.NamespaceList>;
export type SourceList = Static<typeof S.SourceList>;
export type DatasetList = Static<typeof S.DatasetList>;
export type DatasetVersionList = Static<typeof S.DatasetVersionList>;
export type JobList = Static<typeof S.JobList>;
export type JobVersionList = Static<typeof S.JobVersionList>;
export type RunList = Static<typeof S.RunList>;
export type TagList = Static<typeof S.TagList>;
export type SearchResults = Static<typeof S.SearchResults>;
/** The stored raw OpenLineage events, as received. */
export type LineageEventList = Static<typeof S.LineageEventList>;
export type RunFacets = Static<typeof S.RunFacets>;

// ---- lineage (GET /api/v1/lineage, /column-lineage, /runlineage/upstream; docs/lineage.md) ----
export type LineageEdge = Static<typeof S.LineageEdge>;
export type LineageNode = Static<typeof S.LineageNode>;
export type LineageGraph = Static<typeof S.LineageGraph>;
export type RunLineage = Static<typeof S.RunLineage>;

export type BatchResult = Static<typeof S.BatchResult>;
export type ErrorBody = Static<typeof S.ErrorBody>;
export type ErrorDetail = Static<typeof S.ErrorDetail>;
