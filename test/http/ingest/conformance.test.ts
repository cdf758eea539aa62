/**
 * The OpenLineage conformance fixtures (test/fixtures/openlineage/) POSTed through the real app to
 * the real Neo4j: every event is answered 201, every facet it sent is shown by the read API where a
 * Marquez client looks for it, and the promoted values (fields, source, lifecycle state, job type,
 * nominal times, parent, column lineage, run state) read back as sent.
 */
import { expect } from 'chai';
import { serviceRunId } from '../../../src/domain/openlineage/normalize.js';
import { useTestApp, type TestApp } from '../../helper.js';
import { fixture, loadFixtures, type Event } from '../../support/conformance-fixtures.js';

const enc = encodeURIComponent;
const datasetPath = (namespace: string, name: string) => `/api/v1/namespaces/${enc(namespace)}/datasets/${enc(name)}`;
const jobPath = (namespace: string, name: string) => `/api/v1/namespaces/${enc(namespace)}/jobs/${enc(name)}`;
const runPath = (runId: string) => `/api/v1/jobs/runs/${serviceRunId(runId)}`;

const SNOWFLAKE = 'snowflake://acme-xy12345';
const PG = 'postgres://orders-db.internal:5432';

async function postAll(t: TestApp, name: string): Promise<Event[]> {
  const { events } = fixture(name);
  for (const [i, event] of events.entries()) {
    const res = await t.post('/api/v1/lineage', event);
    expect(res.status, `${name} event ${i}: ${res.text}`).to.equal(201);
  }
  return events;
}

async function read(t: TestApp, path: string): Promise<any> {
  const res = await t.get(path);
  expect(res.status, `GET ${path}: ${res.text}`).to.equal(200);
  return res.body;
}

/** Facet keys the fixture's events leave live, per entity (a later `_deleted: true` removes one). */
function liveFacets(events: Event[]) {
  const runs = new Map<string, Set<string>>();
  const jobs = new Map<string, Set<string>>();
  const datasets = new Map<string, Set<string>>();
  const ioFacets: { runId: string; side: 'input' | 'output'; namespace: string; name: string; key: string }[] = [];
  const apply = (map: Map<string, Set<string>>, id: string, slot: Record<string, any> | undefined) => {
    const keys = map.get(id) ?? new Set<string>();
    map.set(id, keys);
    for (const [key, value] of Object.entries(slot ?? {})) {
      if (value?._deleted === true) keys.delete(key);
      else keys.add(key);
    }
  };
  for (const e of events) {
    if (e.run) apply(runs, e.run.runId, e.run.facets);
    if (e.job) apply(jobs, JSON.stringify([e.job.namespace, e.job.name]), e.job.facets);
    for (const d of [...(e.inputs ?? []), ...(e.outputs ?? []), ...(e.dataset ? [e.dataset] : [])]) {
      apply(datasets, JSON.stringify([d.namespace, d.name]), d.facets);
    }
    for (const side of ['input', 'output'] as const) {
      for (const d of e[`${side}s`] ?? []) {
        for (const key of Object.keys(d[`${side}Facets`] ?? {}))
          ioFacets.push({ runId: e.run.runId, side, namespace: d.namespace, name: d.name, key });
      }
    }
  }
  return { runs, jobs, datasets, ioFacets };
}

