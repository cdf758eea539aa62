import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/logger.js';
import { build, testDb, wipe, type TestApp } from '../../helper.js';
import { until as pollUntil } from '../../support/process.js';

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

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) =>
  pollUntil(what, check, timeoutMs, 25);

// A deep lineage request runs one graph query for seconds on a big graph; a client that disconnects
// meanwhile must not leave it running in Neo4j for nobody.
describe('GET /api/v1/lineage: a client that disconnects ends its query in Neo4j', function () {
  this.timeout(240_000);
  const lines: { path?: string; status?: number; msg?: string }[] = [];
  let t: TestApp;

  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    t = await build({ logger: createLogger('info', 'json', sink), queryTimeoutMs: 120_000 });
    await wipe(t.db);
    // A dataset read by a job that writes 25,000 datasets: a depth-100 walk renders the 20,000-node cap.
    await t.db.write({ op: 'test: fixture', timeoutMs: 300_000 }, (tx) =>
      tx.run(
        `WITH datetime() AS now
         CREATE (:Dataset {namespace: 'cancel', name: 'd0', createdAt: now})
           -[:INPUT_TO {firstSeenAt: now, lastSeenAt: now, seenFrom: [now], seenTo: [now], heldUntil: [now],
             current: false}]
             ->(j:Job {namespace: 'cancel', name: 'fan', createdAt: now})
         WITH j, now
         UNWIND range(1, 25000) AS i
         CREATE (j)-[:PRODUCES {firstSeenAt: now, lastSeenAt: now, seenFrom: [now], seenTo: [now],
           heldUntil: [now], current: false}]->(:Dataset {namespace: 'cancel', name: 'd' + i, createdAt: now})`,
      ),
    );
  });

  after(async () => {
    await wipe(t.db);
    await t.close();
  });

  it(
    'SHOW TRANSACTIONS lists the graph query while the request runs, and no longer once the client is ' + 'gone',
    async () => {
      const controller = new AbortController();
      const request = fetch(`${t.baseUrl}/api/v1/lineage?nodeId=dataset:cancel:d0&depth=100`, {
        signal: controller.signal,
      }).catch((e: unknown) => e);
      await until('the graph query to run in Neo4j', async () => (await running('lineage/graph')) === 1);
      controller.abort();
      expect(await request).to.have.property('name', 'AbortError');
      await until('Neo4j to end the graph query', async () => (await running('lineage/graph')) === 0);
      // The handler ended on the cancellation (a 400 nobody reads), not on a finished graph (200).
      await until('the request log line', () => lines.some((l) => l.msg === 'request' && l.path === '/api/v1/lineage'));
      expect(lines.find((l) => l.msg === 'request' && l.path === '/api/v1/lineage')).to.include({ status: 400 });
    },
  );

  it('the same request, left to finish, answers the graph (the fixture is a real lineage)', async () => {
    const res = await t.get('/api/v1/lineage?nodeId=dataset:cancel:d0&depth=100');
    expect(res.status).to.equal(200);
    expect(res.body.truncated).to.equal(true);
    expect(res.body.graph).to.have.length(20_000);
  });
});
