import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { completedRun, DEFAULT_DATASET_NS, runEvent } from '../../support/events.js';
import type { Dataset, Job } from '../../../src/api/types.js';

const NS = encodeURIComponent(DEFAULT_DATASET_NS);

describe('read API: sorting the job and dataset lists (sort, order)', () => {
  const t = useTestApp();
  const post = async (events: Record<string, unknown>[]) => {
    for (const e of events) expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  };
  const get = async <T = any>(path: string, status = 200) => {
    const res = await t().get<T>(path);
    expect(res.status, `${path}: ${res.text}`).to.equal(status);
    return res.body;
  };
  /** Every page of a list, `limit` at a time, concatenated: the order must hold across pages. */
  const pages = async (path: string, key: 'jobs' | 'datasets', limit = 2) => {
    const names: string[] = [];
    for (let offset = 0; ; offset += limit) {
      const page = await get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`);
      names.push(...(page[key] as (Job | Dataset)[]).map((x) => x.name));
      if (offset + limit >= page.totalCount) return names;
    }
  };

  // Written in this order (one minute apart), so the newest is d and name order differs from time order.
  const order = ['c', 'a', 'e', 'b', 'd'];
  beforeEach(async () => {
    for (const x of order) await post(completedRun({ job: `job_${x}`, outputs: [`table_${x}`] }));
  });

  it('sorts a namespace’s jobs by name or updatedAt, either way, over all pages', async () => {
    const path = '/api/v1/namespaces/airflow/jobs';
    const byName = ['job_a', 'job_b', 'job_c', 'job_d', 'job_e'];
    const newestFirst = ['job_d', 'job_b', 'job_e', 'job_a', 'job_c'];
    expect(await pages(path, 'jobs')).to.deep.equal(byName);
    expect(await pages(`${path}?sort=name`, 'jobs')).to.deep.equal(byName);
    expect(await pages(`${path}?sort=name&order=desc`, 'jobs')).to.deep.equal([...byName].reverse());
    expect(await pages(`${path}?sort=updatedAt`, 'jobs')).to.deep.equal(newestFirst);
    expect(await pages(`${path}?sort=updatedAt&order=asc`, 'jobs')).to.deep.equal([...newestFirst].reverse());
    // The answer's updatedAt agrees with the order.
    const listed = (await get(`${path}?sort=updatedAt&limit=5`)).jobs as Job[];
    const times = listed.map((j) => Date.parse(j.updatedAt));
    expect(times).to.deep.equal([...times].sort((a, b) => b - a));
    expect((await get(`${path}?sort=updatedAt&limit=2&offset=1`)).totalCount).to.equal(5);
  });

  it('sorts with a lastRunStates filter, and across namespaces on /api/v1/jobs', async () => {
    await post([runEvent({ job: 'job_f', jobNamespace: 'spark', eventType: 'FAIL' })]);
    await post([runEvent({ job: 'job_0', jobNamespace: 'spark', eventType: 'FAIL' })]);
    expect(await pages('/api/v1/jobs?sort=updatedAt', 'jobs')).to.deep.equal([
      'job_0',
      'job_f',
      'job_d',
      'job_b',
      'job_e',
      'job_a',
      'job_c',
    ]);
    // By name, namespace first (as without sort): airflow's jobs, then spark's.
    expect(await pages('/api/v1/jobs?sort=name&order=desc', 'jobs', 3)).to.deep.equal([
      'job_f',
      'job_0',
      'job_e',
      'job_d',
      'job_c',
      'job_b',
      'job_a',
    ]);
    expect(await pages('/api/v1/jobs?lastRunStates=FAILED&sort=updatedAt&order=asc', 'jobs', 1)).to.deep.equal([
      'job_f',
      'job_0',
    ]);
    expect(await pages('/api/v1/namespaces/spark/jobs?sort=name&order=desc', 'jobs', 1)).to.deep.equal([
      'job_f',
      'job_0',
    ]);
  });

  it('sorts a namespace’s datasets by name or updatedAt over all pages', async () => {
    const path = `/api/v1/namespaces/${NS}/datasets`;
    const byName = ['table_a', 'table_b', 'table_c', 'table_d', 'table_e'];
    const newestFirst = ['table_d', 'table_b', 'table_e', 'table_a', 'table_c'];
    expect(await pages(path, 'datasets')).to.deep.equal(byName);
    expect(await pages(`${path}?sort=name&order=desc`, 'datasets')).to.deep.equal([...byName].reverse());
    expect(await pages(`${path}?sort=updatedAt`, 'datasets')).to.deep.equal(newestFirst);
    expect(await pages(`${path}?sort=updatedAt&order=asc`, 'datasets', 3)).to.deep.equal([...newestFirst].reverse());
    // A later write moves a dataset to the front by updatedAt, not by name.
    await post(completedRun({ job: 'job_c', outputs: ['table_c'] }));
    expect((await pages(`${path}?sort=updatedAt`, 'datasets'))[0]).to.equal('table_c');
    expect(await pages(path, 'datasets')).to.deep.equal(byName);
  });

  it('answers 400 for an unknown sort or order', async () => {
    const bad = await get('/api/v1/namespaces/airflow/jobs?sort=state', 400);
    expect(bad.errors[0]).to.include({ path: '/sort', in: 'query' });
    await get(`/api/v1/namespaces/${NS}/datasets?order=up`, 400);
    await get('/api/v1/jobs?sort=updatedAt&order=sideways', 400);
  });
});
