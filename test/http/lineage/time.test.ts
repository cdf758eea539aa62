/**
 * Lineage that tells the truth over time (docs/lineage.md, "Time"): edges accumulate over every run,
 * a failed run displaces nothing it did not observe, the window and asOf parameters, and a point in
 * time answered as it was then. Event times are relative to now, since the default window is too.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp, type TestApp } from '../../helper.js';
import { facet, runEvent } from '../../support/events.js';
import { ds, e, expectGraph, getGraph, job, lineagePath as p, nodeIds } from './support.js';

const DAY = 86_400_000;
const NOW = Date.now();
const ago = (days: number, minutes = 0) => new Date(NOW - days * DAY + minutes * 60_000).toISOString();

async function post(t: TestApp, event: Record<string, unknown>) {
  const res = await t.post('/api/v1/lineage', event);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
}

/** One run: START at `at` with the inputs, then a terminal event a minute later with the outputs. */
async function run(
  t: TestApp,
  name: string,
  at: string,
  inputs: string[],
  outputs: string[],
  opts: { end?: string; runId?: string; jobFacets?: Record<string, unknown> } = {},
): Promise<string> {
  const runId = opts.runId ?? randomUUID();
  await post(t, runEvent({ job: name, runId, eventType: 'START', eventTime: at, inputs, jobFacets: opts.jobFacets }));
  const end = new Date(Date.parse(at) + 60_000).toISOString();
  await post(
    t,
    runEvent({
      job: name,
      runId,
      eventType: opts.end ?? 'COMPLETE',
      eventTime: end,
      outputs,
      jobFacets: opts.jobFacets,
    }),
  );
  return runId;
}

