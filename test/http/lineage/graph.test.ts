import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { NS, ds, e, expectGraph, getGraph, type GraphNode, job, lineagePath as p, runJob } from './support.js';

describe('GET /api/v1/lineage: dataset-level graph', () => {
  const t = useTestApp();

  describe('a chain d0 -> j1 -> d1 -> j2 -> d2 -> j3 -> d3', () => {
    beforeEach(async () => {
      await runJob(t(), 'j1', ['d0'], ['d1']);
      await runJob(t(), 'j2', ['d1'], ['d2']);
      await runJob(t(), 'j3', ['d2'], ['d3']);
    });
    const all = {
      nodes: [ds('d0'), job('j1'), ds('d1'), job('j2'), ds('d2'), job('j3'), ds('d3')],
      edges: [
        e(ds('d0'), job('j1')),
        e(job('j1'), ds('d1')),
        e(ds('d1'), job('j2')),
        e(job('j2'), ds('d2')),
        e(ds('d2'), job('j3')),
        e(job('j3'), ds('d3')),
      ],
    };

    it('both (default, depth 20) from any node returns the whole chain', async () => {
      await expectGraph(t(), p(ds('d1')), all);
      await expectGraph(t(), p(job('j3')), all);
      await expectGraph(t(), p(ds('d0'), { depth: 20, direction: 'both' }), all);
    });

    it('both, depth 0: the jobs next to the start and their datasets', async () => {
      await expectGraph(t(), p(job('j2'), { depth: 0 }), {
        nodes: [ds('d1'), job('j2'), ds('d2')],
        edges: [e(ds('d1'), job('j2')), e(job('j2'), ds('d2'))],
      });
      await expectGraph(t(), p(ds('d1'), { depth: 0 }), {
        nodes: [ds('d0'), job('j1'), ds('d1'), job('j2'), ds('d2')],
        edges: [e(ds('d0'), job('j1')), e(job('j1'), ds('d1')), e(ds('d1'), job('j2')), e(job('j2'), ds('d2'))],
      });
    });

    it('both, depth 1 from a job: one more job hop each way', async () => {
      await expectGraph(t(), p(job('j2'), { depth: 1 }), all);
      await expectGraph(t(), p(job('j1'), { depth: 1 }), {
        nodes: [ds('d0'), job('j1'), ds('d1'), job('j2'), ds('d2')],
        edges: [e(ds('d0'), job('j1')), e(job('j1'), ds('d1')), e(ds('d1'), job('j2')), e(job('j2'), ds('d2'))],
      });
    });

    it('downstream follows the arrows only', async () => {
      await expectGraph(t(), p(ds('d1'), { direction: 'downstream' }), {
        nodes: [ds('d1'), job('j2'), ds('d2'), job('j3'), ds('d3')],
        edges: [e(ds('d1'), job('j2')), e(job('j2'), ds('d2')), e(ds('d2'), job('j3')), e(job('j3'), ds('d3'))],
      });
      await expectGraph(t(), p(ds('d1'), { direction: 'downstream', depth: 0 }), {
        nodes: [ds('d1'), job('j2'), ds('d2')],
        edges: [e(ds('d1'), job('j2')), e(job('j2'), ds('d2'))],
      });
      await expectGraph(t(), p(job('j2'), { direction: 'downstream', depth: 0 }), {
        nodes: [job('j2'), ds('d2')],
        edges: [e(job('j2'), ds('d2'))],
      });
      await expectGraph(t(), p(job('j2'), { direction: 'downstream', depth: 1 }), {
        nodes: [job('j2'), ds('d2'), job('j3'), ds('d3')],
        edges: [e(job('j2'), ds('d2')), e(ds('d2'), job('j3')), e(job('j3'), ds('d3'))],
      });
      await expectGraph(t(), p(ds('d3'), { direction: 'downstream' }), { nodes: [ds('d3')], edges: [] });
    });

    it('upstream walks against the arrows only', async () => {
      await expectGraph(t(), p(ds('d2'), { direction: 'upstream' }), {
        nodes: [ds('d0'), job('j1'), ds('d1'), job('j2'), ds('d2')],
        edges: [e(ds('d0'), job('j1')), e(job('j1'), ds('d1')), e(ds('d1'), job('j2')), e(job('j2'), ds('d2'))],
      });
      await expectGraph(t(), p(ds('d2'), { direction: 'upstream', depth: 0 }), {
        nodes: [ds('d1'), job('j2'), ds('d2')],
        edges: [e(ds('d1'), job('j2')), e(job('j2'), ds('d2'))],
      });
      await expectGraph(t(), p(job('j3'), { direction: 'upstream', depth: 1 }), {
        nodes: [ds('d1'), job('j2'), ds('d2'), job('j3')],
        edges: [e(ds('d1'), job('j2')), e(job('j2'), ds('d2')), e(ds('d2'), job('j3'))],
      });
      await expectGraph(t(), p(ds('d0'), { direction: 'upstream' }), { nodes: [ds('d0')], edges: [] });
    });

    it('GET /api/v1-beta/lineage answers the same graph', async () => {
      const v1 = await t().get(p(ds('d1'), { depth: 1 }));
      const beta = await t().get(p(ds('d1'), { depth: 1 }, '/api/v1-beta/lineage'));
      expect(beta.status).to.equal(200);
      expect(beta.body).to.deep.equal(v1.body);
      await expectGraph(t(), p(ds('d1'), {}, '/api/v1-beta/lineage'), all);
    });

    it('a client can walk downstream by following destinations', async () => {
      const graph = await getGraph(t(), p(ds('d0')));
      const byId = new Map(graph.map((n) => [n.id, n]));
      const walked: string[] = [];
      let cur = byId.get(ds('d0'));
      while (cur) {
        walked.push(cur.id);
        cur = cur.outEdges.length ? byId.get(cur.outEdges[0].destination) : undefined;
      }
      expect(walked).to.deep.equal([ds('d0'), job('j1'), ds('d1'), job('j2'), ds('d2'), job('j3'), ds('d3')]);
    });

    it('node data: the job object with latestRun, the dataset object', async () => {
      const graph = await getGraph(t(), p(job('j2'), { depth: 0 }));
      const j = graph.find((n) => n.id === job('j2'))!;
      expect(j.type).to.equal('JOB');
      expect(j.data).to.include({ namespace: 'airflow', name: 'j2' });
      expect(j.data.id).to.deep.equal({ namespace: 'airflow', name: 'j2' });
      expect(j.data.inputs).to.deep.equal([{ namespace: NS, name: 'd1' }]);
      expect(j.data.latestRun).to.be.an('object');
      expect(j.data.latestRun.state).to.equal('COMPLETED');
      const d = graph.find((n) => n.id === ds('d2'))!;
      expect(d.type).to.equal('DATASET');
      expect(d.data).to.include({ name: 'd2' });
      expect(d.data.id).to.deep.equal({ namespace: 'postgres://db.example.com:5432', name: 'd2' });
    });
  });

  describe('node data', () => {
    const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

    it(
      'by default, the fields a graph view needs, each as the read API answers it; the latest run as its state and ' +
        'times',
      async () => {
        await runJob(
          t(),
          'j1',
          ['d0'],
          [
            {
              name: 'd1',
              fields: [
                ['id', 'INTEGER'],
                ['amount', 'DECIMAL'],
              ],
            },
          ],
        );
        const graph = await getGraph(t(), p(job('j1'), { depth: 0 }));
        const jobRes = (await t().get(`/api/v1/namespaces/airflow/jobs/j1`)).body;
        const jobData = graph.find((n) => n.id === job('j1'))!.data;
        const jobKeys = [
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
          'description',
          'currentVersion',
          'labels',
          'tags',
        ];
        expect(Object.keys(jobData).sort()).to.deep.equal([...jobKeys, 'latestRun'].sort());
        expect(pick(jobData, jobKeys)).to.deep.equal(pick(jobRes, jobKeys));
        const runKeys = [
          'id',
          'location',
          'createdAt',
          'updatedAt',
          'nominalStartTime',
          'nominalEndTime',
          'state',
          'startedAt',
          'endedAt',
          'durationMs',
          'jobVersion',
        ];
        expect(jobData.latestRun).to.deep.equal(pick(jobRes.latestRun, runKeys));
        const dsRes = (await t().get(`/api/v1/namespaces/${encodeURIComponent(NS)}/datasets/d1`)).body;
        const dsData = graph.find((n) => n.id === ds('d1'))!.data;
        const dsKeys = [
          'id',
          'type',
          'name',
          'physicalName',
          'createdAt',
          'updatedAt',
          'namespace',
          'sourceName',
          'fields',
          'tags',
          'lastModifiedAt',
          'description',
          'lastLifecycleState',
          'currentVersion',
        ];
        expect(Object.keys(dsData).sort()).to.deep.equal([...dsKeys].sort());
        expect(dsData).to.deep.equal(pick(dsRes, dsKeys));
      },
    );

    it('include=facets,latestRuns adds facets, context, column lineage and the full latest run', async () => {
      await runJob(
        t(),
        'j1',
        ['d0'],
        [
          {
            name: 'd1',
            fields: [
              ['id', 'INTEGER'],
              ['amount', 'DECIMAL'],
            ],
          },
        ],
      );
      const graph = await getGraph(t(), p(job('j1'), { depth: 0, include: 'facets,latestRuns' }));
      const jobRes = (await t().get(`/api/v1/namespaces/airflow/jobs/j1`)).body;
      const jobData = graph.find((n) => n.id === job('j1'))!.data;
      expect(jobData.facets).to.deep.equal(jobRes.facets);
      expect(jobData.context).to.deep.equal(jobRes.context);
      expect(jobData.latestRuns).to.deep.equal(jobRes.latestRuns);
      expect(jobData.latestRun).to.deep.equal(jobRes.latestRun);
      const dsRes = (await t().get(`/api/v1/namespaces/${encodeURIComponent(NS)}/datasets/d1`)).body;
      const dsData = graph.find((n) => n.id === ds('d1'))!.data;
      expect(dsData.facets).to.deep.equal(dsRes.facets);
      expect(dsData.facets.schema).to.be.an('object');
      expect(dsData.columnLineage).to.deep.equal(dsRes.columnLineage);
      const bad = await t().get(p(job('j1'), { include: 'everything' }));
      expect(bad.status).to.equal(400);
      expect(bad.body.message).to.contain('include');
    });
  });

  describe('a diamond d0 -> (j1 -> d1 | j2 -> d2) -> j3 -> d3', () => {
    beforeEach(async () => {
      await runJob(t(), 'j1', ['d0'], ['d1']);
      await runJob(t(), 'j2', ['d0'], ['d2']);
      await runJob(t(), 'j3', ['d1', 'd2'], ['d3']);
    });
    const allEdges = [
      e(ds('d0'), job('j1')),
      e(ds('d0'), job('j2')),
      e(job('j1'), ds('d1')),
      e(job('j2'), ds('d2')),
      e(ds('d1'), job('j3')),
      e(ds('d2'), job('j3')),
      e(job('j3'), ds('d3')),
    ];
    const allNodes = [ds('d0'), job('j1'), job('j2'), ds('d1'), ds('d2'), job('j3'), ds('d3')];

    it('downstream of the source reaches the sink once, with both branches', async () => {
      await expectGraph(t(), p(ds('d0'), { direction: 'downstream' }), { nodes: allNodes, edges: allEdges });
      await expectGraph(t(), p(ds('d0'), { direction: 'downstream', depth: 0 }), {
        nodes: [ds('d0'), job('j1'), job('j2'), ds('d1'), ds('d2')],
        edges: [e(ds('d0'), job('j1')), e(ds('d0'), job('j2')), e(job('j1'), ds('d1')), e(job('j2'), ds('d2'))],
      });
    });

    it('upstream of the sink reaches the source through both branches', async () => {
      await expectGraph(t(), p(ds('d3'), { direction: 'upstream' }), { nodes: allNodes, edges: allEdges });
      await expectGraph(t(), p(ds('d3'), { direction: 'upstream', depth: 0 }), {
        nodes: [ds('d1'), ds('d2'), job('j3'), ds('d3')],
        edges: [e(ds('d1'), job('j3')), e(ds('d2'), job('j3')), e(job('j3'), ds('d3'))],
      });
    });

    it('upstream of one branch does not include the other branch (strict walk)', async () => {
      await expectGraph(t(), p(ds('d1'), { direction: 'upstream' }), {
        nodes: [ds('d0'), job('j1'), ds('d1')],
        edges: [e(ds('d0'), job('j1')), e(job('j1'), ds('d1'))],
      });
    });

    it('both from one branch reaches the other branch', async () => {
      await expectGraph(t(), p(job('j1'), { depth: 1 }), { nodes: allNodes, edges: allEdges });
    });
  });

  describe('fan-out and fan-in around a hub', () => {
    beforeEach(async () => {
      await runJob(t(), 'load', ['raw'], ['hub']);
      for (const i of [1, 2, 3]) await runJob(t(), `c${i}`, ['hub'], [`o${i}`]);
      await runJob(t(), 'merge', ['o1', 'o2', 'o3'], ['final']);
    });

    it('downstream of the hub: every consumer, then the fan-in', async () => {
      await expectGraph(t(), p(ds('hub'), { direction: 'downstream' }), {
        nodes: [ds('hub'), job('c1'), job('c2'), job('c3'), ds('o1'), ds('o2'), ds('o3'), job('merge'), ds('final')],
        edges: [
          ...[1, 2, 3].flatMap((i) => [
            e(ds('hub'), job(`c${i}`)),
            e(job(`c${i}`), ds(`o${i}`)),
            e(ds(`o${i}`), job('merge')),
          ]),
          e(job('merge'), ds('final')),
        ],
      });
    });

    it('upstream of one output has no siblings', async () => {
      await expectGraph(t(), p(ds('o1'), { direction: 'upstream' }), {
        nodes: [ds('raw'), job('load'), ds('hub'), job('c1'), ds('o1')],
        edges: [e(ds('raw'), job('load')), e(job('load'), ds('hub')), e(ds('hub'), job('c1')), e(job('c1'), ds('o1'))],
      });
    });

    it("upstream of one output: the hub's edges only to nodes in the answer, a job's outputs all of them", async () => {
      await runJob(t(), 'c1', ['hub'], ['o1', 'side']);
      for (const fields of ['full', 'minimal']) {
        // (A minimal answer lists each edge once, in its origin's outEdges: not getGraph's invariants.)
        const res = await t().get(p(ds('o1'), { direction: 'upstream', fields }));
        expect(res.status).to.equal(200);
        const g = res.body.graph as GraphNode[];
        const hub = g.find((n) => n.id === ds('hub'))!;
        expect(
          hub.outEdges.map((x) => x.destination),
          fields,
        ).to.deep.equal([job('c1')]);
        expect(
          g.map((n) => n.id),
          fields,
        ).to.not.include(ds('side'));
        if (fields === 'full') {
          const c1 = g.find((n) => n.id === job('c1'))!;
          const outputs = (c1.data as { outputs: { name: string }[] }).outputs.map((o) => o.name).sort();
          expect(outputs).to.deep.equal(['o1', 'side']);
        }
      }
    });

    it('both from one output reaches its siblings through the shared hub (Marquez semantics)', async () => {
      // depth 0: j=c1 (and merge, the other job next to o1) with their datasets.
      await expectGraph(t(), p(ds('o1'), { depth: 0 }), {
        nodes: [ds('hub'), job('c1'), ds('o1'), job('merge'), ds('o2'), ds('o3'), ds('final')],
        edges: [
          e(ds('hub'), job('c1')),
          e(job('c1'), ds('o1')),
          ...[1, 2, 3].map((i) => e(ds(`o${i}`), job('merge'))),
          e(job('merge'), ds('final')),
        ],
      });
      const g = await getGraph(t(), p(ds('o1'), { depth: 1 }));
      expect(g.map((n) => n.id)).to.include.members([job('c2'), job('c3'), job('load'), ds('raw')]);
    });
  });

  describe('cycles', () => {
    it('a job that reads and writes the same dataset', async () => {
      await runJob(t(), 'upsert', ['t'], ['t']);
      const expected = {
        nodes: [ds('t'), job('upsert')],
        edges: [e(ds('t'), job('upsert')), e(job('upsert'), ds('t'))],
      };
      for (const direction of ['both', 'upstream', 'downstream']) {
        await expectGraph(t(), p(ds('t'), { direction }), expected);
        await expectGraph(t(), p(job('upsert'), { direction }), expected);
      }
    });

    it('a -> j1 -> b -> j2 -> a terminates and is drawn with all four edges', async () => {
      await runJob(t(), 'j1', ['a'], ['b']);
      await runJob(t(), 'j2', ['b'], ['a']);
      await runJob(t(), 'j3', ['b'], ['side']);
      const cycle = [e(ds('a'), job('j1')), e(job('j1'), ds('b')), e(ds('b'), job('j2')), e(job('j2'), ds('a'))];
      await expectGraph(t(), p(ds('a'), { direction: 'upstream', depth: 100 }), {
        nodes: [ds('a'), job('j1'), ds('b'), job('j2')],
        edges: cycle,
      });
      await expectGraph(t(), p(ds('a'), { direction: 'downstream', depth: 100 }), {
        nodes: [ds('a'), job('j1'), ds('b'), job('j2'), job('j3'), ds('side')],
        edges: [...cycle, e(ds('b'), job('j3')), e(job('j3'), ds('side'))],
      });
      await expectGraph(t(), p(ds('a'), { direction: 'downstream', depth: 0 }), {
        nodes: [ds('a'), job('j1'), ds('b')],
        edges: [e(ds('a'), job('j1')), e(job('j1'), ds('b'))],
      });
    });
  });

  describe('node ids', () => {
    it('resolves namespaces and names with colons', async () => {
      await runJob(
        t(),
        'dag.task',
        [{ namespace: 'postgres://db:5432', name: 'mydb.public.orders' }],
        [{ namespace: 'hive://host:9083', name: 'default.t1' }],
      );
      const expected = {
        nodes: [
          'dataset:postgres://db:5432:mydb.public.orders',
          'job:airflow:dag.task',
          'dataset:hive://host:9083:default.t1',
        ],
        edges: [
          'dataset:postgres://db:5432:mydb.public.orders -> job:airflow:dag.task',
          'job:airflow:dag.task -> dataset:hive://host:9083:default.t1',
        ],
      };
      await expectGraph(t(), p('dataset:postgres://db:5432:mydb.public.orders'), expected);
      await expectGraph(t(), p('dataset:hive://host:9083:default.t1'), expected);
      await expectGraph(t(), p('job:airflow:dag.task'), expected);
    });

    it('picks the split that exists, and prefers the longest namespace when several do', async () => {
      await runJob(t(), 'x', [{ namespace: 'a', name: 'b:c' }], ['out1']);
      await expectGraph(t(), p('dataset:a:b:c', { direction: 'downstream' }), {
        nodes: ['dataset:a:b:c', job('x'), ds('out1')],
        edges: [e('dataset:a:b:c', job('x')), e(job('x'), ds('out1'))],
      });
      await runJob(t(), 'y', [{ namespace: 'a:b', name: 'c' }], ['out2']);
      // Both (a, b:c) and (a:b, c) exist now: the longest namespace wins.
      const g = await getGraph(t(), p('dataset:a:b:c', { direction: 'downstream' }));
      expect(g.map((n) => n.id).sort()).to.deep.equal(['dataset:a:b:c', ds('out2'), job('y')].sort());
      const start = g.find((n) => n.id === 'dataset:a:b:c')!;
      expect(start.data.id).to.deep.equal({ namespace: 'a:b', name: 'c' });
    });

    it('a job namespace with colons', async () => {
      await runJob(t(), 'spark.app:node', ['in'], ['out'], { jobNamespace: 'spark://cluster:7077' });
      await expectGraph(t(), p('job:spark://cluster:7077:spark.app:node', { depth: 0 }), {
        nodes: [ds('in'), 'job:spark://cluster:7077:spark.app:node', ds('out')],
        edges: [
          e(ds('in'), 'job:spark://cluster:7077:spark.app:node'),
          e('job:spark://cluster:7077:spark.app:node', ds('out')),
        ],
      });
    });
  });
});
