import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { rows, staleFacetDigests } from '../../support/graph.js';
import { completedRun, facet, PRODUCER, schemaFacet } from '../../support/events.js';

// Unchanged dataset facets are left out of the upsert (src/domain/facet-digests.ts): the stored
// dataset must still end up exactly as if every event had been written in full.
describe('ingest: unchanged dataset facets are skipped without changing the result', () => {
  const t = useTestApp();
  const post = async (e: Record<string, unknown>) => expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  const stored = async () =>
    (await rows(t().db, "MATCH (d:Dataset {name: 'orders'}) RETURN d.`facet.schema` AS schema, d.`facet.ownership` AS owner, d.fields AS fields, d.facetDigests AS digests, [(d)-[:HAS_FIELD]->(f) | f.name] AS fieldNodes"))[0];

  it('repeated facets leave the dataset unchanged; a changed or deleted facet is applied', async () => {
    const v1 = schemaFacet([['id', 'INT'], ['total', 'DECIMAL']]);
    const ownership = facet({ owners: [{ name: 'alice' }] });
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v1, ownership } }] })) await post(e);
    const first = await stored();
    expect(first.digests).to.have.length(2);
    expect(JSON.parse(first.fields).map((f: { name: string }) => f.name)).to.deep.equal(['id', 'total']);

    // A consumer and a second producer run repeat the same facets: nothing about the dataset changes.
    for (const e of completedRun({ job: 'reader', inputs: [{ name: 'orders', facets: { schema: v1, ownership } }], outputs: ['report'] })) await post(e);
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v1, ownership } }] })) await post(e);
    expect(await stored()).to.deep.equal(first);

    // The schema changes: the facet, the fields JSON and the field nodes follow; ownership is untouched.
    const v2 = schemaFacet([['id', 'INT'], ['total', 'DECIMAL'], ['currency', 'VARCHAR']]);
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v2, ownership } }] })) await post(e);
    const second = await stored();
    expect(JSON.parse(second.schema).fields.map((f: { name: string }) => f.name)).to.deep.equal(['id', 'total', 'currency']);
    expect(JSON.parse(second.fields).map((f: { name: string }) => f.name)).to.deep.equal(['id', 'total', 'currency']);
    expect([...second.fieldNodes].sort()).to.deep.equal(['currency', 'id', 'total']);
    expect(second.owner).to.equal(first.owner);

    // A deletion removes the facet and its digest.
    await post({
      eventTime: '2030-01-01T00:00:00Z',
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: { namespace: 'postgres://db.example.com:5432', name: 'orders', facets: { ownership: { _producer: PRODUCER, _schemaURL: 'x', _deleted: true } } },
    });
    const third = await stored();
    expect(third.owner).to.equal(null);
    expect(third.digests).to.have.length(1);
    expect(third.digests[0]).to.match(/^facet\.schema /);
  });

  it('a dataset whose digests were removed by hand gets its facets written in full again', async () => {
    const v1 = schemaFacet([['id', 'INT']]);
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v1 } }] })) await post(e);
    await t().db.write({ op: 'test' }, (tx) => tx.run("MATCH (d:Dataset {name: 'orders'}) SET d.`facet.schema` = '{}' REMOVE d.facetDigests"));
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema: v1 } }] })) await post(e);
    const after = await stored();
    expect(JSON.parse(after.schema).fields.map((f: { name: string }) => f.name)).to.deep.equal(['id']);
    expect(after.digests).to.have.length(1);
  });
});

describe('ingest: a dataset whose facet has no digest', () => {
  const t = useTestApp();
  const post = async (e: Record<string, unknown>) => expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);

  it('still has the facet deleted by a `_deleted` facet (the list may lack entries: old data, hand edits)', async () => {
    const ownership = facet({ owners: [{ name: 'alice' }] });
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { ownership } }] })) await post(e);
    await t().db.write({ op: 'test' }, (tx) => tx.run("MATCH (d:Dataset {name: 'orders'}) REMOVE d.facetDigests"));
    await post({
      eventTime: '2030-01-01T00:00:00Z',
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: { namespace: 'postgres://db.example.com:5432', name: 'orders', facets: { ownership: { _producer: PRODUCER, _schemaURL: 'x', _deleted: true } } },
    });
    const [d] = await rows(t().db, "MATCH (d:Dataset {name: 'orders'}) RETURN d.`facet.ownership` AS owner");
    expect(d.owner).to.equal(null);
    expect(await staleFacetDigests(t().db)).to.deep.equal([]);
  });
});
