/** Builders of realistic OpenLineage events for tests. */
import { randomUUID } from 'node:crypto';

export const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.0/integration/airflow';
export const RUN_EVENT_SCHEMA = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

export interface DatasetSpec {
  namespace?: string;
  name: string;
  fields?: [string, string][];
  facets?: Record<string, unknown>;
  inputFacets?: Record<string, unknown>;
  outputFacets?: Record<string, unknown>;
}

export interface RunEventSpec {
  eventType?: string | null;
  eventTime?: string;
  runId?: string;
  job?: string;
  jobNamespace?: string;
  inputs?: (string | DatasetSpec)[];
  outputs?: (string | DatasetSpec)[];
  jobFacets?: Record<string, unknown>;
  runFacets?: Record<string, unknown>;
}

export const DEFAULT_DATASET_NS = 'postgres://db.example.com:5432';

export function facet(body: Record<string, unknown>, name = 'Facet'): Record<string, unknown> {
  return { _producer: PRODUCER, _schemaURL: `https://openlineage.io/spec/facets/1-0-0/${name}.json`, ...body };
}

export function schemaFacet(fields: [string, string][]) {
  return facet({ fields: fields.map(([name, type]) => ({ name, type })) }, 'SchemaDatasetFacet');
}

export function dataset(spec: string | DatasetSpec): Record<string, unknown> {
  const s: DatasetSpec = typeof spec === 'string' ? { name: spec } : spec;
  const facets: Record<string, unknown> = { ...(s.facets ?? {}) };
  if (s.fields) facets.schema = schemaFacet(s.fields);
  const out: Record<string, unknown> = { namespace: s.namespace ?? DEFAULT_DATASET_NS, name: s.name, facets };
  if (s.inputFacets) out.inputFacets = s.inputFacets;
  if (s.outputFacets) out.outputFacets = s.outputFacets;
  return out;
}

let clock = Date.parse('2024-06-01T00:00:00Z');
/** Monotonic event times, one minute apart, so tests read naturally in order. */
export function nextTime(): string {
  clock += 60_000;
  return new Date(clock).toISOString();
}

export function runEvent(spec: RunEventSpec = {}): Record<string, unknown> {
  const event: Record<string, unknown> = {
    eventTime: spec.eventTime ?? nextTime(),
    producer: PRODUCER,
    schemaURL: RUN_EVENT_SCHEMA,
    run: { runId: spec.runId ?? randomUUID(), facets: spec.runFacets ?? {} },
    job: {
      namespace: spec.jobNamespace ?? 'airflow',
      name: spec.job ?? 'etl.load_orders',
      facets: spec.jobFacets ?? {},
    },
    inputs: (spec.inputs ?? []).map(dataset),
    outputs: (spec.outputs ?? []).map(dataset),
  };
  if (spec.eventType !== null) event.eventType = spec.eventType ?? 'START';
  return event;
}

/** START then COMPLETE of one run: the usual shape of a finished batch task. */
export function completedRun(spec: RunEventSpec = {}): Record<string, unknown>[] {
  const runId = spec.runId ?? randomUUID();
  const start = runEvent({ ...spec, runId, eventType: 'START', eventTime: spec.eventTime, outputs: [] });
  const complete = runEvent({ ...spec, runId, eventType: 'COMPLETE', eventTime: undefined, inputs: [] });
  return [start, complete];
}
