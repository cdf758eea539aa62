/**
 * Values promoted from well-known facets (a dataset's fields, description, type, lifecycle state and
 * source; a job's description and type; a version's fields and lifecycle state): they follow the
 * facet that holds after a batch (facet-stamps.ts), so they change exactly when it does.
 */
import type { DatasetRef, Facets } from '../openlineage/types.js';
import { FACET_PREFIX, jsonOf } from '../facets.js';
import { reportsOf, type FacetFold, type Report } from '../facet-stamps.js';
import { schemaColumns, schemaFields } from '../openlineage/normalize.js';

export type Obj = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A facet slot as reports to fold: each facet's JSON, deletions as null. */
export const facetReports = (facets: Facets, deleted: readonly string[], prefix = FACET_PREFIX): Report<Obj>[] =>
  reportsOf<Obj>(facets, deleted, prefix, jsonOf);

function sourceType(uri: string | null, namespace: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(uri ?? namespace);
  return m ? m[1].toUpperCase() : 'UNKNOWN';
}

/** The source a `dataSource` facet names. */
export function dataSourceOf(
  facet: Obj | null,
  namespace: string,
): { name: string; uri: string | null; type: string } | null {
  if (!facet) return null;
  const uri = str(facet.uri);
  return { name: str(facet.name) ?? uri ?? namespace, uri, type: sourceType(uri, namespace) };
}

/**
 * A schema facet's columns as field rows, nested columns under their dotted path (`addr.geo.lat`),
 * each name once: a schema that names a column twice types it as its last mention does (as a MERGE
 * then SET per mention did), and the store may create the rows outright (normalize.ts, `schemaColumns`).
 */
export function fieldRows(schema: Obj | null): { name: string; type: string | null; description: string | null }[] {
  return schema ? schemaColumns(schemaFields(schema.fields)) : [];
}

const DATASET = {
  schema: (f: Obj | null) => ({ fields: f ? JSON.stringify(schemaFields(f.fields)) : null }),
  documentation: (f: Obj | null) => ({ description: str(f?.description) }),
  datasetType: (f: Obj | null) => ({ type: str(f?.datasetType) ?? 'DB_TABLE' }),
  lifecycleStateChange: (f: Obj | null) => ({ lastLifecycleState: str(f?.lifecycleStateChange) }),
} as const;

function changedValues(fold: FacetFold<Obj>, keys: readonly (keyof typeof DATASET)[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const key of keys) {
    const report = fold.changed(`${FACET_PREFIX}${key}`);
    if (report) Object.assign(out, DATASET[key](report.object));
  }
  return out;
}

/** A dataset's promoted values that the batch changed (a removed facet clears its value). */
export function datasetPromoted(fold: FacetFold<Obj>): Record<string, string | null> {
  return changedValues(fold, ['schema', 'documentation', 'datasetType', 'lifecycleStateChange']);
}

/** A dataset version promotes its own schema and lifecycle state. */
export function versionPromoted(fold: FacetFold<Obj>): Record<string, string | null> {
  const { fields, lastLifecycleState } = changedValues(fold, ['schema', 'lifecycleStateChange']);
  const out: Record<string, string | null> = {};
  if (fields !== undefined) out.fields = fields;
  if (lastLifecycleState !== undefined) out.lifecycleState = lastLifecycleState;
  return out;
}

/** A job's promoted values that the batch changed. */
export function jobPromoted(fold: FacetFold<Obj>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const doc = fold.changed(`${FACET_PREFIX}documentation`);
  if (doc) out.description = str(doc.object?.description);
  const type = fold.changed(`${FACET_PREFIX}jobType`);
  if (type) {
    const processing = str(type.object?.processingType)?.toUpperCase() ?? null;
    out.type = processing === 'STREAMING' ? 'STREAM' : 'BATCH';
    out.integration = str(type.object?.integration);
    out.jobKind = str(type.object?.jobType);
  }
  return out;
}

/** The code a run's job version depends on, from its job facets: source location, SQL, streaming. */
export function codeOf(facet: (name: 'sourceCodeLocation' | 'sql' | 'jobType') => Obj | null) {
  const sql = str(facet('sql')?.query);
  const context: Record<string, string> = sql ? { sql } : {};
  return {
    location: str(facet('sourceCodeLocation')?.url),
    context,
    streaming: str(facet('jobType')?.processingType)?.toUpperCase() === 'STREAMING',
  };
}

/**
 * The simple name of a job under a parent, as Marquez: its name less the parent's name and a dot when it
 * starts with them (`dag.group.task` under `dag` is `group.task`), else its whole name (a dbt model
 * `db.schema.project.model.build.run` under `dbt-run-project` keeps it).
 */
export function simpleName(name: string, parent: DatasetRef | null): string {
  const prefix = parent ? `${parent.name}.` : null;
  return prefix && name.length > prefix.length && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

export function parseJsonObject(text: string | null): Obj | null {
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Obj) : null;
  } catch {
    return null;
  }
}

/** An ISO time from a facet's field, normalized, or null. */
export function isoOrNull(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
