/**
 * Lineage node ids: `job:<namespace>:<name>`, `dataset:<namespace>:<name>`,
 * `datasetField:<namespace>:<dataset>:<field>`, each optionally followed by `#<version>`.
 *
 * Namespaces and names may themselves contain colons (`postgres://db:5432`, `hive://host:9083`,
 * `s3://bucket/a:b`), so an id does not say where the namespace ends. Parsing therefore yields every
 * possible split ("candidates"), ordered by preference, and the store picks the first candidate that
 * exists (one query, UNWIND over the candidates). Preference: the longest namespace first, because
 * colons in namespaces (ports, schemes) are far more common than colons in names.
 *
 * The `#<version>` suffix is recognised only when what follows the last `#` is a UUID (every version id
 * of this service is one); otherwise the `#` is part of the name (`s3://bucket/file#1` stays a name).
 *
 * Pure: no I/O.
 */
import { isUuid } from './uuid-v5.js';
import { EVENT_LIMITS } from './openlineage/limits.js';

export type NodeKind = 'job' | 'dataset' | 'datasetField';

export interface EntityRef {
  namespace: string;
  name: string;
}

export interface FieldRef {
  namespace: string;
  dataset: string;
  field: string;
}

export type ParsedNodeId =
  | { kind: 'job'; raw: string; version: string | null; candidates: EntityRef[] }
  | { kind: 'dataset'; raw: string; version: string | null; candidates: EntityRef[] }
  | { kind: 'datasetField'; raw: string; version: string | null; candidates: FieldRef[] };

export class NodeIdError extends Error {
  constructor(
    readonly nodeId: string,
    problem: string,
  ) {
    super(`Invalid nodeId '${nodeId}': ${problem}`);
    this.name = 'NodeIdError';
  }
}

/**
 * Longest id accepted: that of a column with the longest namespace, dataset name and column name events
 * may carry, and a version (a UTF-8 string has at most as many characters as bytes). Every id the service
 * answers with can be asked for. It also bounds a job's or dataset's candidates, one per colon.
 */
export const MAX_NODE_ID_LENGTH =
  'datasetField:'.length +
  EVENT_LIMITS.namespaceBytes +
  1 +
  EVENT_LIMITS.nameBytes +
  1 +
  EVENT_LIMITS.fieldNameBytes +
  '#00000000-0000-0000-0000-000000000000'.length;
/** Colons allowed in a column's id after the prefix: its splits are quadratic in them (64 give ~2,000). */
export const MAX_FIELD_ID_COLONS = 64;

const PREFIXES: readonly NodeKind[] = ['datasetField', 'dataset', 'job'];

function colonPositions(s: string): number[] {
  const out: number[] = [];
  for (let i = s.indexOf(':'); i !== -1; i = s.indexOf(':', i + 1)) out.push(i);
  return out;
}

/** Splits `body` into (namespace, name) at every colon, longest namespace first; both parts non-empty. */
export function entitySplits(body: string): EntityRef[] {
  const out: EntityRef[] = [];
  const colons = colonPositions(body);
  for (let k = colons.length - 1; k >= 0; k--) {
    const i = colons[k];
    const namespace = body.slice(0, i);
    const name = body.slice(i + 1);
    if (namespace && name) out.push({ namespace, name });
  }
  return out;
}

/**
 * Splits `body` into (namespace, dataset, field) at every pair of colons, longest namespace first, then longest
 * dataset.
 */
export function fieldSplits(body: string): FieldRef[] {
  const out: FieldRef[] = [];
  const colons = colonPositions(body);
  for (let a = colons.length - 2; a >= 0; a--) {
    const namespace = body.slice(0, colons[a]);
    if (!namespace) continue;
    for (let b = colons.length - 1; b > a; b--) {
      const dataset = body.slice(colons[a] + 1, colons[b]);
      const field = body.slice(colons[b] + 1);
      if (dataset && field) out.push({ namespace, dataset, field });
    }
  }
  return out;
}

/**
 * Parses a node id into its kind, optional version and candidate splits; throws NodeIdError when it cannot name
 * anything.
 */
export function parseNodeId(raw: unknown): ParsedNodeId {
  if (typeof raw !== 'string' || raw.length === 0)
    throw new NodeIdError(String(raw ?? ''), 'expected a non-empty string');
  if (raw.length > MAX_NODE_ID_LENGTH)
    throw new NodeIdError(`${raw.slice(0, 64)}…`, `longer than ${MAX_NODE_ID_LENGTH} characters`);
  const kind = PREFIXES.find((p) => raw.startsWith(`${p}:`));
  if (!kind) throw new NodeIdError(raw, "expected it to start with 'job:', 'dataset:' or 'datasetField:'");

  let body = raw.slice(kind.length + 1);
  let version: string | null = null;
  const hash = body.lastIndexOf('#');
  if (hash !== -1 && isUuid(body.slice(hash + 1))) {
    version = body.slice(hash + 1).toLowerCase();
    body = body.slice(0, hash);
  }
  if (kind === 'datasetField') {
    if (colonPositions(body).length > MAX_FIELD_ID_COLONS)
      throw new NodeIdError(raw, `a column's id may have at most ${MAX_FIELD_ID_COLONS} colons after its prefix`);
    const candidates = fieldSplits(body);
    if (candidates.length === 0) throw new NodeIdError(raw, "expected 'datasetField:<namespace>:<dataset>:<field>'");
    return { kind, raw, version, candidates };
  }
  const candidates = entitySplits(body);
  if (candidates.length === 0) throw new NodeIdError(raw, `expected '${kind}:<namespace>:<name>'`);
  return { kind, raw, version, candidates };
}

export function jobNodeId(namespace: string, name: string): string {
  return `job:${namespace}:${name}`;
}

export function datasetNodeId(namespace: string, name: string): string {
  return `dataset:${namespace}:${name}`;
}

export function fieldNodeId(namespace: string, dataset: string, field: string): string {
  return `datasetField:${namespace}:${dataset}:${field}`;
}

/** Formats any node id; `version` appends `#<version>`. */
export function formatNodeId(
  ref:
    | { kind: 'job' | 'dataset'; namespace: string; name: string }
    | { kind: 'datasetField'; namespace: string; dataset: string; field: string },
  version?: string | null,
): string {
  const base =
    ref.kind === 'datasetField'
      ? fieldNodeId(ref.namespace, ref.dataset, ref.field)
      : `${ref.kind}:${ref.namespace}:${ref.name}`;
  return version ? `${base}#${version}` : base;
}
