/** GET /api/v1/impact: blast radius on known graphs built through POST /api/v1/lineage. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp, type TestApp } from '../../helper.js';
import { facet, runEvent } from '../../support/events.js';
import { lineagePath } from '../lineage/support.js';
import { ds, getImpact, impactPath, job, JOB_NS, NS, runJob, tree } from './support.js';

const radius = (nodeId: string, params: Record<string, string | number> = {}) => impactPath({ nodeId, ...params });

/** The node set of GET /api/v1/lineage for the same question. */
async function lineageNodes(
  t: TestApp,
  nodeId: string,
  params: Record<string, string | number>,
): Promise<string[] | 404> {
  const res = await t.get(lineagePath(nodeId, params));
  if (res.status === 404) return 404;
  expect(res.status, res.text).to.equal(200);
  return res.body.graph.map((n: { id: string }) => n.id).sort();
}

/** Blast radius and lineage agree on which nodes take part (same depth, direction, asOf, window), or both are 404. */
async function expectSameNodesAsLineage(t: TestApp, nodeId: string, params: Record<string, string | number>) {
  const res = await t.get(radius(nodeId, params));
  const mine =
    res.status === 404 ? 404 : [res.body.start.id, ...res.body.nodes.map((n: { id: string }) => n.id)].sort();
  expect(mine, `impact vs lineage for ${nodeId} ${JSON.stringify(params)}: ${res.status}`).to.deep.equal(
    await lineageNodes(t, nodeId, params),
  );
}

