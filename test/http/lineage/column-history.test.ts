import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { rows } from '../../support/graph.js';
import { randomUUID } from 'node:crypto';
import { completedRun, runEvent } from '../../support/events.js';
import {
  NS,
  JOB_NS,
  bare,
  columnLineageFacet,
  e,
  expectGraph,
  expectVersionedGraph,
  job,
  lineagePath,
  runJob,
} from './support.js';

const f = (dataset: string, field: string, ns = NS) => `datasetField:${ns}:${dataset}:${field}`;
const p = (nodeId: string, params: Record<string, string | number | boolean> = {}) =>
  lineagePath(nodeId, params, '/api/v1/column-lineage');

// Column lineage follows each dataset's newest `columnLineage` declaration; `#version` answers with
// the declarations in force when that version was created, each column by its id at its version then.
describe('GET /api/v1/column-lineage: declarations over time', () => {
  const t = useTestApp();
  const versionOf = async (dataset: string) =>
    (await rows(t().db, `MATCH (:Dataset {name: $dataset})-[:CURRENT_VERSION]->(v) RETURN v.id AS v`, { dataset }))[0]
      .v as string;
  const totals = (lineage: Parameters<typeof columnLineageFacet>[0]) => ({
    name: 'totals',
    fields: [['total', 'DECIMAL']] as [string, string][],
    facets: { columnLineage: columnLineageFacet(lineage) },
  });

  it('a mapping dropped by a newer declaration leaves the current answer, not the older version’s', async () => {
    await runJob(
      t(),
      'agg',
      ['orders'],
      [
        totals({
          total: [
            { name: 'orders', field: 'amount' },
            { name: 'orders', field: 'tax' },
          ],
        }),
      ],
    );
    const v1 = await versionOf('totals');
    await runJob(t(), 'agg', ['orders'], [totals({ total: [{ name: 'orders', field: 'amount' }] })]);
    const v2 = await versionOf('totals');
    expect(v2).to.not.equal(v1);

    await expectGraph(t(), p(`dataset:${NS}:totals`), {
      nodes: [f('totals', 'total'), f('orders', 'amount')],
      edges: [e(f('orders', 'amount'), f('totals', 'total'))],
    });
    await expectVersionedGraph(t(), p(`dataset:${NS}:totals#${v1}`), {
      nodes: [f('totals', 'total'), f('orders', 'amount'), f('orders', 'tax')],
      edges: [e(f('orders', 'amount'), f('totals', 'total')), e(f('orders', 'tax'), f('totals', 'total'))],
    });
    await expectVersionedGraph(t(), p(`dataset:${NS}:totals#${v2}`), {
      nodes: [f('totals', 'total'), f('orders', 'amount')],
      edges: [e(f('orders', 'amount'), f('totals', 'total'))],
    });
    // Downstream from the dropped input: nothing now, the old edge at v1's time.
    await expectGraph(t(), p(f('orders', 'tax'), { withDownstream: true }), { nodes: [f('orders', 'tax')], edges: [] });
    // asOf answers with the declarations in force then: between v1 and v2, v1's.
    const v1At = (
      await rows(t().db, 'MATCH (v:DatasetVersion {id: $v1}) RETURN toString(v.createdAt) AS at', { v1 })
    )[0].at as string;
    const between = new Date(Date.parse(v1At) + 30_000).toISOString();
    await expectGraph(t(), p(`dataset:${NS}:totals`, { asOf: between }), {
      nodes: [f('totals', 'total'), f('orders', 'amount'), f('orders', 'tax')],
      edges: [e(f('orders', 'amount'), f('totals', 'total')), e(f('orders', 'tax'), f('totals', 'total'))],
    });
    await expectGraph(t(), p(f('orders', 'tax'), { withDownstream: true, asOf: between, window: 'P1D' }), {
      nodes: [f('orders', 'tax'), f('totals', 'total')],
      edges: [e(f('orders', 'tax'), f('totals', 'total'))],
    });
    expect((await t().get(p(`dataset:${NS}:totals`, { asOf: 'soon' }))).status).to.equal(400);
    expect((await t().get(p(`dataset:${NS}:totals`, { window: 'forever' }))).status).to.equal(400);
  });

  it(
    '#version walks upstream datasets as they were then, and answers each column with the version current ' + 'then',
    async () => {
      // raw.a -> stage.x -> report.y; then stage's lineage changes to raw.b -> stage.x.
      await runJob(
        t(),
        'load',
        ['raw'],
        [
          {
            name: 'stage',
            fields: [['x', 'INT']],
            facets: { columnLineage: columnLineageFacet({ x: [{ name: 'raw', field: 'a' }] }) },
          },
        ],
      );
      const stageV1 = await versionOf('stage');
      await runJob(
        t(),
        'report',
        ['stage'],
        [
          {
            name: 'report',
            fields: [['y', 'INT']],
            facets: { columnLineage: columnLineageFacet({ y: [{ name: 'stage', field: 'x' }] }) },
          },
        ],
      );
      const reportV1 = await versionOf('report');
      await runJob(
        t(),
        'load',
        ['raw'],
        [
          {
            name: 'stage',
            fields: [['x', 'INT']],
            facets: { columnLineage: columnLineageFacet({ x: [{ name: 'raw', field: 'b' }] }) },
          },
        ],
      );

      await expectGraph(t(), p(`dataset:${NS}:report`), {
        nodes: [f('report', 'y'), f('stage', 'x'), f('raw', 'b')],
        edges: [e(f('stage', 'x'), f('report', 'y')), e(f('raw', 'b'), f('stage', 'x'))],
      });
      const then = await expectVersionedGraph(t(), p(`dataset:${NS}:report#${reportV1}`), {
        nodes: [f('report', 'y'), f('stage', 'x'), f('raw', 'a')],
        edges: [e(f('stage', 'x'), f('report', 'y')), e(f('raw', 'a'), f('stage', 'x'))],
      });
      const stageNode = then.find((n) => bare(n.id) === f('stage', 'x'))!;
      expect(stageNode.data.datasetVersion).to.equal(stageV1);
    },
  );

  it('job#version: the columns that job version wrote, as declared then', async () => {
    await runJob(
      t(),
      'agg',
      ['orders'],
      [
        totals({
          total: [
            { name: 'orders', field: 'amount' },
            { name: 'orders', field: 'tax' },
          ],
        }),
      ],
    );
    const [{ v: jobV1 }] = await rows(t().db, `MATCH (:Job {name: 'agg'})-[:CURRENT_VERSION]->(v) RETURN v.id AS v`);
    // A new job version (another input) that declares less.
    await runJob(t(), 'agg', ['orders', 'fx'], [totals({ total: [{ name: 'orders', field: 'amount' }] })]);
    await expectVersionedGraph(t(), p(`${job('agg')}#${jobV1}`), {
      nodes: [f('totals', 'total'), f('orders', 'amount'), f('orders', 'tax')],
      edges: [e(f('orders', 'amount'), f('totals', 'total')), e(f('orders', 'tax'), f('totals', 'total'))],
    });
    await expectGraph(t(), p(job('agg')), {
      nodes: [f('totals', 'total'), f('orders', 'amount')],
      edges: [e(f('orders', 'amount'), f('totals', 'total'))],
    });
  });

  it('gives the same answers when the events arrive out of order or twice', async () => {
    const older = completedRun({
      job: 'agg',
      jobNamespace: JOB_NS,
      eventTime: '2024-01-01T00:00:00Z',
      inputs: ['orders'],
      outputs: [totals({ total: [{ name: 'orders', field: 'tax' }] })],
    });
    const newer = completedRun({
      job: 'agg',
      jobNamespace: JOB_NS,
      eventTime: '2024-02-01T00:00:00Z',
      inputs: ['orders'],
      outputs: [totals({ total: [{ name: 'orders', field: 'amount' }] })],
    });
    // COMPLETE events need later times than their STARTs.
    older[1].eventTime = '2024-01-01T01:00:00Z';
    newer[1].eventTime = '2024-02-01T01:00:00Z';
    for (const ev of [...newer, ...older, ...newer])
      expect((await t().post('/api/v1/lineage', ev)).status).to.equal(201);
    await expectGraph(t(), p(`dataset:${NS}:totals`), {
      nodes: [f('totals', 'total'), f('orders', 'amount')],
      edges: [e(f('orders', 'amount'), f('totals', 'total'))],
    });
  });

  it('each dataset counts its versions that declare column lineage, the same in any order of delivery', async () => {
    // Per run: START, then COMPLETE with the output (declaring or not), then for the third run an event
    // that takes the facet back (`_deleted`): versions 1 and 4 declare, 2 never did, 3 did and no longer does.
    const declaring = (dataset: string) => ({
      ...totals({ total: [{ name: 'orders', field: 'amount' }] }),
      name: dataset,
    });
    const plain = (dataset: string) => ({ name: dataset, fields: [['total', 'DECIMAL']] as [string, string][] });
    const withdrawn = (dataset: string) => ({
      name: dataset,
      facets: {
        columnLineage: { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', _deleted: true },
      },
    });
    const stream = (dataset: string) => {
      const events: Record<string, unknown>[] = [];
      const time = (i: number) => new Date(Date.UTC(2024, 0, 1, i)).toISOString();
      [declaring, plain, declaring, declaring].forEach((output, i) => {
        const runId = randomUUID();
        const base = { runId, job: `load_${dataset}`, inputs: ['orders'] };
        events.push(runEvent({ ...base, eventType: 'START', eventTime: time(3 * i) }));
        events.push(
          runEvent({ ...base, eventType: 'COMPLETE', eventTime: time(3 * i + 1), outputs: [output(dataset)] }),
        );
        if (i === 2)
          events.push(
            runEvent({ ...base, eventType: 'RUNNING', eventTime: time(3 * i + 2), outputs: [withdrawn(dataset)] }),
          );
      });
      return events;
    };
    const count = async (dataset: string) =>
      (await rows(t().db, 'MATCH (d:Dataset {name: $dataset}) RETURN d.columnLineageVersions AS n', { dataset }))[0].n;
    for (const event of stream('in_order')) expect((await t().post('/api/v1/lineage', event)).status).to.equal(201);
    const shuffled = stream('shuffled').reverse();
    for (const event of [...shuffled, ...shuffled.slice(0, 4)])
      expect((await t().post('/api/v1/lineage', event)).status).to.equal(201);
    expect(await count('in_order')).to.equal(2);
    expect(await count('shuffled')).to.equal(2);
    // A dataset that never declared has no count (0); column lineage from it answers as before.
    expect(await count('orders')).to.equal(null);
  });
});
