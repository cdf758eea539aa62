/**
 * Turns a validated OpenLineage event into the NormalizedEvent the ingest path writes: times in UTC,
 * service run ids, facets split into kept/deleted, and well-known facets promoted to fields.
 */
import { v5 as uuidv5, validate as isUuid } from 'uuid';
import type {
  ColumnLineageEntry,
  Facets,
  NormalizedDataset,
  NormalizedEvent,
  NormalizedJob,
  NormalizedRun,
  ParentRef,
  ParseResult,
  SchemaField,
  Symlink,
  EventType,
} from './types.js';
import { eventKind, validateShape } from './validate.js';

export const RUN_ID_NAMESPACE = '8f3d2c1b-7a6e-4d5c-9b8a-1f2e3d4c5b6a';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A sent runId as the service's id: UUIDs lower-cased, anything else mapped to a stable UUIDv5. */
export function serviceRunId(runId: string): string {
  return isUuid(runId) ? runId.toLowerCase() : uuidv5(runId, RUN_ID_NAMESPACE);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Any ISO-8601 date-time (any fraction precision; Z, ±hh:mm, ±hhmm, ±hh, or no offset = UTC) → `…sssZ`. */
export function normalizeEventTime(s: string): string | null {
  const m = ISO.exec(s.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = '00', frac = '', zone] = m;
  const ms = Number((frac + '000').slice(0, 3));
  let offsetMin = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  const parts = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(sec)];
  if (parts[1] < 1 || parts[1] > 12 || parts[2] < 1 || parts[2] > 31 || parts[3] > 23 || parts[4] > 59 || parts[5] > 60) return null;
  const t = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], ms) - offsetMin * 60_000;
  if (Number.isNaN(t)) return null;
  return new Date(t).toISOString();
}

function splitFacets(raw: unknown): { facets: Facets; deleted: string[] } {
  const facets: Facets = {};
  const deleted: string[] = [];
  if (isObj(raw)) {
    for (const [name, value] of Object.entries(raw)) {
      if (!isObj(value)) continue;
      if (value._deleted === true) deleted.push(name);
      else facets[name] = value;
    }
  }
  return { facets, deleted };
}

function schemaFields(raw: unknown): SchemaField[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObj).map((f) => {
    const field: SchemaField = { name: String(f.name), type: str(f.type), description: str(f.description) };
    if (Array.isArray(f.fields)) field.fields = schemaFields(f.fields);
    return field;
  });
}

function columnLineage(raw: Obj | undefined): ColumnLineageEntry[] {
  if (!raw || !isObj(raw.fields)) return [];
  return Object.entries(raw.fields)
    .filter(([, v]) => isObj(v) && Array.isArray(v.inputFields))
    .map(([field, v]) => ({
      field,
      inputFields: ((v as Obj).inputFields as unknown[]).filter(isObj).map((i) => {
        let transformations = Array.isArray(i.transformations) ? (i.transformations.filter(isObj) as Obj[]) : [];
        // Facet 1-0-1 described the transformation per output field instead.
        const legacyType = str((v as Obj).transformationType);
        const legacyDescription = str((v as Obj).transformationDescription);
        if (transformations.length === 0 && (legacyType || legacyDescription)) transformations = [{ type: legacyType, description: legacyDescription }];
        return { namespace: String(i.namespace), name: String(i.name), field: String(i.field), transformations };
      }),
    }))
    .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}

function normalizeDataset(raw: Obj): NormalizedDataset {
  const { facets, deleted } = splitFacets(raw.facets);
  const schema = facets.schema;
  const dataSource = facets.dataSource;
  const symlinks: Symlink[] = Array.isArray(facets.symlinks?.identifiers)
    ? (facets.symlinks.identifiers as unknown[]).filter(isObj).map((i) => ({ namespace: String(i.namespace), name: String(i.name), type: str(i.type) }))
    : [];
  return {
    namespace: raw.namespace as string,
    name: raw.name as string,
    facets,
    deletedFacets: deleted,
    inputFacets: splitFacets(raw.inputFacets).facets,
    outputFacets: splitFacets(raw.outputFacets).facets,
    fields: schema ? schemaFields(schema.fields) : null,
    source: dataSource ? { name: str(dataSource.name) ?? str(dataSource.uri) ?? (raw.namespace as string), uri: str(dataSource.uri) } : null,
    description: str(facets.documentation?.description),
    lifecycleState: str(facets.lifecycleStateChange?.lifecycleStateChange),
    datasetType: str(facets.datasetType?.datasetType),
    symlinks,
    columnLineage: columnLineage(facets.columnLineage),
  };
}

