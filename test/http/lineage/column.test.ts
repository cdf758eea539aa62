import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { facet } from '../../support/events.js';
import { rows } from '../../support/graph.js';
import {
  NS,
  bare,
  columnLineageFacet,
  e,
  expectGraph,
  getGraph,
  job,
  lineagePath,
  nodeIds,
  runJob,
} from './support.js';

const f = (dataset: string, field: string, ns = NS) => `datasetField:${ns}:${dataset}:${field}`;
const p = (nodeId: string, params: Record<string, string | number | boolean> = {}) =>
  lineagePath(nodeId, params, '/api/v1/column-lineage');

describe('GET /api/v1/column-lineage', () => {
  const t = useTestApp();

  // orders.amount, orders.tax --(agg)--> totals.total --(report)--> summary.grand_total
  // customers.id --(agg)--> totals.customer_id
  beforeEach(async () => {
    await runJob(
      t(),
      'agg',
      ['orders', 'customers'],
      [
        {
          name: 'totals',
          fields: [
            ['total', 'DECIMAL'],
            ['customer_id', 'INTEGER'],
          ],
          facets: {
            columnLineage: columnLineageFacet({
              total: [
                {
                  name: 'orders',
                  field: 'amount',
                  transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION', description: 'sum of amount' }],
                },
                { name: 'orders', field: 'tax' },
              ],
              customer_id: [{ name: 'customers', field: 'id' }],
            }),
          },
        },
      ],
    );
    await runJob(
      t(),
      'report',
      ['totals'],
      [
        {
          name: 'summary',
          fields: [['grand_total', 'DECIMAL']],
          facets: { columnLineage: columnLineageFacet({ grand_total: [{ name: 'totals', field: 'total' }] }) },
        },
      ],
    );
  });

  const upstreamOfSummary = {
    nodes: [f('summary', 'grand_total'), f('totals', 'total'), f('orders', 'amount'), f('orders', 'tax')],
    edges: [
      e(f('totals', 'total'), f('summary', 'grand_total')),
      e(f('orders', 'amount'), f('totals', 'total')),
      e(f('orders', 'tax'), f('totals', 'total')),
    ],
  };

  it('from a dataset: all its columns and everything upstream of them', async () => {
    await expectGraph(t(), p(`dataset:${NS}:summary`), upstreamOfSummary);
    await expectGraph(t(), p(`dataset:${NS}:totals`), {
      nodes: [
        f('totals', 'total'),
        f('totals', 'customer_id'),
        f('orders', 'amount'),
        f('orders', 'tax'),
        f('customers', 'id'),
      ],
      edges: [
        e(f('orders', 'amount'), f('totals', 'total')),
        e(f('orders', 'tax'), f('totals', 'total')),
        e(f('customers', 'id'), f('totals', 'customer_id')),
      ],
    });
  });

  it('depth counts column hops', async () => {
    await expectGraph(t(), p(`dataset:${NS}:summary`, { depth: 1 }), {
      nodes: [f('summary', 'grand_total'), f('totals', 'total')],
      edges: [e(f('totals', 'total'), f('summary', 'grand_total'))],
    });
    await expectGraph(t(), p(`dataset:${NS}:summary`, { depth: 0 }), {
      nodes: [f('summary', 'grand_total')],
      edges: [],
    });
  });

  it('from a column, with and without downstream', async () => {
    await expectGraph(t(), p(f('orders', 'amount')), { nodes: [f('orders', 'amount')], edges: [] });
    await expectGraph(t(), p(f('orders', 'amount'), { withDownstream: true }), {
      nodes: [f('orders', 'amount'), f('totals', 'total'), f('summary', 'grand_total')],
      edges: [e(f('orders', 'amount'), f('totals', 'total')), e(f('totals', 'total'), f('summary', 'grand_total'))],
    });
    await expectGraph(t(), p(f('totals', 'total'), { withDownstream: true, depth: 1 }), {
      nodes: [f('orders', 'amount'), f('orders', 'tax'), f('totals', 'total'), f('summary', 'grand_total')],
      edges: [
        e(f('orders', 'amount'), f('totals', 'total')),
        e(f('orders', 'tax'), f('totals', 'total')),
        e(f('totals', 'total'), f('summary', 'grand_total')),
      ],
    });
  });

  it('from a job: the columns of the datasets it writes', async () => {
    await expectGraph(t(), p(job('report')), upstreamOfSummary);
  });

  it('node data carries the field, its type, its inputs and their transformations', async () => {
    const graph = await getGraph(t(), p(f('totals', 'total')));
    const total = graph.find((n) => n.id === f('totals', 'total'))!;
    expect(total.type).to.equal('DATASET_FIELD');
    expect(total.data).to.include({ namespace: NS, dataset: 'totals', field: 'total', fieldType: 'DECIMAL' });
    expect(total.data.datasetVersion).to.be.a('string');
    const amount = total.data.inputFields.find((i: any) => i.field === 'amount');
    expect(amount).to.include({
      namespace: NS,
      dataset: 'orders',
      field: 'amount',
      transformationType: 'DIRECT',
      transformationDescription: 'sum of amount',
    });
    expect(amount.transformations[0]).to.include({ type: 'DIRECT', subtype: 'AGGREGATION' });
  });

  it('follows a mapping whose input is named by a symlink alias of the dataset that holds the column', async () => {
    // Spark writes a path and declares its table name; another producer's column lineage names the table.
    const symlinks = facet(
      { identifiers: [{ namespace: 'hive://metastore', name: 'default.words', type: 'TABLE' }] },
      'SymlinksDatasetFacet',
    );
    await runJob(
      t(),
      'spark',
      [],
      [{ namespace: 'file', name: '/warehouse/words', fields: [['word', 'STRING']], facets: { symlinks } }],
    );
    const derived = {
      namespace: 'hive://metastore',
      name: 'default.counts',
      fields: [['w', 'STRING']] as [string, string][],
      facets: {
        columnLineage: columnLineageFacet({
          w: [
            {
              namespace: 'hive://metastore',
              name: 'default.words',
              field: 'word',
              transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }],
            },
          ],
        }),
      },
    };
    await runJob(t(), 'trino', [{ namespace: 'hive://metastore', name: 'default.words' }], [derived]);
    const word = f('/warehouse/words', 'word', 'file');
    const w = f('default.counts', 'w', 'hive://metastore');
    const graph = await expectGraph(t(), p(w), { nodes: [word, w], edges: [e(word, w)] });
    expect(graph.find((n) => n.id === w)!.data.inputFields).to.have.length(1);
    expect(graph.find((n) => n.id === w)!.data.inputFields[0]).to.include({
      namespace: 'file',
      dataset: '/warehouse/words',
      field: 'word',
      transformationType: 'DIRECT',
    });
    await expectGraph(t(), p(word, { withDownstream: true }), { nodes: [word, w], edges: [e(word, w)] });
    const impact = await t().get(`/api/v1/impact?nodeId=${encodeURIComponent(word)}`);
    expect(impact.status, JSON.stringify(impact.body)).to.equal(200);
    expect(impact.body.nodes.map((n: any) => n.id)).to.deep.equal([w]);
  });

  it('#version: point-in-time start columns of a dataset version', async () => {
    const [{ v }] = await rows(t().db, `MATCH (d:Dataset {name: 'totals'})-[:CURRENT_VERSION]->(v) RETURN v.id AS v`);
    const graph = await getGraph(t(), p(`dataset:${NS}:totals#${v}`, { depth: 0 }));
    expect(graph.map((n) => n.id).sort()).to.deep.equal([
      `${f('totals', 'customer_id')}#${v}`,
      `${f('totals', 'total')}#${v}`,
    ]);
    expect(graph.every((n) => n.data.datasetVersion === v)).to.equal(true);
    const field = await getGraph(t(), p(`${f('totals', 'total')}#${v}`, { depth: 1 }));
    expect(field.map((n) => bare(n.id)).sort()).to.deep.equal([
      f('orders', 'amount'),
      f('orders', 'tax'),
      f('totals', 'total'),
    ]);
    const unknown = await t().get(p(`dataset:${NS}:totals#00000000-0000-4000-8000-000000000000`));
    expect(unknown.status).to.equal(404);
  });

  it('#version answers with versioned node ids, each column with its dataset version then, as Marquez', async () => {
    const current = async (dataset: string) =>
      (await rows(t().db, 'MATCH (:Dataset {name: $dataset})-[:CURRENT_VERSION]->(v) RETURN v.id AS v', { dataset }))[0]
        .v as string;
    const [totals, orders, customers] = await Promise.all(['totals', 'orders', 'customers'].map(current));
    const at = (id: string, version: string) => `${id}#${version}`;
    const total = at(f('totals', 'total'), totals);
    const amount = at(f('orders', 'amount'), orders);
    const tax = at(f('orders', 'tax'), orders);
    const whole = {
      nodes: [total, at(f('totals', 'customer_id'), totals), amount, tax, at(f('customers', 'id'), customers)],
      edges: [
        e(amount, total),
        e(tax, total),
        e(at(f('customers', 'id'), customers), at(f('totals', 'customer_id'), totals)),
      ],
    };
    const graph = await expectGraph(t(), p(`dataset:${NS}:totals#${totals}`), whole);
    for (const n of graph)
      expect(n.id, 'the version in the id is the one in the data').to.equal(
        at(n.id.split('#')[0], n.data.datasetVersion),
      );
    await expectGraph(t(), p(`${f('totals', 'total')}#${totals}`, { withDownstream: true }), {
      nodes: [total, amount, tax],
      edges: [e(amount, total), e(tax, total)],
    });
    const [{ v: agg }] = await rows(t().db, `MATCH (:Job {name: 'agg'})-[:CURRENT_VERSION]->(v) RETURN v.id AS v`);
    await expectGraph(t(), p(`${job('agg')}#${agg}`), whole);
    // Without a version, none in the ids.
    expect(nodeIds(await getGraph(t(), p(`dataset:${NS}:totals`)))).to.include(f('totals', 'total'));
  });

  it('400 for a malformed id or parameter, 404 for an unknown column', async () => {
    for (const path of [
      p('datasetField:ns:only'),
      p(f('orders', 'amount'), { withDownstream: 'maybe' }),
      p(f('orders', 'amount'), { depth: -2 }),
      '/api/v1/column-lineage',
    ]) {
      expect((await t().get(path)).status, path).to.equal(400);
    }
    for (const id of [f('orders', 'nope'), f('nope', 'amount'), `dataset:${NS}:nope`, job('nope')]) {
      expect((await t().get(p(id))).status, id).to.equal(404);
    }
  });
});