describe('OpenLineage conformance fixtures through the HTTP API', function () {
  // Each fixture is a few events and a few reads; a loaded test machine needs more than the default.
  this.timeout(120_000);
  const t = useTestApp();

  describe('every fixture is accepted and its facets are shown where they belong', () => {
    for (const f of loadFixtures()) {
      it(f.name, async () => {
        const events = await postAll(t(), f.name);
        const { runs, jobs, datasets, ioFacets } = liveFacets(events);
        for (const [runId, keys] of runs) {
          const run = await read(t(), runPath(runId));
          expect(Object.keys(run.facets).sort(), `run ${runId}`).to.deep.equal([...keys].sort());
        }
        for (const [id, keys] of jobs) {
          const [namespace, name] = JSON.parse(id);
          const job = await read(t(), jobPath(namespace, name));
          expect(Object.keys(job.facets).sort(), `job ${id}`).to.include.members([...keys]);
          for (const gone of ['documentation', 'sql', 'jobType'].filter(
            (k) => !keys.has(k) && events.some((e) => e.job?.facets?.[k]),
          )) {
            expect(job.facets, `job ${id} ${gone} deleted`).to.not.have.property(gone);
          }
        }
        for (const [id, keys] of datasets) {
          const [namespace, name] = JSON.parse(id);
          const dataset = await read(t(), datasetPath(namespace, name));
          expect(Object.keys(dataset.facets), `dataset ${id}`).to.include.members([...keys]);
        }
        for (const io of ioFacets) {
          const run = await read(t(), runPath(io.runId));
          const versions = run[`${io.side}DatasetVersions`] as any[];
          const version = versions.find(
            (v) => v.datasetVersionId.namespace === io.namespace && v.datasetVersionId.name === io.name,
          );
          expect(version?.facets, `${io.side} facet ${io.key} of ${io.name} on run ${io.runId}`).to.have.property(
            io.key,
          );
        }
      });
    }
  });

  describe('promoted values read back', () => {
    it('schema: nested fields on the dataset and its version', async () => {
      await postAll(t(), 'dataset/schema.json');
      const dataset = await read(t(), datasetPath('s3://acme-lake', 'curated/orders'));
      expect(dataset.fields.map((f: any) => [f.name, f.type])).to.deep.equal([
        ['order_id', 'BIGINT'],
        ['customer', 'STRUCT'],
        ['line_items', 'ARRAY'],
        ['amount', 'DECIMAL(12,2)'],
      ]);
      expect(dataset.fields[0].description).to.equal('Primary key');
      expect(dataset.fields[1].fields[1].fields.map((f: any) => f.name)).to.deep.equal(['city', 'country']);
      const { versions } = await read(t(), `${datasetPath('s3://acme-lake', 'curated/orders')}/versions`);
      expect(versions).to.have.length(1);
      expect(versions[0].version).to.equal(dataset.currentVersion);
      expect(versions[0].fields).to.deep.equal(dataset.fields);
      expect(versions[0].createdByRun.id).to.equal('0190b5e4-7c1a-7d3e-9f2b-000000000301');
    });

    it('dataSource: the dataset names its source, listed under /sources', async () => {
      await postAll(t(), 'dataset/dataSource.json');
      const dataset = await read(t(), datasetPath(PG, 'shop.public.orders'));
      expect(dataset.sourceName).to.equal(PG);
      const source = await read(t(), `/api/v1/sources/${enc(PG)}`);
      expect([source.name, source.connectionUrl]).to.deep.equal([PG, `${PG}/shop`]);
    });

    it('documentation, lifecycleStateChange and datasetType', async () => {
      await postAll(t(), 'dataset/documentation.json');
      expect((await read(t(), datasetPath(SNOWFLAKE, 'ANALYTICS.STAGING.ORDERS'))).description).to.equal(
        'One row per order line, loaded daily from the shop database.',
      );
      await postAll(t(), 'dataset/lifecycleStateChange.json');
      const renamed = await read(t(), datasetPath(SNOWFLAKE, 'ANALYTICS.STAGING.ORDERS_V2'));
      expect(renamed.lastLifecycleState).to.equal('RENAME');
      const { versions } = await read(t(), `${datasetPath(SNOWFLAKE, 'ANALYTICS.STAGING.ORDERS_V2')}/versions`);
      expect(versions[0].lifecycleState).to.equal('RENAME');
      await postAll(t(), 'dataset/datasetType.json');
      expect((await read(t(), datasetPath(SNOWFLAKE, 'ANALYTICS.MART.ORDERS_V'))).facets.datasetType).to.include({
        datasetType: 'VIEW',
        subType: 'MATERIALIZED',
      });
    });

    it('columnLineage 1-0-1 and 1-2-0 (dataset-wide inputs on every output column) in /column-lineage', async () => {
      await postAll(t(), 'dataset/columnLineage-1-0-1.json');
      await postAll(t(), 'dataset/columnLineage-1-2-0.json');
      const inputsOf = async (namespace: string, name: string, field: string) => {
        const { graph } = await read(
          t(),
          `/api/v1/column-lineage?nodeId=${enc(`datasetField:${namespace}:${name}:${field}`)}&depth=1`,
        );
        const node = graph.find((n: any) => n.id === `datasetField:${namespace}:${name}:${field}`);
        return node.data.inputFields
          .map((i: any) => [
            i.dataset,
            i.field,
            i.transformations.map((x: any) => `${x.type}/${x.subtype ?? ''}`).join(','),
          ])
          .sort();
      };
      expect(await inputsOf(SNOWFLAKE, 'ANALYTICS.STAGING.ORDERS', 'amount_eur')).to.deep.equal([
        ['shop.public.fx_rates', 'rate', 'TRANSFORMED/'],
        ['shop.public.orders', 'amount', 'TRANSFORMED/'],
      ]);
      expect(await inputsOf(SNOWFLAKE, 'ANALYTICS.MART.DAILY_REVENUE', 'revenue')).to.deep.equal([
        ['ANALYTICS.STAGING.ORDERS', 'AMOUNT', 'DIRECT/AGGREGATION'],
        ['ANALYTICS.STAGING.ORDERS', 'CREATED_AT', 'INDIRECT/SORT'],
        ['ANALYTICS.STAGING.ORDERS', 'STATUS', 'INDIRECT/FILTER'],
      ]);
      expect(await inputsOf(SNOWFLAKE, 'ANALYTICS.MART.DAILY_REVENUE', 'order_day')).to.deep.equal([
        ['ANALYTICS.STAGING.ORDERS', 'CREATED_AT', 'DIRECT/TRANSFORMATION,INDIRECT/GROUP_BY,INDIRECT/SORT'],
        ['ANALYTICS.STAGING.ORDERS', 'STATUS', 'INDIRECT/FILTER'],
      ]);
    });

    it('symlinks: a dataset read by its symlinked name is the one written under its own', async () => {
      await postAll(t(), 'dataset/symlinks.json');
      const report = await read(t(), jobPath('spark-prod', 'orders_report'));
      const enrichment = await read(t(), jobPath('spark-prod', 'orders_enrichment'));
      expect(enrichment.outputs).to.deep.equal([{ namespace: 's3://acme-lake', name: 'warehouse/curated/orders' }]);
      // The read by the symlinked name is a read of the primary dataset (docs/lineage.md, Symlinks).
      expect(report.inputs).to.deep.equal([{ namespace: 's3://acme-lake', name: 'warehouse/curated/orders' }]);
      const { graph } = await read(t(), `/api/v1/lineage?nodeId=${enc('job:spark-prod:orders_report')}&depth=2`);
      const primary = graph.find((n: any) => n.id === 'dataset:s3://acme-lake:warehouse/curated/orders');
      expect(primary.inEdges.map((e: any) => e.origin)).to.deep.equal(['job:spark-prod:orders_enrichment']);
      expect(primary.outEdges.map((e: any) => e.destination)).to.deep.equal(['job:spark-prod:orders_report']);
      expect(graph.map((n: any) => n.id)).to.not.include('dataset:hive://metastore.internal:9083:curated.orders');
    });

    it('jobType, sql, sourceCodeLocation and documentation on the job and its version', async () => {
      await postAll(t(), 'events/job-2-0-2.json');
      const job = await read(t(), jobPath('dbt-prod', 'jaffle_shop.orders'));
      expect(job.description).to.equal('Orders mart model');
      expect(job.context).to.deep.equal({ sql: 'select * from {{ ref("stg_orders") }}' });
      expect(job.facets.jobType).to.include({ processingType: 'BATCH', integration: 'DBT', jobType: 'MODEL' });
      expect(job.inputs).to.deep.equal([{ namespace: SNOWFLAKE, name: 'ANALYTICS.STAGING.ORDERS' }]);
      expect(job.outputs).to.deep.equal([{ namespace: SNOWFLAKE, name: 'ANALYTICS.MART.ORDERS' }]);
      await postAll(t(), 'job/jobType-streaming.json');
      expect((await read(t(), jobPath('flink-prod', 'clickstream_to_lake'))).type).to.equal('STREAM');
      await postAll(t(), 'job/sourceCodeLocation.json');
      const located = await read(t(), jobPath('airflow-prod', 'orders_daily.load_orders'));
      expect(located.location).to.equal(
        'https://github.com/acme/data-pipelines/blob/9b1c3f7e2d4a/dags/orders_daily.py',
      );
      const { versions } = await read(t(), `${jobPath('airflow-prod', 'orders_daily.load_orders')}/versions`);
      expect(versions[0].location).to.equal(located.location);
    });

    it('nominalTime, parent and errorMessage on the run; run states through a whole lifecycle', async () => {
      await postAll(t(), 'run/nominalTime.json');
      const nominal = await read(t(), runPath('0190b5e4-7c1a-7d3e-9f2b-000000000101'));
      expect([nominal.nominalStartTime, nominal.nominalEndTime]).to.deep.equal([
        '2026-06-01T00:00:00.000Z',
        '2026-06-02T00:00:00.000Z',
      ]);
      await postAll(t(), 'run/parent.json');
      const child = await read(t(), jobPath('airflow-prod', 'orders_daily.load_orders'));
      expect(child.parentJobName).to.equal('orders_daily');
      await postAll(t(), 'run/errorMessage.json');
      const failed = await read(t(), runPath('0190b5e4-7c1a-7d3e-9f2b-000000000104'));
      expect(failed.state).to.equal('FAILED');
      expect(failed.facets.errorMessage.message).to.equal(
        'psycopg2.errors.UndefinedColumn: column "discount_code" does not exist',
      );
      await postAll(t(), 'events/run-2-0-2-lifecycle.json');
      const done = await read(t(), runPath('0190b5e4-7c1a-7d3e-9f2b-000000000601'));
      expect([done.state, done.startedAt, done.endedAt]).to.deep.equal([
        'COMPLETED',
        '2026-06-01T04:00:00.000Z',
        '2026-06-01T04:03:00.000Z',
      ]);
      expect(done.facets.processing_engine).to.include({ name: 'spark', version: '3.5.3' });
      await postAll(t(), 'events/run-2-0-2-abort.json');
      expect((await read(t(), runPath('0190b5e4-7c1a-7d3e-9f2b-000000000602'))).state).to.equal('ABORTED');
      await postAll(t(), 'events/run-1-0-5-defs-fail.json');
      expect((await read(t(), runPath('7a1d2c3b-4e5f-4a6b-9c7d-8e9f0a1b2c3d'))).state).to.equal('FAILED');
    });

    it('a DatasetEvent and a JobEvent of the older schemas create their dataset and job', async () => {
      await postAll(t(), 'events/dataset-2-0-1-definitions.json');
      expect((await read(t(), datasetPath(PG, 'shop.public.vouchers'))).lastLifecycleState).to.equal('CREATE');
      await postAll(t(), 'events/job-2-0-0-definitions.json');
      const job = await read(t(), jobPath('dbt-prod', 'jaffle_shop.customers_snapshot'));
      expect(job.outputs).to.deep.equal([{ namespace: SNOWFLAKE, name: 'ANALYTICS.SNAPSHOTS.CUSTOMERS' }]);
      expect(job.latestRun).to.equal(null);
    });

    it('every event is listed by /events/lineage as it was sent', async () => {
      const sent = await postAll(t(), 'events/run-1-0-5-definitions.json');
      const { events } = await read(t(), '/api/v1/events/lineage?limit=10');
      expect(events).to.have.length(sent.length);
      const types = events.map((e: any) => e.eventType).sort();
      expect(types).to.deep.equal(['COMPLETE', 'RUNNING', 'START']);
      const start = events.find((e: any) => e.eventType === 'START');
      expect(start.schemaURL).to.equal('https://openlineage.io/spec/1-0-5/OpenLineage.json#/definitions/RunEvent');
      expect(start.run.facets).to.deep.equal(sent[0].run.facets);
    });
  });
});
