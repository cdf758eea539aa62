import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Plan } from 'neo4j-driver';
import { cypherDir } from '../../src/paths.js';
import { cypher } from '../../src/store/cypher.js';
import { queryName } from '../../src/store/catalogue.js';
import { planIngestStatements, readBatchStatement, writeBatchStatement, writeEvents } from '../../src/store/ingest.js';
import { applySchema } from '../../src/store/schema.js';
import { testDb, wipe } from '../helper.js';
import { normalizedEvents } from '../../bench/support.js';
import { TrafficGenerator } from '../../bench/traffic.js';

/**
 * The ingest statements run with `CYPHER replan=skip`: a plan cached while the database was empty
 * is kept however the graph grows (replanning mid-load stalled ingest transactions for ~100 ms each
 * and cost CPU). That is only right if no plan depends on statistics, i.e. every plan starts from
 * unique-key seeks on parameters or from nodes already bound, never from a scan, and the lookups of
 * "the latest" (a dataset's version committed last, a job's latest run) read their index in its order
 * (a Limit right on the seek, no Top or Sort reading every entry).
 */
const ORDERED_SEEK = new RegExp(
  String.raw`RANGE INDEX \w+:(DatasetVersion\(namespace, name, committedAt, id\)` +
    String.raw`|Run\(jobNamespace, jobName, sortTime, id\)` +
    String.raw`|JobVersion\(namespace, name, updatedAt, id\)` +
    String.raw`|LineageEvent\((runId|jobNamespace, jobName|datasetNamespace, datasetName)\))`,
);
const ingestQueries = [
  ...fs.readdirSync(path.join(cypherDir, 'ingest')).map((f) => `ingest/${f.replace(/\.cypher$/, '')}`),
  'events/store',
];

/** Each parameter of `text` as a list of 16 rows, a batch's size (their content does not matter to planning). */
function batchParams(text: string): Record<string, unknown> {
  const rows = Array.from({ length: 16 }, () => ({}));
  return Object.fromEntries([...text.matchAll(/\$(\w+)/g)].map((m) => [m[1], rows]));
}

function leavesAndOperators(plan: Plan, leaves: string[] = [], ops: string[] = []) {
  const op = plan.operatorType.replace(/@neo4j$/, '');
  const details = String((plan.arguments as Record<string, unknown>).Details ?? '');
  ops.push(/^(Top|Sort|PartialTop|PartialSort)$/.test(op) ? `${op} ${details}` : op);
  if (plan.children.length === 0) leaves.push(/^NodeIndexSeek/.test(op) ? `${op} ${details}` : op);
  for (const child of plan.children) leavesAndOperators(child, leaves, ops);
  return { leaves, ops };
}

