/**
 * npm run bench:writes — what one event of bench traffic makes Neo4j write, by ingest stage: nodes and
 * relationships created and deleted, properties set, and the bytes of parameters sent. Unlike events/s
 * these counts do not depend on the machine's speed, so a change to the ingest statements shows its
 * effect here exactly (the CPU it saves is then an estimate, or a bench:ingest-ab).
 *
 * In process, on a warm graph: BENCH_WRITES_WARMUP_EVENTS (20,000) first, then BENCH_WRITES_EVENTS
 * (4,000) counted, in transactions of 16 events, each stage sent as its own statement (INGEST_PROFILE)
 * so that its counters are its own. Result: bench/results/writes.json.
 */
import fs from 'node:fs';
import path from 'node:path';
const { TrafficGenerator } = await import('./traffic.js');
const { machine, normalizedEvents, startBenchNeo4j, writeResult } = await import('./support.js');
const { createDriver } = await import('../src/neo4j/runtime.js');
const { Db } = await import('../src/store/db.js');
const { applySchema } = await import('../src/store/schema.js');
const { writeEvents, setIngestProfile } = await import('../src/store/ingest.js');
const { ingestProfile } = await import('../src/config.js');
// Each stage sent as its own statement unless INGEST_PROFILE says otherwise.
setIngestProfile(ingestProfile(process.env.INGEST_PROFILE || 'statements'));
const { cypher } = await import('../src/store/cypher.js');
const { cypherDir } = await import('../src/paths.js');

const WARMUP = Number(process.env.BENCH_WRITES_WARMUP_EVENTS ?? 20_000);
const EVENTS = Number(process.env.BENCH_WRITES_EVENTS ?? 4_000);
const BATCH = 16;

const stageNames = [
  ...fs.readdirSync(path.join(cypherDir, 'ingest')).map((f) => `ingest/${f.replace(/\.cypher$/, '')}`),
  'events/store',
];
const { queryName } = await import('../src/store/catalogue.js');
const stageOf = new Map(stageNames.map((name) => [cypher(queryName(name)), name]));

async function main() {
  const neo4j = await startBenchNeo4j('writes');
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const db = new Db(driver, 'neo4j', 60_000);
  try {
    await applySchema(db);
    const traffic = new TrafficGenerator({ pipelines: 200, jobsPerPipeline: 10 });
    const ingest = async (n: number, counts: Map<string, Record<string, number>> | null) => {
      const events = normalizedEvents(traffic.events(n / 2));
      for (let i = 0; i < events.length; i += BATCH) {
        const items = events.slice(i, i + BATCH).map((event) => ({ event, receivedAt: new Date().toISOString() }));
        await db.write({ op: 'bench:writes' }, async (tx) => {
          const counting = {
            run: async (query: string, params: Record<string, unknown>) => {
              const result = await tx.run(query, params);
              if (counts) {
                const stage = stageOf.get(query) ?? 'other';
                const c = counts.get(stage) ?? {};
                for (const [k, v] of Object.entries(result.summary.counters.updates())) if (v) c[k] = (c[k] ?? 0) + v;
                c.parameterBytes = (c.parameterBytes ?? 0) + JSON.stringify(params).length;
                counts.set(stage, c);
              }
              return result;
            },
          };
          // Counted per stage, so its last statement is awaited here, before the commit.
          const last = await writeEvents(counting as unknown as Parameters<typeof writeEvents>[0], items);
          if (last) await last.result;
        });
      }
      return events.length;
    };
    await ingest(WARMUP, null);
    const counts = new Map<string, Record<string, number>>();
    const n = await ingest(EVENTS, counts);
    const perEvent = (c: Record<string, number>) =>
      Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Math.round((v / n) * 100) / 100]));
    const total: Record<string, number> = {};
    for (const c of counts.values()) for (const [k, v] of Object.entries(c)) total[k] = (total[k] ?? 0) + v;
    const result = {
      benchmark: 'writes',
      machine: machine(),
      method:
        `in-process, ${WARMUP} warm-up events, then ${n} counted in transactions of ${BATCH}, each stage its ` +
        `own statement; per event`,
      perEvent: perEvent(total),
      byStage: Object.fromEntries(stageNames.filter((s) => counts.has(s)).map((s) => [s, perEvent(counts.get(s)!)])),
    };
    console.log(JSON.stringify(result.perEvent), '\n', result.byStage);
    console.log(`results: ${writeResult('writes', result)}`);
  } finally {
    await driver.close();
    await neo4j.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
