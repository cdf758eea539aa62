/** GET /api/v1/impact with state= (root cause) and from a datasetField: node (column impact). */
import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { columnLineageFacet, ds, getImpact, impactPath, job, NS, runJob, tree } from './support.js';

const field = (dataset: string, name: string) => `datasetField:${NS}:${dataset}:${name}`;

describe('GET /api/v1/impact: root cause', () => {
  const t = useTestApp();

  // src -(extract: FAILED)-> stage -(load: FAILED)-> orders -(report)-> dash, and side (RUNNING) also writes orders.
  beforeEach(async function () {
    this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
    await runJob(t(), 'extract', ['src'], ['stage']);
    await runJob(t(), 'extract', ['src'], ['stage'], { eventType: 'FAIL' });
    await runJob(t(), 'load', ['stage'], ['orders'], { eventType: 'FAIL' });
    await runJob(t(), 'side', ['other'], ['orders'], { eventType: 'START' });
    await runJob(t(), 'report', ['orders'], ['dash']);
  });

  it('returns only the upstream jobs in that state, nearest first, each with its path from the start', async () => {
    const body = await getImpact(t(), impactPath({ nodeId: ds('dash'), direction: 'upstream', state: 'FAILED' }));
    expect(body.state).to.equal('FAILED');
    expect(body.nodes.map((n: any) => [n.id, n.distance, n.latestRunState, n.path])).to.deep.equal([
      [job('load'), 3, 'FAILED', [ds('dash'), job('report'), ds('orders'), job('load')]],
      [
        job('extract'),
        5,
        'FAILED',
        [ds('dash'), job('report'), ds('orders'), job('load'), ds('stage'), job('extract')],
      ],
    ]);
    expect(body).to.deep.include({ total: 2, truncated: false });
    expect(body.summary).to.deep.include({ total: 8, failedJobs: 2, byType: { JOB: 4, DATASET: 4 } });
  });

  it('keeps the nearest within the limit, and takes other states and directions', async () => {
    const one = await getImpact(
      t(),
      impactPath({ nodeId: ds('dash'), direction: 'upstream', state: 'failed', limit: 1 }),
    );
    expect(one.nodes.map((n: any) => n.id)).to.deep.equal([job('load')]);
    expect(one).to.deep.include({ total: 2, truncated: true });
    const running = await getImpact(t(), impactPath({ nodeId: ds('dash'), direction: 'upstream', state: 'RUNNING' }));
    expect(running.nodes.map((n: any) => [n.id, n.path])).to.deep.equal([
      [job('side'), [ds('dash'), job('report'), ds('orders'), job('side')]],
    ]);
    expect(
      (await getImpact(t(), impactPath({ nodeId: ds('dash'), direction: 'upstream', state: 'ABORTED' }))).nodes,
    ).to.deep.equal([]);
    const downstream = await getImpact(t(), impactPath({ nodeId: ds('src'), state: 'FAILED' }));
    expect(downstream.nodes.map((n: any) => [n.id, n.distance])).to.deep.equal([
      [job('extract'), 1],
      [job('load'), 3],
    ]);
    // The depth bounds the search as for any blast radius.
    expect(
      (
        await getImpact(t(), impactPath({ nodeId: ds('dash'), direction: 'upstream', state: 'FAILED', depth: 1 }))
      ).nodes.map((n: any) => n.id),
    ).to.deep.equal([job('load')]);
  });
});

