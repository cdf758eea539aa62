/**
 * Marquez's legacy write API, which marquez-python and older integrations still call. Deprecated:
 * send OpenLineage events. Each call (but PUT source) is turned into the OpenLineage event a producer
 * would have sent and goes through the same validation, namespace check and committer as POST
 * /api/v1/lineage, so every rule of ingestion holds (idempotency, run states, versions, lineage):
 *
 * - PUT /namespaces/{ns}/datasets/{dataset} → a DatasetEvent with the dataSource (from the named
 *   source), schema and documentation facets; with `runId`, a RunEvent (no eventType) of that run
 *   with the dataset as an output. Tags are then applied as by the tag routes. `physicalName` and
 *   `schemaLocation` are accepted and not kept (the name is the physical name here).
 * - PUT /namespaces/{ns}/jobs/{job} → a JobEvent with its inputs and outputs and the jobType,
 *   sourceCodeLocation, documentation and sql (`context.sql`) facets. Other context keys and `runId`
 *   are accepted and not kept.
 * - POST /namespaces/{ns}/jobs/{job}/runs → a RunEvent OTHER (the run is NEW) with the nominalTime
 *   facet; `args` are accepted and not kept.
 * - POST /jobs/runs/{id}/start|complete|fail|abort (`?at=` the time, default now) → a RunEvent
 *   START|COMPLETE|FAIL|ABORT of the run's job, with the job's current inputs (and outputs when the
 *   run ends), as Marquez ties a run to its job's current version.
 * - PUT /sources/{source} writes the Source node directly: no OpenLineage event carries a source alone.
 *   A dataSource facet reported with an earlier eventTime still wins (ingest/datasets-upsert.cypher).
 */
import crypto from 'node:crypto';
import Router from '@koa/router';
import { Type } from '@sinclair/typebox';
import type { Context } from 'koa';
import type { Services } from '../../services.js';
import { HttpError, notFound } from '../errors.js';
import { Param } from '../params.js';
import { routes, type RouteRuntime } from '../route.js';
import { principalOf } from '../auth.js';
import { checkNamespaces, invalidEvent } from './lineage-ingest.js';
import { SourceParams } from './sources.js';
import { DatasetParams } from './datasets.js';
import { JobParams, RunParams } from './jobs.js';
import { parseEvent, serviceRunId } from '../../domain/openlineage/normalize.js';
import { RunJobConflict } from '../../domain/ingest/run-fold.js';
import { IngestOverloaded } from '../../ingest/committer.js';
import { toHttpError } from '../middleware/errors.js';
import { Dataset, Job, Nullable, Run, Source } from '../../api/schemas.js';

/** The producer of the events this API makes, as stored with them (GET /events/lineage). */
export const LEGACY_PRODUCER = 'https://github.com/lineage-graph-service/legacy-write-api';
const SCHEMA_BASE = 'https://openlineage.io/spec/facets/1-0-0';

type Obj = Record<string, unknown>;
const facet = (name: string, body: Obj): Obj => ({
  _producer: LEGACY_PRODUCER,
  _schemaURL: `${SCHEMA_BASE}/${name}.json`,
  ...body,
});

const Ref = Type.Object({ namespace: Type.String({ minLength: 1 }), name: Type.String({ minLength: 1 }) });

const SourceMeta = Type.Object({
  type: Type.String({ minLength: 1, examples: ['POSTGRESQL'] }),
  connectionUrl: Type.String({ minLength: 1, examples: ['postgresql://db:5432/analytics'] }),
  description: Type.Optional(Nullable(Type.String())),
});

const FieldMeta = Type.Object({
  name: Type.String({ minLength: 1 }),
  type: Type.Optional(Nullable(Type.String())),
  description: Type.Optional(Nullable(Type.String())),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
});

const DatasetMeta = Type.Object({
  type: Type.Union([Type.Literal('DB_TABLE'), Type.Literal('STREAM')]),
  physicalName: Type.String({ minLength: 1 }),
  sourceName: Type.String({ minLength: 1 }),
  fields: Type.Optional(Type.Array(FieldMeta)),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  description: Type.Optional(Nullable(Type.String())),
  runId: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  schemaLocation: Type.Optional(Nullable(Type.String())),
});

const JobMeta = Type.Object({
  type: Type.Union([Type.Literal('BATCH'), Type.Literal('STREAM'), Type.Literal('SERVICE')]),
  inputs: Type.Optional(Type.Array(Ref)),
  outputs: Type.Optional(Type.Array(Ref)),
  location: Type.Optional(Nullable(Type.String())),
  description: Type.Optional(Nullable(Type.String())),
  context: Type.Optional(Type.Record(Type.String(), Type.String())),
  runId: Type.Optional(Nullable(Type.String())),
});

const RunMeta = Type.Object({
  id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  nominalStartTime: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  nominalEndTime: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  args: Type.Optional(Nullable(Type.Record(Type.String(), Type.String()))),
});

