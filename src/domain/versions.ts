/**
 * Deterministic, name-based (UUIDv5) ids for versions. Determinism is what makes ingestion
 * idempotent: the same facts always produce the same id, so a retried event MERGEs onto the node it
 * created the first time. The exact algorithms are documented in the README ("Versioning").
 */
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { DatasetRef } from './openlineage/types.js';

export const JOB_VERSION_NAMESPACE = '5b9f3a52-6a0e-4c59-9d44-3c7b0f1e2a61';
export const DATASET_VERSION_NAMESPACE = '0d6c1f4e-2b7a-4f3e-8e5d-9a1b2c3d4e5f';

export interface JobVersionInput {
  namespace: string;
  name: string;
  location: string | null;
  context: Record<string, string>;
  inputs: DatasetRef[];
  outputs: DatasetRef[];
}

/** Sorted, de-duplicated dataset ids: the order producers list datasets in must not matter. */
export function sortedRefs(refs: DatasetRef[]): DatasetRef[] {
  const seen = new Map<string, DatasetRef>();
  for (const r of refs) seen.set(JSON.stringify([r.namespace, r.name]), { namespace: r.namespace, name: r.name });
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/** JSON with object keys sorted at every level, so equal objects hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Job version = UUIDv5 over the job's identity and the four versioned facts: source location,
 * context, sorted inputs and sorted outputs. The job identity is included because version ids are
 * global: two jobs with identical code and I/O must still get distinct versions.
 */
export function jobVersionId(v: JobVersionInput): string {
  const material = canonicalJson({
    job: [v.namespace, v.name],
    location: v.location,
    context: v.context,
    inputs: sortedRefs(v.inputs).map((r) => [r.namespace, r.name]),
    outputs: sortedRefs(v.outputs).map((r) => [r.namespace, r.name]),
  });
  return uuidv5(material, JOB_VERSION_NAMESPACE);
}

/** The version a run creates when it writes a dataset: one per (dataset, run), so retries are idempotent. */
export function writtenDatasetVersionId(ref: DatasetRef, runId: string): string {
  return uuidv5(JSON.stringify(['run', ref.namespace, ref.name, runId]), DATASET_VERSION_NAMESPACE);
}

/** The first version of a dataset that is read before anything we know of wrote it. */
export function initialDatasetVersionId(ref: DatasetRef): string {
  return uuidv5(JSON.stringify(['initial', ref.namespace, ref.name]), DATASET_VERSION_NAMESPACE);
}

/** A version declared by a DatasetEvent (no run): keyed by the event's content. */
export function eventDatasetVersionId(ref: DatasetRef, eventFingerprint: string): string {
  return uuidv5(JSON.stringify(['event', ref.namespace, ref.name, eventFingerprint]), DATASET_VERSION_NAMESPACE);
}

/** Stable id of a raw event, used to store each distinct event once. */
export function eventFingerprint(raw: unknown): string {
  return createHash('sha256').update(canonicalJson(raw)).digest('hex');
}
