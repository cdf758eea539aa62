/**
 * What one event may hold. Each limit keeps a storable event storable: an event past one could
 * never be written (a name longer than Neo4j's index key limit of about 8 KB, 100,000 inputs
 * exceeding the transaction memory), or would cost the service or the database more than any
 * producer needs (10,000 levels of nesting overflowed the stack; 2,000 facet names became 4,000
 * property keys that Neo4j never frees). Such an event gets a 422 naming the limit at once, never a
 * 503: a producer honouring Retry-After would retry it forever.
 *
 * Names are limited in UTF-8 bytes because Neo4j's index key limit is in bytes: a dataset's key is
 * (namespace, name), a column's (namespace, dataset name, column name), together well under 8 KB.
 */
import type { NormalizedDataset, NormalizedEvent, ValidationProblem } from './types.js';

export const EVENT_LIMITS = {
  /** Levels of JSON nesting (objects and arrays) in the whole event. */
  nestingDepth: 64,
  /** UTF-8 bytes of a namespace (jobs, datasets, parent jobs, symlinks). */
  namespaceBytes: 1024,
  /** UTF-8 bytes of a job, dataset or data source name. */
  nameBytes: 4096,
  /** UTF-8 bytes of a column name (schema and column lineage; a nested column's dotted path). */
  fieldNameBytes: 1024,
  /** Characters of a runId (any string; non-UUIDs are stored under a name-based UUID). */
  runIdChars: 1024,
  /** Inputs plus outputs of one event. */
  datasetsPerEvent: 1000,
  /** Symlink identifiers over all datasets of one event. */
  symlinksPerEvent: 1000,
  /** Schema columns over all datasets of one event, nested columns included. */
  fieldsPerEvent: 20_000,
  /**
   * Column-lineage mappings (input column → output column) over all output columns of one event; a dataset-wide
   * input counts once per output column it feeds (normalize.ts, `columnLineage`).
   */
  columnLineageInputsPerEvent: 20_000,
  /** Distinct facet names in one event (each name becomes a node property key `facet.<name>`). */
  facetNamesPerEvent: 128,
  /** UTF-8 bytes of a facet name. */
  facetNameBytes: 200,
} as const;

export type EventLimit = keyof typeof EVENT_LIMITS;

/** A problem that is a limit: the 422 names it. */
export interface LimitProblem extends ValidationProblem {
  limit: EventLimit;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Whether `value` (an object or array) nests more than `levels` levels of objects and arrays. The
 * recursion stops one level past the limit, so its depth is bounded by the limit, never by the input
 * (10,000 levels of nesting cost 65 frames); no array or tuple is allocated per node, as this runs on
 * every event's whole body.
 */
function nestsDeeperThan(value: object, levels: number): boolean {
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value)
      if (child !== null && typeof child === 'object' && nestsDeeperThan(child, levels - 1)) return true;
    return false;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object' && nestsDeeperThan(child, levels - 1)) return true;
  }
  return false;
}

/** Checked before anything else reads the body (validation and canonical JSON recurse). */
export function nestingProblem(body: unknown): LimitProblem | null {
  if (body === null || typeof body !== 'object' || !nestsDeeperThan(body, EVENT_LIMITS.nestingDepth)) return null;
  return {
    path: '',
    message: `nests objects and arrays more than ${EVENT_LIMITS.nestingDepth} levels deep (limit: nestingDepth)`,
    limit: 'nestingDepth',
  };
}

