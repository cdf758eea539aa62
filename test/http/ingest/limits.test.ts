import { expect } from 'chai';
import { build, useTestApp, type TestApp } from '../../helper.js';
import { graphShape, value } from '../../support/graph.js';
import { DEFAULT_DATASET_NS, facet, runEvent } from '../../support/events.js';
import { EVENT_LIMITS } from '../../../src/domain/openlineage/limits.js';

/**
 * An event past a limit (src/domain/openlineage/limits.ts) gets a 422 `limit_exceeded` naming the
 * limit, at once and with nothing written; an event at the limit is stored. Never a 5xx: a 503 for
 * an event that can never be stored makes producers that honour Retry-After retry it forever.
 */
describe('ingest: event limits', function () {
  // Events at the limits are large (1,000 datasets, 20,000 columns): slow on a loaded machine.
  this.timeout(180_000);
  const t = useTestApp();

  async function expectLimit(event: unknown, limit: string) {
    const before = await graphShape(t().db);
    const res = await t().post(
      '/api/v1/lineage',
      event,
      typeof event === 'string' ? { 'content-type': 'application/json' } : undefined,
    );
    expect(res.status, res.text.slice(0, 300)).to.equal(422);
    expect(res.body).to.include({ code: 422, error: 'limit_exceeded' });
    expect(res.body.limits).to.include(limit);
    expect(res.body.message).to.include(`limit: ${limit}`);
    expect(await graphShape(t().db), 'nothing written').to.deep.equal(before);
    return res;
  }

  const names = (n: number, prefix = 'ds') => Array.from({ length: n }, (_, i) => `${prefix}_${i}`);

  it('names over the index key limit: namespace, job, dataset, column, source, symlink, parent job', async () => {
    const long = 'n'.repeat(EVENT_LIMITS.nameBytes + 1);
    await expectLimit(runEvent({ job: long }), 'nameBytes');
    await expectLimit(runEvent({ jobNamespace: 'x'.repeat(EVENT_LIMITS.namespaceBytes + 1) }), 'namespaceBytes');
    await expectLimit(runEvent({ outputs: [long] }), 'nameBytes');
    // Multi-byte characters count in bytes: 1,366 three-byte characters are 4,098 bytes.
    await expectLimit(runEvent({ inputs: ['表'.repeat(1366)] }), 'nameBytes');
    await expectLimit(
      runEvent({ outputs: [{ name: 't', fields: [['c'.repeat(EVENT_LIMITS.fieldNameBytes + 1), 'INT']] }] }),
      'fieldNameBytes',
    );
    await expectLimit(
      runEvent({ outputs: [{ name: 't', facets: { dataSource: facet({ name: long, uri: 'pg://x' }) } }] }),
      'nameBytes',
    );
    await expectLimit(
      runEvent({
        outputs: [
          {
            name: 't',
            facets: { symlinks: facet({ identifiers: [{ namespace: 'hive', name: long, type: 'TABLE' }] }) },
          },
        ],
      }),
      'nameBytes',
    );
    await expectLimit(
      runEvent({
        runFacets: {
          parent: facet({
            run: { runId: '01909a1c-0000-7000-8000-000000000001' },
            job: { namespace: 'airflow', name: long },
          }),
        },
      }),
      'nameBytes',
    );
    await expectLimit(runEvent({ runId: 'r'.repeat(EVENT_LIMITS.runIdChars + 1) }), 'runIdChars');
  });

  it('names at the limit are stored and readable', async () => {
    const name = 'n'.repeat(EVENT_LIMITS.nameBytes);
    const ns = 's'.repeat(EVENT_LIMITS.namespaceBytes);
    const column = 'c'.repeat(EVENT_LIMITS.fieldNameBytes);
    const res = await t().post(
      '/api/v1/lineage',
      runEvent({ jobNamespace: ns, job: name, outputs: [{ namespace: ns, name, fields: [[column, 'INT']] }] }),
    );
    expect(res.status).to.equal(201);
    const ds = await t().get(`/api/v1/namespaces/${ns}/datasets/${name}`);
    expect(ds.status).to.equal(200);
    expect(ds.body.fields[0].name).to.equal(column);
    // The ids the service gives such nodes can be asked for, as can one of a name full of colons.
    const colons = `a${':b'.repeat(80)}`;
    expect((await t().post('/api/v1/lineage', runEvent({ job: 'colons', outputs: [colons] }))).status).to.equal(201);
    for (const nodeId of [`dataset:${ns}:${name}`, `job:${ns}:${name}`, `dataset:${DEFAULT_DATASET_NS}:${colons}`]) {
      const graph = await t().get(`/api/v1/lineage?nodeId=${encodeURIComponent(nodeId)}`);
      expect(graph.status, graph.text.slice(0, 200)).to.equal(200);
      expect(graph.body.graph.map((n: { id: string }) => n.id)).to.include(nodeId);
    }
    const fieldId = `datasetField:${ns}:${name}:${column}`;
    const columns = await t().get(`/api/v1/column-lineage?nodeId=${encodeURIComponent(fieldId)}`);
    expect(columns.status, columns.text.slice(0, 200)).to.equal(200);
  });

  it('more inputs and outputs than an event may name; exactly the limit is stored', async () => {
    await expectLimit(
      runEvent({ inputs: names(EVENT_LIMITS.datasetsPerEvent), outputs: ['one_more'] }),
      'datasetsPerEvent',
    );
    await expectLimit(runEvent({ inputs: names(100_000) }), 'datasetsPerEvent');
    const half = EVENT_LIMITS.datasetsPerEvent / 2;
    const res = await t().post(
      '/api/v1/lineage',
      runEvent({ eventType: 'COMPLETE', inputs: names(half, 'in'), outputs: names(half, 'out') }),
    );
    expect(res.status).to.equal(201);
    expect(await value(t().db, 'MATCH (d:Dataset) RETURN count(d)')).to.equal(EVENT_LIMITS.datasetsPerEvent);
  });

  it('nesting 10,000 levels deep, in a custom facet or in schema fields: 422, no stack overflow', async () => {
    // Built as text: JSON.stringify itself overflows the stack on such a value.
    const withHole = (e: Record<string, unknown>, hole: string) => JSON.stringify(e).replace('"HOLE"', hole);
    const deepObject = `${'{"nested":'.repeat(10_000)}{"leaf":true}${'}'.repeat(10_000)}`;
    await expectLimit(
      withHole(runEvent({ runFacets: { custom: facet({ deep: 'HOLE' }) } }), deepObject),
      'nestingDepth',
    );
    const struct = '{"name":"f","type":"STRUCT","fields":[';
    const deepFields = `${struct.repeat(10_000)}{"name":"leaf","type":"INT"}${']}'.repeat(10_000)}`;
    await expectLimit(
      withHole(runEvent({ outputs: [{ name: 't', facets: { schema: facet({ fields: ['HOLE'] }) } }] }), deepFields),
      'nestingDepth',
    );
    await expectLimit(
      withHole({ ...runEvent(), extra: 'HOLE' }, '['.repeat(10_000) + ']'.repeat(10_000)),
      'nestingDepth',
    );
    // Just within the limit: stored.
    const fine = `${'{"nested":'.repeat(EVENT_LIMITS.nestingDepth - 5)}{}${'}'.repeat(EVENT_LIMITS.nestingDepth - 5)}`;
    const res = await t().post(
      '/api/v1/lineage',
      withHole(runEvent({ runFacets: { custom: facet({ deep: 'HOLE' }) } }), fine),
      { 'content-type': 'application/json' },
    );
    expect(res.status).to.equal(201);
  });

  it('schema columns and column-lineage inputs past the limit; at the limit they are stored', async () => {
    const wide = (n: number) => Array.from({ length: n }, (_, i) => [`c${i}`, 'INT'] as [string, string]);
    await expectLimit(
      runEvent({
        outputs: [
          { name: 'a', fields: wide(EVENT_LIMITS.fieldsPerEvent / 2) },
          { name: 'b', fields: wide(EVENT_LIMITS.fieldsPerEvent / 2 + 1) },
        ],
      }),
      'fieldsPerEvent',
    );
    const inputs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ namespace: 'pg', name: 'src', field: `c${i}` }));
    const lineage = (n: number) => facet({ fields: { out: { inputFields: inputs(n) } } }, 'ColumnLineageDatasetFacet');
    await expectLimit(
      runEvent({
        outputs: [{ name: 'a', facets: { columnLineage: lineage(EVENT_LIMITS.columnLineageInputsPerEvent + 1) } }],
      }),
      'columnLineageInputsPerEvent',
    );
    expect(
      (
        await t().post(
          '/api/v1/lineage',
          runEvent({ eventType: 'COMPLETE', outputs: [{ name: 'wide', fields: wide(EVENT_LIMITS.fieldsPerEvent) }] }),
        )
      ).status,
    ).to.equal(201);
    expect(
      (
        await t().post(
          '/api/v1/lineage',
          runEvent({
            eventType: 'COMPLETE',
            outputs: [{ name: 'mapped', facets: { columnLineage: lineage(EVENT_LIMITS.columnLineageInputsPerEvent) } }],
          }),
        )
      ).status,
    ).to.equal(201);
    expect(await value(t().db, "MATCH (:DatasetField {dataset: 'src'})-[f:FEEDS]->() RETURN count(f)")).to.equal(
      EVENT_LIMITS.columnLineageInputsPerEvent,
    );
  });

  it('more distinct facet names than an event may use: 422, and no property key is created', async () => {
    const keyCount = () =>
      value<number>(
        t().db,
        "CALL db.propertyKeys() YIELD propertyKey WHERE propertyKey STARTS WITH 'facet.' RETURN count(*)",
      );
    const before = await keyCount();
    const facets = Object.fromEntries(names(2000, 'fuzz_facet_never_seen').map((n) => [n, facet({})]));
    await expectLimit(runEvent({ jobFacets: facets }), 'facetNamesPerEvent');
    expect(await keyCount()).to.equal(before);
    await expectLimit(
      runEvent({ runFacets: { ['f'.repeat(EVENT_LIMITS.facetNameBytes + 1)]: facet({}) } }),
      'facetNameBytes',
    );
  });

  it('in a batch, an event over a limit fails alone and is not retriable', async () => {
    const res = await t().post('/api/v1/lineage/batch', [
      runEvent({ job: 'fine' }),
      runEvent({ job: 'j'.repeat(EVENT_LIMITS.nameBytes + 1) }),
    ]);
    expect(res.status).to.equal(200);
    expect(res.body.summary).to.deep.equal({ received: 2, successful: 1, failed: 1 });
    expect(res.body.failed_events[0]).to.include({ index: 1, retriable: false });
    expect(res.body.failed_events[0].reason).to.include('limit: nameBytes');
  });
});

