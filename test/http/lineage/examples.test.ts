/** Every ad hoc query in cypher/examples/ runs on a small ingested graph and answers what its header promises. */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { cypherDir } from '../../../src/paths.js';
import { cypher, cypherSource } from '../../../src/store/cypher.js';
import { toNative } from '../../../src/store/db.js';
import { type TestApp, useTestApp } from '../../helper.js';
import { facet } from '../../support/events.js';
import { JOB_NS, NS, columnLineageFacet, ds, job, runJob } from './support.js';
// The impact examples are tested against the endpoints they mirror, in test/http/impact/examples-shell.test.ts,
// and below on a graph with a soft-deleted shortcut and a symlink alias.
import { IMPACT_EXAMPLES, getImpact, impactPath } from '../impact/support.js';

const examples = fs
  .readdirSync(path.join(cypherDir, 'examples'))
  .filter((f) => f.endsWith('.cypher'))
  .map((f) => f.slice(0, -'.cypher'.length))
  .sort();

/** Runs an example file on the test database, its rows as plain objects. */
function exampleRunner(t: () => TestApp) {
  return async (name: string, params: Record<string, unknown>) => {
    const res = await t().db.read({ op: `example/${name}` }, (tx) => tx.run(cypher(`examples/${name}`), params));
    return res.records.map((r) => toNative(r.toObject()) as Record<string, any>);
  };
}

