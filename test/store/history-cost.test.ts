import { expect } from 'chai';
import crypto from 'node:crypto';
import { int as neo4jInt, type ProfiledPlan } from 'neo4j-driver';
import { parseEvent } from '../../src/domain/openlineage/normalize.js';
import type { NormalizedEvent } from '../../src/domain/openlineage/types.js';
import type { TxRunner } from '../../src/store/db.js';
import { cypher } from '../../src/store/cypher.js';
import { writeEvents } from '../../src/store/ingest.js';
import { impactQuery } from '../../src/store/impact.js';
import { graphQuery, maxRelsFor, viewParams } from '../../src/store/lineage/index.js';
import { END_OF_TIME } from '../../src/store/lineage/view.js';
import { parseDuration } from '../../src/domain/duration.js';
import { build, testDb, testDriver, wipe, type TestApp } from '../helper.js';
import { completedRun, runEvent } from '../support/events.js';
import { columnLineageFacet } from '../http/lineage/support.js';

/**
 * What an event costs Neo4j must not grow with the history of the datasets it names: a table written
 * hourly for a year has 8,760 versions, and a job reading it would otherwise pay for each of them on
 * every event. Measured in database hits (deterministic, unlike time): the ingest statements run
 * under PROFILE for one event, in a transaction that is rolled back.
 */
function dbHits(plan: ProfiledPlan): number {
  return plan.dbHits + plan.children.reduce((sum, child) => sum + dbHits(child), 0);
}

async function profiledHits(event: NormalizedEvent): Promise<number> {
  const session = testDriver().session();
  const tx = session.beginTransaction();
  let hits = 0;
  const profiling: TxRunner = {
    run: (text, params) => {
      const result = tx.run(`PROFILE ${text}`, params);
      return result.then((answer) => {
        hits += dbHits(answer.summary.profile as ProfiledPlan);
        return answer;
      }) as never;
    },
  } as TxRunner;
  try {
    const last = await writeEvents(profiling, [{ event, receivedAt: new Date().toISOString() }]);
    if (last) hits += dbHits((await last.result).summary.profile as ProfiledPlan);
  } finally {
    await tx.rollback();
    await session.close();
  }
  return hits;
}

/** Database hits of one read statement under PROFILE. */
async function readHits(text: string, params: Record<string, unknown>): Promise<number> {
  const answer = await testDb().read({ op: 'test' }, (tx) => tx.run(`PROFILE ${text}`, params));
  return dbHits(answer.summary.profile as ProfiledPlan);
}

