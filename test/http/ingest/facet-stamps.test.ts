import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { rows, staleFacetDigests } from '../../support/graph.js';
import { completedRun, facet, PRODUCER, runEvent, schemaFacet } from '../../support/events.js';
import { DELETED, parseStamps } from '../../../src/domain/facet-stamps.js';

const NS = 'postgres://db.example.com:5432';
const datasetEvent = (eventTime: string, facets: Record<string, unknown>) => ({
  eventTime,
  producer: PRODUCER,
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
  dataset: { namespace: NS, name: 'orders', facets },
});

// Each facet holds the report latest by event time (src/domain/facet-stamps.ts), and only facets
// whose content changed are sent: the stored dataset must end up as if every event had been applied
// in event-time order, in full.
describe('ingest: facets are the latest reported, and unchanged ones are not resent', () => {
  const t = useTestApp();
  const post = async (e: Record<string, unknown>) =>
    expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  const stored = async () =>
    (
      await rows(
        t().db,
        "MATCH (d:Dataset {name: 'orders'}) RETURN d.`facet.schema` AS schema, d.`facet.ownership` AS owner, " +
          'd.fields AS fields, d.facetStamps AS stamps, [(d)-[:HAS_FIELD]->(f) | f.name] AS fieldNodes',
      )
    )[0];

  it('repeated facets leave the dataset unchanged; a changed or deleted facet is applied', async () => {
    const v1 = schemaFacet([
      ['id', 'INT'],
      ['total', 'DECIMAL'],
    ]);
    const ownership = facet({ owners: [{ name: 'alice' }] });
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v1, ownership } }] }))
      await post(e);
    const first = await stored();
    expect(first.stamps).to.have.length(2);
    expect(JSON.parse(first.fields).map((f: { name: string }) => f.name)).to.deep.equal(['id', 'total']);

    // A consumer and a second producer run repeat the same facets: only their report times move.
    for (const e of completedRun({
      job: 'reader',
      inputs: [{ name: 'orders', facets: { schema: v1, ownership } }],
      outputs: ['report'],
    }))
      await post(e);
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v1, ownership } }] }))
      await post(e);
    const again = await stored();
    expect({ ...again, stamps: null }).to.deep.equal({ ...first, stamps: null });
    expect(parseStamps(again.stamps).get('facet.schema')!.at).to.be.greaterThan(
      parseStamps(first.stamps).get('facet.schema')!.at,
    );

    // The schema changes: the facet, the fields JSON and the field nodes follow; ownership is untouched.
    const v2 = schemaFacet([
      ['id', 'INT'],
      ['total', 'DECIMAL'],
      ['currency', 'VARCHAR'],
    ]);
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v2, ownership } }] }))
      await post(e);
    const second = await stored();
    expect(JSON.parse(second.schema).fields.map((f: { name: string }) => f.name)).to.deep.equal([
      'id',
      'total',
      'currency',
    ]);
    expect(JSON.parse(second.fields).map((f: { name: string }) => f.name)).to.deep.equal(['id', 'total', 'currency']);
    expect([...second.fieldNodes].sort()).to.deep.equal(['currency', 'id', 'total']);
    expect(second.owner).to.equal(first.owner);

    // A deletion removes the facet and leaves a tombstone, so an older report cannot bring it back.
    await post(
      datasetEvent('2030-01-01T00:00:00Z', { ownership: { _producer: PRODUCER, _schemaURL: 'x', _deleted: true } }),
    );
    const third = await stored();
    expect(third.owner).to.equal(null);
    expect(parseStamps(third.stamps).get('facet.ownership')!.digest).to.equal(DELETED);
    await post(datasetEvent('2029-01-01T00:00:00Z', { ownership: facet({ owners: [{ name: 'bob' }] }) }));
    expect((await stored()).owner).to.equal(null);
    expect(await staleFacetDigests(t().db)).to.deep.equal([]);
  });

  it('a report older than the stored one does not replace it, whatever the arrival order', async () => {
    const newer = schemaFacet([
      ['id', 'INT'],
      ['total', 'DECIMAL'],
    ]);
    const older = schemaFacet([
      ['id', 'INT'],
      ['legacy', 'TEXT'],
    ]);
    await post(
      runEvent({
        job: 'writer',
        eventTime: '2024-06-02T00:00:00Z',
        eventType: 'START',
        outputs: [{ name: 'orders', facets: { schema: newer } }],
      }),
    );
    await post(
      runEvent({
        job: 'writer',
        eventTime: '2024-06-01T00:00:00Z',
        eventType: 'START',
        outputs: [{ name: 'orders', facets: { schema: older } }],
      }),
    );
    const after = await stored();
    expect(JSON.parse(after.schema).fields.map((f: { name: string }) => f.name)).to.deep.equal(['id', 'total']);
    expect(JSON.parse(after.fields).map((f: { name: string }) => f.name)).to.deep.equal(['id', 'total']);
    // Field nodes exist for every column ever reported; only the dataset's schema types them.
    const fields = await rows(
      t().db,
      "MATCH (:Dataset {name: 'orders'})-[:HAS_FIELD]->(f) RETURN f.name AS name, f.type AS type ORDER BY name",
    );
    expect(fields).to.deep.equal([
      { name: 'id', type: 'INT' },
      { name: 'legacy', type: null },
      { name: 'total', type: 'DECIMAL' },
    ]);
  });

  it('columns of a new dataset are created once each; a repeated name typed by its last mention', async () => {
    const fieldsOf = (name: string) =>
      rows(
        t().db,
        'MATCH (:Dataset {name: $name})-[:HAS_FIELD]->(f:DatasetField) ' +
          'RETURN f.name AS name, f.type AS type, f.dataset AS dataset ORDER BY name',
        { name },
      );
    const writes = async (job: string, name: string, schema: unknown) => {
      for (const e of completedRun({ job, outputs: [{ name, facets: { schema } }] })) await post(e);
    };
    // New, with a column named twice: created outright (store), each name once (planner).
    const twice = schemaFacet([
      ['id', 'INT'],
      ['total', 'DECIMAL'],
      ['id', 'BIGINT'],
    ]);
    await writes('writer', 'orders', twice);
    expect(await fieldsOf('orders')).to.deep.equal([
      { name: 'id', type: 'BIGINT', dataset: 'orders' },
      { name: 'total', type: 'DECIMAL', dataset: 'orders' },
    ]);
    // Known first without a schema (no columns yet), then with one; then a changed schema on columns it has.
    for (const e of completedRun({ job: 'reader', inputs: ['payments'] })) await post(e);
    expect(await fieldsOf('payments')).to.deep.equal([]);
    const v1 = schemaFacet([['amount', 'INT']]);
    await writes('payer', 'payments', v1);
    const v2 = schemaFacet([
      ['amount', 'DECIMAL'],
      ['currency', 'VARCHAR'],
    ]);
    await writes('payer', 'payments', v2);
    expect(await fieldsOf('payments')).to.deep.equal([
      { name: 'amount', type: 'DECIMAL', dataset: 'payments' },
      { name: 'currency', type: 'VARCHAR', dataset: 'payments' },
    ]);
    // A field node written by hand without its HAS_FIELD (ad hoc Cypher) is adopted, not a conflict.
    await t().db.write({ op: 'test' }, (tx) =>
      tx.run("CREATE (:DatasetField {namespace: $ns, dataset: 'refunds', name: 'id', type: 'TEXT'})", { ns: NS }),
    );
    const v3 = schemaFacet([
      ['id', 'INT'],
      ['amount', 'DECIMAL'],
    ]);
    await writes('refunder', 'refunds', v3);
    expect(await fieldsOf('refunds')).to.deep.equal([
      { name: 'amount', type: 'DECIMAL', dataset: 'refunds' },
      { name: 'id', type: 'INT', dataset: 'refunds' },
    ]);
    const nodes = await rows(
      t().db,
      'MATCH (f:DatasetField) RETURN count(f) AS n, count(DISTINCT [f.dataset, f.name]) AS keys',
    );
    expect(nodes).to.deep.equal([{ n: 6, keys: 6 }]);
  });

  it('a dataset whose stamps were removed by hand gets its facets written in full again', async () => {
    const v1 = schemaFacet([['id', 'INT']]);
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v1 } }] }))
      await post(e);
    await t().db.write({ op: 'test' }, (tx) =>
      tx.run("MATCH (d:Dataset {name: 'orders'}) SET d.`facet.schema` = '{}' REMOVE d.facetStamps"),
    );
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v1 } }] }))
      await post(e);
    const after = await stored();
    expect(JSON.parse(after.schema).fields.map((f: { name: string }) => f.name)).to.deep.equal(['id']);
    expect(after.stamps).to.have.length(1);
  });

  it(
    'a facet without a stamp (data from before stamps, hand edits) is still deleted by a `_deleted` ' + 'facet',
    async () => {
      const ownership = facet({ owners: [{ name: 'alice' }] });
      for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { ownership } }] }))
        await post(e);
      await t().db.write({ op: 'test' }, (tx) => tx.run("MATCH (d:Dataset {name: 'orders'}) REMOVE d.facetStamps"));
      await post(
        datasetEvent('2030-01-01T00:00:00Z', { ownership: { _producer: PRODUCER, _schemaURL: 'x', _deleted: true } }),
      );
      expect((await stored()).owner).to.equal(null);
      expect(await staleFacetDigests(t().db)).to.deep.equal([]);
    },
  );
});