describe('GET /api/v1/impact: column impact from a datasetField: node', () => {
  const t = useTestApp();
  const direct = [{ type: 'DIRECT', subtype: 'IDENTITY', description: '' }];
  const agg = [{ type: 'DIRECT', subtype: 'AGGREGATION', description: 'sum' }];

  // raw.amount -(clean)-> orders.amount -(agg)-> totals.total; raw.id -(clean)-> orders.id.
  beforeEach(async function () {
    this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
    await runJob(
      t(),
      'extract',
      ['src'],
      [
        {
          name: 'raw',
          fields: [
            ['id', 'INTEGER'],
            ['amount', 'DECIMAL'],
          ],
        },
      ],
    );
    await runJob(
      t(),
      'clean',
      ['raw'],
      [
        {
          name: 'orders',
          fields: [
            ['id', 'INTEGER'],
            ['amount', 'DECIMAL'],
          ],
          facets: {
            columnLineage: columnLineageFacet({
              id: [{ name: 'raw', field: 'id', transformations: direct }],
              amount: [{ name: 'raw', field: 'amount', transformations: direct }],
            }),
          },
        },
      ],
    );
    await runJob(
      t(),
      'agg',
      ['orders'],
      [
        {
          name: 'totals',
          fields: [['total', 'DECIMAL']],
          facets: {
            columnLineage: columnLineageFacet({ total: [{ name: 'orders', field: 'amount', transformations: agg }] }),
          },
        },
      ],
    );
  });

  it('follows column lineage downstream with the transformations and the jobs that perform them', async () => {
    const body = await getImpact(t(), impactPath({ nodeId: field('raw', 'amount') }));
    expect(body.start).to.deep.include({
      id: field('raw', 'amount'),
      type: 'DATASET_FIELD',
      dataset: 'raw',
      field: 'amount',
      distance: 0,
      via: null,
    });
    expect(
      body.nodes.map((n: any) => [n.id, n.distance, n.via, n.viaJob, n.viaJobState, n.transformationTypes]),
    ).to.deep.equal([
      [field('orders', 'amount'), 1, field('raw', 'amount'), job('clean'), 'COMPLETED', ['DIRECT/IDENTITY']],
      [field('totals', 'total'), 2, field('orders', 'amount'), job('agg'), 'COMPLETED', ['DIRECT/AGGREGATION']],
    ]);
    expect(body.summary).to.deep.equal({
      total: 2,
      byDistance: { 1: 1, 2: 1 },
      byType: { DATASET_FIELD: 2 },
      failedJobs: 0,
      jobs: [job('agg'), job('clean')],
    });
    expect(tree(await getImpact(t(), impactPath({ nodeId: field('raw', 'id') })))).to.deep.equal([
      [field('orders', 'id'), 1, field('raw', 'id')],
    ]);
    expect(tree(await getImpact(t(), impactPath({ nodeId: field('raw', 'amount'), depth: 1 })))).to.deep.equal([
      [field('orders', 'amount'), 1, field('raw', 'amount')],
    ]);
  });

  it('goes upstream too, and drops mappings a newer declaration no longer lists', async () => {
    expect(
      tree(await getImpact(t(), impactPath({ nodeId: field('totals', 'total'), direction: 'upstream' }))),
    ).to.deep.equal([
      [field('orders', 'amount'), 1, field('totals', 'total')],
      [field('raw', 'amount'), 2, field('orders', 'amount')],
    ]);
    // agg now computes total from orders.id: orders.amount no longer feeds it.
    await runJob(
      t(),
      'agg',
      ['orders'],
      [
        {
          name: 'totals',
          fields: [['total', 'DECIMAL']],
          facets: {
            columnLineage: columnLineageFacet({ total: [{ name: 'orders', field: 'id', transformations: agg }] }),
          },
        },
      ],
    );
    expect(tree(await getImpact(t(), impactPath({ nodeId: field('raw', 'amount') })))).to.deep.equal([
      [field('orders', 'amount'), 1, field('raw', 'amount')],
    ]);
    expect(tree(await getImpact(t(), impactPath({ nodeId: field('raw', 'id') })))).to.deep.equal([
      [field('orders', 'id'), 1, field('raw', 'id')],
      [field('totals', 'total'), 2, field('orders', 'id')],
    ]);
  });

  it('is 404 for an unknown column', async () => {
    expect((await t().get(impactPath({ nodeId: field('raw', 'nope') }))).status).to.equal(404);
  });
});
