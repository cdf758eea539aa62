/**
 * What the Marquez Python client and side-by-side comparisons with Marquez expect: the `default`
 * source, job version ids with their version, an empty 201 for an event, a dataset's column lineage, a
 * job's latest runs, and the legacy write API (each call recorded as an OpenLineage event through the
 * same ingest path).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../helper.js';
import { completedRun, DEFAULT_DATASET_NS, facet, runEvent } from '../support/events.js';
import type { Dataset, Job, JobVersion, LineageGraph, Run, Source } from '../../src/api/types.js';

const enc = encodeURIComponent;

describe('Marquez compatibility', () => {
  const t = useTestApp();
  const call = async <T = any>(method: string, path: string, status: number, body?: unknown) => {
    const res = await t().request<T>(method, path, { body });
    expect(res.status, `${method} ${path}: ${res.text}`).to.equal(status);
    return res.body;
  };

  it('POST /lineage answers an empty 201', async () => {
    const res = await t().post('/api/v1/lineage', runEvent());
    expect(res.status).to.equal(201);
    expect(res.text).to.equal('');
    expect(res.headers.get('content-type')).to.equal(null);
  });

  it('a dataset naming no dataSource comes from the `default` source, which /sources lists', async () => {
    expect((await call('GET', '/api/v1/sources', 200)).totalCount, 'nothing yet').to.equal(0);
    for (const e of completedRun({ job: 'j', outputs: ['plain'] })) await call('POST', '/api/v1/lineage', 201, e);
    const ds = await call<Dataset>('GET', `/api/v1/namespaces/${enc(DEFAULT_DATASET_NS)}/datasets/plain`, 200);
    expect(ds.sourceName).to.equal('default');
    const sources = await call('GET', '/api/v1/sources', 200);
    expect(sources.sources.map((s: Source) => s.name)).to.deep.equal(['default']);
    const source = await call<Source>('GET', '/api/v1/sources/default', 200);
    expect(source).to.include({ name: 'default', connectionUrl: null });
    expect(source.createdAt).to.equal(ds.createdAt);
  });

  it("a job version's id names its version", async () => {
    for (const e of completedRun({ job: 'versioned', inputs: ['a'], outputs: ['b'] }))
      await call('POST', '/api/v1/lineage', 201, e);
    const job = await call<Job>('GET', '/api/v1/namespaces/airflow/jobs/versioned', 200);
    const versions = await call('GET', '/api/v1/namespaces/airflow/jobs/versioned/versions', 200);
    const v: JobVersion = versions.versions[0];
    expect(v.id).to.deep.equal({ namespace: 'airflow', name: 'versioned', version: job.currentVersion });
    expect(
      (await call<JobVersion>('GET', `/api/v1/namespaces/airflow/jobs/versioned/versions/${v.version}`, 200)).id,
    ).to.deep.equal(v.id);
  });

  it("a dataset's columnLineage has Marquez's shape, from either form of the facet", async () => {
    const NS = DEFAULT_DATASET_NS;
    const columnLineage = facet(
      {
        fields: {
          // ColumnLineage 1-2-0: transformations on each input column.
          total: {
            inputFields: [
              {
                namespace: NS,
                name: 'orders',
                field: 'amount',
                transformations: [
                  { type: 'DIRECT', subtype: 'AGGREGATION', description: 'sum of amount', masking: false },
                  { type: 'INDIRECT', subtype: 'GROUP_BY' },
                ],
              },
              { namespace: NS, name: 'orders', field: 'tax' },
            ],
          },
          // ColumnLineage 1-0-x: one transformation for the output column.
          customer_id: {
            inputFields: [{ namespace: NS, name: 'customers', field: 'id' }],
            transformationType: 'IDENTITY',
            transformationDescription: 'copied',
          },
        },
        // Input columns affecting every output column (a filter).
        dataset: [{ namespace: NS, name: 'orders', field: 'region', transformations: [{ type: 'INDIRECT' }] }],
      },
      'ColumnLineageDatasetFacet',
    );
    const output = {
      name: 'totals',
      fields: [
        ['total', 'DECIMAL'],
        ['customer_id', 'INTEGER'],
      ] as [string, string][],
      facets: { columnLineage },
    };
    for (const e of completedRun({ job: 'agg', inputs: ['orders', 'customers'], outputs: [output] }))
      await call('POST', '/api/v1/lineage', 201, e);
    const input = (dataset: string, field: string, type: string | null, description: string | null = null) => ({
      namespace: NS,
      dataset,
      field,
      transformationDescription: description,
      transformationType: type,
    });
    const region = input('orders', 'region', 'INDIRECT');
    const expected = [
      {
        name: 'customer_id',
        inputFields: [input('customers', 'id', 'IDENTITY', 'copied'), region],
        transformationDescription: 'copied',
        transformationType: 'IDENTITY',
      },
      {
        name: 'total',
        inputFields: [input('orders', 'amount', 'DIRECT', 'sum of amount'), input('orders', 'tax', null), region],
        transformationDescription: 'sum of amount',
        transformationType: 'DIRECT',
      },
    ];
    const ds = await call<Dataset>('GET', `/api/v1/namespaces/${enc(NS)}/datasets/totals`, 200);
    expect(ds.columnLineage).to.deep.equal(expected);
    expect(ds.facets.columnLineage, 'the facet as sent').to.deep.equal(columnLineage);
    const base = `/api/v1/namespaces/${enc(NS)}/datasets`;
    const version = await call('GET', `${base}/totals/versions/${ds.currentVersion}`, 200);
    expect(version.columnLineage).to.deep.equal(expected);
    const plain = await call<Dataset>('GET', `${base}/orders`, 200);
    expect(plain.columnLineage).to.equal(null);
  });

  it("a job's labels are its jobType facet's jobType then integration, as Marquez", async () => {
    const jobType = facet({ processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' }, 'JobTypeJobFacet');
    await call('POST', '/api/v1/lineage', 201, runEvent({ job: 'typed', jobNamespace: 'ns', jobFacets: { jobType } }));
    expect((await call<Job>('GET', '/api/v1/namespaces/ns/jobs/typed', 200)).labels).to.deep.equal(['TASK', 'AIRFLOW']);
  });

  describe("a job's latestRuns", () => {
    /** `n` runs of `job`, each START an hour after the one before; their ids, newest first. */
    async function runs(job: string, n: number) {
      const ids: string[] = [];
      const events = Array.from({ length: n }, (_, i) => {
        const runId = randomUUID();
        ids.unshift(runId);
        return runEvent({ runId, job, eventTime: new Date(Date.UTC(2024, 0, 1, i)).toISOString() });
      });
      expect((await t().post('/api/v1/lineage/batch', events)).status).to.equal(200);
      return ids;
    }
    const ids = (list: Run[]) => list.map((r) => r.id);

    it('GET job holds its 10 latest runs, newest first, as GET .../runs lists them', async () => {
      const newest = await runs('busy', 12);
      const job = await call<Job>('GET', '/api/v1/namespaces/airflow/jobs/busy', 200);
      expect(ids(job.latestRuns)).to.deep.equal(newest.slice(0, 10));
      expect(job.latestRuns[0]).to.deep.equal(job.latestRun);
      const listed = await call('GET', '/api/v1/namespaces/airflow/jobs/busy/runs?limit=10', 200);
      expect(job.latestRuns).to.deep.equal(listed.runs);
      await runs('rare', 2);
      const rare = await call<Job>('GET', '/api/v1/namespaces/airflow/jobs/rare', 200);
      expect(rare.latestRuns).to.have.length(2);
    });

    it('the job lists hold 10 per job too, fewer on pages of more than 100 jobs (1,000 runs a page)', async () => {
      const busy = await runs('busy', 12);
      const other = await runs('other', 3);
      for (const path of ['/api/v1/jobs', '/api/v1/namespaces/airflow/jobs', '/api/v1/jobs?lastRunStates=RUNNING']) {
        const { jobs } = await call('GET', path, 200);
        expect(
          jobs.map((j: Job) => [j.name, ids(j.latestRuns)]),
          path,
        ).to.deep.equal([
          ['busy', busy.slice(0, 10)],
          ['other', other],
        ]);
        expect(jobs[0].latestRuns[0]).to.deep.equal(jobs[0].latestRun);
      }
      const wide = await call('GET', '/api/v1/namespaces/airflow/jobs?limit=400', 200);
      expect(wide.jobs.map((j: Job) => ids(j.latestRuns))).to.deep.equal([busy.slice(0, 2), other.slice(0, 2)]);
      const widest = await call('GET', '/api/v1/jobs?limit=1000', 200);
      expect(widest.jobs.map((j: Job) => ids(j.latestRuns))).to.deep.equal([busy.slice(0, 1), other.slice(0, 1)]);
    });
  });

  describe('the legacy write API (marquez-python)', () => {
    const DB = 'postgres://db:5432';

    async function setUp() {
      await call('PUT', '/api/v1/namespaces/legacy', 200, { ownerName: 'me' });
      const source = await call<Source>('PUT', '/api/v1/sources/analytics_db', 200, {
        type: 'POSTGRESQL',
        connectionUrl: 'postgresql://db:5432/analytics',
        description: 'warehouse',
      });
      expect(source).to.include({
        name: 'analytics_db',
        type: 'POSTGRESQL',
        connectionUrl: 'postgresql://db:5432/analytics',
        description: 'warehouse',
      });
      for (const name of ['public.orders', 'public.totals']) {
        const ds = await call<Dataset>('PUT', `/api/v1/namespaces/${enc(DB)}/datasets/${name}`, 200, {
          type: 'DB_TABLE',
          physicalName: name,
          sourceName: 'analytics_db',
          fields: [
            { name: 'id', type: 'INTEGER', tags: ['PK'] },
            { name: 'amount', type: 'DECIMAL', description: 'in cents' },
          ],
          description: `the ${name} table`,
          tags: ['tier1'],
        });
        expect(ds).to.include({ name, sourceName: 'analytics_db', description: `the ${name} table` });
        expect(ds.fields.map((f) => [f.name, f.type, f.tags])).to.deep.equal([
          ['id', 'INTEGER', ['PK']],
          ['amount', 'DECIMAL', []],
        ]);
        expect(ds.tags).to.deep.equal(['tier1']);
      }
      const job = await call<Job>('PUT', '/api/v1/namespaces/legacy/jobs/aggregate', 200, {
        type: 'BATCH',
        inputs: [{ namespace: DB, name: 'public.orders' }],
        outputs: [{ namespace: DB, name: 'public.totals' }],
        location: 'https://git.example.com/etl/aggregate.py',
        description: 'sums orders',
        context: { sql: 'INSERT INTO totals SELECT sum(amount) FROM orders' },
      });
      expect(job).to.include({
        name: 'aggregate',
        location: 'https://git.example.com/etl/aggregate.py',
        description: 'sums orders',
      });
      expect(job.inputs).to.deep.equal([{ namespace: DB, name: 'public.orders' }]);
      expect(job.outputs).to.deep.equal([{ namespace: DB, name: 'public.totals' }]);
      expect(job.context).to.deep.equal({ sql: 'INSERT INTO totals SELECT sum(amount) FROM orders' });
      return job;
    }

    it('a run created, started and completed ends COMPLETED with its versions and lineage', async () => {
      const job = await setUp();
      const created = await call<Run>('POST', '/api/v1/namespaces/legacy/jobs/aggregate/runs', 201, {
        nominalStartTime: '2024-06-01T00:00:00Z',
        nominalEndTime: '2024-06-01T01:00:00Z',
      });
      expect(created).to.include({
        state: 'NEW',
        nominalStartTime: '2024-06-01T00:00:00.000Z',
        nominalEndTime: '2024-06-01T01:00:00.000Z',
      });
      const started = await call<Run>('POST', `/api/v1/jobs/runs/${created.id}/start?at=2024-06-01T00:00:05Z`, 200);
      expect(started).to.include({ id: created.id, state: 'RUNNING', startedAt: '2024-06-01T00:00:05.000Z' });
      const done = await call<Run>('POST', `/api/v1/jobs/runs/${created.id}/complete?at=2024-06-01T00:10:00Z`, 200);
      expect(done).to.include({ state: 'COMPLETED', endedAt: '2024-06-01T00:10:00.000Z', durationMs: 595_000 });
      expect(done.inputVersions.map((v) => v.name)).to.deep.equal(['public.orders']);
      expect(done.outputVersions.map((v) => v.name)).to.deep.equal(['public.totals']);
      expect(done.jobVersion?.version).to.equal(job.currentVersion, 'the run is of the version the job declared');
      const after = await call<Job>('GET', '/api/v1/namespaces/legacy/jobs/aggregate', 200);
      expect(after.latestRun?.id).to.equal(created.id);
      const graph = await call<LineageGraph>(
        'GET',
        `/api/v1/lineage?nodeId=${enc(`job:legacy:aggregate`)}&depth=1`,
        200,
      );
      expect(graph.graph.map((n) => n.id).sort()).to.deep.equal([
        `dataset:${DB}:public.orders`,
        `dataset:${DB}:public.totals`,
        'job:legacy:aggregate',
      ]);
      // Each call was recorded as an OpenLineage event.
      const events = await call('GET', '/api/v1/events/lineage?limit=100', 200);
      expect(events.events.map((e: any) => e.eventType ?? (e.dataset ? 'DATASET' : 'JOB'))).to.have.members([
        'DATASET',
        'DATASET',
        'JOB',
        'OTHER',
        'START',
        'COMPLETE',
      ]);
    });

    it('fail and abort end runs; a client-chosen run id is kept; unknown runs and jobs are 404', async () => {
      await setUp();
      const id = '0190a0a0-0000-7000-8000-00000000f00d';
      expect((await call<Run>('POST', '/api/v1/namespaces/legacy/jobs/aggregate/runs', 201, { id })).id).to.equal(id);
      expect((await call<Run>('POST', `/api/v1/jobs/runs/${id}/fail`, 200)).state).to.equal('FAILED');
      const other = await call<Run>('POST', '/api/v1/namespaces/legacy/jobs/aggregate/runs', 201);
      expect((await call<Run>('POST', `/api/v1/jobs/runs/${other.id}/abort`, 200)).state).to.equal('ABORTED');
      await call('POST', '/api/v1/jobs/runs/0190a0a0-0000-7000-8000-000000000404/start', 404);
      await call('POST', '/api/v1/namespaces/legacy/jobs/nope/runs', 404, {});
      await call('PUT', `/api/v1/namespaces/${enc(DB)}/datasets/x`, 404, {
        type: 'DB_TABLE',
        physicalName: 'x',
        sourceName: 'no-such-source',
      });
      await call('PUT', '/api/v1/namespaces/legacy/jobs/bad', 422, { type: 'CRON' });
      await call('PUT', '/api/v1/sources/s', 422, { type: 'POSTGRESQL' });
    });

    it('a dataset PUT with a runId becomes an output of that run', async () => {
      await setUp();
      const run = await call<Run>('POST', '/api/v1/namespaces/legacy/jobs/aggregate/runs', 201);
      await call('PUT', `/api/v1/namespaces/${enc(DB)}/datasets/public.extra`, 200, {
        type: 'DB_TABLE',
        physicalName: 'public.extra',
        sourceName: 'analytics_db',
        runId: run.id,
      });
      const done = await call<Run>('POST', `/api/v1/jobs/runs/${run.id}/complete`, 200);
      expect(done.outputVersions.map((v) => v.name)).to.include('public.extra');
    });
  });
});
