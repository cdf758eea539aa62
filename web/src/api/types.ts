/**
 * The API's shapes, shared with the server (src/api/types.ts), plus the narrower views the UI reads
 * from the lineage endpoints' free-form `data`.
 */
import type { Static } from '@sinclair/typebox';
import type { DatasetField, EntityId, LineageGraph, Run } from '../../../src/api/types.js';
import type * as S from '../../../src/api/schemas.js';

export type * from '../../../src/api/types.js';

/** GET /impact (docs/impact.md): the blast radius, nearest first, with its summary. */
export type BlastRadius = Static<typeof S.BlastRadius>;
export type ImpactNode = Static<typeof S.ImpactNode>;
export type FieldImpactNode = Static<typeof S.FieldImpactNode>;
export type ImpactSummary = Static<typeof S.ImpactSummary>;

/** `data` of a JOB node of GET /lineage (docs/lineage.md). */
export interface LineageJobData {
  id: EntityId;
  name: string;
  namespace: string;
  type: string;
  parentJobName: string | null;
  description: string | null;
  location: string | null;
  latestRun: Pick<Run, 'id' | 'state' | 'startedAt' | 'endedAt' | 'durationMs'> | null;
}

/** `data` of a DATASET node of GET /lineage. */
export interface LineageDatasetData {
  id: EntityId;
  name: string;
  namespace: string;
  sourceName: string | null;
  fields: DatasetField[];
  description: string | null;
  currentVersion: string | null;
  lastLifecycleState: string | null;
}

/** `data` of a DATASET_FIELD node of GET /column-lineage. */
export interface ColumnFieldData {
  namespace: string;
  dataset: string;
  datasetVersion: string | null;
  field: string;
  fieldType: string | null;
  transformationDescription: string | null;
  transformationType: string | null;
  inputFields: {
    namespace: string;
    dataset: string;
    field: string;
    jobNamespace: string | null;
    jobName: string | null;
    transformationDescription: string | null;
    transformationType: string | null;
    /** Every transformation the declaration in force states (the two fields above are the first's). */
    transformations?: { type: unknown; subtype: unknown; description: unknown; masking: unknown }[];
  }[];
}

/** GET /column-lineage answers the lineage graph's shape with DATASET_FIELD nodes. */
export type ColumnLineageGraph = LineageGraph;
