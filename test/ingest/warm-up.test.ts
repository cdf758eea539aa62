import { expect } from 'chai';
import { useTestApp } from '../helper.js';
import { graphShape, value } from '../support/graph.js';
import { createLogger } from '../../src/logger.js';
import {
  type QueryActivity,
  WARM_UP_NAMESPACE,
  warmUpBatch,
  warmUpWhileIdle,
  warmUpWritePath,
} from '../../src/ingest/warm-up.js';
import { runEvent } from '../support/events.js';
import { describeExit } from '../../src/neo4j/local/server.js';
import { Neo4jActivity } from '../../src/store/neo4j-activity.js';

describe('warm-up of the write path (before /readyz turns ready)', () => {
  const t = useTestApp();

  it('rehearses real ingest transactions through the committer and leaves nothing behind', async () => {
    const before = await graphShape(t().db);
    const committed = t().app.services.committer.stats.transactions;
    const result = await warmUpWritePath(t().app.services.committer, createLogger('silent'), {
      fastMs: 0,
      maxRounds: 3,
      maxMs: 60_000,
    });
    expect(result.rounds).to.equal(3);
    expect(await graphShape(t().db), 'rolled back: the graph is as before').to.deep.equal(before);
    expect(await value(t().db, 'MATCH (n {namespace: $ns}) RETURN count(n)', { ns: WARM_UP_NAMESPACE })).to.equal(0);
    expect(t().app.services.committer.stats.transactions, 'nothing committed').to.equal(committed);
  });

  it('stops once a rehearsal is fast', async () => {
    const result = await warmUpWritePath(t().app.services.committer, createLogger('silent'), {
      fastMs: 60_000,
      maxRounds: 30,
      maxMs: 60_000,
    });
    expect(result.rounds).to.equal(1);
  });

  it('while the committer is held (re-warming after an outage), events get 503 at once, then 201 again', async () => {
    const committer = t().app.services.committer;
    const refusedBefore = committer.stats.refusedUnavailable;
    committer.hold('warming up the write path after Neo4j came back');
    try {
      const started = performance.now();
      const res = await t().post('/api/v1/lineage', runEvent());
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(res.body).to.include({ error: 'unavailable' });
      expect(res.body.message).to.include('warming up the write path after Neo4j came back');
      expect(performance.now() - started, 'refused at once, not after a transaction').to.be.lessThan(2000);
      expect(committer.stats.refusedUnavailable).to.equal(refusedBefore + 1);
    } finally {
      committer.resume();
    }
    expect((await t().post('/api/v1/lineage', runEvent())).status).to.equal(201);
  });

  it('rehearses every kind of event, with the facets ingestion promotes', () => {
    const kinds = new Set(warmUpBatch().map((e) => e.kind));
    expect([...kinds].sort()).to.deep.equal(['dataset', 'job', 'run']);
    const run = warmUpBatch().find((e) => e.kind === 'run')!;
    expect(run.run!.parent).to.not.equal(null);
    expect(run.inputs[0].fields).to.have.length(8);
  });
});

describe('warm-up while the service is idle (after /readyz turned ready)', () => {
  const t = useTestApp();
  const silent = createLogger('silent');

  it('rehearses until its budget is spent, and leaves nothing behind', async () => {
    const before = await graphShape(t().db);
    const committed = t().app.services.committer.stats.transactions;
    const result = await warmUpWhileIdle(t().app.services.committer, silent, { budgetMs: 600, quietMs: 0, pollMs: 10 });
    expect(result.rehearsals).to.be.greaterThan(0);
    expect(result.spentMs).to.be.at.least(600);
    expect(await graphShape(t().db), 'rolled back: the graph is as before').to.deep.equal(before);
    expect(t().app.services.committer.stats.transactions, 'nothing committed').to.equal(committed);
  });

  /** Rehearsals of an idle warm-up (3 s quiet rule) while `act` runs every 200 ms for 4 s, then stopped. */
  async function rehearsalsWhile(act: () => Promise<void>, queries?: QueryActivity): Promise<number> {
    const stop = new AbortController();
    const opts = { budgetMs: 60_000, quietMs: 3000, pollMs: 10 };
    const warming = warmUpWhileIdle(t().app.services.committer, silent, opts, stop.signal, queries);
    // Never 3 s without activity, and past the first quiet period.
    for (const until = Date.now() + 4000; Date.now() < until; ) {
      await act();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    stop.abort();
    return (await warming).rehearsals;
  }

  it('does not rehearse while producers keep writing, and stops when told', async () => {
    const post = async () => {
      expect((await t().post('/api/v1/lineage', runEvent({ inputs: ['public.orders'] }))).status).to.equal(201);
    };
    expect(await rehearsalsWhile(post)).to.equal(0);
  });

  it('does not rehearse while the query API is being read', async () => {
    const read = async () => {
      expect((await t().get('/api/v1/namespaces')).status).to.equal(200);
    };
    expect(await rehearsalsWhile(read, t().app.services.admission)).to.equal(0);
  });

  it('does not rehearse while another client has a transaction open on the database', async () => {
    // Another replica, a loader or a person in Neo4j Browser: nothing this process can see of its own.
    const others = new Neo4jActivity(t().db);
    const session = t().db.driver.session({ database: t().db.database });
    const tx = session.beginTransaction({ metadata: { app: 'another-replica', op: 'ingest' } });
    try {
      await tx.run('RETURN 1');
      expect(await others.othersRunning()).to.equal(true);
      const opts = { budgetMs: 60_000, quietMs: 200, pollMs: 10 };
      const stop = new AbortController();
      const warming = warmUpWhileIdle(t().app.services.committer, silent, opts, stop.signal, undefined, others);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      stop.abort();
      expect((await warming).rehearsals, 'while the other transaction is open').to.equal(0);
    } finally {
      await tx.rollback();
      await session.close();
    }
    expect(await others.othersRunning(), 'its own query and rehearsals are not counted').to.equal(false);
    const result = await warmUpWhileIdle(
      t().app.services.committer,
      silent,
      { budgetMs: 300, quietMs: 200, pollMs: 10 },
      undefined,
      undefined,
      others,
    );
    expect(result.rehearsals, 'once it is gone').to.be.greaterThan(0);
  });

  it('rehearses once ingestion has been quiet long enough', async () => {
    expect((await t().post('/api/v1/lineage', runEvent())).status).to.equal(201);
    const result = await warmUpWhileIdle(t().app.services.committer, silent, {
      budgetMs: 300,
      quietMs: 200,
      pollMs: 10,
    });
    expect(result.rehearsals).to.be.greaterThan(0);
  });
});

describe('the local Neo4j supervisor says why the server died', () => {
  it('in words, from the watchdog exit code', () => {
    expect(describeExit(137, null)).to.equal('killed by SIGKILL (exit code 137)');
    expect(describeExit(3, null)).to.match(/out of memory/);
    expect(describeExit(1, null)).to.equal('exited with code 1');
    expect(describeExit(null, 'SIGKILL')).to.equal('its watchdog was killed by SIGKILL');
  });
});
