import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../../helper.js';
import { completedRun, DEFAULT_DATASET_NS, facet, runEvent } from '../../support/events.js';
import type { Dataset, DatasetVersion, Job, JobVersion, Run } from '../../../src/api/types.js';

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const enc = encodeURIComponent;
const NS = enc(DEFAULT_DATASET_NS);

describe('read API: datasets, jobs, runs', () => {
  const t = useTestApp();
  const post = async (events: Record<string, unknown>[]) => {
    for (const e of events) expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  };
  const get = async <T = any>(path: string, status = 200) => {
    const res = await t().get<T>(path);
    expect(res.status, `${path}: ${res.text}`).to.equal(status);
    return res.body;
  };

  describe('the spec flows', () => {
    it('a run reads one version of a dataset and writes another version of the same dataset', async () => {
      await post(completedRun({ job: 'loader', outputs: [{ name: 'orders', fields: [['id', 'INT']] }] }));
      const before = await get<Dataset>(`/api/v1/namespaces/${NS}/datasets/orders`);
      const rw = randomUUID();
      await post(completedRun({ runId: rw, job: 'dedupe', inputs: ['orders'], outputs: ['orders'] }));
      const run = await get<Run>(`/api/v1/jobs/runs/${rw}`);
      expect(run.state).to.equal('COMPLETED');
      expect(run.inputVersions).to.deep.equal([
        { namespace: DEFAULT_DATASET_NS, name: 'orders', version: before.currentVersion },
      ]);
      const after = await get<Dataset>(`/api/v1/namespaces/${NS}/datasets/orders`);
      expect(run.outputVersions).to.deep.equal([
        { namespace: DEFAULT_DATASET_NS, name: 'orders', version: after.currentVersion },
      ]);
      expect(after.currentVersion).not.to.equal(before.currentVersion);
      expect(run.inputDatasetVersions[0].datasetVersionId.version).to.equal(before.currentVersion);
      // Every version id the API shows can be fetched.
      for (const v of [...run.inputVersions, ...run.outputVersions]) {
        const version = await get<DatasetVersion>(`/api/v1/namespaces/${NS}/datasets/orders/versions/${v.version}`);
        expect(version.version).to.equal(v.version);
      }
      const written = await get<DatasetVersion>(
        `/api/v1/namespaces/${NS}/datasets/orders/versions/${after.currentVersion}`,
      );
      expect(written.createdByRun!.id).to.equal(rw);
    });

    it('successive consumer runs read different versions', async () => {
      const consumers = [randomUUID(), randomUUID()];
      for (const c of consumers) {
        await post(completedRun({ job: 'producer', outputs: ['events'] }));
        await post(completedRun({ runId: c, job: 'consumer', inputs: ['events'], outputs: ['daily'] }));
      }
      const [a, b] = await Promise.all(consumers.map((c) => get<Run>(`/api/v1/jobs/runs/${c}`)));
      expect(a.inputVersions[0].version).not.to.equal(b.inputVersions[0].version);
      const versions = await get(`/api/v1/namespaces/${NS}/datasets/events/versions`);
      expect(versions.totalCount).to.equal(2);
      expect(versions.versions.map((v: DatasetVersion) => v.version)).to.have.members([
        a.inputVersions[0].version,
        b.inputVersions[0].version,
      ]);
    });

    it('a failed run yields a job version with empty outputs, different from the successful one', async () => {
      const ok = randomUUID();
      const failed = randomUUID();
      await post(completedRun({ runId: ok, job: 'etl', inputs: ['src'], outputs: ['dst'] }));
      await post([
        runEvent({ runId: failed, job: 'etl', eventType: 'START', inputs: ['src'] }),
        runEvent({ runId: failed, job: 'etl', eventType: 'FAIL' }),
      ]);
      const okRun = await get<Run>(`/api/v1/jobs/runs/${ok}`);
      const failedRun = await get<Run>(`/api/v1/jobs/runs/${failed}`);
      expect(failedRun.state).to.equal('FAILED');
      expect(failedRun.outputVersions).to.deep.equal([]);
      expect(failedRun.jobVersion!.version).not.to.equal(okRun.jobVersion!.version);
      const v = await get<JobVersion>(`/api/v1/namespaces/airflow/jobs/etl/versions/${failedRun.jobVersion!.version}`);
      expect(v.outputs).to.deep.equal([]);
      expect(v.inputs).to.deep.equal([{ namespace: DEFAULT_DATASET_NS, name: 'src' }]);
      const versions = await get(`/api/v1/namespaces/airflow/jobs/etl/versions`);
      expect(versions.totalCount).to.equal(2);
    });
  });

  describe('shapes', () => {
    it('job: every spec field, latestRun the same shape as GET /jobs/runs/{id}, currentVersion fetchable', async () => {
      const runId = randomUUID();
      const jobFacets = {
        sql: facet({ query: 'select 1' }),
        sourceCodeLocation: facet({ type: 'git', url: 'https://git/x.py' }),
        documentation: facet({ description: 'Loads' }),
      };
      await post(completedRun({ runId, job: 'dag.task', jobFacets, inputs: ['a'], outputs: ['b'] }));
      const job = await get<Job>('/api/v1/namespaces/airflow/jobs/dag.task');
      expect(job).to.include.keys(
        'id',
        'type',
        'name',
        'simpleName',
        'parentJobName',
        'createdAt',
        'updatedAt',
        'namespace',
        'inputs',
        'outputs',
        'location',
        'context',
        'description',
        'latestRun',
        'facets',
        'currentVersion',
        'tags',
      );
      expect(job.id).to.deep.equal({ namespace: 'airflow', name: 'dag.task' });
      expect(job).to.include({
        type: 'BATCH',
        location: 'https://git/x.py',
        description: 'Loads',
        parentJobName: null,
      });
      expect(job.context).to.deep.equal({ sql: 'select 1' });
      expect(job.inputs).to.deep.equal([{ namespace: DEFAULT_DATASET_NS, name: 'a' }]);
      expect(job.createdAt).to.match(ISO_Z);
      const run = await get<Run>(`/api/v1/jobs/runs/${runId}`);
      expect(job.latestRun).to.deep.equal(run);
      expect(run.durationMs).to.be.a('number');
      expect(Number.isInteger(run.durationMs)).to.equal(true);
      expect(run.nominalStartTime).to.equal(null);
      expect(run.jobVersion).to.deep.equal({ namespace: 'airflow', name: 'dag.task', version: job.currentVersion });
      await get(`/api/v1/namespaces/airflow/jobs/dag.task/versions/${job.currentVersion}`);
      const list = await get('/api/v1/namespaces/airflow/jobs');
      expect(list.jobs[0].latestRun).to.deep.equal(run);
    });

    it('dataset: spec fields, schema fields, facets as sent, currentVersion fetchable', async () => {
      const dataSource = facet({ name: 'pg', uri: 'postgres://db:5432' });
      await post(
        completedRun({
          outputs: [
            {
              name: 'orders',
              fields: [
                ['id', 'INTEGER'],
                ['note', 'VARCHAR'],
              ],
              facets: { dataSource },
            },
          ],
        }),
      );
      const d = await get<Dataset>(`/api/v1/namespaces/${NS}/datasets/orders`);
      expect(d).to.include.keys(
        'id',
        'type',
        'name',
        'physicalName',
        'createdAt',
        'updatedAt',
        'namespace',
        'sourceName',
        'fields',
        'facets',
        'currentVersion',
        'tags',
        'lastModifiedAt',
        'description',
      );
      expect(d).to.include({ type: 'DB_TABLE', name: 'orders', physicalName: 'orders', sourceName: 'pg' });
      expect(d.fields).to.deep.equal([
        { name: 'id', type: 'INTEGER', description: null, tags: [] },
        { name: 'note', type: 'VARCHAR', description: null, tags: [] },
      ]);
      expect(d.facets.dataSource).to.deep.equal(dataSource);
      const v = await get<DatasetVersion>(`/api/v1/namespaces/${NS}/datasets/orders/versions/${d.currentVersion}`);
      expect(v.facets.schema).to.be.an('object');
      expect(v.createdByRun).to.be.an('object');
    });

    it('job runs are listed latest start first with totalCount', async () => {
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const times = ['2024-01-02T00:00:00Z', '2024-01-03T00:00:00Z', '2024-01-01T00:00:00Z'];
      for (let i = 0; i < 3; i++)
        await post([runEvent({ runId: ids[i], job: 'j', eventType: 'START', eventTime: times[i] })]);
      const res = await get('/api/v1/namespaces/airflow/jobs/j/runs?limit=2');
      expect(res.totalCount).to.equal(3);
      expect(res.runs.map((r: Run) => r.id)).to.deep.equal([ids[1], ids[0]]);
      const page2 = await get('/api/v1/namespaces/airflow/jobs/j/runs?limit=2&offset=2');
      expect(page2.runs.map((r: Run) => r.id)).to.deep.equal([ids[2]]);
    });
  });

  describe('lists, filters and soft deletion', () => {
    it('datasets and jobs paginate with totalCount of the same filter', async () => {
      for (let i = 0; i < 5; i++) await post(completedRun({ job: `job_${i}`, outputs: [`table_${i}`] }));
      const page = await get(`/api/v1/namespaces/${NS}/datasets?limit=2&offset=1`);
      expect(page.totalCount).to.equal(5);
      expect(page.datasets.map((d: Dataset) => d.name)).to.deep.equal(['table_1', 'table_2']);
      const jobs = await get('/api/v1/jobs?limit=3');
      expect(jobs.totalCount).to.equal(5);
      expect(jobs.jobs).to.have.length(3);
    });

    it('filters jobs by the state of their latest run', async () => {
      await post(completedRun({ job: 'good' }));
      await post([runEvent({ job: 'bad', eventType: 'FAIL' })]);
      await post([runEvent({ job: 'busy', eventType: 'START' })]);
      const failed = await get('/api/v1/jobs?lastRunStates=FAILED');
      expect(failed.jobs.map((j: Job) => j.name)).to.deep.equal(['bad']);
      expect(failed.totalCount).to.equal(1);
      const two = await get('/api/v1/jobs?lastRunStates=FAILED&lastRunStates=RUNNING');
      expect(two.jobs.map((j: Job) => j.name)).to.deep.equal(['bad', 'busy']);
      await get('/api/v1/jobs?lastRunStates=EXPLODED', 400);
    });

    it('soft-deleted datasets and jobs disappear from lists and come back with a later event', async () => {
      await post(completedRun({ job: 'j', outputs: ['t'] }));
      expect((await t().request('DELETE', `/api/v1/namespaces/${NS}/datasets/t`)).status).to.equal(200);
      expect((await t().request('DELETE', '/api/v1/namespaces/airflow/jobs/j')).status).to.equal(200);
      expect(await get(`/api/v1/namespaces/${NS}/datasets`)).to.deep.equal({ datasets: [], totalCount: 0 });
      expect(await get('/api/v1/namespaces/airflow/jobs')).to.deep.equal({ jobs: [], totalCount: 0 });
      expect(await get('/api/v1/jobs')).to.deep.equal({ jobs: [], totalCount: 0 });
      await get(`/api/v1/namespaces/${NS}/datasets/t`, 404);
      await post(completedRun({ job: 'j', outputs: ['t'] }));
      expect((await get(`/api/v1/namespaces/${NS}/datasets`)).totalCount).to.equal(1);
      expect((await get('/api/v1/namespaces/airflow/jobs/j')).name).to.equal('j');
    });

    it('an alias name finds the primary dataset, and aliases are not listed separately', async () => {
      const symlinks = facet({ identifiers: [{ namespace: DEFAULT_DATASET_NS, name: 'alias_of_t', type: 'TABLE' }] });
      await post(completedRun({ outputs: [{ name: 't', facets: { symlinks } }] }));
      expect((await get(`/api/v1/namespaces/${NS}/datasets/alias_of_t`)).name).to.equal('t');
      const list = await get(`/api/v1/namespaces/${NS}/datasets`);
      expect(list.datasets.map((d: Dataset) => d.name)).to.deep.equal(['t']);
      expect(list.totalCount).to.equal(1);
    });
  });

  describe('names and errors', () => {
    it('names with slashes, colons, spaces, unicode and % round-trip', async () => {
      const names = ['s3://bucket/path/to/table', 'db.schema.my table', 'ünïcødé:表', '100% done'];
      for (const name of names) await post(completedRun({ job: `job ${name}`, outputs: [name] }));
      for (const name of names) {
        const d = await get<Dataset>(`/api/v1/namespaces/${NS}/datasets/${enc(name)}`);
        expect(d.name).to.equal(name);
        const j = await get<Job>(`/api/v1/namespaces/airflow/jobs/${enc(`job ${name}`)}`);
        expect(j.name).to.equal(`job ${name}`);
        expect(j.outputs).to.deep.equal([{ namespace: DEFAULT_DATASET_NS, name }]);
      }
    });

    it('404 names what is missing; 400 for malformed ids and limits', async () => {
      await post(completedRun({ job: 'j', outputs: ['t'] }));
      expect((await get('/api/v1/namespaces/nope/jobs', 404)).message).to.include("'nope'");
      expect((await get('/api/v1/namespaces/nope/datasets', 404)).message).to.include("'nope'");
      expect((await get(`/api/v1/namespaces/${NS}/datasets/missing`, 404)).message).to.include("'missing'");
      expect((await get('/api/v1/namespaces/airflow/jobs/missing', 404)).message).to.include("'missing'");
      await get(`/api/v1/jobs/runs/${randomUUID()}`, 404);
      await get(`/api/v1/namespaces/airflow/jobs/j/versions/${randomUUID()}`, 404);
      await get(`/api/v1/namespaces/${NS}/datasets/t/versions/${randomUUID()}`, 404);
      await get('/api/v1/namespaces/airflow/jobs/j/versions/not-a-uuid', 400);
      await get(`/api/v1/namespaces/${NS}/datasets/t/versions/not-a-uuid`, 400);
      await get('/api/v1/namespaces/airflow/jobs?limit=5000', 400);
      await get('/api/v1/jobs?offset=-1', 400);
      await get(`/api/v1/jobs/runs/${randomUUID()}/facets?type=dataset`, 400);
    });

    it('run facets by type', async () => {
      const runId = randomUUID();
      await post([
        runEvent({
          runId,
          runFacets: { nominalTime: facet({ nominalStartTime: '2024-01-01T00:00:00Z' }) },
          jobFacets: { sql: facet({ query: 'q' }) },
        }),
      ]);
      const run = await get(`/api/v1/jobs/runs/${runId}/facets?type=run`);
      expect(run.facets).to.have.key('nominalTime');
      const job = await get(`/api/v1/jobs/runs/${runId}/facets?type=job`);
      expect(job.facets).to.have.key('sql');
      expect((await get<Run>(`/api/v1/jobs/runs/${runId}`)).nominalStartTime).to.equal('2024-01-01T00:00:00.000Z');
    });
  });
});
