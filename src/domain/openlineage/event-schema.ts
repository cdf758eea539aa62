/**
 * JSON Schema (as ajv 8 reads it) of an OpenLineage event: RunEvent, JobEvent and DatasetEvent of spec
 * 1-0-x and 2-0-x, written from the spec's required fields.
 *
 * The same objects are the request body of POST /api/v1/lineage in the OpenAPI document
 * (`components.schemas`, see EVENT_SCHEMAS), so the only reference inside them is written as a
 * component reference, which resolves the same way in validate.ts and in the document.
 *
 * It enforces what ingestion relies on and stays lenient where real producers are:
 * - unknown keys and custom facets are allowed everywhere (no `additionalProperties: false`);
 * - `schemaURL` may be missing or null (normalize.ts fills in a default), and is never dereferenced,
 *   so `#/definitions/` and `#/$defs/` URLs are equally fine;
 * - runIds are any non-empty string (normalize.ts maps non-UUIDs to name-based UUIDs);
 * - well-known facets are only checked where normalization reads them (e.g. `schema.fields[].name`),
 *   so a producer's odd but harmless facet content never costs the whole event;
 * - the kind rule (run+job / job / dataset) is applied in validate.ts, which also gives the message.
 */

/** ajv format name for eventTime; registered in validate.ts (any ISO-8601 precision and offset). */
export const EVENT_TIME_FORMAT = 'openlineage-date-time';

export const EVENT_TYPES = ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] as const;

const nonEmptyString = { type: 'string', minLength: 1 } as const;

const SCHEMA_FIELD_REF = '#/components/schemas/OpenLineageSchemaField';

/** Every facet is an object; its content beyond what we promote is the producer's business. */
const facet = { type: 'object' } as const;

/** A facet slot: facet name → facet object. */
const facetMap = { type: 'object', additionalProperties: facet } as const;

/** Only the keys normalization reads: a column needs a name; nested columns recurse. */
const schemaField = {
  type: 'object',
  required: ['name'],
  properties: {
    name: nonEmptyString,
    fields: { type: 'array', items: { $ref: SCHEMA_FIELD_REF } },
  },
} as const;

const schemaFacet = {
  type: 'object',
  properties: { fields: { type: 'array', items: { $ref: SCHEMA_FIELD_REF } } },
} as const;

/**
 * `identifiers` is not required to be a list: the official Python client's legacy
 * `openlineage.client.facet.SymlinksDatasetFacet()` (still shipped in 1.54.0) defaults it to `{}`,
 * which names no symlink. `items` still checks every identifier of a list; anything else is read
 * as no symlinks (normalize.ts), not a reason to refuse the event.
 */
const symlinksFacet = {
  type: 'object',
  properties: {
    identifiers: {
      items: {
        type: 'object',
        required: ['namespace', 'name'],
        properties: { namespace: nonEmptyString, name: nonEmptyString },
      },
    },
  },
} as const;

/** An input column of a column-lineage entry: it becomes a graph edge, so it must name a real column. */
const columnLineageInput = {
  type: 'object',
  required: ['namespace', 'name', 'field'],
  properties: {
    namespace: nonEmptyString,
    name: nonEmptyString,
    field: nonEmptyString,
    transformations: { type: 'array', items: { type: 'object' } },
  },
} as const;

const columnLineageFacet = {
  type: 'object',
  properties: {
    fields: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['inputFields'],
        properties: { inputFields: { type: 'array', items: columnLineageInput } },
      },
    },
    // ColumnLineage 1-2-0: input columns that affect every output column (normalize.ts spreads them).
    dataset: { type: 'array', items: columnLineageInput },
  },
} as const;

/**
 * The dataset `facets` slot. Keys listed in `properties` escape `additionalProperties`, so each of
 * them repeats `type: object` itself.
 */
const datasetFacetMap = {
  type: 'object',
  additionalProperties: facet,
  properties: { schema: schemaFacet, symlinks: symlinksFacet, columnLineage: columnLineageFacet },
} as const;

const dataset = {
  type: 'object',
  required: ['namespace', 'name'],
  properties: {
    namespace: nonEmptyString,
    name: nonEmptyString,
    facets: datasetFacetMap,
    inputFacets: facetMap,
    outputFacets: facetMap,
  },
} as const;

/** Run facets (parent, nominalTime, ...) are read defensively in normalize.ts: an odd one is ignored. */
const run = {
  type: 'object',
  required: ['runId'],
  properties: { runId: nonEmptyString, facets: facetMap },
} as const;

const job = {
  type: 'object',
  required: ['namespace', 'name'],
  properties: { namespace: nonEmptyString, name: nonEmptyString, facets: facetMap },
} as const;

export const eventSchema = {
  type: 'object',
  description:
    'An OpenLineage event (spec 1-0-x or 2-0-x): a RunEvent has `run` and `job`; a JobEvent `job` (no `dataset`); a ' +
    'DatasetEvent `dataset`. Unknown keys and custom facets are kept.',
  required: ['eventTime', 'producer'],
  properties: {
    // null is read as "absent": the spec makes eventType optional and some serializers write nulls.
    eventType: { enum: [...EVENT_TYPES, null] },
    eventTime: { type: 'string', format: EVENT_TIME_FORMAT },
    producer: nonEmptyString,
    schemaURL: { type: ['string', 'null'] },
    run,
    job,
    inputs: { type: 'array', items: dataset },
    outputs: { type: 'array', items: dataset },
    dataset,
  },
} as const;

/** The event schema and what it references, by component name. */
export const EVENT_SCHEMAS = { OpenLineageEvent: eventSchema, OpenLineageSchemaField: schemaField } as const;