function normalized(raw: Record<string, unknown>): NormalizedEvent {
  const parsed = parseEvent(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.event;
}

describe('cost and history: database hits that do not grow with the runs and versions stored', () => {
  let t: TestApp;
  before(async () => {
    await wipe();
    t = await build();
    // A job (and the dataset it writes) with 2 runs, one with 300; the same with column lineage declared.
    await history('orders_small', 2);
    await history('orders_big', 300);
    await history('totals_small', 2, true);
    await history('totals_big', 300, true);
  });
  after(() => t.close());

  /** `runs` completed runs of one producer writing `table` (declaring column lineage when asked). */
  async function history(table: string, runs: number, declaring = false) {
    const output = declaring
      ? { name: table, facets: { columnLineage: columnLineageFacet({ total: [{ name: 'orders', field: 'amount' }] }) } }
      : table;
    const events = Array.from({ length: runs }, () => completedRun({ job: `load_${table}`, outputs: [output] })).flat();
    for (let i = 0; i < events.length; i += 100) {
      const res = await t.post('/api/v1/lineage/batch', events.slice(i, i + 100));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  }

  it('an event reading a dataset with 300 versions costs what it costs with 2', async () => {
    const versions = await t.get(
      '/api/v1/namespaces/postgres%3A%2F%2Fdb.example.com%3A5432/datasets/orders_big/versions?limit=1',
    );
    expect(versions.body.totalCount).to.equal(300);

    const reading = (table: string) =>
      normalized(
        runEvent({ eventType: 'START', job: `report_${table}`, inputs: [table], outputs: [`${table}_report`] }),
      );
    // Twice each: the first event of a statement's plan may read more (its first execution).
    await profiledHits(reading('orders_small'));
    const small = await profiledHits(reading('orders_small'));
    const big = await profiledHits(reading('orders_big'));
    // Both events are the same shape; the lookups of "the version committed last" are one index seek
    // each, and the dataset's two names differ in length by a few bytes at most.
    expect(big - small, `db hits: ${small} with 2 versions, ${big} with 300`).to.be.lessThan(30);
  });

  it('the next run of a job with 300 runs (and its dataset with 300 versions) costs what the third costs', async () => {
    const nextRun = async (table: string) => {
      const runId = crypto.randomUUID();
      const start = runEvent({ eventType: 'START', runId, job: `load_${table}`, outputs: [table] });
      expect((await t.post('/api/v1/lineage', start)).status).to.equal(201);
      return profiledHits(
        normalized(runEvent({ eventType: 'COMPLETE', runId, job: `load_${table}`, outputs: [table] })),
      );
    };
    await nextRun('orders_small');
    const small = await nextRun('orders_small');
    const big = await nextRun('orders_big');
    expect(big - small, `db hits: ${small} after 2 runs, ${big} after 300`).to.be.lessThan(30);
  });

  describe('reads', () => {
    /** The job's node id and the parameters of a lineage or impact query from it, now or as of `asOf`. */
    async function jobStart(name: string) {
      const res = await testDb().read({ op: 'test' }, (tx) =>
        tx.run('MATCH (j:Job {name: $name}) RETURN elementId(j) AS eid', { name }),
      );
      return res.records[0].get('eid') as string;
    }
    const lastRun = async (name: string) => {
      const res = await testDb().read({ op: 'test' }, (tx) =>
        tx.run(
          'MATCH (:Job {name: $name})-[:LATEST_RUN]->(r:Run) RETURN toString(coalesce(r.endedAt, r.startedAt)) AS at',
          { name },
        ),
      );
      return new Date(res.records[0].get('at') as string);
    };

    for (const pointInTime of [false, true]) {
      const when = pointInTime ? 'as of its last run' : 'now';
      it(`the lineage of a job with 300 runs costs what it costs with 3 (${when})`, async () => {
        const hits = async (job: string) => {
          const view = viewParams({ asOf: pointInTime ? await lastRun(job) : null, window: parseDuration('P30D')! });
          const params = {
            startId: await jobStart(job),
            ...view,
            facets: false,
            runDetails: false,
            maxNodes: neo4jInt(1000),
          };
          const full = await readHits(graphQuery('both', maxRelsFor('job', 2)), params);
          const minimal = await readHits(graphQuery('both', maxRelsFor('job', 2), 'lineage/graph-minimal'), params);
          return { full, minimal };
        };
        await hits('load_orders_small');
        const small = await hits('load_orders_small');
        const big = await hits('load_orders_big');
        expect(big.full - small.full, `graph.cypher: ${small.full} after 3 runs, ${big.full} after 300`).to.be.lessThan(
          30,
        );
        expect(big.minimal - small.minimal, `graph-minimal: ${small.minimal}, ${big.minimal}`).to.be.lessThan(30);
      });
    }

    for (const declaring of [false, true])
      for (const pointInTime of [false, true]) {
        const when = pointInTime ? 'as of its newest version' : 'now';
        const which = `${declaring ? 'every one' : 'none'} declaring, ${when}`;
        it(`the column-lineage declarations of a dataset with 300 versions cost what 2 cost (${which})`, async () => {
          const [small, big] = declaring ? ['totals_small', 'totals_big'] : ['orders_small', 'orders_big'];
          // As of its newest version's creation: the version then, and the declaration in force then.
          const newest = async (dataset: string) =>
            (
              await testDb().read({ op: 'test' }, (tx) =>
                tx.run('MATCH (v:DatasetVersion {name: $dataset}) RETURN toString(max(v.createdAt)) AS at', {
                  dataset,
                }),
              )
            ).records[0].get('at') as string;
          const hits = async (dataset: string) =>
            readHits(cypher('lineage/column-declarations'), {
              datasets: [{ namespace: 'postgres://db.example.com:5432', name: dataset }],
              at: pointInTime ? await newest(dataset) : null,
              endOfTime: END_OF_TIME,
            });
          await hits(small);
          const smallHits = await hits(small);
          const bigHits = await hits(big);
          expect(bigHits - smallHits, `${smallHits} with 2 versions, ${bigHits} with 300`).to.be.lessThan(10);
        });
      }

    it('a page of the runs of a job with 300 runs costs what it costs with 3', async () => {
      const hits = (job: string) =>
        readHits(cypher('jobs/runs'), { namespace: 'airflow', name: job, offset: neo4jInt(0), limit: neo4jInt(2) });
      await hits('load_orders_small');
      const small = await hits('load_orders_small');
      const big = await hits('load_orders_big');
      expect(big - small, `jobs/runs: ${small} with 3 runs, ${big} with 300`).to.be.lessThan(10);
    });

    it('a page of the versions of a dataset with 300 versions costs what it costs with 2', async () => {
      const hits = (dataset: string) =>
        readHits(cypher('datasets/versions'), {
          namespace: 'postgres://db.example.com:5432',
          name: dataset,
          offset: neo4jInt(0),
          limit: neo4jInt(2),
        });
      await hits('orders_small');
      const small = await hits('orders_small');
      const big = await hits('orders_big');
      expect(big - small, `datasets/versions: ${small} with 2 versions, ${big} with 300`).to.be.lessThan(10);
    });

    it('the blast radius of a job with 300 runs, as of its last run, costs what it costs with 3', async () => {
      const hits = async (job: string) => {
        const view = viewParams({ asOf: await lastRun(job), window: parseDuration('P30D')! });
        const params = { startId: await jobStart(job), ...view, rows: neo4jInt(1001), state: null };
        return readHits(impactQuery('blast-radius', 'downstream', maxRelsFor('job', 2)), params);
      };
      await hits('load_orders_small');
      const small = await hits('load_orders_small');
      const big = await hits('load_orders_big');
      expect(big - small, `blast-radius: ${small} after 3 runs, ${big} after 300`).to.be.lessThan(30);
    });
  });
});