const TRANSITIONS = { start: 'START', complete: 'COMPLETE', fail: 'FAIL', abort: 'ABORT' } as const;
/** How each transition's summary says what it does. */
const DONE: Record<keyof typeof TRANSITIONS, string> = {
  start: 'started',
  complete: 'as completed',
  fail: 'as failed',
  abort: 'as aborted',
};

export function legacyRouter(
  { committer, facetKeys, sources, datasets, jobs, runs, metrics }: Services,
  runtime: RouteRuntime,
): Router {
  const router = new Router();
  const declare = routes(runtime, router);
  const tags = ['Legacy write API'];
  const deprecated = true;

  /** Validates, checks the key's namespaces and commits an event made here, as POST /lineage does. */
  async function send(ctx: Context, raw: Obj): Promise<void> {
    const parsed = parseEvent(raw);
    if (!parsed.ok) {
      const problems = parsed.problems;
      if (problems.some((p) => p.limit)) throw invalidEvent(problems);
      throw new HttpError(
        422,
        'validation_failed',
        `Invalid request: ${problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ')}`,
        {
          errors: problems.map((p) => ({ ...p, in: 'body' })),
        },
      );
    }
    const event = parsed.event;
    checkNamespaces(principalOf(ctx), event, metrics);
    try {
      await facetKeys.admit(event);
      await committer.submit(event);
    } catch (err) {
      metrics.eventsIngested.labels(event.kind, 'failed').inc();
      if (err instanceof RunJobConflict) throw new HttpError(409, 'conflict', err.message);
      if (err instanceof IngestOverloaded) throw new HttpError(503, 'overloaded', err.message);
      throw toHttpError(err) ?? new HttpError(503, 'unavailable', 'The call could not be stored; retry later');
    }
    metrics.eventsIngested.labels(event.kind, 'stored').inc();
  }

  const base = (eventTime = new Date().toISOString()) => ({ eventTime, producer: LEGACY_PRODUCER });
  const runEventUrl = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

  declare({
    method: 'PUT',
    path: '/sources/:source',
    operationId: 'putSource',
    summary: 'Create or replace a data source (legacy)',
    tags,
    deprecated,
    scope: 'write',
    params: SourceParams,
    body: {
      schema: SourceMeta,
      what: 'a JSON object such as {"type": "POSTGRESQL", "connectionUrl": "postgresql://db:5432/x"}',
    },
    success: { status: 200, description: 'The source', schema: Source },
    handler: async ({ params, body }) =>
      sources.upsert(params.source, {
        type: body.type,
        connectionUrl: body.connectionUrl,
        description: body.description ?? null,
      }),
  });

  declare({
    method: 'PUT',
    path: '/namespaces/:namespace/datasets/:dataset',
    operationId: 'putDataset',
    summary: 'Create or update a dataset (legacy): recorded as a DatasetEvent',
    tags,
    deprecated,
    scope: 'write',
    params: DatasetParams,
    body: {
      schema: DatasetMeta,
      what: 'a JSON object such as {"type": "DB_TABLE", "physicalName": "public.orders", "sourceName": "analytics_db"}',
    },
    success: { status: 200, description: 'The dataset as stored', schema: Dataset },
    errors: {
      403: "The key may not write into the dataset's namespace",
      404: 'No such source (or run, with runId)',
      409: 'The run id belongs to another job',
    },
    handler: async ({ params: { namespace, dataset }, body }, ctx) => {
      const source = await sources.get(body.sourceName);
      if (!source) throw notFound(`Source '${body.sourceName}' not found.`);
      const facets: Obj = {
        dataSource: facet('DatasourceDatasetFacet', { name: source.name, uri: source.connectionUrl ?? '' }),
        datasetType: facet('DatasetTypeDatasetFacet', { datasetType: body.type }),
      };
      if (body.fields)
        facets.schema = facet('SchemaDatasetFacet', {
          fields: body.fields.map((f) => ({ name: f.name, type: f.type ?? null, description: f.description ?? null })),
        });
      if (body.description)
        facets.documentation = facet('DocumentationDatasetFacet', { description: body.description });
      const ds = { namespace, name: dataset, facets };
      if (body.runId) {
        const runId = body.runId;
        const job = await runs.jobOf(runId);
        if (!job) throw notFound(`Run '${runId}' not found.`);
        await send(ctx, { ...base(), schemaURL: runEventUrl, run: { runId }, job, inputs: [], outputs: [ds] });
      } else {
        await send(ctx, {
          ...base(),
          schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
          dataset: ds,
        });
      }
      for (const tag of body.tags ?? []) await datasets.tag(namespace, dataset, tag);
      for (const f of body.fields ?? [])
        for (const tag of f.tags ?? []) await datasets.tagField(namespace, dataset, f.name, tag);
      const stored = await datasets.get(namespace, dataset);
      if (!stored) throw new HttpError(503, 'unavailable', 'The dataset was stored but cannot be read back yet; retry');
      return stored;
    },
  });

  declare({
    method: 'PUT',
    path: '/namespaces/:namespace/jobs/:job',
    operationId: 'putJob',
    summary: 'Create or update a job (legacy): recorded as a JobEvent',
    tags,
    deprecated,
    scope: 'write',
    params: JobParams,
    body: {
      schema: JobMeta,
      what: 'a JSON object such as {"type": "BATCH", "inputs": [{"namespace": "db", "name": "a"}], "outputs": []}',
    },
    success: { status: 200, description: 'The job as stored', schema: Job },
    errors: { 403: "The key may not write into the job's or a dataset's namespace" },
    handler: async ({ params: { namespace, job }, body }, ctx) => {
      const facets: Obj = {
        jobType: facet('JobTypeJobFacet', {
          processingType: body.type === 'STREAM' ? 'STREAMING' : 'BATCH',
          integration: 'MARQUEZ',
          jobType: body.type === 'SERVICE' ? 'SERVICE' : 'JOB',
        }),
      };
      if (body.location)
        facets.sourceCodeLocation = facet('SourceCodeLocationJobFacet', { type: 'unknown', url: body.location });
      if (body.description) facets.documentation = facet('DocumentationJobFacet', { description: body.description });
      if (body.context?.sql) facets.sql = facet('SQLJobFacet', { query: body.context.sql });
      await send(ctx, {
        ...base(),
        schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
        job: { namespace, name: job, facets },
        inputs: body.inputs ?? [],
        outputs: body.outputs ?? [],
      });
      const stored = await jobs.get(namespace, job);
      if (!stored) throw new HttpError(503, 'unavailable', 'The job was stored but cannot be read back yet; retry');
      return stored;
    },
  });

  declare({
    method: 'POST',
    path: '/namespaces/:namespace/jobs/:job/runs',
    operationId: 'createRun',
    summary: 'Create a run of a job (legacy): recorded as a RunEvent OTHER, so the run is NEW',
    tags,
    deprecated,
    scope: 'write',
    params: JobParams,
    body: {
      schema: RunMeta,
      required: false,
      what: 'a JSON object such as {"nominalStartTime": "2024-06-01T00:00:00Z"}',
    },
    success: { status: 201, description: 'The run', schema: Run },
    errors: {
      403: "The key may not write into the job's namespace",
      404: 'No such job',
      409: 'The run id belongs to another job',
    },
    handler: async ({ params: { namespace, job }, body }, ctx) => {
      const current = await jobs.get(namespace, job);
      if (!current) throw notFound(`Job '${job}' not found in namespace '${namespace}'.`);
      const runId = body?.id ?? crypto.randomUUID();
      const runFacets: Obj = {};
      if (body?.nominalStartTime) {
        runFacets.nominalTime = facet('NominalTimeRunFacet', {
          nominalStartTime: body.nominalStartTime,
          ...(body.nominalEndTime ? { nominalEndTime: body.nominalEndTime } : {}),
        });
      }
      await send(ctx, {
        ...base(),
        eventType: 'OTHER',
        schemaURL: runEventUrl,
        run: { runId, facets: runFacets },
        job: { namespace, name: job, facets: current.facets },
      });
      const run = await runs.get(serviceRunId(runId));
      if (!run) throw new HttpError(503, 'unavailable', 'The run was stored but cannot be read back yet; retry');
      return run;
    },
  });

  for (const [action, eventType] of Object.entries(TRANSITIONS)) {
    declare({
      method: 'POST',
      path: `/jobs/runs/:runId/${action}`,
      operationId: `${action}Run`,
      summary: `Mark a run ${DONE[action as keyof typeof TRANSITIONS]} (legacy): recorded as a RunEvent ${eventType}`,
      tags,
      deprecated,
      scope: 'write',
      params: RunParams,
      query: { at: Type.Optional(Param.instant('When it happened (default: now)')) },
      success: { status: 200, description: 'The run', schema: Run },
      errors: { 403: "The key may not write into the job's namespace", 404: 'No such run' },
      handler: async ({ params, query }, ctx) => {
        const job = await runs.jobOf(params.runId);
        if (!job) throw notFound(`Run '${ctx.params.runId}' not found.`);
        const current = await jobs.get(job.namespace, job.name);
        const ends = eventType !== 'START';
        await send(ctx, {
          ...base((query.at ?? new Date()).toISOString()),
          eventType,
          schemaURL: runEventUrl,
          run: { runId: params.runId },
          // As producers do: the job's facets with each run event (its version depends on its code).
          job: { ...job, facets: current?.facets ?? {} },
          inputs: current?.inputs ?? [],
          outputs: ends ? (current?.outputs ?? []) : [],
        });
        const run = await runs.get(params.runId);
        if (!run) throw new HttpError(503, 'unavailable', 'The run was stored but cannot be read back yet; retry');
        return run;
      },
    });
  }

  return router;
}
