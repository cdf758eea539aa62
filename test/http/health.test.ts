import { expect } from 'chai';
import { build, useTestApp } from '../helper.js';
import { createDriver } from '../../src/neo4j/runtime.js';
import { Db } from '../../src/store/db.js';
import { runEvent } from '../support/events.js';

describe('health and readiness', () => {
  const t = useTestApp();

  it('/healthz answers while the process lives', async () => {
    const res = await t().get('/healthz');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('ok');
  });

  it('/readyz is 200 when Neo4j answers', async () => {
    const res = await t().get('/readyz');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ status: 'ready', neo4j: 'up' });
  });

  it('/readyz is 503 with a JSON body when Neo4j is unreachable', async () => {
    const driver = createDriver('bolt://127.0.0.1:1', 'neo4j', '');
    const down = await build({ db: new Db(driver, 'neo4j') });
    try {
      const res = await down.get('/readyz');
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ code: 503, neo4j: 'down' });
      const health = await down.get('/healthz');
      expect(health.status).to.equal(200);
    } finally {
      await down.close();
      await driver.close();
    }
  });

  it('/readyz is 503 warming_up while start-up work runs, and 200 once it settles (even if it failed)', async () => {
    const app = await build();
    try {
      let finish!: () => void;
      let fail!: (err: Error) => void;
      app.app.services.readiness.waitFor('planning', new Promise<void>((resolve) => (finish = resolve)));
      app.app.services.readiness.waitFor('warming', new Promise<void>((_, reject) => (fail = reject)));
      const warming = await app.get('/readyz');
      expect(warming.status).to.equal(503);
      expect(warming.headers.get('retry-after')).to.equal('1');
      expect(warming.body).to.include({ code: 503, error: 'warming_up', status: 'warming_up', neo4j: 'up' });
      expect(warming.body.warmingUp).to.deep.equal(['planning', 'warming']);
      expect((await app.get('/healthz')).status, 'liveness is not readiness').to.equal(200);
      finish();
      fail(new Error('could not warm up'));
      await new Promise((r) => setImmediate(r));
      const ready = await app.get('/readyz');
      expect(ready.status).to.equal(200);
      expect(ready.body).to.include({ status: 'ready', neo4j: 'up' });
    } finally {
      await app.close();
    }
  });

  it('/metrics serves Prometheus text', async () => {
    await t().get('/api/v1/namespaces');
    const res = await t().get('/metrics');
    expect(res.status).to.equal(200);
    expect(res.text).to.include('lineage_http_request_duration_seconds');
  });

  it('/metrics counts ingest transactions with their size and duration', async () => {
    const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    const before = (await t().get('/metrics')).text;
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t()
          .post('/api/v1/lineage', runEvent({ job: `job_${i}` }))
          .then((r) => r.status),
      ),
    );
    expect(statuses).to.deep.equal([201, 201, 201, 201, 201, 201]);
    const after = (await t().get('/metrics')).text;
    const delta = (name: string) =>
      metric(after, name) - (Number.isNaN(metric(before, name)) ? 0 : metric(before, name));
    const transactions = delta('lineage_ingest_transactions_total');
    expect(transactions).to.be.within(1, 6);
    // Every committed transaction is observed once, with its events.
    expect(delta('lineage_ingest_transaction_events_count')).to.equal(transactions);
    expect(delta('lineage_ingest_transaction_events_sum')).to.equal(6);
    expect(delta('lineage_ingest_committed_events_total')).to.equal(6);
    expect(delta('lineage_ingest_transaction_duration_seconds_count')).to.equal(transactions);
    expect(delta('lineage_ingest_transaction_duration_seconds_sum')).to.be.greaterThan(0);
  });
});
