import { expect } from 'chai';
import { createDriver } from '../../src/neo4j/runtime.js';
import { Neo4jUnavailable } from '../../src/neo4j/availability.js';
import { findFreePort } from '../../src/free-port.js';
import { Db, QueryCancelled } from '../../src/store/db.js';
import { testDb } from '../helper.js';
import { until as pollUntil } from '../support/process.js';

/** A read that keeps Neo4j's CPU busy for minutes unless stopped (bounded by its transaction timeout). */
const ENDLESS = 'UNWIND range(1, 10000000000) AS x WITH x WHERE x = -1 RETURN count(x) AS c';

/** Transactions Neo4j is running for this service's `op` (SHOW TRANSACTIONS, by metadata). */
async function running(op: string): Promise<number> {
  const res = await testDb().execute<{ n: { toNumber(): number } }>(
    'READ',
    'test: show transactions',
    'SHOW TRANSACTIONS YIELD metaData WHERE metaData.op = $op RETURN count(*) AS n',
    { op },
  );
  return res.records[0].get('n').toNumber();
}

const until = (what: string, check: () => Promise<boolean>, timeoutMs = 30_000) =>
  pollUntil(what, check, timeoutMs, 50);

describe('Db.execute: one statement through the driver executeQuery', function () {
  this.timeout(90_000);

  it('reads and writes, tagged with the service metadata and the op', async () => {
    const db = testDb();
    await db.execute('WRITE', 'test: write', 'CREATE (:DbExecuteTest {k: $k})', { k: 1 });
    const res = await db.execute('READ', 'test: read', 'MATCH (n:DbExecuteTest) RETURN count(n) AS c, $p AS p', {
      p: 'x',
    });
    expect(res.records[0].get('c').toNumber()).to.equal(1);
    expect(res.records[0].get('p')).to.equal('x');
    const meta = await db.execute(
      'READ',
      'test: metadata',
      'SHOW TRANSACTIONS YIELD metaData, currentQuery WHERE currentQuery STARTS WITH "SHOW" RETURN metaData',
    );
    expect(meta.records.map((r) => r.get('metaData'))).to.deep.include({
      app: 'lineage-service',
      op: 'test: metadata',
    });
    await db.execute('WRITE', 'test: cleanup', 'MATCH (n:DbExecuteTest) DELETE n');
  });

  it(
    'an aborted signal ends the statement in Neo4j (SHOW TRANSACTIONS no longer lists it) and rejects with ' +
      'QueryCancelled',
    async () => {
      const db = testDb(120_000);
      const controller = new AbortController();
      const pending = db
        .execute('READ', 'test: endless', ENDLESS, {}, { signal: controller.signal })
        .catch((e: unknown) => e);
      await until('the statement to run in Neo4j', async () => (await running('test: endless')) === 1);
      controller.abort();
      expect(await pending).to.be.instanceOf(QueryCancelled);
      await until('Neo4j to stop the statement', async () => (await running('test: endless')) === 0);
    },
  );

  it(
    'while Neo4j is known to be down it fails at once; a running statement is ended when Neo4j is marked ' + 'down',
    async () => {
      const db = new Db(testDb().driver, testDb().database, 120_000, { probeIntervalMs: 60_000 });
      try {
        const pending = db.execute('READ', 'test: endless down', ENDLESS).catch((e: unknown) => e);
        await until('the statement to run in Neo4j', async () => (await running('test: endless down')) === 1);
        db.availability.markDown('test: the local Neo4j exited');
        expect(await pending).to.be.instanceOf(Neo4jUnavailable);
        await until('Neo4j to stop the statement', async () => (await running('test: endless down')) === 0);
        const refused = await db.execute('READ', 'test', 'RETURN 1').catch((e: unknown) => e);
        expect(refused).to.be.instanceOf(Neo4jUnavailable);
        expect((refused as Error).message).to.include('the local Neo4j exited');
      } finally {
        db.availability.close();
      }
    },
  );

  it(
    'a refused connection: Neo4jUnavailable once the heartbeat finds Neo4j down, not the driver retry budget or the ' +
      'deadline',
    async () => {
      const driver = createDriver(`bolt://127.0.0.1:${await findFreePort()}`, 'neo4j', '');
      // A deadline far away: the answer must come from the availability, not from the deadline.
      const db = new Db(driver, 'neo4j', 60_000, { heartbeatMs: 200, probeIntervalMs: 60_000 });
      try {
        db.availability.startHeartbeat();
        const err = await db.execute('READ', 'test', 'RETURN 1').catch((e: unknown) => e);
        expect(err).to.be.instanceOf(Neo4jUnavailable);
        expect(db.availability.isDown).to.equal(true);
      } finally {
        db.availability.close();
        await driver.close();
      }
    },
  );

  it('executeMapped maps every record once, in order', async () => {
    const db = testDb();
    const seen: number[] = [];
    const mapped = await db.executeMapped(
      'READ',
      'test: mapped',
      'UNWIND range(1, $n) AS x RETURN x, x * 2 AS y',
      { n: 5000 },
      (record) => {
        const x = (record.get('x') as { toNumber(): number }).toNumber();
        seen.push(x);
        return { x, y: (record.get('y') as { toNumber(): number }).toNumber() };
      },
    );
    expect(seen).to.have.length(5000);
    expect(mapped).to.have.length(5000);
    expect(mapped[0]).to.deep.equal({ x: 1, y: 2 });
    expect(mapped[4999]).to.deep.equal({ x: 5000, y: 10000 });
    expect(mapped.every((m, i) => m.x === i + 1)).to.equal(true);
  });

  it('executeMapped rejects with QueryCancelled when its signal aborts, and with a mapping error', async () => {
    const db = testDb(120_000);
    const controller = new AbortController();
    const pending = db
      .executeMapped('READ', 'test: endless mapped', ENDLESS, {}, (r) => r, { signal: controller.signal })
      .catch((e: unknown) => e);
    await until('the statement to run in Neo4j', async () => (await running('test: endless mapped')) === 1);
    controller.abort();
    expect(await pending).to.be.instanceOf(QueryCancelled);
    const failing = await db
      .executeMapped('READ', 'test: mapping fails', 'UNWIND range(1, 3) AS x RETURN x', {}, () => {
        throw new Error('bad record');
      })
      .catch((e: unknown) => e);
    expect((failing as Error).message).to.equal('bad record');
  });
});
