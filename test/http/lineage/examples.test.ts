/** Every ad hoc query in cypher/examples/ runs on a small ingested graph and answers what its header promises. */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { cypherDir } from '../../../src/paths.js';
import { cypher, cypherSource } from '../../../src/store/cypher.js';
import { toNative } from '../../../src/store/db.js';
import { useTestApp } from '../../helper.js';
import { NS, columnLineageFacet, runJob } from './support.js';
// The impact examples are tested against the endpoints they mirror, in test/http/impact/examples-shell.test.ts.
import { IMPACT_EXAMPLES } from '../impact/support.js';

const examples = fs
  .readdirSync(path.join(cypherDir, 'examples'))
  .filter((f) => f.endsWith('.cypher'))
  .map((f) => f.slice(0, -'.cypher'.length))
  .sort();

describe('cypher/examples/', () => {
  const t = useTestApp();
  const run = async (name: string, params: Record<string, unknown>) => {
    const res = await t().db.read({ op: `example/${name}` }, (tx) => tx.run(cypher(`examples/${name}`), params));
    return res.records.map((r) => toNative(r.toObject()) as Record<string, any>);
  };

  // src -(extract)-> raw -(clean)-> orders -(agg)-> totals; clean's latest run failed;
  // raw's schema gained a column; column lineage raw.amount -> orders.amount -> totals.total.
  beforeEach(async () => {
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
    const ordersOut = {
      name: 'orders',
      fields: [
        ['id', 'INTEGER'],
        ['amount', 'DECIMAL'],
      ] as [string, string][],
      facets: {
        columnLineage: columnLineageFacet({
          id: [{ name: 'raw', field: 'id' }],
          amount: [{ name: 'raw', field: 'amount' }],
        }),
      },
    };
    await runJob(t(), 'clean', ['raw'], [ordersOut]);
    await runJob(
      t(),
      'agg',
      ['orders'],
      [
        {
          name: 'totals',
          fields: [['total', 'DECIMAL']],
          facets: { columnLineage: columnLineageFacet({ total: [{ name: 'orders', field: 'amount' }] }) },
        },
      ],
    );
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
            ['currency', 'VARCHAR'],
          ],
        },
      ],
    );
    await runJob(t(), 'clean', ['raw'], [ordersOut], { eventType: 'FAIL' });
  });

  it('there are at least five, each with a header comment naming its params and result', () => {
    expect(examples.length).to.be.at.least(5);
    for (const name of examples) {
      const text = cypherSource(`examples/${name}`);
      expect(text.startsWith('//'), name).to.equal(true);
      expect(text, name).to.match(/\/\/ Params:/);
      expect(text, name).to.match(/\/\/ Returns/);
      const header = text
        .split('\n')
        .filter((l) => l.startsWith('//'))
        .join('\n');
      const body = text.replace(/^\/\/.*$/gm, '');
      for (const param of new Set(body.match(/\$[A-Za-z]+/g) ?? []))
        expect(header, `${name} documents ${param}`).to.contain(param);
    }
  });

  it('downstream-within-hops', async () => {
    const all = await run('downstream-within-hops', { namespace: NS, name: 'raw', maxHops: 2 });
    expect(all.map((r) => [r.kind, r.name, r.hops])).to.deep.equal([
      ['Job', 'clean', 1],
      ['Dataset', 'orders', 1],
      ['Job', 'agg', 2],
      ['Dataset', 'totals', 2],
    ]);
    const near = await run('downstream-within-hops', { namespace: NS, name: 'raw', maxHops: 1 });
    expect(near.map((r) => r.name)).to.deep.equal(['clean', 'orders']);
  });

  it('failed-upstream-jobs', async () => {
    const r = await run('failed-upstream-jobs', { namespace: NS, name: 'totals' });
    expect(r.map((x) => [x.namespace, x.name, x.state, x.hops])).to.deep.equal([['airflow', 'clean', 'FAILED', 2]]);
    expect(r[0].runId).to.be.a('string');
    expect(await run('failed-upstream-jobs', { namespace: NS, name: 'raw' })).to.deep.equal([]);
  });

  it('schema-changes-and-consumers', async () => {
    const r = await run('schema-changes-and-consumers', { since: '2020-01-01T00:00:00Z' });
    expect(r.map((x) => [x.namespace, x.name, x.consumers])).to.deep.equal([[NS, 'raw', ['airflow:clean']]]);
    expect(r[0].versions).to.have.length(1);
    // The test events are from 2024.
    expect(await run('schema-changes-and-consumers', { since: null })).to.deep.equal([]);
  });

  it('path-between-datasets', async () => {
    const [r] = await run('path-between-datasets', {
      fromNamespace: NS,
      fromName: 'src',
      toNamespace: NS,
      toName: 'totals',
    });
    expect(r.path).to.deep.equal([
      `dataset:${NS}:src`,
      'job:airflow:extract',
      `dataset:${NS}:raw`,
      'job:airflow:clean',
      `dataset:${NS}:orders`,
      'job:airflow:agg',
      `dataset:${NS}:totals`,
    ]);
    expect(r.jobHops).to.equal(3);
    expect(
      await run('path-between-datasets', { fromNamespace: NS, fromName: 'totals', toNamespace: NS, toName: 'src' }),
    ).to.deep.equal([]);
  });

  it('column-impact', async () => {
    const r = await run('column-impact', { namespace: NS, dataset: 'raw', field: 'amount' });
    expect(r.map((x) => [x.dataset, x.field, x.hops, x.viaJobs])).to.deep.equal([
      ['orders', 'amount', 1, ['airflow:clean']],
      ['totals', 'total', 2, ['airflow:clean', 'airflow:agg']],
    ]);
  });

  it('upstream-sources', async () => {
    const r = await run('upstream-sources', { namespace: NS, name: 'totals' });
    expect(r.map((x) => [x.name, x.hops])).to.deep.equal([['src', 3]]);
  });

  it('every example has a test here', () => {
    const tested = [
      'downstream-within-hops',
      'failed-upstream-jobs',
      'schema-changes-and-consumers',
      'path-between-datasets',
      'column-impact',
      'upstream-sources',
      ...IMPACT_EXAMPLES,
    ];
    expect(examples).to.deep.equal([...tested].sort());
  });
});
