import { expect } from 'chai';
import { build, useTestApp } from '../helper.js';
import { createDriver } from '../../src/neo4j/runtime.js';
import { Db } from '../../src/store/db.js';

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

  it('/metrics serves Prometheus text', async () => {
    await t().get('/api/v1/namespaces');
    const res = await t().get('/metrics');
    expect(res.status).to.equal(200);
    expect(res.text).to.include('lineage_http_request_duration_seconds');
  });
});