describe('ingest query plans', () => {
  before(async () => {
    await wipe();
    await applySchema(testDb());
  });

  async function expectSeekOnlyPlan(
    text: string,
    params: Record<string, unknown> = Object.fromEntries([...text.matchAll(/\$(\w+)/g)].map((m) => [m[1], []])),
  ) {
    expect(text.trimStart().startsWith('CYPHER replan=skip'), 'replan=skip option').to.equal(true);
    // Planning the write composite takes seconds of CPU (more on a busy machine): not what is tested here.
    const res = await testDb(120_000).read({ op: 'test' }, (tx) => tx.run(`EXPLAIN ${text}`, params));
    const { leaves, ops } = leavesAndOperators(res.summary.plan as Plan);
    expect(
      ops.filter((op) => /Scan/.test(op)),
      'scan operators',
    ).to.deep.equal([]);
    expect(
      ops.filter((op) => /^(Top|Sort|PartialTop|PartialSort)\b/.test(op)),
      'sorts (an ordered seek needs none)',
    ).to.deep.equal([]);
    for (const leaf of leaves) {
      if (leaf.startsWith('NodeIndexSeek')) expect(leaf, 'index seek').to.match(ORDERED_SEEK);
      else
        expect(leaf, 'plan leaf').to.match(
          /^(Argument|EmptyRow|Unwind|NodeUniqueIndexSeek(\(Locking\))?|DirectedRelationshipByElementIdSeek)$/,
        );
    }
  }

  for (const name of ingestQueries) {
    it(`${name} keeps its cached plan and plans without scans on an empty database`, async () => {
      await expectSeekOnlyPlan(cypher(queryName(name)));
    });
  }

  // A statement run on its own (INGEST_PROFILE=statements, bench:writes, cypher-shell) is planned for the
  // size of its list parameter, which empty lists do not show (Neo4j keys plans on it, rounded to 0, 1, 10,
  // 100, …), so each is also planned for a batch's rows.
  for (const name of ingestQueries) {
    it(`${name} plans without scans for a batch's rows too`, async () => {
      const text = cypher(queryName(name));
      await expectSeekOnlyPlan(text, batchParams(text));
    });
  }

  it('the write stages composed as one statement keep the cached plan and plan without scans', async () => {
    const text = writeBatchStatement();
    // Every write stage is in it, in order, its parameters renamed apart as keys of the one map parameter.
    expect([...text.matchAll(/^CALL \(\) \{$/gm)]).to.have.length(15);
    expect(text)
      .to.include('$batch.s1_datasets')
      .and.to.include('$batch.s8_datasets')
      .and.to.include('$batch.s14_events');
    expect(text.match(/CYPHER replan=skip/g)).to.have.length(1);
    await expectSeekOnlyPlan(text, { batch: {} });
  });

  it('the read stages composed as one statement keep the cached plan and plan without scans', async () => {
    const text = readBatchStatement();
    expect([...text.matchAll(/^CALL \(\) \{$/gm)]).to.have.length(3);
    expect(text).to.include('$batch.s0_runs').and.to.include('$batch.s1_datasets').and.to.include('$batch.s2_jobs');
    expect(text.trimEnd().endsWith('RETURN runs, datasets, jobs')).to.equal(true);
    await expectSeekOnlyPlan(text, { batch: {} });
  });

  // Neo4j plans a statement anew when its plan cache is empty (a restart), on the statistics of that moment,
  // and replan=skip keeps the plan. On a database holding one batch of events (a few runs and versions),
  // versions-commit's reads of a version were planned from an index scan of every run's id, kept as the
  // graph grew: a cost per committed version that grows with the number of runs.
  it('every ingest statement plans without scans on a database holding one batch of events', async function () {
    this.timeout(180_000);
    await wipe();
    const events = normalizedEvents(new TrafficGenerator({ pipelines: 4, jobsPerPipeline: 4 }).events(8));
    await testDb(60_000).write({ op: 'test' }, async (tx) => {
      const last = await writeEvents(
        tx,
        events.map((event) => ({ event, receivedAt: new Date().toISOString() })),
      );
      if (last) await last.result;
    });
    await testDb().write({ op: 'test' }, (tx) => tx.run('CALL db.clearQueryCaches()'));
    for (const name of ingestQueries) {
      const text = cypher(queryName(name));
      await expectSeekOnlyPlan(text, batchParams(text));
    }
    await expectSeekOnlyPlan(readBatchStatement(), { batch: {} });
    await expectSeekOnlyPlan(writeBatchStatement(), { batch: {} });
    await wipe();
  });

  it('the composed statements take one map parameter, so every batch shape shares one cached plan', () => {
    // Neo4j keys cached plans on each list parameter's size rounded to a power of ten; a map has none.
    for (const text of [readBatchStatement(), writeBatchStatement()]) {
      expect(new Set([...text.matchAll(/\$(\w+)/g)].map((m) => m[1]))).to.deep.equal(new Set(['batch']));
    }
  });

  it('planning the ingest statements ahead reads and writes nothing', async () => {
    await wipe();
    await testDb(120_000).write({ op: 'test' }, planIngestStatements);
    const res = await testDb().read({ op: 'test' }, (tx) => tx.run('MATCH (n) RETURN count(n) AS nodes'));
    expect(res.records[0].get('nodes').toNumber()).to.equal(0);
  });
});
