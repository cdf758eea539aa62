import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../../helper.js';
import { runEvent } from '../../support/events.js';
import { NS, runJob } from './support.js';

describe('GET /api/v1/runlineage/upstream', () => {
  const t = useTestApp();
  const versionOf = (body: any, runId: string, name: string) =>
    body.runs.find((r: any) => r.run.id === runId).inputs.find((i: any) => i.name === name);

  it('returns the runs that produced the exact versions a run read, recursively', async () => {
    const r1 = await runJob(t(), 'extract', [], ['raw']);
    const r2 = await runJob(t(), 'transform', ['raw'], ['clean']);
    const r3 = await runJob(t(), 'load', ['clean', 'dim'], ['mart']);
    const res = await t().get(`/api/v1/runlineage/upstream?runId=${r3}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.runs.map((r: any) => r.run.id)).to.deep.equal([r3, r2, r1]);
    const load = res.body.runs[0];
    expect(load.job).to.include({ namespace: 'airflow', name: 'load' });
    expect(load.job.version).to.be.a('string');
    expect(load.run).to.include({ id: r3, status: 'COMPLETED' });
    expect(load.run.end).to.be.a('string');
    expect(load.inputs.map((i: any) => [i.namespace, i.name, i.producedByRunId])).to.deep.equal([
      [NS, 'clean', r2],
      [NS, 'dim', null],
    ]);
    expect(versionOf(res.body, r3, 'clean').version).to.be.a('string');
    expect(res.body.runs[2].inputs).to.deep.equal([]);

    const shallow = await t().get(`/api/v1/runlineage/upstream?runId=${r3}&depth=1`);
    expect(shallow.body.runs.map((r: any) => r.run.id)).to.deep.equal([r3, r2]);
    const self = await t().get(`/api/v1/runlineage/upstream?runId=${r3}&depth=0`);
    expect(self.body.runs.map((r: any) => r.run.id)).to.deep.equal([r3]);
  });

  it('follows versions, not datasets: a run that read an older version points at its writer', async () => {
    const w1 = await runJob(t(), 'writer', [], ['t']);
    const reader = randomUUID();
    expect(
      (await t().post('/api/v1/lineage', runEvent({ job: 'reader', runId: reader, eventType: 'START', inputs: ['t'] })))
        .status,
    ).to.equal(201);
    await runJob(t(), 'writer', [], ['t']); // a newer version of t, written after the reader started
    expect(
      (
        await t().post(
          '/api/v1/lineage',
          runEvent({ job: 'reader', runId: reader, eventType: 'COMPLETE', outputs: ['r'] }),
        )
      ).status,
    ).to.equal(201);
    const res = await t().get(`/api/v1/runlineage/upstream?runId=${reader}`);
    expect(res.body.runs.map((r: any) => r.run.id)).to.deep.equal([reader, w1]);
  });

  it('terminates on a run that reads what it writes', async () => {
    const r1 = await runJob(t(), 'upsert', [], ['t']);
    const r2 = await runJob(t(), 'upsert', ['t'], ['t']);
    const res = await t().get(`/api/v1/runlineage/upstream?runId=${r2}&depth=100`);
    expect(res.status).to.equal(200);
    expect(res.body.runs.map((r: any) => r.run.id)).to.deep.equal([r2, r1]);
  });

  it('finds a run by the non-UUID runId its producer sent', async () => {
    const r1 = await runJob(t(), 'extract', [], ['raw'], { runId: 'scheduled__2024-06-01T00:00:00' });
    const r2 = await runJob(t(), 'transform', ['raw'], ['clean'], { runId: 'manual-run-42' });
    const res = await t().get(`/api/v1/runlineage/upstream?runId=${encodeURIComponent(r2)}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.runs).to.have.length(2);
    expect(res.body.runs[0].inputs[0].producedByRunId).to.equal(res.body.runs[1].run.id);
    expect(res.body.runs[1].job.name).to.equal('extract');
    void r1;
  });

  it('400 for a missing runId or malformed depth, 404 for an unknown run', async () => {
    expect((await t().get('/api/v1/runlineage/upstream')).status).to.equal(400);
    expect((await t().get('/api/v1/runlineage/upstream?runId=never-sent')).status).to.equal(404);
    expect((await t().get(`/api/v1/runlineage/upstream?runId=${randomUUID()}&depth=x`)).status).to.equal(400);
    const res = await t().get(`/api/v1/runlineage/upstream?runId=${randomUUID()}`);
    expect(res.status).to.equal(404);
    expect(res.body.error).to.equal('not_found');
  });
});
