import { expect } from 'chai';
import { build, testDb, testDriver, type TestApp } from '../helper.js';
import { Db } from '../../src/store/db.js';
import { holdRunLock, rows } from '../support/graph.js';
import { runEvent } from '../support/events.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('load shedding', () => {
  describe('query admission (QUERY_MAX_CONCURRENT, QUERY_MAX_WAIT_MS)', () => {
    // A fresh app per test: admission refuses at once when recent requests say the wait is too long.
    let app: TestApp;
    beforeEach(async () => {
      app = await build({ queries: { maxConcurrent: 1, maxWaitMs: 200, maxQueue: 2 } });
    });
    afterEach(() => app.close());

    it(
      'with every slot taken, a query waits its budget and gets 503 overloaded + Retry-After; health, metrics and ' +
        'ingestion are not held back',
      async () => {
        const release = await app.app.services.admission.acquire();
        try {
          const res = await app.get('/api/v1/namespaces');
          expect(res.status).to.equal(503);
          expect(res.headers.get('retry-after')).to.equal('1');
          expect(res.body).to.include({ code: 503, error: 'overloaded' });
          expect(res.body.message).to.match(/no query slot free within 200 ms/);
          expect((await app.get('/healthz')).status).to.equal(200);
          expect((await app.get('/readyz')).status).to.equal(200);
          expect((await app.post('/api/v1/lineage', runEvent({ job: 'not_held_back' }))).status).to.equal(201);
          expect((await app.get('/metrics')).text).to.match(/^lineage_query_refused_requests_total [1-9]/m);
        } finally {
          release();
        }
        const ok = await app.get('/api/v1/namespaces');
        expect(ok.status).to.equal(200);
      },
    );

    it('a query waiting for a slot runs as soon as one frees', async () => {
      const release = await app.app.services.admission.acquire();
      const waiting = app.get('/api/v1/namespaces');
      await sleep(50);
      release();
      expect((await waiting).status).to.equal(200);
    });

    it('past the queue limit, refused at once', async () => {
      const release = await app.app.services.admission.acquire();
      try {
        const waiting = [app.get('/api/v1/tags'), app.get('/api/v1/tags')];
        await sleep(50);
        const res = await app.get('/api/v1/tags');
        expect(res.status).to.equal(503);
        expect(res.body.message).to.match(/2 requests already waiting/);
        await Promise.all(waiting);
      } finally {
        release();
      }
    });
  });

  it('a query that recent ones say would wait past the budget is refused at once', async () => {
    const app = await build({ queries: { maxConcurrent: 1, maxWaitMs: 200 } });
    try {
      const gate = app.app.services.admission;
      // One request that held its slot for 400 ms sets the recent request time.
      const slow = await gate.acquire();
      await sleep(400);
      slow();
      const busy = await gate.acquire();
      try {
        const res = await app.get('/api/v1/namespaces');
        expect(res.status).to.equal(503);
        // Refused by the estimate, not after waiting (that refusal says "no query slot free within").
        expect(res.body.message).to.match(/would wait about \d+ ms for a slot/);
      } finally {
        busy();
      }
    } finally {
      await app.close();
    }
  });

  it('above the memory soft limit (QUERY_MEMORY_SOFT_LIMIT), one query runs at a time', async () => {
    let rss = 100;
    const app = await build({
      queries: { maxConcurrent: 4, maxWaitMs: 200, memorySoftLimitBytes: 150, memoryUsage: () => rss },
    });
    try {
      const gate = app.app.services.admission;
      const first = await gate.acquire();
      const second = await gate.acquire();
      expect(gate.inFlight, 'below the limit, queries run side by side').to.equal(2);
      rss = 200;
      const res = await app.get('/api/v1/namespaces');
      expect(res.status, 'a free slot is not used while memory is high').to.equal(503);
      first();
      second();
      // Nothing running: one query always runs, whatever the memory.
      expect((await app.get('/api/v1/namespaces')).status).to.equal(200);
      expect((await app.get('/metrics')).text).to.match(/^lineage_query_held_for_memory_total [1-9]/m);
    } finally {
      await app.close();
    }
  });

  describe('ingest wait budget (INGEST_MAX_WAIT_MS)', () => {
    let app: TestApp;
    beforeEach(async () => {
      app = await build({ ingest: { writers: 1, maxWaitMs: 200, lingerMs: 0 } });
    });
    afterEach(() => app.close());

    it(
      'events that wait past the budget behind a stuck transaction are refused with 503 while it is still stuck, ' +
        'and not written',
      async () => {
        const stuck = runEvent({ runId: '01909a1c-8888-7000-8000-000000000001', job: 'stuck' });
        const release = await holdRunLock('01909a1c-8888-7000-8000-000000000001');
        const first = app.post('/api/v1/lineage', stuck);
        await sleep(200);
        const waiting = Array.from({ length: 3 }, (_, i) => runEvent({ job: `waiting_${i}` }));
        // Answered while the only writer is still blocked: the refusal does not wait for a free writer.
        const answers = await Promise.all(waiting.map((e) => app.post('/api/v1/lineage', e)));
        await release();
        expect((await first).status, 'the stuck event itself goes in').to.equal(201);
        for (const res of answers) {
          expect(res.status).to.equal(503);
          expect(res.headers.get('retry-after')).to.equal('1');
          expect(res.body).to.include({ error: 'overloaded' });
          expect(res.body.message).to.match(/waited \d+ ms for a transaction, more than 200 ms/);
        }
        const stored = await rows(app.db, 'MATCH (j:Job) WHERE j.name STARTS WITH $p RETURN j.name AS name', {
          p: 'waiting_',
        });
        expect(stored, 'refused events are not written').to.deep.equal([]);
      },
    );

    it('when recent transactions say an event would wait past the budget, it is refused at once', async () => {
      // One slow committed transaction (held behind a lock for 600 ms) sets the recent transaction time.
      let release = await holdRunLock('01909a1c-8888-7000-8000-000000000002');
      const slow = app.post(
        '/api/v1/lineage',
        runEvent({ runId: '01909a1c-8888-7000-8000-000000000002', job: 'slow' }),
      );
      await sleep(600);
      await release();
      expect((await slow).status).to.equal(201);
      // The only writer is busy again: the next event would wait about 600 ms > 200 ms.
      release = await holdRunLock('01909a1c-8888-7000-8000-000000000003');
      const busy = app.post(
        '/api/v1/lineage',
        runEvent({ runId: '01909a1c-8888-7000-8000-000000000003', job: 'busy' }),
      );
      await sleep(100);
      const res = await app.post('/api/v1/lineage', runEvent({ job: 'refused_at_once' }));
      await release();
      expect((await busy).status).to.equal(201);
      expect(res.status).to.equal(503);
      // Refused by the estimate on arrival (a refusal after waiting says "waited ... ms").
      expect(res.body.message).to.match(/would wait about \d+ ms/);
      // Once the times are forgotten (the service does so when Neo4j goes down and after a warm-up),
      // the estimate no longer refuses.
      app.app.services.committer.resetTiming();
      expect(app.app.services.committer.expectedWaitMs()).to.equal(0);
      expect((await app.get('/metrics')).text).to.match(/^lineage_ingest_refused_slow_events_total [1-9]/m);
    });
  });

  describe('while Neo4j is known to be down', () => {
    let app: TestApp;
    let db: Db;
    before(async () => {
      db = new Db(testDriver(), testDb().database, 10_000, { probeIntervalMs: 60_000 });
      app = await build({ db });
    });
    after(async () => {
      await db.availability.check();
      db.availability.close();
      await app.close();
    });

    it('events, batches, reads and /readyz get 503 + Retry-After at once, and nothing is queued', async () => {
      db.availability.markDown('test: Neo4j stopped');
      const t0 = performance.now();
      const single = await app.post('/api/v1/lineage', runEvent({ job: 'during_outage' }));
      const batch = await app.post('/api/v1/lineage/batch', [runEvent({ job: 'b1' }), runEvent({ job: 'b2' })]);
      const read = await app.get('/api/v1/namespaces');
      const readyz = await app.get('/readyz');
      expect(performance.now() - t0, 'four answers without waiting for Neo4j').to.be.lessThan(2000);
      for (const res of [single, read, readyz]) {
        expect(res.status).to.equal(503);
        expect(res.headers.get('retry-after')).to.equal('1');
        expect(res.body.error).to.equal('unavailable');
      }
      expect(single.body.message).to.include('test: Neo4j stopped');
      expect(readyz.body).to.include({ neo4j: 'down' });
      // A batch with nothing stored and everything retriable: 503, with the usual summary.
      expect(batch.status).to.equal(503);
      expect(batch.headers.get('retry-after')).to.equal('1');
      expect(batch.body.summary).to.deep.equal({ received: 2, successful: 0, failed: 2 });
      expect(batch.body.failed_events.every((f: { retriable: boolean }) => f.retriable)).to.equal(true);
      expect(app.app.services.committer.queued).to.equal(0);
      const metrics = (await app.get('/metrics')).text;
      expect(metrics).to.match(/^lineage_neo4j_up 0$/m);
      expect(metrics).to.match(/^lineage_ingest_refused_unavailable_events_total [1-9]/m);

      expect(await db.availability.check()).to.equal(true);
      expect((await app.post('/api/v1/lineage', runEvent({ job: 'after_outage' }))).status).to.equal(201);
      expect((await app.get('/readyz')).status).to.equal(200);
    });
  });
});