describe('GET /api/v1/impact: blast radius', () => {
  const t = useTestApp();

  describe('a chain: src -(extract)-> raw -(clean)-> orders -(agg)-> totals', () => {
    beforeEach(async function () {
      this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
      await runJob(t(), 'extract', ['src'], ['raw']);
      await runJob(t(), 'clean', ['raw'], ['orders']);
      await runJob(t(), 'agg', ['orders'], ['totals']);
    });

    it('downstream: every node with its distance (relationships) and the node it was reached from', async () => {
      const body = await getImpact(t(), radius(ds('raw')));
      expect(body.start).to.deep.include({
        id: ds('raw'),
        type: 'DATASET',
        namespace: NS,
        name: 'raw',
        distance: 0,
        via: null,
      });
      expect(tree(body)).to.deep.equal([
        [job('clean'), 1, ds('raw')],
        [ds('orders'), 2, job('clean')],
        [job('agg'), 3, ds('orders')],
        [ds('totals'), 4, job('agg')],
      ]);
      expect(body).to.deep.include({
        direction: 'downstream',
        depth: 20,
        asOf: null,
        window: 'P30D',
        state: null,
        total: 4,
        truncated: false,
      });
      expect(body.summary).to.deep.equal({
        total: 4,
        byDistance: { 1: 1, 2: 1, 3: 1, 4: 1 },
        byType: { JOB: 2, DATASET: 2 },
        failedJobs: 0,
      });
      const clean = body.nodes[0];
      expect(clean).to.deep.include({
        type: 'JOB',
        namespace: 'airflow',
        name: 'clean',
        latestRunState: 'COMPLETED',
        tags: [],
        owners: [],
      });
      expect(clean.latestRunEndedAt).to.match(/^\d{4}-\d\d-\d\dT.*Z$/);
      expect(body.nodes[1]).to.deep.include({ latestRunState: null, latestRunEndedAt: null });
    });

    it('depth counts job hops as /api/v1/lineage does', async function () {
      this.timeout(120_000);
      expect(tree(await getImpact(t(), radius(ds('raw'), { depth: 0 })))).to.deep.equal([
        [job('clean'), 1, ds('raw')],
        [ds('orders'), 2, job('clean')],
      ]);
      expect(tree(await getImpact(t(), radius(ds('raw'), { depth: 1 })))).to.have.length(4);
      expect(tree(await getImpact(t(), radius(job('clean'), { depth: 0 })))).to.deep.equal([
        [ds('orders'), 1, job('clean')],
      ]);
      expect(tree(await getImpact(t(), radius(job('clean'), { depth: 1 })))).to.deep.equal([
        [ds('orders'), 1, job('clean')],
        [job('agg'), 2, ds('orders')],
        [ds('totals'), 3, job('agg')],
      ]);
      for (const depth of [0, 1, 20]) {
        for (const direction of ['downstream', 'upstream']) {
          for (const start of [ds('raw'), job('clean'), ds('totals')])
            await expectSameNodesAsLineage(t(), start, { depth, direction });
        }
      }
    });

    it('upstream: against the arrows, via the node nearer the start', async () => {
      const body = await getImpact(t(), radius(ds('totals'), { direction: 'upstream' }));
      expect(tree(body)).to.deep.equal([
        [job('agg'), 1, ds('totals')],
        [ds('orders'), 2, job('agg')],
        [job('clean'), 3, ds('orders')],
        [ds('raw'), 4, job('clean')],
        [job('extract'), 5, ds('raw')],
        [ds('src'), 6, job('extract')],
      ]);
      expect(tree(await getImpact(t(), radius(ds('totals'), { direction: 'UPSTREAM', depth: 0 })))).to.deep.equal([
        [job('agg'), 1, ds('totals')],
        [ds('orders'), 2, job('agg')],
      ]);
      expect((await getImpact(t(), radius(ds('src'), { direction: 'upstream' }))).nodes).to.deep.equal([]);
    });

    it('costs two round trips to Neo4j (resolve, traverse) whatever the size', async () => {
      const ops: string[] = [];
      const db = t().db;
      // Single statements go through db.execute (executeQuery), the streamed walk through db.read.
      const read = db.read.bind(db);
      const execute = db.execute.bind(db);
      db.read = ((opts, work) => {
        ops.push(opts.op);
        return read(opts, work);
      }) as typeof db.read;
      db.execute = ((routing, op, text, params, opts) => {
        ops.push(op);
        return execute(routing, op, text, params, opts);
      }) as typeof db.execute;
      try {
        await getImpact(t(), radius(ds('totals'), { direction: 'upstream', depth: 0 }));
        await getImpact(t(), radius(ds('src')));
        expect((await t().get(radius(ds('src'), { format: 'csv' }))).status).to.equal(200);
      } finally {
        db.read = read;
        db.execute = execute;
      }
      // The walk: the lineage.blastRadius procedure's query where Neo4j has it (the local one does), else
      // Cypher's.
      const walk =
        t().app.services.impact.blastRadiusWalk === 'procedure'
          ? 'impact/blast-radius-procedure'
          : 'impact/blast-radius';
      expect(ops).to.deep.equal([
        'lineage/resolve-dataset',
        walk,
        'lineage/resolve-dataset',
        walk,
        'lineage/resolve-dataset',
        walk,
      ]);
    });
  });

  describe('a diamond: a -(j1)-> b, a -(j2)-> c, b + c -(j3)-> d', () => {
    beforeEach(async function () {
      this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
      await runJob(t(), 'j1', ['a'], ['b']);
      await runJob(t(), 'j2', ['a'], ['c']);
      await runJob(t(), 'j3', ['b', 'c'], ['d']);
    });

    it('reaches each node once, at its shortest distance, via the first of its nearer predecessors by id', async () => {
      expect(tree(await getImpact(t(), radius(ds('a'))))).to.deep.equal([
        [job('j1'), 1, ds('a')],
        [job('j2'), 1, ds('a')],
        [ds('b'), 2, job('j1')],
        [ds('c'), 2, job('j2')],
        [job('j3'), 3, ds('b')],
        [ds('d'), 4, job('j3')],
      ]);
      expect(tree(await getImpact(t(), radius(ds('d'), { direction: 'upstream' })))).to.deep.equal([
        [job('j3'), 1, ds('d')],
        [ds('b'), 2, job('j3')],
        [ds('c'), 2, job('j3')],
        [job('j1'), 3, ds('b')],
        [job('j2'), 3, ds('c')],
        [ds('a'), 4, job('j1')],
      ]);
      for (const start of [ds('a'), ds('d'), job('j3')]) {
        for (const direction of ['downstream', 'upstream'])
          await expectSameNodesAsLineage(t(), start, { direction, depth: 20 });
      }
    });
  });

  describe('a fan-out hub: raw -(load)-> hub, read by r1..r5 writing o1..o5', () => {
    beforeEach(async function () {
      this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
      await runJob(t(), 'load', ['raw'], ['hub']);
      for (let i = 1; i <= 5; i++) await runJob(t(), `r${i}`, ['hub'], [`o${i}`]);
    });

    it('reaches every reader and output', async () => {
      const body = await getImpact(t(), radius(ds('hub')));
      expect(tree(body)).to.deep.equal([
        ...[1, 2, 3, 4, 5].map((i) => [job(`r${i}`), 1, ds('hub')]),
        ...[1, 2, 3, 4, 5].map((i) => [ds(`o${i}`), 2, job(`r${i}`)]),
      ]);
      expect(body.summary).to.deep.include({ total: 10, byDistance: { 1: 5, 2: 5 }, byType: { JOB: 5, DATASET: 5 } });
    });

    it(
      'truncates to the nearest nodes past the limit, with the total and a summary of everything ' + 'reached',
      async () => {
        const three = await getImpact(t(), radius(ds('hub'), { limit: 3 }));
        expect(tree(three)).to.deep.equal([1, 2, 3].map((i) => [job(`r${i}`), 1, ds('hub')]));
        expect(three).to.deep.include({ total: 10, truncated: true });
        expect(three.summary).to.deep.include({ total: 10, byDistance: { 1: 5, 2: 5 } });
        const seven = await getImpact(t(), radius(ds('hub'), { limit: 7 }));
        expect(tree(seven).map(([id, d]) => [id, d])).to.deep.equal([
          ...[1, 2, 3, 4, 5].map((i) => [job(`r${i}`), 1]),
          [ds('o1'), 2],
          [ds('o2'), 2],
        ]);
        expect(seven.truncated).to.equal(true);
        const all = await getImpact(t(), radius(ds('hub'), { limit: 10 }));
        expect(all).to.deep.include({ total: 10, truncated: false });
        expect(all.nodes).to.have.length(10);
      },
    );

    it('goes upstream through the hub without reaching its siblings', async () => {
      expect(tree(await getImpact(t(), radius(ds('o3'), { direction: 'upstream' })))).to.deep.equal([
        [job('r3'), 1, ds('o3')],
        [ds('hub'), 2, job('r3')],
        [job('load'), 3, ds('hub')],
        [ds('raw'), 4, job('load')],
      ]);
    });
  });

  describe('cycles', () => {
    it('terminate, each node once at its shortest distance', async () => {
      await runJob(t(), 'j1', ['a'], ['b']);
      await runJob(t(), 'j2', ['b'], ['a']);
      await runJob(t(), 'self', ['s'], ['s']);
      expect(tree(await getImpact(t(), radius(ds('a'))))).to.deep.equal([
        [job('j1'), 1, ds('a')],
        [ds('b'), 2, job('j1')],
        [job('j2'), 3, ds('b')],
      ]);
      expect(tree(await getImpact(t(), radius(ds('a'), { direction: 'upstream' })))).to.deep.equal([
        [job('j2'), 1, ds('a')],
        [ds('b'), 2, job('j2')],
        [job('j1'), 3, ds('b')],
      ]);
      expect(tree(await getImpact(t(), radius(ds('s'))))).to.deep.equal([[job('self'), 1, ds('s')]]);
      expect(tree(await getImpact(t(), radius(job('self'), { direction: 'upstream' })))).to.deep.equal([
        [ds('s'), 1, job('self')],
      ]);
    });
  });

  describe('symlinked datasets', () => {
    it('start from the primary dataset whichever name the id uses', async () => {
      const symlinks = facet(
        { identifiers: [{ namespace: 'hdfs://namenode:8020', name: '/warehouse/orders', type: 'TABLE' }] },
        'SymlinksDatasetFacet',
      );
      await runJob(
        t(),
        'writer',
        [],
        [{ namespace: 'hive://metastore:9083', name: 'default.orders', facets: { symlinks } }],
      );
      await runJob(t(), 'reader', [{ namespace: 'hdfs://namenode:8020', name: '/warehouse/orders' }], ['report']);
      const primary = 'dataset:hive://metastore:9083:default.orders';
      for (const id of [primary, 'dataset:hdfs://namenode:8020:/warehouse/orders']) {
        const body = await getImpact(t(), radius(id));
        expect(body.start.id).to.equal(primary);
        expect(tree(body)).to.deep.equal([
          [job('reader'), 1, primary],
          [ds('report'), 2, job('reader')],
        ]);
      }
      expect(tree(await getImpact(t(), radius(ds('report'), { direction: 'upstream' })))).to.deep.equal([
        [job('reader'), 1, ds('report')],
        [primary, 2, job('reader')],
        [job('writer'), 3, primary],
      ]);
    });
  });

  describe('tags and owners', () => {
    it('come from TAGGED and the ownership facet', async () => {
      const ownership = facet(
        { owners: [{ name: 'team:data, "core"', type: 'TEAM' }, { name: 'alice' }] },
        'OwnershipJobFacet',
      );
      await t().post(
        '/api/v1/lineage',
        runEvent({ job: 'owned', eventType: 'COMPLETE', inputs: ['x'], outputs: ['y'], jobFacets: { ownership } }),
      );
      await t().db.write({ op: 'test' }, (tx) =>
        tx.run(`MATCH (d:Dataset {name: 'y'}) MERGE (t:Tag {name: 'PII'}) MERGE (d)-[:TAGGED]->(t)`),
      );
      const body = await getImpact(t(), radius(ds('x')));
      expect(body.nodes[0]).to.deep.include({ id: job('owned'), owners: ['team:data, "core"', 'alice'], tags: [] });
      expect(body.nodes[1]).to.deep.include({ id: ds('y'), tags: ['PII'], owners: [] });
      // Root cause details only the jobs in the state asked for, and always the start, whatever its state.
      await t().db.write({ op: 'test' }, (tx) =>
        tx.run(`MATCH (d:Dataset {name: 'x'}) MERGE (t:Tag {name: 'RAW'}) MERGE (d)-[:TAGGED]->(t)`),
      );
      const fromJob = await getImpact(t(), radius(job('owned'), { state: 'FAILED' }));
      expect(fromJob.start).to.deep.include({ id: job('owned'), owners: ['team:data, "core"', 'alice'], tags: [] });
      const fromDataset = await getImpact(t(), radius(ds('x'), { state: 'FAILED' }));
      expect(fromDataset.start).to.deep.include({ id: ds('x'), tags: ['RAW'], owners: [] });
      expect(fromDataset.nodes).to.deep.equal([]);
    });
  });

  describe("time: the lineage graph's asOf and window", () => {
    const at = (day: number) => new Date(Date.UTC(2024, 0, day)).toISOString();
    const post = async (name: string, day: number, inputs: string[], outputs: string[]) => {
      const res = await t().post(
        '/api/v1/lineage',
        runEvent({ job: name, runId: randomUUID(), eventType: 'COMPLETE', eventTime: at(day), inputs, outputs }),
      );
      expect(res.status, res.text).to.equal(201);
    };

    it('answer the graph of that time, as /api/v1/lineage does', async function () {
      this.timeout(60_000);
      await post('split', 10, ['src'], ['p1']);
      await post('split', 11, ['src'], ['p2']);
      await post('use', 12, ['p1'], ['r1']);
      // Default view now: split's latest output only (day 11 is far more than 30 days ago).
      expect(tree(await getImpact(t(), radius(ds('src')))).map(([id]) => id)).to.deep.equal([job('split'), ds('p2')]);
      expect(tree(await getImpact(t(), radius(ds('src'), { window: 'all' })))).to.deep.equal([
        [job('split'), 1, ds('src')],
        [ds('p1'), 2, job('split')],
        [ds('p2'), 2, job('split')],
        [job('use'), 3, ds('p1')],
        [ds('r1'), 4, job('use')],
      ]);
      const before = await getImpact(t(), radius(ds('src'), { asOf: `${at(10)}`, window: 'P1D' }));
      expect(tree(before).map(([id]) => id)).to.deep.equal([job('split'), ds('p1')]);
      expect(before.asOf).to.equal(at(10));
      // Nodes that did not exist yet are unknown then.
      expect((await t().get(radius(ds('r1'), { asOf: at(5) }))).status).to.equal(404);
      for (const params of [
        {},
        { window: 'all' },
        { asOf: at(10), window: 'P1D' },
        { asOf: at(12), window: 'P2D' },
        { asOf: at(13), window: 'all' },
      ] as Record<string, string>[]) {
        await expectSameNodesAsLineage(t(), ds('src'), { ...params, direction: 'downstream' });
        await expectSameNodesAsLineage(t(), ds('r1'), { ...params, direction: 'upstream' });
      }
    });

    it('report the latest run as of then', async () => {
      const runId = randomUUID();
      await t().post(
        '/api/v1/lineage',
        runEvent({ job: 'slow', runId, eventType: 'START', eventTime: at(1), inputs: ['in'], outputs: ['out'] }),
      );
      await t().post(
        '/api/v1/lineage',
        runEvent({ job: 'slow', runId, eventType: 'FAIL', eventTime: at(3), inputs: ['in'], outputs: ['out'] }),
      );
      const now = await getImpact(t(), radius(ds('in')));
      expect(now.nodes[0]).to.deep.include({ id: job('slow'), latestRunState: 'FAILED', latestRunEndedAt: at(3) });
      expect(now.summary.failedJobs).to.equal(1);
      const then = await getImpact(t(), radius(ds('in'), { asOf: at(2) }));
      expect(then.nodes[0]).to.deep.include({ id: job('slow'), latestRunState: 'RUNNING', latestRunEndedAt: null });
      expect(then.summary.failedJobs).to.equal(0);
    });

    it('report, as of a time between two runs, the earlier run (the later one not started then)', async () => {
      const post = (runId: string, eventType: string, time: string) =>
        t().post(
          '/api/v1/lineage',
          runEvent({ job: 'nightly', runId, eventType, eventTime: time, inputs: ['in'], outputs: ['out'] }),
        );
      const first = randomUUID();
      const second = randomUUID();
      await post(first, 'START', at(1));
      await post(first, 'FAIL', at(2));
      await post(second, 'START', at(5));
      await post(second, 'COMPLETE', at(6));
      const now = await getImpact(t(), radius(ds('in')));
      expect(now.nodes[0]).to.deep.include({
        id: job('nightly'),
        latestRunState: 'COMPLETED',
        latestRunEndedAt: at(6),
      });
      expect(now.summary.failedJobs).to.equal(0);
      // Between the runs: the job's LATEST_RUN started later, so the run is found by time; it had failed.
      const between = await getImpact(t(), radius(ds('in'), { asOf: at(3) }));
      expect(between.nodes[0]).to.deep.include({
        id: job('nightly'),
        latestRunState: 'FAILED',
        latestRunEndedAt: at(2),
      });
      expect(between.summary.failedJobs).to.equal(1);
      const rootCause = await getImpact(
        t(),
        radius(ds('out'), { asOf: at(3), direction: 'upstream', state: 'FAILED' }),
      );
      expect(rootCause.nodes.map((n: { id: string }) => n.id)).to.deep.equal([job('nightly')]);
    });
  });

  describe('soft deletes', () => {
    it('cut the walk, and a deleted start is 404', async () => {
      await runJob(t(), 'j1', ['d0'], ['d1']);
      await runJob(t(), 'j2', ['d1'], ['d2']);
      expect((await t().request('DELETE', `/api/v1/namespaces/${encodeURIComponent(JOB_NS)}/jobs/j2`)).status).to.equal(
        200,
      );
      expect(tree(await getImpact(t(), radius(ds('d0')))).map(([id]) => id)).to.deep.equal([job('j1'), ds('d1')]);
      expect((await t().get(radius(job('j2')))).status).to.equal(404);
    });
  });
});