describe('GET /api/v1/lineage: time', () => {
  const t = useTestApp();

  it('answers the worked example of docs/lineage.md ("Time") as the doc shows it', async () => {
    const day = (d: number, minutes = 0) => ago(60 - d, minutes); // today is day 60
    await run(t(), 'load', day(1), ['raw'], ['orders']);
    await run(t(), 'load', day(2), ['raw'], ['orders']);
    await run(t(), 'load', day(3), ['raw'], [], { end: 'FAIL' });
    await run(t(), 'split', day(10), [], ['orders_p1']);
    await run(t(), 'split', day(11), [], ['orders_p2']);
    for (let d = 5; d <= 49; d++)
      await post(t(), runEvent({ job: 'report', eventType: 'COMPLETE', eventTime: day(d), inputs: ['legacy_orders'] }));
    await post(t(), runEvent({ job: 'report', eventType: 'COMPLETE', eventTime: day(50), inputs: ['orders'] }));
    const nodes = async (nodeId: string, params: Record<string, string>) =>
      nodeIds(await getGraph(t(), p(nodeId, params)));

    expect(await nodes(ds('orders'), { direction: 'upstream' })).to.deep.equal(
      [ds('orders'), job('load'), ds('raw')].sort(),
    );
    expect(await nodes(job('split'), { direction: 'downstream', window: 'all' })).to.deep.equal(
      [job('split'), ds('orders_p1'), ds('orders_p2')].sort(),
    );
    expect(await nodes(job('split'), { direction: 'downstream' })).to.deep.equal(
      [job('split'), ds('orders_p2')].sort(),
    );
    const upstreamOfOrders = [ds('orders'), job('load'), ds('raw')];
    expect(await nodes(job('report'), { direction: 'upstream' })).to.deep.equal(
      [job('report'), ds('legacy_orders'), ...upstreamOfOrders].sort(),
    );
    expect(await nodes(job('report'), { direction: 'upstream', window: 'P7D' })).to.deep.equal(
      [job('report'), ...upstreamOfOrders].sort(),
    );
    expect(await nodes(job('report'), { direction: 'upstream', asOf: day(45), window: 'P7D' })).to.deep.equal(
      [job('report'), ds('legacy_orders')].sort(),
    );
  });

  it('a run that fails before knowing its outputs keeps the producer and everything upstream of it', async () => {
    await run(t(), 'extract', ago(10), ['raw'], ['staging']);
    await run(t(), 'producer', ago(3), ['staging'], ['orders']);
    await run(t(), 'producer', ago(2), ['staging'], ['orders']);
    // The third run fails before it knows its outputs: START with inputs, FAIL with none.
    const failed = await run(t(), 'producer', ago(1), ['staging'], [], { end: 'FAIL' });
    const whole = {
      nodes: [ds('raw'), job('extract'), ds('staging'), job('producer'), ds('orders')],
      edges: [
        e(ds('raw'), job('extract')),
        e(job('extract'), ds('staging')),
        e(ds('staging'), job('producer')),
        e(job('producer'), ds('orders')),
      ],
    };
    const graph = await expectGraph(t(), p(ds('orders'), { direction: 'upstream' }), whole);
    // Even with no window at all, the outputs of the producer's predecessor are its latest known outputs.
    await expectGraph(t(), p(ds('orders'), { direction: 'upstream', window: 'PT0S' }), whole);
    // The producer node says its latest run failed; the input edge was last observed by that run.
    const producer = graph.find((n) => n.id === job('producer'))!;
    expect(producer.data.latestRun.state).to.equal('FAILED');
    const input = producer.inEdges[0] as Record<string, unknown>;
    expect(input).to.include({ lastRunId: failed, lastRunState: 'FAILED' });
    const output = producer.outEdges[0] as Record<string, unknown>;
    expect(output.lastRunState).to.equal('COMPLETED');
    expect(Date.parse(output.firstSeenAt as string)).to.equal(Date.parse(ago(3, 1)));
    expect(Date.parse(output.lastSeenAt as string)).to.equal(Date.parse(ago(2, 1)));
    // The job resource itself stays Marquez-shaped: its current version is the failed run's.
    const res = await t().get('/api/v1/namespaces/airflow/jobs/producer');
    expect(res.body.outputs).to.deep.equal([]);
  });

  it('a job whose runs write different partitions shows every output seen in the window', async () => {
    await run(t(), 'partitioner', ago(2), ['events'], ['events_part1']);
    await run(t(), 'partitioner', ago(1), ['events'], ['events_part2']);
    await expectGraph(t(), p(job('partitioner'), { direction: 'downstream' }), {
      nodes: [job('partitioner'), ds('events_part1'), ds('events_part2')],
      edges: [e(job('partitioner'), ds('events_part1')), e(job('partitioner'), ds('events_part2'))],
    });
    // With a window of one day only the latest run's output (and what it observed) remains.
    await expectGraph(t(), p(job('partitioner'), { direction: 'downstream', window: 'P1D' }), {
      nodes: [job('partitioner'), ds('events_part2')],
      edges: [e(job('partitioner'), ds('events_part2'))],
    });
    // The job's data lists the outputs in view, like its edges.
    const graph = await getGraph(t(), p(job('partitioner'), { depth: 0 }));
    const data = graph.find((n) => n.id === job('partitioner'))!.data;
    expect(data.outputs.map((o: { name: string }) => o.name)).to.deep.equal(['events_part1', 'events_part2']);
  });

  it(
    'an input the job stopped reading 40 days ago leaves the default view, not window=all nor asOf in the old ' +
      'period',
    async () => {
      await run(t(), 'reporter', ago(45), ['old_source', 'facts'], ['report']);
      await run(t(), 'reporter', ago(40), ['old_source', 'facts'], ['report']);
      for (const days of [20, 10, 1]) await run(t(), 'reporter', ago(days), ['facts'], ['report']);
      const withOld = {
        nodes: [ds('old_source'), ds('facts'), job('reporter'), ds('report')],
        edges: [
          e(ds('old_source'), job('reporter')),
          e(ds('facts'), job('reporter')),
          e(job('reporter'), ds('report')),
        ],
      };
      const withoutOld = {
        nodes: [ds('facts'), job('reporter'), ds('report')],
        edges: [e(ds('facts'), job('reporter')), e(job('reporter'), ds('report'))],
      };
      await expectGraph(t(), p(ds('report'), { direction: 'upstream' }), withoutOld);
      await expectGraph(t(), p(ds('report'), { direction: 'upstream', window: 'all' }), withOld);
      await expectGraph(t(), p(ds('report'), { direction: 'upstream', window: 'P60D' }), withOld);
      // As of 30 days ago, looking back 30 days: the run 40 days ago read it.
      await expectGraph(t(), p(ds('report'), { direction: 'upstream', asOf: ago(30) }), withOld);
      // As of 15 days ago, looking back only 1 day: the latest run then (20 days ago) no longer read it.
      await expectGraph(t(), p(ds('report'), { direction: 'upstream', asOf: ago(15), window: 'P1D' }), withoutOld);
      // As of 42 days ago (between the two old runs), with no window: the latest run then read it.
      await expectGraph(t(), p(ds('report'), { direction: 'upstream', asOf: ago(42), window: 'PT0S' }), withOld);
    },
  );

  it('window=all and a window before asOf reach back to any event time, years 0-99 included', async () => {
    // Read in 1850 and again in year 50, then superseded (not held) by runs reading only `facts`.
    await run(t(), 'archivist', '0050-02-15T00:00:00Z', ['scroll', 'facts'], ['history']);
    await run(t(), 'archivist', '0050-02-20T00:00:00Z', ['facts'], ['history']);
    await run(t(), 'archivist', '1850-06-01T00:00:00Z', ['ledger', 'facts'], ['history']);
    await run(t(), 'archivist', ago(1), ['facts'], ['history']);
    const upstream = (params: Record<string, string>) =>
      getGraph(t(), p(ds('history'), { direction: 'upstream', ...params }));
    expect(nodeIds(await upstream({ window: 'all' }))).to.include.members([ds('ledger'), ds('scroll')]);
    expect(nodeIds(await upstream({}))).to.not.include.members([ds('ledger')]);
    expect(nodeIds(await upstream({}))).to.not.include.members([ds('scroll')]);
    // As of 1 March 50, a month back starts on 1 February 50 (not 1950): the run of 15 February read `scroll`.
    expect(nodeIds(await upstream({ asOf: '0050-03-01T00:00:00Z', window: 'P1M' }))).to.include(ds('scroll'));
    expect(nodeIds(await upstream({ asOf: '0050-03-01T00:00:00Z', window: 'P1D' }))).to.not.include(ds('scroll'));
  });

  it('a window longer than recorded time (P9999999Y) is every event, as window=all, not an error', async () => {
    await run(t(), 'archivist', '0050-02-15T00:00:00Z', ['scroll'], ['history']);
    await run(t(), 'archivist', ago(1), ['facts'], ['history']);
    const all = nodeIds(await getGraph(t(), p(ds('history'), { direction: 'upstream', window: 'all' })));
    expect(all).to.include(ds('scroll'));
    for (const window of ['P9999999Y', 'P10000000M', 'P9999999W'])
      expect(nodeIds(await getGraph(t(), p(ds('history'), { direction: 'upstream', window }))), window).to.deep.equal(
        all,
      );
    const changes = await t().get('/api/v1/impact/schema-changes?since=P300000Y');
    expect(changes.status, JSON.stringify(changes.body)).to.equal(200);
  });

  it("a streaming job's final FAIL with no datasets does not erase its graph", async () => {
    const streaming = {
      jobType: facet({ processingType: 'STREAMING', integration: 'FLINK', jobType: 'JOB' }, 'JobTypeJobFacet'),
    };
    const runId = randomUUID();
    await post(
      t(),
      runEvent({
        job: 'stream',
        runId,
        eventType: 'START',
        eventTime: ago(5),
        inputs: ['topic'],
        outputs: ['sink'],
        jobFacets: streaming,
      }),
    );
    await post(t(), runEvent({ job: 'stream', runId, eventType: 'RUNNING', eventTime: ago(3), jobFacets: streaming }));
    await post(t(), runEvent({ job: 'stream', runId, eventType: 'FAIL', eventTime: ago(1), jobFacets: streaming }));
    const graph = await expectGraph(t(), p(job('stream'), { window: 'PT0S' }), {
      nodes: [ds('topic'), job('stream'), ds('sink')],
      edges: [e(ds('topic'), job('stream')), e(job('stream'), ds('sink'))],
    });
    // The run observed its I/O until its last event.
    const edge = graph.find((n) => n.id === job('stream'))!.outEdges[0] as Record<string, unknown>;
    expect(Date.parse(edge.lastSeenAt as string)).to.equal(Date.parse(ago(1)));
    expect(edge).to.include({ lastRunId: runId, lastRunState: 'FAILED' });
  });

  it('asOf before a job existed excludes it; asOf before the start node existed is 404', async () => {
    await run(t(), 'first', ago(10), ['src'], ['mid']);
    await run(t(), 'second', ago(5), ['mid'], ['out']);
    await expectGraph(t(), p(ds('mid'), { asOf: ago(7) }), {
      nodes: [ds('src'), job('first'), ds('mid')],
      edges: [e(ds('src'), job('first')), e(job('first'), ds('mid'))],
    });
    const res = await t().get(p(ds('out'), { asOf: ago(7) }));
    expect(res.status).to.equal(404);
  });

  it('a soft delete after T does not affect asOf=T, and applies after it', async () => {
    await run(t(), 'loader', ago(3), ['in'], ['table']);
    await run(t(), 'consumer', ago(2), ['table'], ['report']);
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    expect((await t().request('DELETE', '/api/v1/namespaces/airflow/jobs/consumer')).status).to.equal(200);
    const all = [ds('in'), job('loader'), ds('table'), job('consumer'), ds('report')];
    await expectGraph(t(), p(ds('table'), { direction: 'downstream' }), { nodes: [ds('table')], edges: [] });
    const graph = await getGraph(t(), p(ds('table'), { asOf: before }));
    expect(nodeIds(graph)).to.deep.equal([...all].sort());
    // A deleted start node resolves as of a time before its deletion only.
    expect((await t().get(p(job('consumer')))).status).to.equal(404);
    expect((await t().get(p(job('consumer'), { asOf: before }))).status).to.equal(200);
  });

  it(
    'the answer for a past T does not change when later events arrive; runs and versions are ' + 'answered as of T',
    async () => {
      const writer = await run(t(), 'writer', ago(4), ['upstream'], ['table']);
      await run(t(), 'reader', ago(3), ['table'], ['report']);
      const T = ago(2);
      const before = (await t().get(p(ds('table'), { asOf: T }))).body;
      // Later: the writer runs again (a new version of `table`), reads something new, a new reader appears,
      // and a run of `reader` starts after T.
      const later = randomUUID();
      await post(
        t(),
        runEvent({ job: 'reader', runId: later, eventType: 'START', eventTime: ago(2, 30), inputs: ['table'] }),
      );
      await run(t(), 'writer', ago(1), ['upstream', 'extra'], ['table']);
      await run(t(), 'reader2', ago(1), ['table'], ['report2']);
      await post(
        t(),
        runEvent({ job: 'reader', runId: later, eventType: 'COMPLETE', eventTime: ago(0, -30), outputs: ['report'] }),
      );
      const after = (await t().get(p(ds('table'), { asOf: T }))).body;
      expect(after).to.deep.equal(before);
      // What the answer says about T: the writer's first run is its latest, and `table` is at its first version.
      const writerNode = before.graph.find((n: { id: string }) => n.id === job('writer'));
      expect(writerNode.data.latestRun.id).to.equal(writer);
      const table = before.graph.find((n: { id: string }) => n.id === ds('table'));
      const firstVersion = (await t().get(`/api/v1/jobs/runs/${writer}`)).body.outputVersions[0].version;
      expect(table.data.currentVersion).to.equal(firstVersion);
      // A run that had started but not ended at a time is RUNNING then, with no version yet.
      const midRun = (await t().get(p(ds('table'), { asOf: ago(1, 1) }))).body.graph.find(
        (n: { id: string }) => n.id === job('reader'),
      );
      expect(midRun.data.latestRun).to.include({ id: later, state: 'RUNNING', endedAt: null, jobVersion: null });
      // Last updated then by its start (its COMPLETE is later), and with no output versioned yet.
      expect(midRun.data.latestRun).to.include({ updatedAt: ago(2, 30), durationMs: null });
      const full = (await t().get(p(ds('table'), { asOf: ago(1, 1), include: 'latestRuns' }))).body.graph.find(
        (n: { id: string }) => n.id === job('reader'),
      );
      expect(full.data.latestRuns[0]).to.include({ id: later, updatedAt: ago(2, 30) });
      expect(full.data.latestRuns[0].outputVersions).to.deep.equal([]);
      // Now: everything.
      const now = await getGraph(t(), p(ds('table')));
      expect(nodeIds(now)).to.include.members([ds('extra'), job('reader2'), ds('report2')]);
    },
  );

  it("a dataset's schema as of T is the one reported by then, not one first reported later", async () => {
    await run(t(), 'loader', ago(10), [], ['plain']);
    const T = ago(5);
    const fieldsAt = async () =>
      (await getGraph(t(), p(ds('plain'), { asOf: T }))).find((n) => n.id === ds('plain'))?.data.fields;
    expect(await fieldsAt()).to.deep.equal([]);
    await post(
      t(),
      runEvent({
        job: 'loader',
        eventType: 'COMPLETE',
        eventTime: ago(2),
        outputs: [{ name: 'plain', fields: [['b', 'INT']] }],
      }),
    );
    expect(await fieldsAt(), 'unchanged by the later schema').to.deep.equal([]);
    const now = (await getGraph(t(), p(ds('plain')))).find((n) => n.id === ds('plain'));
    expect(now?.data.fields.map((f: { name: string }) => f.name)).to.deep.equal(['b']);
  });

  it("a job node's latest run carries its location (the spec's run object in a lineage node)", async () => {
    const jobFacets = { sourceCodeLocation: facet({ type: 'git', url: 'https://git.example.com/etl.py' }) };
    await run(t(), 'located', ago(1), ['src'], ['dst'], { jobFacets });
    for (const params of [{}, { asOf: ago(0) }] as Record<string, string>[]) {
      const node = (await getGraph(t(), p(job('located'), params))).find((n) => n.id === job('located'));
      expect(node?.data.latestRun.location, JSON.stringify(params)).to.equal('https://git.example.com/etl.py');
    }
  });

  describe('parameters', () => {
    beforeEach(async () => {
      await run(t(), 'j', ago(1), ['a'], ['b']);
    });
    for (const [params, word] of [
      [{ asOf: 'yesterday' }, 'asOf'],
      [{ asOf: '2024-13-45T00:00:00Z' }, 'asOf'],
      [{ asOf: '2026-02-30T00:00:00Z' }, 'asOf'],
      [{ asOf: '2025-02-29' }, 'asOf'],
      [{ asOf: '2026-04-31T10:00:00+02:00' }, 'asOf'],
      [{ window: '30 days' }, 'window'],
      [{ window: 'P' }, 'window'],
      [{ window: '-P1D' }, 'window'],
    ] as [Record<string, string>, string][]) {
      it(`400 for ${JSON.stringify(params)}`, async () => {
        const res = await t().get(p(ds('a'), params));
        expect(res.status, res.text).to.equal(400);
        expect(res.body.message).to.contain(word);
      });
    }
    it("400 for an asOf whose '+' a URL query read as a space, saying to write %2B", async () => {
      // As curl sends `asOf=2026-11-27T16:14:09+01:00` unencoded: the query string reads '+' as a space.
      const res = await t().get(`${p(ds('a'))}&asOf=2026-11-27T16:14:09+01:00`);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.message).to.contain("got '2026-11-27T16:14:09 01:00' (a '+' in a URL query reads as a space");
    });

    it('accepts asOf with an offset, without one (UTC) and a bare date; window=ALL in any case', async () => {
      for (const asOf of [
        new Date().toISOString().replace('Z', '+00:00'),
        new Date().toISOString().replace('Z', ''),
        new Date().toISOString().slice(0, 10),
      ]) {
        const res = await t().get(p(ds('a'), { asOf: asOf, window: 'ALL' }));
        expect(res.status, `${asOf}: ${res.text}`).to.be.oneOf([200, 404]);
      }
      expect((await t().get(p(ds('a'), { asOf: new Date().toISOString(), window: 'ALL' }))).status).to.equal(200);
    });
  });
});