function normalizeJob(raw: Obj): NormalizedJob {
  const { facets, deleted } = splitFacets(raw.facets);
  const sql = str(facets.sql?.query);
  const jobType = facets.jobType;
  return {
    namespace: raw.namespace as string,
    name: raw.name as string,
    facets,
    deletedFacets: deleted,
    location: str(facets.sourceCodeLocation?.url),
    context: sql ? { sql } : {},
    description: str(facets.documentation?.description),
    jobType: jobType ? { processingType: str(jobType.processingType), integration: str(jobType.integration), jobType: str(jobType.jobType) } : null,
  };
}

function parentRef(raw: Obj | undefined): ParentRef | null {
  if (!raw || !isObj(raw.run) || !isObj(raw.job)) return null;
  const runId = str(raw.run.runId);
  const ns = str(raw.job.namespace);
  const name = str(raw.job.name);
  if (!runId || !ns || !name) return null;
  let root: ParentRef['root'] = null;
  if (isObj(raw.root) && isObj(raw.root.run) && isObj(raw.root.job)) {
    const rootRun = str(raw.root.run.runId);
    const rootNs = str(raw.root.job.namespace);
    const rootName = str(raw.root.job.name);
    if (rootRun && rootNs && rootName) root = { runId: serviceRunId(rootRun), externalRunId: rootRun, job: { namespace: rootNs, name: rootName } };
  }
  return { runId: serviceRunId(runId), externalRunId: runId, job: { namespace: ns, name }, root };
}

function normalizeRun(raw: Obj): NormalizedRun {
  const { facets } = splitFacets(raw.facets);
  const nominal = facets.nominalTime;
  const time = (v: unknown) => (typeof v === 'string' ? normalizeEventTime(v) : null);
  return {
    id: serviceRunId(raw.runId as string),
    externalId: raw.runId as string,
    facets,
    nominalStartTime: time(nominal?.nominalStartTime),
    nominalEndTime: time(nominal?.nominalEndTime),
    parent: parentRef(facets.parent),
  };
}

const DEFAULT_SCHEMA_URL: Record<string, string> = {
  run: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  job: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
  dataset: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
};

export function parseEvent(body: unknown): ParseResult {
  const problems = validateShape(body);
  const raw = body as Obj;
  const eventTime = typeof raw?.eventTime === 'string' ? normalizeEventTime(raw.eventTime) : null;
  if (problems.length === 0 && eventTime === null) {
    problems.push({ path: '/eventTime', message: 'must be an ISO-8601 date-time, e.g. 2024-06-01T10:00:00.000Z' });
  }
  if (problems.length > 0) return { ok: false, problems };

  const kind = eventKind(raw)!;
  const event: NormalizedEvent = {
    kind,
    eventType: (raw.eventType as EventType | undefined) ?? null,
    eventTime: eventTime!,
    producer: raw.producer as string,
    schemaURL: str(raw.schemaURL) ?? DEFAULT_SCHEMA_URL[kind],
    run: kind === 'run' ? normalizeRun(raw.run as Obj) : null,
    job: kind === 'dataset' ? null : normalizeJob(raw.job as Obj),
    inputs: kind === 'dataset' ? [] : ((raw.inputs as Obj[] | undefined) ?? []).map(normalizeDataset),
    outputs: kind === 'dataset' ? [] : ((raw.outputs as Obj[] | undefined) ?? []).map(normalizeDataset),
    dataset: kind === 'dataset' ? normalizeDataset(raw.dataset as Obj) : null,
    raw,
  };
  return { ok: true, event };
}
