/**
 * ColumnLineage 1-2-0's dataset-wide inputs (`columnLineage.dataset`: filters, joins, grouping) feed every
 * column of the output: the top-level columns of its schema and the columns the facet names under `fields`.
 * GET /column-lineage, column impact, the dataset's Marquez-shaped `columnLineage` and the ad hoc example
 * cypher/examples/column-impact.cypher agree.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { cypher } from '../../../src/store/cypher.js';
import { toNative } from '../../../src/store/db.js';
import { type TestApp, useTestApp, wipe } from '../../helper.js';
import { facet, runEvent } from '../../support/events.js';
import { graphSnapshot } from '../../support/graph.js';
import { getImpact, impactPath } from '../impact/support.js';
import { getGraph, lineagePath } from './support.js';

const TRINO = 'trino';
const INPUT = 'report.orders_daily';
const OUTPUT = 'report.filtered_copy';
const f = (dataset: string, field: string) => `datasetField:${TRINO}:${dataset}:${field}`;
const filter = [{ type: 'INDIRECT', subtype: 'FILTER' }];

/** One COMPLETE run of `copy` reading orders_daily and writing filtered_copy with this schema and facet. */
function copyEvent(columns: string[], columnLineage: Record<string, unknown>, runId = randomUUID()) {
  return runEvent({
    job: 'copy',
    jobNamespace: TRINO,
    runId,
    eventType: 'COMPLETE',
    inputs: [
      {
        namespace: TRINO,
        name: INPUT,
        fields: [
          ['id', 'BIGINT'],
          ['day', 'DATE'],
          ['amount', 'DECIMAL'],
        ],
      },
    ],
    outputs: [
      {
        namespace: TRINO,
        name: OUTPUT,
        fields: columns.map((c): [string, string] => [c, 'VARCHAR']),
        facets: { columnLineage: facet(columnLineage, 'ColumnLineageDatasetFacet') },
      },
    ],
  });
}

async function post(t: TestApp, event: Record<string, unknown>): Promise<void> {
  const res = await t.post('/api/v1/lineage', event);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
}

/** Output column → its input columns `[dataset.field, transformationType]`, from GET /column-lineage. */
async function columnInputs(t: TestApp): Promise<Record<string, [string, string | null][]>> {
  const graph = await getGraph(t, lineagePath(`dataset:${TRINO}:${OUTPUT}`, {}, '/api/v1/column-lineage'));
  return Object.fromEntries(
    graph
      .filter((n) => n.data.dataset === OUTPUT)
      .map((n) => [
        n.data.field,
        n.data.inputFields.map((i: any) => [`${i.dataset}.${i.field}`, i.transformationType]).sort(),
      ]),
  );
}

/** The dataset GET's Marquez-shaped `columnLineage`: `[name, [dataset.field, transformationType]]`. */
async function marquezColumns(t: TestApp): Promise<[string, [string, string | null][]][]> {
  const res = await t.get(`/api/v1/namespaces/${TRINO}/datasets/${encodeURIComponent(OUTPUT)}`);
  expect(res.status).to.equal(200);
  return res.body.columnLineage.map((c: any) => [
    c.name,
    c.inputFields.map((i: any) => [`${i.dataset}.${i.field}`, i.transformationType]),
  ]);
}

/** Downstream column impact of an input column: `[id, distance]`, and the summary's total. */
async function impact(t: TestApp, field: string): Promise<{ total: number; nodes: [string, number][] }> {
  const body = await getImpact(t, impactPath({ nodeId: f(INPUT, field) }));
  return { total: body.summary.total, nodes: body.nodes.map((n: any) => [n.id, n.distance]) };
}

/** cypher/examples/column-impact.cypher's answer for an input column, as `[id, hops]`. */
async function exampleImpact(t: TestApp, field: string): Promise<[string, number][]> {
  const res = await t.db.read({ op: 'example/column-impact' }, (tx) =>
    tx.run(cypher('examples/column-impact'), { namespace: TRINO, dataset: INPUT, field }),
  );
  return res.records.map((r) => {
    const row = toNative(r.toObject()) as Record<string, any>;
    return [f(row.dataset, row.field), row.hops];
  });
}

