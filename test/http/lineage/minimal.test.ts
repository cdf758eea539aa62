import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { runEvent } from '../../support/events.js';
import { ds, job, lineagePath as p, runJob } from './support.js';

interface Edge {
  origin: string;
  destination: string;
  [k: string]: unknown;
}
interface Node {
  id: string;
  type: string;
  data: Record<string, any>;
  inEdges: Edge[];
  outEdges: Edge[];
}

describe('GET /api/v1/lineage?fields=minimal: what a graph view draws', () => {
  const t = useTestApp();
  const graph = async (path: string) => {
    const res = await t().get<{ graph: Node[]; truncated: boolean }>(path);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };

  beforeEach(async () => {
    await runJob(t(), 'load', ['raw'], ['staged']);
    await runJob(t(), 'transform', ['staged'], ['mart'], { eventType: 'FAIL' });
    await runJob(t(), 'report', ['mart'], ['dash']);
  });

  it('has the full answer’s nodes and edges, each node’s key and a job’s latest run only', async () => {
    for (const [start, params] of [
      [ds('staged'), {}],
      [job('report'), { direction: 'upstream', depth: 1 }],
      [ds('raw'), { direction: 'downstream', depth: 0 }],
    ] as const) {
      const full = await graph(p(start, params));
      const minimal = await graph(p(start, { ...params, fields: 'minimal' }));
      expect(minimal.truncated).to.equal(full.truncated);
      expect(minimal.graph.map((n) => [n.id, n.type])).to.deep.equal(full.graph.map((n) => [n.id, n.type]));
      for (const [i, n] of minimal.graph.entries()) {
        const f = full.graph[i];
        // The same edges with the same extras (last seen, last run), once: in the origin's outEdges.
        expect(n.outEdges).to.deep.equal(f.outEdges);
        expect(n.inEdges).to.deep.equal([]);
        const key = { id: f.data.id, namespace: f.data.namespace, name: f.data.name };
        if (n.type === 'JOB') {
          const r = f.data.latestRun;
          expect(n.data).to.deep.equal({
            ...key,
            latestRun: { id: r.id, state: r.state, startedAt: r.startedAt, endedAt: r.endedAt },
          });
        } else expect(n.data).to.deep.equal(key);
      }
    }
    const both = await graph(p(ds('staged'), { fields: 'minimal' }));
    const states = Object.fromEntries(
      both.graph.filter((n) => n.type === 'JOB').map((n) => [n.data.name, n.data.latestRun.state]),
    );
    expect(states).to.deep.equal({ load: 'COMPLETED', transform: 'FAILED', report: 'COMPLETED' });
    const incoming = both.graph.flatMap((n) => n.outEdges).filter((e) => e.destination === job('transform'));
    expect(incoming.map((e) => [e.origin, e.lastRunState])).to.deep.equal([[ds('staged'), 'FAILED']]);
  });

  it('gives a job’s latest run as it was at asOf, like the full answer', async () => {
    const runId = '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b';
    const started = '2024-09-01T10:00:00.000Z';
    for (const [eventType, eventTime] of [
      ['START', started],
      ['COMPLETE', '2024-09-01T12:00:00.000Z'],
    ])
      expect(
        (await t().post('/api/v1/lineage', runEvent({ job: 'long', runId, eventType, eventTime, inputs: ['dash'] })))
          .status,
      ).to.equal(201);
    const asOf = { asOf: '2024-09-01T11:00:00Z', window: 'all' };
    const full = await graph(p(job('long'), asOf));
    const minimal = await graph(p(job('long'), { ...asOf, fields: 'minimal' }));
    const run = (g: { graph: Node[] }) => g.graph.find((n) => n.id === job('long'))!.data.latestRun;
    expect(run(full).state).to.equal('RUNNING');
    expect(run(minimal)).to.deep.equal({ id: runId, state: 'RUNNING', startedAt: started, endedAt: null });
    expect(minimal.graph.map((n) => n.id)).to.deep.equal(full.graph.map((n) => n.id));
  });

  it('refuses include with fields=minimal, and unknown fields values', async () => {
    const both = await t().get(p(ds('staged'), { fields: 'minimal', include: 'facets' }));
    expect(both.status).to.equal(400);
    expect(both.body.message).to.match(/fields=minimal/);
    expect(both.body.errors).to.deep.equal([{ path: '/include', message: both.body.errors[0].message, in: 'query' }]);
    expect((await t().get(p(ds('staged'), { fields: 'some' }))).status).to.equal(400);
    expect((await t().get(p(ds('staged'), { fields: 'full' }))).status).to.equal(200);
  });
});
