import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../../helper.js';
import { completedRun, facet } from '../../support/events.js';
import type { Job } from '../../../src/api/types.js';

/** A `parent` run facet naming a run of `namespace`/`name`. */
const parent = (runId: string, namespace: string, name: string) =>
  facet({ run: { runId }, job: { namespace, name } }, 'ParentRunFacet');

describe('read API: child jobs (GET .../jobs/{job}/children)', () => {
  const t = useTestApp();
  const post = async (events: Record<string, unknown>[]) => {
    for (const e of events) expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  };
  const get = async <T = any>(path: string, status = 200) => {
    const res = await t().get<T>(path);
    expect(res.status, `${path}: ${res.text}`).to.equal(status);
    return res.body;
  };
  const names = (jobs: Job[]) => jobs.map((j) => `${j.namespace}/${j.name}`);

  it('lists the jobs whose runs name the job as parent, of any namespace, by namespace and name', async () => {
    const dagRun = randomUUID();
    await post(completedRun({ runId: dagRun, job: 'shop_dag' }));
    await post(completedRun({ job: 'shop_dag.load', runFacets: { parent: parent(dagRun, 'airflow', 'shop_dag') } }));
    await post(
      completedRun({
        job: 'shop_dag.clean',
        outputs: ['clean'],
        runFacets: { parent: parent(dagRun, 'airflow', 'shop_dag') },
      }),
    );
    await post(
      completedRun({
        jobNamespace: 'spark',
        job: 'enrich',
        runFacets: { parent: parent(dagRun, 'airflow', 'shop_dag') },
      }),
    );
    await post(completedRun({ job: 'unrelated' }));

    const all = await get<{ jobs: Job[]; totalCount: number }>('/api/v1/namespaces/airflow/jobs/shop_dag/children');
    expect(all.totalCount).to.equal(3);
    expect(names(all.jobs)).to.deep.equal(['airflow/shop_dag.clean', 'airflow/shop_dag.load', 'spark/enrich']);
    // Each child is the job of GET /jobs/{job}, with its parent and latest run.
    const clean = all.jobs[0];
    expect(clean.parentJobName).to.equal('shop_dag');
    expect(clean.latestRun?.state).to.equal('COMPLETED');
    expect(clean.outputs).to.deep.equal([{ namespace: 'postgres://db.example.com:5432', name: 'clean' }]);
    expect(clean).to.deep.equal(await get<Job>('/api/v1/namespaces/airflow/jobs/shop_dag.clean'));

    const page = await get<{ jobs: Job[]; totalCount: number }>(
      '/api/v1/namespaces/airflow/jobs/shop_dag/children?limit=1&offset=1',
    );
    expect(page.totalCount).to.equal(3);
    expect(names(page.jobs)).to.deep.equal(['airflow/shop_dag.load']);

    // A job without children, and children of a child: none.
    expect(await get('/api/v1/namespaces/airflow/jobs/unrelated/children')).to.deep.equal({ jobs: [], totalCount: 0 });
    expect(await get('/api/v1/namespaces/spark/jobs/enrich/children')).to.deep.equal({ jobs: [], totalCount: 0 });
  });

  it('names the parent job’s namespace, also when the child’s latest run names no parent', async () => {
    const dagRun = randomUUID();
    await post(completedRun({ runId: dagRun, job: 'dbt_dag' }));
    await post(
      completedRun({
        jobNamespace: 'dbt',
        job: 'model.orders',
        runFacets: { parent: parent(dagRun, 'airflow', 'dbt_dag') },
      }),
    );
    // A later run started by hand, without a parent: the job keeps its parent, in the other namespace.
    await post(completedRun({ jobNamespace: 'dbt', job: 'model.orders' }));
    const child = await get<Job>('/api/v1/namespaces/dbt/jobs/model.orders');
    expect(child.latestRun?.facets).to.not.have.property('parent');
    expect(child).to.include({ parentJobName: 'dbt_dag', parentJobNamespace: 'airflow' });
    const dag = await get<Job>('/api/v1/namespaces/airflow/jobs/dbt_dag');
    expect(dag).to.include({ parentJobName: null, parentJobNamespace: null });
    expect(names((await get('/api/v1/namespaces/airflow/jobs/dbt_dag/children')).jobs)).to.deep.equal([
      'dbt/model.orders',
    ]);
  });

  it('follows a child moving to another parent and leaves out soft-deleted children', async () => {
    const a = randomUUID();
    const b = randomUUID();
    await post(completedRun({ runId: a, job: 'dag_a' }));
    await post(completedRun({ runId: b, job: 'dag_b' }));
    await post(completedRun({ job: 'task', runFacets: { parent: parent(a, 'airflow', 'dag_a') } }));
    await post(completedRun({ job: 'other', runFacets: { parent: parent(a, 'airflow', 'dag_a') } }));
    expect(names((await get('/api/v1/namespaces/airflow/jobs/dag_a/children')).jobs)).to.deep.equal([
      'airflow/other',
      'airflow/task',
    ]);
    // A later run of `task` names dag_b as its parent: the job is dag_b's child now.
    await post(completedRun({ job: 'task', runFacets: { parent: parent(b, 'airflow', 'dag_b') } }));
    expect(names((await get('/api/v1/namespaces/airflow/jobs/dag_a/children')).jobs)).to.deep.equal(['airflow/other']);
    expect(names((await get('/api/v1/namespaces/airflow/jobs/dag_b/children')).jobs)).to.deep.equal(['airflow/task']);

    expect((await t().request('DELETE', '/api/v1/namespaces/airflow/jobs/other')).status).to.equal(200);
    expect(await get('/api/v1/namespaces/airflow/jobs/dag_a/children')).to.deep.equal({ jobs: [], totalCount: 0 });
  });

  it('answers 404 for an unknown or soft-deleted job and 400 for a bad page', async () => {
    const run = randomUUID();
    await post(completedRun({ runId: run, job: 'dag' }));
    await post(completedRun({ job: 'dag.task', runFacets: { parent: parent(run, 'airflow', 'dag') } }));
    const missing = await get('/api/v1/namespaces/airflow/jobs/nope/children', 404);
    expect(missing.message).to.equal("Job 'nope' not found in namespace 'airflow'.");
    await get('/api/v1/namespaces/airflow/jobs/dag/children?limit=0', 400);
    expect((await t().request('DELETE', '/api/v1/namespaces/airflow/jobs/dag')).status).to.equal(200);
    await get('/api/v1/namespaces/airflow/jobs/dag/children', 404);
  });
});
