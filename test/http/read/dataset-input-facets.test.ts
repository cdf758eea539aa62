import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../../helper.js';
import { DEFAULT_DATASET_NS, facet, runEvent, schemaFacet } from '../../support/events.js';
import { rows } from '../../support/graph.js';
import { cypher } from '../../../src/store/cypher.js';

// Data-quality tools (Great Expectations, dbt tests, Soda) report what they measured as input facets of
// the dataset they read. Marquez shows them on the dataset, for its current version: so do we.
describe('read API: readers’ input facets on a dataset', () => {
  const t = useTestApp();
  const ns = encodeURIComponent(DEFAULT_DATASET_NS);
  const at = (m: number) => `2026-05-01T10:${String(m).padStart(2, '0')}:00Z`;
  const post = async (e: Record<string, unknown>) =>
    expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  const write = async (runId: string, start: number, fields: [string, string][]) => {
    await post(runEvent({ runId, job: 'writer', eventType: 'START', eventTime: at(start) }));
    await post(
      runEvent({
        runId,
        job: 'writer',
        eventType: 'COMPLETE',
        eventTime: at(start + 1),
        outputs: [{ name: 'orders', fields }],
      }),
    );
  };
  const check = (runId: string, minute: number, rowCount: number) =>
    runEvent({
      runId,
      job: 'quality.orders',
      eventType: 'COMPLETE',
      eventTime: at(minute),
      inputs: [{ name: 'orders', inputFacets: { dataQualityMetrics: facet({ rowCount, columnMetrics: {} }) } }],
    });
  const dataset = async () => {
    const res = await t().get(`/api/v1/namespaces/${ns}/datasets/orders`);
    expect(res.status).to.equal(200);
    return res.body;
  };

  it('shows the latest reader’s quality metrics of the current version, whatever the arrival order', async () => {
    await write(randomUUID(), 1, [['id', 'INT']]);
    const [early, late] = [randomUUID(), randomUUID()];
    await post(check(late, 20, 12));
    await post(check(early, 10, 10));
    const shown = await dataset();
    expect(shown.facets.dataQualityMetrics.rowCount).to.equal(12);
    expect(shown.facets.schema.fields.map((f: { name: string }) => f.name)).to.deep.equal(['id']);
    // Keys stay in name order, as every facet map of the API.
    expect(Object.keys(shown.facets)).to.deep.equal([...Object.keys(shown.facets)].sort());
    // The page of the namespace's datasets shows the same facets.
    const list = await t().get(`/api/v1/namespaces/${ns}/datasets`);
    const listed = list.body.datasets.find((d: { name: string }) => d.name === 'orders');
    expect(listed.facets).to.deep.equal(shown.facets);
    // Tagging answers with the dataset as GET shows it.
    const tagged = await t().post(`/api/v1/namespaces/${ns}/datasets/orders/tags/PII`, undefined);
    expect(tagged.status).to.equal(200);
    expect(tagged.body.facets.dataQualityMetrics.rowCount).to.equal(12);
  });

  it('a new version starts without its predecessor’s metrics; a dataset’s own facet is never replaced', async () => {
    await write(randomUUID(), 1, [['id', 'INT']]);
    await post(check(randomUUID(), 10, 10));
    expect((await dataset()).facets.dataQualityMetrics.rowCount).to.equal(10);
    await write(randomUUID(), 30, [
      ['id', 'INT'],
      ['amount', 'DECIMAL'],
    ]);
    const fresh = await dataset();
    expect(fresh.facets).not.to.have.property('dataQualityMetrics');
    // A reader reporting the dataset's own facet (an older schema) as an input facet does not override it.
    await post(
      runEvent({
        job: 'quality.orders',
        eventType: 'COMPLETE',
        eventTime: at(40),
        inputs: [{ name: 'orders', inputFacets: { schema: schemaFacet([['id', 'INT']]) } }],
      }),
    );
    expect((await dataset()).facets.schema.fields).to.have.length(2);
  });

  it('a version read by many runs shows, per facet, its latest reader’s report, sent once', async () => {
    await write(randomUUID(), 1, [['id', 'INT']]);
    // 30 readers: each reports the schema it saw (as Spark does for inputs) and a row count.
    for (let i = 0; i < 30; i++) {
      const reader = check(randomUUID(), 10 + i, 100 + i);
      (reader.inputs as { facets: Record<string, unknown> }[])[0].facets = {
        schema: schemaFacet([
          ['id', 'INT'],
          [`seen_${i}`, 'INT'],
        ]),
      };
      await post(reader);
    }
    const current = (await dataset()).currentVersion;
    const version = await t().get(`/api/v1/namespaces/${ns}/datasets/orders/versions/${current}`);
    expect(version.status).to.equal(200);
    expect(version.body.facets.dataQualityMetrics.rowCount).to.equal(129);
    // Readers' schemas are later than the writer's: the version shows the latest reader's, as before.
    expect(version.body.facets.schema.fields.map((f: { name: string }) => f.name)).to.deep.equal(['id', 'seen_29']);
    const page = await t().get(`/api/v1/namespaces/${ns}/datasets/orders/versions`);
    expect(page.body.versions[0].facets).to.deep.equal(version.body.facets);
    // Neo4j answers one entry per facet name, not one per READ.
    const [row] = await rows(t().db, cypher('datasets/version'), {
      namespace: DEFAULT_DATASET_NS,
      name: 'orders',
      version: current,
    });
    expect((row.version as { readFacets: unknown[] }).readFacets).to.have.length(2);
  });
});