describe('ingest: the cap on facet property keys (FACET_KEYS_MAX)', () => {
  let app: TestApp;
  let existing = 0;
  before(async () => {
    const probe = await build();
    existing = await value<number>(
      probe.db,
      "CALL db.propertyKeys() YIELD propertyKey WHERE propertyKey STARTS WITH 'facet.' OR propertyKey STARTS WITH " +
        "'jobFacet.' RETURN count(*)",
    );
    await probe.close();
    app = await build({ facetKeysMax: existing + 3 });
  });
  after(() => app.close());

  it('refuses an event that would add facet names past the cap, and accepts events with known names', async () => {
    const unique = `cap_${Date.now()}`;
    const res = await app.post(
      '/api/v1/lineage',
      runEvent({
        outputs: [
          {
            name: 't',
            facets: {
              [`${unique}_a`]: facet({}),
              [`${unique}_b`]: facet({}),
              [`${unique}_c`]: facet({}),
              [`${unique}_d`]: facet({}),
            },
          },
        ],
      }),
    );
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ error: 'limit_exceeded' });
    expect(res.body.message).to.include('FACET_KEYS_MAX');
    // Within the cap: two new names.
    expect(
      (
        await app.post(
          '/api/v1/lineage',
          runEvent({ outputs: [{ name: 't', facets: { [`${unique}_a`]: facet({}), [`${unique}_b`]: facet({}) } }] }),
        )
      ).status,
    ).to.equal(201);
    // Known names are always accepted, new ones no longer.
    expect(
      (
        await app.post(
          '/api/v1/lineage',
          runEvent({ outputs: [{ name: 'u', facets: { [`${unique}_a`]: facet({ again: true }) } }] }),
        )
      ).status,
    ).to.equal(201);
    expect(
      (
        await app.post(
          '/api/v1/lineage',
          runEvent({ outputs: [{ name: 'u', facets: { [`${unique}_x`]: facet({}), [`${unique}_y`]: facet({}) } }] }),
        )
      ).status,
    ).to.equal(422);
  });
});
