import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../../helper.js';
import { rows, value } from '../../support/graph.js';
import { completedRun, DEFAULT_DATASET_NS, facet, PRODUCER, runEvent } from '../../support/events.js';

describe('ingest: facets, sources, symlinks, column lineage', () => {
  const t = useTestApp();
  const post = async (e: Record<string, unknown>) =>
    expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);

  it('creates namespaces and sources on first sight (dataSource facet gives the source)', async () => {
    const dataSource = facet({ name: 'orders-db', uri: 'postgres://db.example.com:5432' }, 'DatasourceDatasetFacet');
    await post(runEvent({ jobNamespace: 'airflow-prod', inputs: [{ name: 'public.orders', facets: { dataSource } }] }));
    const ns = await rows(t().db, 'MATCH (n:Namespace) RETURN n.name AS name ORDER BY name');
    expect(ns.map((n) => n.name)).to.deep.equal(['airflow-prod', 'default', 'postgres://db.example.com:5432']);
    const src = await rows(
      t().db,
      'MATCH (d:Dataset)-[:FROM_SOURCE]->(s:Source) RETURN s.name AS name, s.type AS type, s.connectionUrl AS url, ' +
        'd.sourceName AS sourceName',
    );
    expect(src).to.deep.equal([
      { name: 'orders-db', type: 'POSTGRES', url: 'postgres://db.example.com:5432', sourceName: 'orders-db' },
    ]);
  });

  it('a dataset that moves to another source is linked to the new one only', async () => {
    const from = (name: string) => ({
      dataSource: facet({ name, uri: `postgres://${name}:5432` }, 'DatasourceDatasetFacet'),
    });
    await post(runEvent({ inputs: [{ name: 'public.orders', facets: from('old-db') }] }));
    await post(runEvent({ inputs: [{ name: 'public.orders', facets: from('old-db') }] }));
    await post(runEvent({ inputs: [{ name: 'public.orders', facets: from('new-db') }] }));
    await post(runEvent({ inputs: [{ name: 'public.orders', facets: from('new-db') }] }));
    const links = await rows(
      t().db,
      'MATCH (d:Dataset {name: "public.orders"})-[:FROM_SOURCE]->(s:Source) RETURN s.name AS source, d.sourceName AS ' +
        'sourceName',
    );
    expect(links).to.deep.equal([{ source: 'new-db', sourceName: 'new-db' }]);
    expect(await value(t().db, 'MATCH (s:Source) RETURN collect(s.name) AS names')).to.have.members([
      'old-db',
      'new-db',
    ]);
  });

  it('promotes well-known facets: description, location, sql, lifecycle state, job type', async () => {
    const jobFacets = {
      documentation: facet({ description: 'Loads orders' }),
      sourceCodeLocation: facet({ type: 'git', url: 'https://github.com/acme/etl/blob/main/orders.py' }),
      sql: facet({ query: 'INSERT INTO orders SELECT * FROM raw' }),
    };
    const outputs = [
      {
        name: 'orders',
        facets: {
          documentation: facet({ description: 'All orders' }),
          lifecycleStateChange: facet({ lifecycleStateChange: 'OVERWRITE' }),
        },
      },
    ];
    for (const e of completedRun({ jobFacets, outputs })) await post(e);
    const job = (await rows(t().db, 'MATCH (j:Job) RETURN j.description AS d, j.location AS l, j.context AS c'))[0];
    expect(job).to.deep.equal({
      d: 'Loads orders',
      l: 'https://github.com/acme/etl/blob/main/orders.py',
      c: JSON.stringify({ sql: 'INSERT INTO orders SELECT * FROM raw' }),
    });
    const ds = (
      await rows(t().db, "MATCH (d:Dataset {name: 'orders'}) RETURN d.description AS d, d.lastLifecycleState AS s")
    )[0];
    expect(ds).to.deep.equal({ d: 'All orders', s: 'OVERWRITE' });
  });

  it('a same-name facet replaces the older one; _deleted removes it', async () => {
    const dsEvent = (facets: Record<string, unknown>, time: string) => ({
      eventTime: time,
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: { namespace: 'warehouse', name: 'dim_customer', facets },
    });
    await post(
      dsEvent({ ownership: facet({ owners: [{ name: 'alice' }] }), tags: facet({ v: 1 }) }, '2024-06-01T00:00:00Z'),
    );
    await post(dsEvent({ ownership: facet({ owners: [{ name: 'bob' }] }) }, '2024-06-01T01:00:00Z'));
    let d = (await rows(t().db, 'MATCH (d:Dataset) RETURN d.`facet.ownership` AS o, d.`facet.tags` AS tags'))[0];
    expect(JSON.parse(d.o).owners).to.deep.equal([{ name: 'bob' }]);
    expect(d.tags).to.be.a('string');
    await post(dsEvent({ tags: { _producer: PRODUCER, _schemaURL: 'x', _deleted: true } }, '2024-06-01T02:00:00Z'));
    d = (await rows(t().db, 'MATCH (d:Dataset) RETURN d.`facet.ownership` AS o, d.`facet.tags` AS tags'))[0];
    expect(d.tags).to.equal(null);
    expect(d.o).to.be.a('string');
  });

  it('an alias (symlink) name resolves to the same dataset', async () => {
    const symlinks = facet(
      { identifiers: [{ namespace: 'hdfs://namenode:8020', name: '/warehouse/orders', type: 'TABLE' }] },
      'SymlinksDatasetFacet',
    );
    for (const e of completedRun({
      job: 'writer',
      outputs: [{ namespace: 'hive://metastore:9083', name: 'default.orders', facets: { symlinks } }],
    }))
      await post(e);
    for (const e of completedRun({
      job: 'reader',
      inputs: [{ namespace: 'hdfs://namenode:8020', name: '/warehouse/orders' }],
      outputs: ['report'],
    }))
      await post(e);
    const r = await rows(
      t().db,
      `MATCH (w:Job {name: 'writer'})-[:PRODUCES]->(d:Dataset)-[:INPUT_TO]->(r:Job {name: 'reader'})
       RETURN d.namespace AS ns, d.name AS name`,
    );
    expect(r).to.deep.equal([{ ns: 'hive://metastore:9083', name: 'default.orders' }]);
    expect(
      await value(t().db, "MATCH (a:Dataset {name: '/warehouse/orders'})-[:ALIAS_OF]->(d) RETURN d.name"),
    ).to.equal('default.orders');
  });

  it('an alias declared after the alias name was used moves its lineage to the primary', async () => {
    for (const e of completedRun({
      job: 'reader',
      inputs: [{ namespace: 'hdfs://nn', name: '/w/t' }],
      outputs: ['report'],
    }))
      await post(e);
    const symlinks = facet({ identifiers: [{ namespace: 'hdfs://nn', name: '/w/t', type: 'TABLE' }] });
    for (const e of completedRun({
      job: 'writer',
      outputs: [{ namespace: 'hive://ms', name: 'db.t', facets: { symlinks } }],
    }))
      await post(e);
    const r = await rows(
      t().db,
      "MATCH (:Job {name: 'writer'})-[:PRODUCES]->(d)-[:INPUT_TO]->(:Job {name: 'reader'}) RETURN d.name AS n",
    );
    expect(r).to.deep.equal([{ n: 'db.t' }]);
  });

  it('records column-level lineage from the columnLineage facet', async () => {
    const columnLineage = facet(
      {
        fields: {
          total: {
            inputFields: [
              {
                namespace: 'pg',
                name: 'orders',
                field: 'amount',
                transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION', description: 'sum' }],
              },
              { namespace: 'pg', name: 'orders', field: 'tax' },
            ],
          },
          customer_id: { inputFields: [{ namespace: 'pg', name: 'customers', field: 'id' }] },
        },
      },
      'ColumnLineageDatasetFacet',
    );
    for (const e of completedRun({
      job: 'agg',
      inputs: [{ namespace: 'pg', name: 'orders' }],
      outputs: [{ namespace: 'pg', name: 'totals', facets: { columnLineage } }],
    }))
      await post(e);
    const edges = await rows(
      t().db,
      `MATCH (a:DatasetField)-[f:FEEDS]->(b:DatasetField)
       RETURN a.dataset + '.' + a.name AS src, b.dataset + '.' + b.name AS dst, f.jobName AS job ORDER BY src`,
    );
    expect(edges).to.deep.equal([
      { src: 'customers.id', dst: 'totals.customer_id', job: 'agg' },
      { src: 'orders.amount', dst: 'totals.total', job: 'agg' },
      { src: 'orders.tax', dst: 'totals.total', job: 'agg' },
    ]);
    const tr = await value(t().db, "MATCH (:DatasetField {name: 'amount'})-[f:FEEDS]->() RETURN f.transformations");
    expect(JSON.parse(tr)[0]).to.include({ type: 'DIRECT', subtype: 'AGGREGATION' });
  });

  it('JobEvent creates a run-less job version from declared I/O', async () => {
    const jobEvent = {
      eventTime: '2024-06-01T10:00:00Z',
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
      job: { namespace: 'dbt', name: 'orders_model', facets: { sql: facet({ query: 'select 1' }) } },
      inputs: [{ namespace: 'snowflake://acme', name: 'raw.orders' }],
      outputs: [{ namespace: 'snowflake://acme', name: 'analytics.orders' }],
    };
    await post(jobEvent);
    const r = await rows(
      t().db,
      `MATCH (j:Job {name: 'orders_model'})-[:CURRENT_VERSION]->(v:JobVersion)
       RETURN COUNT { (v)<-[:EXECUTED]-() } AS runs, COLLECT { MATCH (d)-[:INPUT_TO]->(j) RETURN d.name } AS ins,
         j.context AS context`,
    );
    expect(r).to.deep.equal([{ runs: 0, ins: ['raw.orders'], context: JSON.stringify({ sql: 'select 1' }) }]);
  });

  it('un-deletes a soft-deleted dataset and job when a later event mentions them', async () => {
    for (const e of completedRun({ job: 'j', inputs: ['a'], outputs: ['b'] })) await post(e);
    const dsNs = encodeURIComponent(DEFAULT_DATASET_NS);
    for (const path of ['airflow/jobs/j', `${dsNs}/datasets/a`, `${dsNs}/datasets/b`])
      expect((await t().request('DELETE', `/api/v1/namespaces/${path}`)).status, path).to.equal(200);
    // The label mirrors the property (cypher/README.md): set by the delete, removed by the event.
    const deleted = `MATCH (n) WHERE (n:Job OR n:Dataset) AND n.isDeleted
                     WITH n ORDER BY n.name RETURN collect(n.name + CASE WHEN n:Deleted THEN ':Deleted' ELSE '' END)`;
    expect(await value(t().db, deleted)).to.deep.equal(['a:Deleted', 'b:Deleted', 'j:Deleted']);
    await post(runEvent({ runId: randomUUID(), job: 'j', inputs: ['a'] }));
    expect(await value(t().db, deleted)).to.deep.equal(['b:Deleted']);
    expect(await value(t().db, 'MATCH (n:Deleted) WHERE NOT n.isDeleted RETURN count(n)')).to.equal(0);
  });
});
