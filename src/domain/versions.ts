/**
 * Deterministic, name-based (UUIDv5) ids for versions. Determinism is what makes ingestion
 * idempotent: the same facts always produce the same id, so a retried event MERGEs onto the node it
 * created the first time. The exact algorithms are documented in docs/ingest.md ("Versions and ids").
 */
import { hash } from 'node:crypto';
import { uuidV5 } from './uuid-v5.js';
import type { DatasetRef } from './openlineage/types.js';
import { compareText } from './compare.js';

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
  return [...seen.entries()].sort(([a], [b]) => compareText(a, b)).map(([, r]) => r);
}

function keysSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}

// Keys that are array indices ("0", "10") are enumerated in numeric order by every JS object, so an
// object cannot hold them in string order: such objects take the recursive path.
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function canonicalJsonRecursive(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJsonRecursive).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJsonRecursive(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What sortedForJson answers for a value it cannot stand for: the replacer path then serializes it. */
const UNSORTABLE: unique symbol = Symbol('unsortable');

/** A new object for the sorted keys: a "__proto__" key needs a null prototype to stay a plain property. */
const objectFor = (keys: string[]): Record<string, unknown> =>
  keys.includes('__proto__') ? (Object.create(null) as Record<string, unknown>) : {};

/**
 * `value` with every object's keys in sorted order and `undefined` as null, copying only the objects and
 * arrays that change; UNSORTABLE for what only the replacer path serializes as canonicalJson must: an
 * object with a toJSON method or of a class (a Date, a boxed string), or whose keys out of order include
 * array indices (no object can hold them in string order).
 */
function sortedForJson(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const element = value[i];
      const sorted = sortedForJson(element);
      if (sorted === UNSORTABLE) return UNSORTABLE;
      if (copy === null && sorted !== element) copy = value.slice(0, i);
      if (copy !== null) copy.push(sorted);
    }
    return copy ?? value;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return UNSORTABLE;
  const record = value as Record<string, unknown>;
  if (typeof record.toJSON === 'function') return UNSORTABLE;
  const keys = Object.keys(record);
  if (keysSorted(keys)) {
    let copy: Record<string, unknown> | null = null;
    for (let i = 0; i < keys.length; i++) {
      const member = record[keys[i]];
      const sorted = sortedForJson(member);
      if (sorted === UNSORTABLE) return UNSORTABLE;
      if (copy === null && sorted !== member) {
        copy = objectFor(keys);
        for (let j = 0; j < i; j++) copy[keys[j]] = record[keys[j]];
      }
      if (copy !== null) copy[keys[i]] = sorted;
    }
    return copy ?? value;
  }
  keys.sort();
  const copy = objectFor(keys);
  for (const key of keys) {
    if (ARRAY_INDEX.test(key)) return UNSORTABLE;
    const sorted = sortedForJson(record[key]);
    if (sorted === UNSORTABLE) return UNSORTABLE;
    copy[key] = sorted;
  }
  return copy;
}

/** canonicalJson through a replacer: JSON.stringify calls it for every value, after any toJSON. */
function canonicalJsonByReplacer(value: unknown): string {
  let representable = true;
  const json = JSON.stringify(value ?? null, (_key, v: unknown) => {
    if (v === undefined) return null;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const keys = Object.keys(v);
    if (keysSorted(keys)) return v;
    keys.sort();
    // A null-prototype object keeps a "__proto__" key as a plain property.
    const sorted = Object.create(null) as Record<string, unknown>;
    for (const k of keys) {
      if (ARRAY_INDEX.test(k)) representable = false;
      sorted[k] = (v as Record<string, unknown>)[k];
    }
    return sorted;
  });
  return representable ? json : canonicalJsonRecursive(value);
}

/**
 * JSON with object keys sorted (by UTF-16 code units) at every level, so equal objects hash
 * equally; `undefined` is written as null at any depth. Ids are derived from it, so its output must
 * never change. It runs for every event: the value is first copied with its keys in order (only the
 * objects out of order, or holding an undefined, are copied), then written by the native JSON.stringify
 * with no replacer. A replacer (which JSON.stringify calls from C++ for each of an event's hundreds of
 * values) cost 1.3-2.1 times as much on bench events (docs/performance/ingest-journal.md), and a
 * hand-written serializer a third more than the replacer. Values the copy cannot stand for (toJSON,
 * class instances, array-index keys out of order) take the replacer path, and from there the recursive one.
 */
export function canonicalJson(value: unknown): string {
  const sorted = sortedForJson(value);
  return sorted === UNSORTABLE ? canonicalJsonByReplacer(value) : JSON.stringify(sorted);
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
  return uuidV5(material, JOB_VERSION_NAMESPACE);
}

/** The version a run creates when it writes a dataset: one per (dataset, run), so retries are idempotent. */
export function writtenDatasetVersionId(ref: DatasetRef, runId: string): string {
  return uuidV5(JSON.stringify(['run', ref.namespace, ref.name, runId]), DATASET_VERSION_NAMESPACE);
}

/** The first version of a dataset that is read before anything we know of wrote it. */
export function initialDatasetVersionId(ref: DatasetRef): string {
  return uuidV5(JSON.stringify(['initial', ref.namespace, ref.name]), DATASET_VERSION_NAMESPACE);
}

/** A version declared by a DatasetEvent (no run): keyed by the event's content. */
export function eventDatasetVersionId(ref: DatasetRef, eventFingerprint: string): string {
  return uuidV5(JSON.stringify(['event', ref.namespace, ref.name, eventFingerprint]), DATASET_VERSION_NAMESPACE);
}

export interface CanonicalEvent {
  /** Stable id of the event: SHA-256 of `json`, so the same event in any key order gets one id. */
  id: string;
  /** The event as canonical JSON (what is stored, so it is serialized once). */
  json: string;
}

const canonicalEvents = new WeakMap<object, CanonicalEvent>();

/** The canonical JSON and id of a raw event, computed once per event object. */
export function canonicalEvent(raw: object): CanonicalEvent {
  let known = canonicalEvents.get(raw);
  if (!known) {
    const json = canonicalJson(raw);
    known = { id: hash('sha256', json, 'hex'), json };
    canonicalEvents.set(raw, known);
  }
  return known;
}

/** Stable id of a raw event, used to store each distinct event once. */
export function eventFingerprint(raw: object): string {
  return canonicalEvent(raw).id;
}