describe('column lineage: dataset-wide inputs (ColumnLineage 1-2-0 `dataset`)', () => {
  const t = useTestApp();

  it('with `fields: {}`, feed every column of the output schema', async function () {
    this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
    const event = copyEvent(['day', 'total'], {
      fields: {},
      dataset: [{ namespace: TRINO, name: INPUT, field: 'day', transformations: filter }],
    });
    await post(t(), event);
    const expected = { day: [[`${INPUT}.day`, 'INDIRECT']], total: [[`${INPUT}.day`, 'INDIRECT']] };
    expect(await columnInputs(t())).to.deep.equal(expected);
    const downstream = { total: 2, nodes: [[f(OUTPUT, 'day'), 1] as [string, number], [f(OUTPUT, 'total'), 1]] };
    expect(await impact(t(), 'day')).to.deep.equal(downstream);
    expect(await exampleImpact(t(), 'day')).to.deep.equal(downstream.nodes);
    expect(await marquezColumns(t())).to.deep.equal([
      ['day', [[`${INPUT}.day`, 'INDIRECT']]],
      ['total', [[`${INPUT}.day`, 'INDIRECT']]],
    ]);

    // A repeated delivery leaves the same graph and the same answers.
    const before = await graphSnapshot(t().db);
    await post(t(), event);
    expect(await graphSnapshot(t().db)).to.deep.equal(before);
    expect(await columnInputs(t())).to.deep.equal(expected);
  });

  it('store the same edges whatever the key order of the transformations (one event, two serializations)', async () => {
    const dataset = (transformations: unknown[]) => [{ namespace: TRINO, name: INPUT, field: 'day', transformations }];
    const event = copyEvent(['day'], { fields: {}, dataset: dataset(filter) });
    const reordered = structuredClone(event) as any;
    reordered.outputs[0].facets.columnLineage.dataset = dataset([{ subtype: 'FILTER', type: 'INDIRECT' }]);
    const feeds = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run('MATCH (a)-[e:FEEDS]->(b) RETURN a.name + " " + b.name + " " + e.transformations AS e ORDER BY e'),
        )
      ).records.map((r) => r.get('e') as string);
    await post(t(), event);
    const first = await feeds();
    expect(first).to.have.length(1);
    await post(t(), reordered);
    expect(await feeds(), 'delivered again').to.deep.equal(first);
    await wipe(t().db);
    await post(t(), reordered);
    expect(await feeds(), 'the other serialization first').to.deep.equal(first);
  });

  it('next to `fields`, feed the schema columns the facet does not name as well as those it names', async () => {
    await post(
      t(),
      copyEvent(['day', 'total'], {
        fields: {
          total: {
            inputFields: [
              {
                namespace: TRINO,
                name: INPUT,
                field: 'amount',
                transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION' }],
              },
            ],
          },
        },
        dataset: [{ namespace: TRINO, name: INPUT, field: 'id', transformations: filter }],
      }),
    );
    expect(await columnInputs(t())).to.deep.equal({
      day: [[`${INPUT}.id`, 'INDIRECT']],
      total: [
        [`${INPUT}.amount`, 'DIRECT'],
        [`${INPUT}.id`, 'INDIRECT'],
      ],
    });
    const downstream = { total: 2, nodes: [[f(OUTPUT, 'day'), 1] as [string, number], [f(OUTPUT, 'total'), 1]] };
    expect(await impact(t(), 'id')).to.deep.equal(downstream);
    expect(await exampleImpact(t(), 'id')).to.deep.equal(downstream.nodes);
    expect(await impact(t(), 'amount')).to.deep.equal({ total: 1, nodes: [[f(OUTPUT, 'total'), 1]] });
    expect(await marquezColumns(t())).to.deep.equal([
      ['day', [[`${INPUT}.id`, 'INDIRECT']]],
      [
        'total',
        [
          [`${INPUT}.amount`, 'DIRECT'],
          [`${INPUT}.id`, 'INDIRECT'],
        ],
      ],
    ]);
  });

  it('follow the declaration in force: a newer schema gains the column, a newer facet drops the input', async () => {
    const wide = { fields: {}, dataset: [{ namespace: TRINO, name: INPUT, field: 'day', transformations: filter }] };
    await post(t(), copyEvent(['day', 'total'], wide));
    await post(t(), copyEvent(['day', 'total', 'region'], wide));
    expect(Object.keys(await columnInputs(t())).sort()).to.deep.equal(['day', 'region', 'total']);
    expect((await impact(t(), 'day')).total).to.equal(3);
    expect((await marquezColumns(t())).map(([name]) => name)).to.deep.equal(['day', 'region', 'total']);

    // The newest run no longer filters: the dataset-wide mappings are out of every answer, though FEEDS keeps them.
    await post(t(), copyEvent(['day', 'total', 'region'], { fields: {} }));
    expect(await columnInputs(t())).to.deep.equal({ day: [], region: [], total: [] });
    expect(await impact(t(), 'day')).to.deep.equal({ total: 0, nodes: [] });
    expect(await exampleImpact(t(), 'day')).to.deep.equal([]);
    expect(await marquezColumns(t())).to.deep.equal([]);
  });
});
