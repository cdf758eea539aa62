import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { rows, staleFacetDigests } from '../../support/graph.js';
import { completedRun, facet, PRODUCER, runEvent, schemaFacet } from '../../support/events.js';

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

// Jobs, runs and the dataset versions runs read get the same treatment: their facets end up exactly
// as if every event had been written in full, and every stored digest matches its facet.
describe('ingest: unchanged job, run and input facets are skipped without changing the result', () => {
  const t = useTestApp();
  const post = async (e: Record<string, unknown>) => expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  const job = async () =>
    (await rows(t().db, "MATCH (j:Job {name: 'load'}) RETURN j.`facet.sql` AS sql, j.`facet.documentation` AS doc, j.facetDigests AS digests"))[0];

  it("a job's repeated facets leave it unchanged; a changed or deleted facet is applied", async () => {
    const sql = facet({ query: 'SELECT 1' }, 'SQLJobFacet');
    const documentation = facet({ description: 'loads orders' }, 'DocumentationJobFacet');
    for (const e of completedRun({ job: 'load', jobFacets: { sql, documentation } })) await post(e);
    const first = await job();
    expect(first.digests).to.have.length(2);
    for (const e of completedRun({ job: 'load', jobFacets: { sql, documentation } })) await post(e);
    expect(await job()).to.deep.equal(first);

    const sql2 = facet({ query: 'SELECT 2' }, 'SQLJobFacet');
    for (const e of completedRun({ job: 'load', jobFacets: { sql: sql2 } })) await post(e);
    const second = await job();
    expect(JSON.parse(second.sql).query).to.equal('SELECT 2');
    expect(second.doc).to.equal(first.doc);

    await post(runEvent({ job: 'load', eventType: 'COMPLETE', jobFacets: { documentation: { _producer: PRODUCER, _schemaURL: 'x', _deleted: true } } }));
    const third = await job();
    expect(third.doc).to.equal(null);
    expect(third.digests).to.have.length(1);
    // The API answers with what the graph holds.
    const api = await t().get('/api/v1/namespaces/airflow/jobs/load');
    expect(Object.keys(api.body.facets)).to.include('sql').and.not.include('documentation');
    expect(await staleFacetDigests(t().db)).to.deep.equal([]);
  });

  it("a run's job facets are kept per run, the COMPLETE's changes applied over the START's", async () => {
    const runId = '01909a1c-4444-7000-8000-000000000001';
    await post(runEvent({ runId, job: 'load', eventType: 'START', jobFacets: { sql: facet({ query: 'SELECT 1' }) } }));
    await post(runEvent({ runId, job: 'load', eventType: 'COMPLETE', jobFacets: { sql: facet({ query: 'SELECT 1' }), documentation: facet({ description: 'd' }) } }));
    const [run] = await rows(t().db, 'MATCH (r:Run {externalId: $runId}) RETURN r.`jobFacet.sql` AS sql, r.`jobFacet.documentation` AS doc', { runId });
    expect(JSON.parse(run.sql).query).to.equal('SELECT 1');
    expect(JSON.parse(run.doc).description).to.equal('d');
    expect(await staleFacetDigests(t().db)).to.deep.equal([]);
  });

  it('facets a consumer reports about its input attach to the version it read, skipped only when that version holds them', async () => {
    const schema = schemaFacet([['id', 'INT']]);
    const owners = (name: string) => facet({ owners: [{ name }] }, 'OwnershipDatasetFacet');
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema } }] })) await post(e);
    const version = async () =>
      (await rows(t().db, "MATCH (:Run)-[:READ]->(v:DatasetVersion {name: 'orders'}) RETURN DISTINCT v.id AS id, v.`facet.schema` AS schema, v.`facet.ownership` AS owner, v.facetDigests AS digests"))[0];

    // The first consumer repeats the schema (which the version holds) and reports an owner.
    for (const e of completedRun({ job: 'reader_1', inputs: [{ name: 'orders', facets: { schema, ownership: owners('alice') } }] })) await post(e);
    const first = await version();
    expect(JSON.parse(first.owner).owners[0].name).to.equal('alice');
    expect(first.digests).to.have.length(2);
    // A second consumer of the same version repeats both: nothing changes. A third reports another owner.
    for (const e of completedRun({ job: 'reader_2', inputs: [{ name: 'orders', facets: { schema, ownership: owners('alice') } }] })) await post(e);
    expect(await version()).to.deep.equal(first);
    for (const e of completedRun({ job: 'reader_3', inputs: [{ name: 'orders', facets: { schema, ownership: owners('bob') } }] })) await post(e);
    const third = await version();
    expect(third.id).to.equal(first.id);
    expect(JSON.parse(third.owner).owners[0].name).to.equal('bob');
    expect(third.schema).to.equal(first.schema);
    expect(await staleFacetDigests(t().db)).to.deep.equal([]);
  });

  it('a version whose facet was edited by hand (digests removed) gets the facet written again', async () => {
    const schema = schemaFacet([['id', 'INT']]);
    for (const e of completedRun({ job: 'writer', outputs: [{ name: 'orders', facets: { schema } }] })) await post(e);
    await t().db.write({ op: 'test' }, (tx) => tx.run("MATCH (v:DatasetVersion {name: 'orders'}) SET v.`facet.schema` = '{}' REMOVE v.facetDigests"));
    for (const e of completedRun({ job: 'reader', inputs: [{ name: 'orders', facets: { schema } }] })) await post(e);
    const [v] = await rows(t().db, "MATCH (:Run)-[:READ]->(v:DatasetVersion {name: 'orders'}) RETURN v.`facet.schema` AS schema");
    expect(JSON.parse(v.schema).fields.map((f: { name: string }) => f.name)).to.deep.equal(['id']);
    expect(await staleFacetDigests(t().db)).to.deep.equal([]);
  });
});
