/**
 * JSON Schema of an OpenLineage event (RunEvent, JobEvent, DatasetEvent; spec 1-0-x and 2-0-x),
 * written from the spec's required fields. It enforces what ingestion relies on and stays lenient
 * where real producers are: unknown keys and custom facets are allowed everywhere, `schemaURL` may
 * be missing, runIds need not be UUIDs. eventTime is checked in normalize.ts (offsets, precision).
 */
const nonEmpty = { type: 'string', minLength: 1 } as const;
const facet = { type: 'object' } as const;
const facets = { type: 'object', additionalProperties: facet } as const;

const schemaField: Record<string, unknown> = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    type: { type: ['string', 'null'] },
    description: { type: ['string', 'null'] },
    fields: { type: 'array', items: { $ref: '#/$defs/schemaField' } },
  },
};

const datasetFacets = {
  type: 'object',
  additionalProperties: facet,
  properties: {
    schema: { type: 'object', properties: { fields: { type: 'array', items: { $ref: '#/$defs/schemaField' } } } },
    symlinks: {
      type: 'object',
      properties: { identifiers: { type: 'array', items: { type: 'object', required: ['namespace', 'name'], properties: { namespace: nonEmpty, name: nonEmpty } } } },
    },
    columnLineage: {
      type: 'object',
      properties: {
        fields: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['inputFields'],
            properties: {
              inputFields: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['namespace', 'name', 'field'],
                  properties: { namespace: nonEmpty, name: nonEmpty, field: nonEmpty, transformations: { type: 'array', items: { type: 'object' } } },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

const dataset = {
  type: 'object',
  required: ['namespace', 'name'],
  properties: { namespace: nonEmpty, name: nonEmpty, facets: datasetFacets, inputFacets: facets, outputFacets: facets },
} as const;

export const eventSchema = {
  $id: 'https://lineage.local/schemas/openlineage-event.json',
  type: 'object',
  required: ['eventTime', 'producer'],
  properties: {
    eventType: { enum: ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] },
    eventTime: nonEmpty,
    producer: nonEmpty,
    schemaURL: { type: 'string' },
    run: {
      type: 'object',
      required: ['runId'],
      properties: {
        runId: nonEmpty,
        facets: {
          type: 'object',
          additionalProperties: facet,
          properties: {
            parent: { type: 'object', properties: { run: { type: 'object' }, job: { type: 'object' } } },
            nominalTime: { type: 'object', properties: { nominalStartTime: { type: 'string' }, nominalEndTime: { type: ['string', 'null'] } } },
          },
        },
      },
    },
    job: {
      type: 'object',
      required: ['namespace', 'name'],
      properties: { namespace: nonEmpty, name: nonEmpty, facets },
    },
    inputs: { type: 'array', items: dataset },
    outputs: { type: 'array', items: dataset },
    dataset,
  },
  $defs: { schemaField },
} as const;