/** Every limit a valid, normalized event exceeds (empty when none). */
export function limitProblems(event: NormalizedEvent): LimitProblem[] {
  const problems: LimitProblem[] = [];
  const add = (path: string, message: string, limit: EventLimit) => {
    if (problems.length < 20) problems.push({ path, message: `${message} (limit: ${limit})`, limit });
  };
  const namespace = (path: string, value: string) => {
    if (bytes(value) > EVENT_LIMITS.namespaceBytes)
      add(
        path,
        `is ${bytes(value)} bytes long; a namespace may have at most ${EVENT_LIMITS.namespaceBytes} bytes (UTF-8)`,
        'namespaceBytes',
      );
  };
  const name = (path: string, value: string) => {
    if (bytes(value) > EVENT_LIMITS.nameBytes)
      add(
        path,
        `is ${bytes(value)} bytes long; a name may have at most ${EVENT_LIMITS.nameBytes} bytes (UTF-8)`,
        'nameBytes',
      );
  };
  const fieldName = (path: string, value: string) => {
    if (bytes(value) > EVENT_LIMITS.fieldNameBytes)
      add(
        path,
        `is ${bytes(value)} bytes long; a column name may have at most ${EVENT_LIMITS.fieldNameBytes} bytes (UTF-8)`,
        'fieldNameBytes',
      );
  };
  const facetNames = new Set<string>();
  const facetsOf = (path: string, names: Iterable<string>) => {
    for (const n of names) {
      if (bytes(n) > EVENT_LIMITS.facetNameBytes)
        add(
          `${path}/${n.slice(0, 40)}…`,
          `is a facet name of ${bytes(n)} bytes; at most ${EVENT_LIMITS.facetNameBytes} bytes`,
          'facetNameBytes',
        );
      facetNames.add(n);
    }
  };
  let fields = 0;
  let columnInputs = 0;
  let symlinks = 0;
  // A nested column is named by its dotted path (`addr.geo.lat`, normalize.ts `schemaColumns`), its key:
  // the limit holds for the path, counted without building it (a path is at most ~30 names of 1 KB).
  const countFields = (list: NormalizedDataset['fields'], path: string) => {
    type Field = NonNullable<NormalizedDataset['fields']>[number];
    const stack: [Field, number][] = (list ?? []).map((f) => [f, -1]);
    while (stack.length > 0) {
      const [f, parentBytes] = stack.pop()!; // -1: a top-level column
      fields++;
      const size = (parentBytes < 0 ? 0 : parentBytes + 1) + bytes(f.name);
      if (size > EVENT_LIMITS.fieldNameBytes)
        add(
          `${path}/fields`,
          `is ${size} bytes long${parentBytes < 0 ? '' : ' (a nested column: its dotted path)'}; a column name may ` +
            `have at most ${EVENT_LIMITS.fieldNameBytes} bytes (UTF-8)`,
          'fieldNameBytes',
        );
      if (f.fields) for (const c of f.fields) stack.push([c, size]);
    }
  };
  const dataset = (d: NormalizedDataset, path: string) => {
    namespace(`${path}/namespace`, d.namespace);
    name(`${path}/name`, d.name);
    if (d.source) name(`${path}/facets/dataSource`, d.source.name);
    countFields(d.fields, `${path}/facets/schema`);
    for (const s of d.symlinks) {
      symlinks++;
      namespace(`${path}/facets/symlinks`, s.namespace);
      name(`${path}/facets/symlinks`, s.name);
    }
    for (const entry of d.columnLineage) {
      fieldName(`${path}/facets/columnLineage/fields`, entry.field);
      for (const input of entry.inputFields) {
        columnInputs++;
        namespace(`${path}/facets/columnLineage`, input.namespace);
        name(`${path}/facets/columnLineage`, input.name);
        fieldName(`${path}/facets/columnLineage`, input.field);
      }
    }
    facetsOf(`${path}/facets`, [...Object.keys(d.facets), ...d.deletedFacets]);
    facetsOf(`${path}/inputFacets`, Object.keys(d.inputFacets));
    facetsOf(`${path}/outputFacets`, Object.keys(d.outputFacets));
  };

  const datasets = event.inputs.length + event.outputs.length;
  if (datasets > EVENT_LIMITS.datasetsPerEvent) {
    add(
      '',
      `has ${event.inputs.length} inputs and ${event.outputs.length} outputs; an event may name at most ` +
        `${EVENT_LIMITS.datasetsPerEvent} datasets`,
      'datasetsPerEvent',
    );
    return problems;
  }
  if (event.job) {
    namespace('/job/namespace', event.job.namespace);
    name('/job/name', event.job.name);
    facetsOf('/job/facets', [...Object.keys(event.job.facets), ...event.job.deletedFacets]);
  }
  if (event.run) {
    if (event.run.externalId.length > EVENT_LIMITS.runIdChars)
      add(
        '/run/runId',
        `is ${event.run.externalId.length} characters long; at most ${EVENT_LIMITS.runIdChars}`,
        'runIdChars',
      );
    facetsOf('/run/facets', Object.keys(event.run.facets));
    const parent = event.run.parent;
    for (const [ref, path] of [
      [parent, '/run/facets/parent'],
      [parent?.root ?? null, '/run/facets/parent/root'],
    ] as const) {
      if (!ref) continue;
      namespace(`${path}/job/namespace`, ref.job.namespace);
      name(`${path}/job/name`, ref.job.name);
      if (ref.externalRunId.length > EVENT_LIMITS.runIdChars)
        add(
          `${path}/run/runId`,
          `is ${ref.externalRunId.length} characters long; at most ${EVENT_LIMITS.runIdChars}`,
          'runIdChars',
        );
    }
  }
  for (const [i, d] of event.inputs.entries()) dataset(d, `/inputs/${i}`);
  for (const [i, d] of event.outputs.entries()) dataset(d, `/outputs/${i}`);
  if (event.dataset) dataset(event.dataset, '/dataset');

  if (fields > EVENT_LIMITS.fieldsPerEvent)
    add(
      '',
      `has ${fields} schema columns; an event may carry at most ${EVENT_LIMITS.fieldsPerEvent}`,
      'fieldsPerEvent',
    );
  if (columnInputs > EVENT_LIMITS.columnLineageInputsPerEvent) {
    add(
      '',
      `has ${columnInputs} column-lineage inputs; an event may carry at most ` +
        `${EVENT_LIMITS.columnLineageInputsPerEvent}`,
      'columnLineageInputsPerEvent',
    );
  }
  if (symlinks > EVENT_LIMITS.symlinksPerEvent)
    add(
      '',
      `has ${symlinks} symlinks; an event may carry at most ${EVENT_LIMITS.symlinksPerEvent}`,
      'symlinksPerEvent',
    );
  if (facetNames.size > EVENT_LIMITS.facetNamesPerEvent) {
    add(
      '',
      `has ${facetNames.size} distinct facet names; an event may use at most ${EVENT_LIMITS.facetNamesPerEvent}`,
      'facetNamesPerEvent',
    );
  }
  return problems;
}
