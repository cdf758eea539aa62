import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { build, useTestApp } from '../../helper.js';
import { graphShape, rows, value } from '../../support/graph.js';
import { PRODUCER, runEvent } from '../../support/events.js';

describe('POST /api/v1/lineage: accepting events', () => {
  const t = useTestApp();

  it('answers 201 for a run event and stores it', async () => {
    const res = await t().post('/api/v1/lineage', runEvent({ inputs: ['public.orders'] }));
    expect(res.status).to.equal(201);
    expect(await value(t().db, 'MATCH (r:Run) RETURN count(r)')).to.equal(1);
    expect(await value(t().db, 'MATCH (e:LineageEvent) RETURN count(e)')).to.equal(1);
  });

  it('accepts every eventType and an absent one', async () => {
    for (const eventType of ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER', null]) {
      const res = await t().post('/api/v1/lineage', runEvent({ eventType }));
      expect(res.status, String(eventType)).to.equal(201);
    }
    expect(await value(t().db, 'MATCH (r:Run) RETURN count(r)')).to.equal(7);
  });

  it('accepts 1-0-x and 2-0-x schema URLs, #/definitions/ and #/$defs/', async () => {
    for (const schemaURL of [
      'https://openlineage.io/spec/1-0-5/OpenLineage.json#/definitions/RunEvent',
      'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    ]) {
      const res = await t().post('/api/v1/lineage', { ...runEvent(), schemaURL });
      expect(res.status, schemaURL).to.equal(201);
    }
  });

  it('accepts a JobEvent and a DatasetEvent', async () => {
    const job = {
      eventTime: '2024-06-01T10:00:00Z',
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
      job: { namespace: 'dbt', name: 'models.orders', facets: {} },
      inputs: [{ namespace: 'snowflake://acme', name: 'raw.orders' }],
      outputs: [{ namespace: 'snowflake://acme', name: 'analytics.orders' }],
    };
    expect((await t().post('/api/v1/lineage', job)).status).to.equal(201);
    const ds = {
      eventTime: '2024-06-01T10:00:00Z',
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: { namespace: 'snowflake://acme', name: 'raw.customers', facets: {} },
    };
    expect((await t().post('/api/v1/lineage', ds)).status).to.equal(201);
    const kinds = await rows(t().db, 'MATCH (e:LineageEvent) RETURN e.kind AS kind ORDER BY kind');
    expect(kinds.map((k) => k.kind)).to.deep.equal(['dataset', 'job']);
    expect(
      await value(t().db, "MATCH (j:Job {name: 'models.orders'})-[:CURRENT_VERSION]->(v) RETURN count(v)"),
    ).to.equal(1);
    expect(
      await value(t().db, "MATCH (:Dataset {name: 'raw.customers'})-[:CURRENT_VERSION]->(v) RETURN count(v)"),
    ).to.equal(1);
  });

  it('accepts a gzip-encoded body', async () => {
    const body = gzipSync(Buffer.from(JSON.stringify(runEvent())));
    const res = await t().request('POST', '/api/v1/lineage', {
      body,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(res.status).to.equal(201);
  });

  it('keeps unknown top-level keys and custom facets in the stored raw event', async () => {
    const event = {
      ...runEvent({ runFacets: { acme_cost: { _producer: PRODUCER, _schemaURL: 'x', dollars: 3 } } }),
      customKey: { a: 1 },
    };
    expect((await t().post('/api/v1/lineage', event)).status).to.equal(201);
    const payload = JSON.parse(await value(t().db, 'MATCH (e:LineageEvent) RETURN e.payload'));
    expect(payload).to.deep.equal(event);
    const costFacet = await value(t().db, 'MATCH (r:Run) RETURN r.`facet.acme_cost`');
    expect(JSON.parse(costFacet).dollars).to.equal(3);
  });

  describe('rejections write nothing and answer JSON', () => {
    async function expectNothingWritten() {
      const shape = await graphShape(t().db);
      expect(shape).to.deep.equal({ Namespace: 1 }); // only `default`
    }

    it('415 for a non-JSON content type', async () => {
      const res = await t().request('POST', '/api/v1/lineage', {
        body: JSON.stringify(runEvent()),
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).to.equal(415);
      expect(res.body).to.include({ code: 415, error: 'unsupported_media_type' });
      await expectNothingWritten();
    });

    it('400 for malformed JSON and for an empty body', async () => {
      const bad = await t().request('POST', '/api/v1/lineage', {
        body: '{"eventType": "START",',
        headers: { 'content-type': 'application/json' },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.code).to.equal(400);
      const empty = await t().request('POST', '/api/v1/lineage', {
        body: '',
        headers: { 'content-type': 'application/json' },
      });
      expect(empty.status).to.equal(400);
      await expectNothingWritten();
    });

    it('400 for a corrupt gzip body', async () => {
      const res = await t().request('POST', '/api/v1/lineage', {
        body: Buffer.from('definitely not gzip'),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expect(res.status).to.equal(400);
      await expectNothingWritten();
    });

    it('422 with the failing paths for schema violations', async () => {
      const event = runEvent({ inputs: ['x'] }) as any;
      delete event.producer;
      delete event.run.runId;
      event.inputs[0].name = '';
      const res = await t().post('/api/v1/lineage', event);
      expect(res.status).to.equal(422);
      expect(res.body.code).to.equal(422);
      const paths = res.body.errors.map((e: { path: string }) => e.path);
      expect(paths).to.include.members(['/producer', '/run/runId', '/inputs/0/name']);
      await expectNothingWritten();
    });

    it('422 for a bad eventTime or eventType', async () => {
      for (const patch of [{ eventTime: 'yesterday' }, { eventType: 'FINISHED' }]) {
        const res = await t().post('/api/v1/lineage', { ...runEvent(), ...patch });
        expect(res.status, JSON.stringify(patch)).to.equal(422);
      }
      await expectNothingWritten();
    });

    it('422 for a body that is neither a run, job nor dataset event', async () => {
      const res = await t().post('/api/v1/lineage', {
        eventTime: '2024-01-01T00:00:00Z',
        producer: PRODUCER,
        schemaURL: 'x',
      });
      expect(res.status).to.equal(422);
      await expectNothingWritten();
    });

    it('413 for a body over the configured limit', async () => {
      const small = await build({ bodyLimitBytes: 2048 });
      try {
        const event = runEvent({
          runFacets: { big: { _producer: PRODUCER, _schemaURL: 'x', blob: 'x'.repeat(4096) } },
        });
        const res = await small.post('/api/v1/lineage', event);
        expect(res.status).to.equal(413);
        expect(res.body).to.include({ code: 413, error: 'payload_too_large' });
        const zipped = await small.request('POST', '/api/v1/lineage', {
          body: gzipSync(Buffer.from(JSON.stringify(event))),
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        });
        expect(zipped.status, 'limit applies to the inflated body').to.equal(413);
      } finally {
        await small.close();
      }
      await expectNothingWritten();
    });

    it('409 when a run id is reused by another job', async () => {
      const runId = '0190a0a0-0000-7000-8000-000000000001';
      expect((await t().post('/api/v1/lineage', runEvent({ runId, job: 'a' }))).status).to.equal(201);
      const before = await graphShape(t().db);
      const res = await t().post('/api/v1/lineage', runEvent({ runId, job: 'b', inputs: ['t1'] }));
      expect(res.status).to.equal(409);
      expect(res.body.message).to.include('belongs to job');
      expect(await graphShape(t().db)).to.deep.equal(before);
    });
  });
});
