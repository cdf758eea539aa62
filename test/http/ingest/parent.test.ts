import { expect } from 'chai';
import { useTestApp, wipe } from '../../helper.js';
import { graphSnapshot, rows } from '../../support/graph.js';
import { facet, runEvent } from '../../support/events.js';

/**
 * A parent run facet names another run and its job. It may create that run (a placeholder until the
 * run's own events arrive) but never re-homes an existing run: otherwise any producer could make run
 * X of job J1 also a run of J2, after which J1's own COMPLETE for X was refused with 409.
 */
describe('ingest: a parent reference never re-homes a run', () => {
  const t = useTestApp();
  const X = '01909a1c-5555-7000-8000-00000000000a';
  const post = async (e: Record<string, unknown>) => (await t().post('/api/v1/lineage', e)).status;
  const parentFacet = (job: string) => ({
    parent: facet({ run: { runId: X }, job: { namespace: 'airflow', name: job } }, 'ParentRunFacet'),
  });
  const homesOfX = async () =>
    (
      await rows(t().db, 'MATCH (:Run {id: $id})-[:RUN_OF]->(j:Job) RETURN j.name AS job, j.namespace AS ns', { id: X })
    ).map((r) => r.job);
  const xState = async () =>
    (await rows(t().db, 'MATCH (r:Run {id: $id}) RETURN r.state AS state, r.jobName AS jobName', { id: X }))[0];

  it('a child naming an existing run under another job links to the run but leaves its job alone', async () => {
    expect(await post(runEvent({ runId: X, job: 'owner_job', eventType: 'START' }))).to.equal(201);
    expect(
      await post(runEvent({ job: 'child_job', eventType: 'START', runFacets: parentFacet('hijacker_job') })),
    ).to.equal(201);
    expect(await homesOfX()).to.deep.equal(['owner_job']);
    expect(await xState()).to.deep.equal({ state: 'RUNNING', jobName: 'owner_job' });
    // The owner's own COMPLETE still goes in.
    expect(await post(runEvent({ runId: X, job: 'owner_job', eventType: 'COMPLETE' }))).to.equal(201);
    expect(await xState()).to.deep.equal({ state: 'COMPLETED', jobName: 'owner_job' });
    const children = await rows(t().db, 'MATCH (c:Run)-[:CHILD_OF]->(:Run {id: $id}) RETURN c.jobName AS job', {
      id: X,
    });
    expect(children).to.deep.equal([{ job: 'child_job' }]);
  });

  it('the same, with both events in one batch (one transaction), in either order', async () => {
    for (const order of ['owner first', 'child first']) {
      const owner = runEvent({ runId: X, job: 'owner_job', eventType: 'START' });
      const child = runEvent({ job: 'child_job', eventType: 'START', runFacets: parentFacet('hijacker_job') });
      const res = await t().post('/api/v1/lineage/batch', order === 'owner first' ? [owner, child] : [child, owner]);
      expect(res.status, order).to.equal(200);
      expect(res.body.summary, order).to.deep.include({ successful: 2, failed: 0 });
      expect(await homesOfX(), order).to.deep.equal(['owner_job']);
      await wipe(t().db);
    }
  });

  it(
    "a run first known from a child's parent facet takes its own job when its own events arrive: the graph is the " +
      'same in either order',
    async () => {
      const owner = runEvent({ runId: X, job: 'owner_job', eventType: 'START', eventTime: '2024-06-01T10:00:00Z' });
      const child = runEvent({
        runId: '01909a1c-5555-7000-8000-00000000000c',
        job: 'child_job',
        eventType: 'START',
        eventTime: '2024-06-01T10:01:00Z',
        runFacets: parentFacet('claimed_job'),
      });
      const complete = runEvent({
        runId: X,
        job: 'owner_job',
        eventType: 'COMPLETE',
        eventTime: '2024-06-01T11:00:00Z',
      });

      expect(await post(child)).to.equal(201);
      expect(await homesOfX(), 'a placeholder, linked to the job its child named').to.deep.equal(['claimed_job']);
      expect(await post(owner)).to.equal(201);
      expect(await post(complete)).to.equal(201);
      expect(await homesOfX()).to.deep.equal(['owner_job']);
      expect(await xState()).to.deep.equal({ state: 'COMPLETED', jobName: 'owner_job' });
      const childFirst = (await graphSnapshot(t().db)).filter((k) => !k.startsWith('LineageEvent'));

      await wipe(t().db);
      await t().app.services.namespaces.ensureDefault();
      for (const e of [owner, child, complete]) expect(await post(e)).to.equal(201);
      const ownerFirst = (await graphSnapshot(t().db)).filter((k) => !k.startsWith('LineageEvent'));
      expect(childFirst).to.deep.equal(ownerFirst);
    },
  );

  it('a run id reused by another job in its own events is still a 409', async () => {
    expect(await post(runEvent({ runId: X, job: 'owner_job', eventType: 'START' }))).to.equal(201);
    const res = await t().post('/api/v1/lineage', runEvent({ runId: X, job: 'other_job', eventType: 'COMPLETE' }));
    expect(res.status).to.equal(409);
    expect(await homesOfX()).to.deep.equal(['owner_job']);
  });
});
