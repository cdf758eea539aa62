/**
 * npm run bench:first-batch-plan — ingestion after Neo4j planned the ingest statements on a database
 * holding one batch of events: the moment of a restart soon after a deployment's first events. The
 * statements run with `CYPHER replan=skip`, so a plan made then is kept however the graph grows; a plan
 * that starts from a scan instead of a seek costs more with every node added (versions-commit did, until
 * 5adf95e: docs/performance/ingest-journal.md).
 *
 * In process, on a fresh Neo4j: one batch of 16 bench events, the plan cache cleared, then
 * BENCH_FIRST_BATCH_WINDOWS (6) windows of 2,000 events in transactions of 16, one at a time. Reports
 * events/s per window: a kept plan that scales with the graph shows as a rate falling window after window
 * (after the first windows' JIT warm-up, where every plan's rate rises). Result:
 * bench/results/first-batch-plan.json.
 */
const { TrafficGenerator } = await import('./traffic.js');
const { machine, normalizedEvents, startBenchNeo4j, writeResult, cpuSpeedProbe } = await import('./support.js');
const { createDriver } = await import('../src/neo4j/runtime.js');
const { Db } = await import('../src/store/db.js');
const { applySchema } = await import('../src/store/schema.js');
const { writeEvents } = await import('../src/store/ingest.js');
import type { NormalizedEvent } from '../src/domain/openlineage/types.js';

const WINDOWS = Number(process.env.BENCH_FIRST_BATCH_WINDOWS ?? 6);
const WINDOW_EVENTS = 2_000;
const BATCH = 16;

async function main() {
  const neo4j = await startBenchNeo4j('first-batch-plan');
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const db = new Db(driver, 'neo4j', 600_000);
  try {
    const probeBefore = cpuSpeedProbe();
    await applySchema(db);
    const traffic = new TrafficGenerator({ pipelines: 200, jobsPerPipeline: 10 });
    const write = async (events: NormalizedEvent[]) =>
      db.write({ op: 'bench:first-batch-plan' }, async (tx) => {
        const items = events.map((event) => ({ event, receivedAt: new Date().toISOString() }));
        const last = await writeEvents(tx, items);
        if (last) await last.result;
      });
    await write(normalizedEvents(traffic.events(BATCH / 2)));
    await db.write({ op: 'bench:first-batch-plan' }, (tx) => tx.run('CALL db.clearQueryCaches()'));
    const eventsPerSecond: number[] = [];
    for (let w = 0; w < WINDOWS; w++) {
      const events = normalizedEvents(traffic.events(WINDOW_EVENTS / 2));
      const start = performance.now();
      for (let i = 0; i < events.length; i += BATCH) await write(events.slice(i, i + BATCH));
      eventsPerSecond.push(Math.round(events.length / ((performance.now() - start) / 1000)));
      console.log(`window ${w + 1}: ${eventsPerSecond[w]} events/s`);
    }
    const result = {
      benchmark: 'first-batch-plan',
      machine: { ...machine(), cpuSpeedProbe: [probeBefore, cpuSpeedProbe()] },
      method:
        `in process, one writer; ${BATCH} bench events committed, the plan cache cleared, then ${WINDOWS} windows ` +
        `of ${WINDOW_EVENTS} events in transactions of ${BATCH}`,
      eventsPerSecondByWindow: eventsPerSecond,
    };
    console.log(`results: ${writeResult(process.env.BENCH_FIRST_BATCH_RESULT ?? 'first-batch-plan', result)}`);
  } finally {
    await driver.close();
    await neo4j.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