describe('cypher/examples/', () => {
  const t = useTestApp();
  const run = exampleRunner(t);

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

describe('cypher/examples/ answer as the API on a graph with a deleted shortcut and a symlink alias', () => {
  const t = useTestApp();
  const run = exampleRunner(t);
  const ALIAS_NS = 'hdfs://namenode:8020';
  const ALIAS = '/data/a';
  const alias = `dataset:${ALIAS_NS}:${ALIAS}`;
  const idOf = (r: Record<string, any>) => (r.kind === 'Job' ? job(r.name, r.namespace) : ds(r.name, r.namespace));
  const last = (id: string) => id.split(':').pop();
  const sorted = <T>(xs: T[]) => [...xs].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  // Each dataset is named by its primary name ([NS, 'A']) and by its symlink alias.
  const starts: [string, string][] = [
    [NS, 'A'],
    [ALIAS_NS, ALIAS],
  ];
  const softDelete = async (path: string) =>
    expect((await t().request('DELETE', `/api/v1/namespaces/${path}`)).status, path).to.equal(200);

  // feed (FAILED): S -> A, A also named hdfs://namenode:8020:/data/a;
  // A -> long1 (FAILED) -> B -> long2 -> C -> tail -> D, and the shortcut A -> short_job -> C, short_job
  // soft-deleted; A -> dead_job -> Dead, Dead soft-deleted.
  // Columns: B.x <- A.a, and B.y <- A.a, A.b until B's newer declaration B.y <- A.b; C.z <- B.y,
  // C.q <- B.x; Dead.w <- A.a.
  beforeEach(async function () {
    this.timeout(120_000);
    const symlinks = facet(
      { identifiers: [{ namespace: ALIAS_NS, name: ALIAS, type: 'TABLE' }] },
      'SymlinksDatasetFacet',
    );
    const decimal = (...names: string[]) => names.map((n): [string, string] => [n, 'DECIMAL']);
    const a = (field: string) => ({ name: 'A', field });
    await runJob(t(), 'feed', ['S'], [{ name: 'A', fields: decimal('a', 'b'), facets: { symlinks } }], {
      eventType: 'FAIL',
    });
    const b = (lineage: Parameters<typeof columnLineageFacet>[0]) => ({
      name: 'B',
      fields: decimal('x', 'y'),
      facets: { columnLineage: columnLineageFacet(lineage) },
    });
    await runJob(t(), 'long1', ['A'], [b({ x: [a('a')], y: [a('a'), a('b')] })]);
    await runJob(t(), 'long1', ['A'], [b({ x: [a('a')], y: [a('b')] })]);
    await runJob(t(), 'long1', ['A'], ['B'], { eventType: 'FAIL' });
    const cLineage = columnLineageFacet({ z: [{ name: 'B', field: 'y' }], q: [{ name: 'B', field: 'x' }] });
    await runJob(t(), 'long2', ['B'], [{ name: 'C', fields: decimal('z', 'q'), facets: { columnLineage: cLineage } }]);
    await runJob(t(), 'short_job', ['A'], ['C']);
    await runJob(t(), 'tail', ['C'], ['D']);
    const deadLineage = columnLineageFacet({ w: [a('a')] });
    await runJob(
      t(),
      'dead_job',
      ['A'],
      [{ name: 'Dead', fields: decimal('w'), facets: { columnLineage: deadLineage } }],
    );
    await softDelete(`${encodeURIComponent(JOB_NS)}/jobs/short_job`);
    await softDelete(`${encodeURIComponent(NS)}/datasets/Dead`);
  });

  it('impact-blast-radius and downstream-within-hops: the distances of GET /api/v1/impact', async () => {
    const api = await getImpact(t(), impactPath({ nodeId: alias }));
    // The long route: the deleted shortcut would put C at 2.
    expect(api.nodes.find((n: any) => n.id === ds('C')).distance).to.equal(4);
    for (const [namespace, name] of starts) {
      const blast = await run('impact-blast-radius', { namespace, name });
      expect(sorted(blast.map((r) => [idOf(r), r.distance, r.via])), name).to.deep.equal(
        sorted(api.nodes.map((n: any) => [n.id, n.distance, last(n.via)])),
      );
      // The API's depth counts the first jobs as hop 0, the example's maxHops from 1.
      for (const depth of [0, 1, 20]) {
        const within = await getImpact(t(), impactPath({ nodeId: alias, depth }));
        const mine = await run('downstream-within-hops', { namespace, name, maxHops: depth + 1 });
        expect(sorted(mine.map((r) => [idOf(r), r.hops])), `${name}, depth ${depth}`).to.deep.equal(
          sorted(within.nodes.map((n: any) => [n.id, Math.ceil(n.distance / 2)])),
        );
      }
    }
  });

  it('failed-upstream-jobs, impact-root-cause and upstream-sources: the upstream walk of the API', async () => {
    const api = await getImpact(t(), impactPath({ nodeId: ds('D'), direction: 'upstream', state: 'FAILED' }));
    expect(api.nodes.map((n: any) => [n.id, n.distance])).to.deep.equal([
      [job('long1'), 5],
      [job('feed'), 7],
    ]);
    const failed = await run('failed-upstream-jobs', { namespace: NS, name: 'D' });
    expect(failed.map((r) => [job(r.name, r.namespace), r.hops])).to.deep.equal(
      api.nodes.map((n: any) => [n.id, Math.ceil(n.distance / 2)]),
    );
    const rootCause = await run('impact-root-cause', { namespace: NS, name: 'D', state: 'FAILED' });
    expect(rootCause.map((r) => [`job:${r.job}`, r.distance, r.path])).to.deep.equal(
      api.nodes.map((n: any) => [n.id, n.distance, n.path.map(last)]),
    );
    const upstream = await getImpact(t(), impactPath({ nodeId: ds('D'), direction: 'upstream' }));
    const sources = await run('upstream-sources', { namespace: NS, name: 'D' });
    expect(sources.map((r) => [ds(r.name, r.namespace), r.hops])).to.deep.equal([
      [ds('S'), upstream.nodes.find((n: any) => n.id === ds('S')).distance / 2],
    ]);
    // Named through the alias, upstream of A is feed and S.
    for (const [namespace, name] of starts) {
      expect(await run('upstream-sources', { namespace, name }), name).to.deep.equal([
        { namespace: NS, name: 'S', hops: 1 },
      ]);
      expect(
        (await run('failed-upstream-jobs', { namespace, name })).map((r) => r.name),
        name,
      ).to.deep.equal(['feed']);
    }
  });

  it('path-between-datasets and impact-paths: the paths of GET /api/v1/impact/paths', async () => {
    const api = await getImpact(t(), impactPath({ from: alias, to: ds('D') }, '/api/v1/impact/paths'));
    expect(api.paths.map((p: any) => p.length)).to.deep.equal([6]);
    for (const [fromNamespace, fromName] of starts) {
      const params = { fromNamespace, fromName, toNamespace: NS, toName: 'D' };
      const shortest = await run('path-between-datasets', params);
      expect(
        shortest.map((r) => [r.path, r.jobHops]),
        fromName,
      ).to.deep.equal([[api.paths[0].nodes, 3]]);
      const paths = await run('impact-paths', params);
      expect(
        paths.map((r) => r.path),
        fromName,
      ).to.deep.equal(api.paths.map((p: any) => p.nodes));
    }
    // To the alias, and nothing through the deleted dataset.
    expect(
      (
        await run('path-between-datasets', { fromNamespace: NS, fromName: 'S', toNamespace: ALIAS_NS, toName: ALIAS })
      ).map((r) => r.path),
    ).to.deep.equal([[ds('S'), job('feed'), ds('A')]]);
    expect(
      await run('path-between-datasets', { fromNamespace: NS, fromName: 'A', toNamespace: NS, toName: 'Dead' }),
    ).to.deep.equal([]);
  });

  it('column-impact: the columns of GET /api/v1/impact?nodeId=datasetField:..., mappings in force only', async () => {
    const api = await getImpact(t(), impactPath({ nodeId: `datasetField:${ALIAS_NS}:${ALIAS}:a` }));
    // B.y <- A.a was dropped, Dead is deleted.
    expect(api.nodes.map((n: any) => [n.id, n.distance, n.viaJob])).to.deep.equal([
      [`datasetField:${NS}:B:x`, 1, job('long1')],
      [`datasetField:${NS}:C:q`, 2, job('long2')],
    ]);
    for (const [namespace, dataset] of starts) {
      const mine = await run('column-impact', { namespace, dataset, field: 'a' });
      expect(
        mine.map((r) => [`datasetField:${r.namespace}:${r.dataset}:${r.field}`, r.hops, `job:${r.viaJobs.at(-1)}`]),
        dataset,
      ).to.deep.equal(api.nodes.map((n: any) => [n.id, n.distance, n.viaJob]));
    }
    // B.y still feeds C.z: its own declaration lists it.
    expect((await run('column-impact', { namespace: NS, dataset: 'B', field: 'y' })).map((r) => r.field)).to.deep.equal(
      ['z'],
    );
  });

  it('column-impact: a mapping that names its input by the symlink alias counts, as in the API', async () => {
    const lineage = columnLineageFacet({ e: [{ namespace: ALIAS_NS, name: ALIAS, field: 'b' }] });
    await runJob(
      t(),
      'by_alias',
      [{ namespace: ALIAS_NS, name: ALIAS }],
      [{ name: 'E', fields: [['e', 'DECIMAL']], facets: { columnLineage: lineage } }],
    );
    const api = await getImpact(t(), impactPath({ nodeId: `datasetField:${NS}:A:b` }));
    expect(api.nodes.map((n: any) => [n.id, n.distance, n.viaJob])).to.deep.equal([
      [`datasetField:${NS}:B:y`, 1, job('long1')],
      [`datasetField:${NS}:E:e`, 1, job('by_alias')],
      [`datasetField:${NS}:C:z`, 2, job('long2')],
    ]);
    for (const [namespace, dataset] of starts) {
      const mine = await run('column-impact', { namespace, dataset, field: 'b' });
      expect(
        mine.map((r) => [`datasetField:${r.namespace}:${r.dataset}:${r.field}`, r.hops, `job:${r.viaJobs.at(-1)}`]),
        dataset,
      ).to.deep.equal(api.nodes.map((n: any) => [n.id, n.distance, n.viaJob]));
    }
  });

  it('schema-changes-and-consumers: against the previous version with a schema, by name and type', async () => {
    await runJob(t(), 'schema', [], [{ name: 'E', fields: [['id', 'INTEGER']] }]);
    // A version without a schema facet, then a new column, then a description and the case of a type.
    await runJob(t(), 'schema', [], ['E']);
    await runJob(
      t(),
      'schema',
      [],
      [
        {
          name: 'E',
          fields: [
            ['id', 'INTEGER'],
            ['amount', 'DECIMAL'],
          ],
        },
      ],
    );
    const described = facet(
      {
        fields: [
          { name: 'id', type: 'integer', description: 'the key' },
          { name: 'amount', type: 'DECIMAL' },
        ],
      },
      'SchemaDatasetFacet',
    );
    await runJob(t(), 'schema', [], [{ name: 'E', facets: { schema: described } }]);
    await runJob(t(), 'reader', ['E'], ['F']);
    const since = '2020-01-01T00:00:00Z';
    const api = await getImpact(t(), impactPath({ since }, '/api/v1/impact/schema-changes'));
    expect(api.changes.map((c: any) => [c.name, c.added.map((f: any) => f.name)])).to.deep.equal([['E', ['amount']]]);
    const mine = await run('schema-changes-and-consumers', { since });
    expect(mine.map((r) => [r.namespace, r.name, r.versions, r.consumers])).to.deep.equal([
      [NS, 'E', [api.changes[0].version], ['airflow:reader']],
    ]);
  });
});
