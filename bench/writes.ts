/**
 * npm run bench:writes — what one event of bench traffic makes Neo4j write, by ingest stage: nodes and
 * relationships created and deleted, properties set, and the bytes of parameters sent. Unlike events/s
 * these counts do not depend on the machine's speed, so a change to the ingest statements shows its
 * effect here exactly (the CPU it saves is then an estimate, or a bench:ingest-ab).
 *
 * In process, on a warm graph: BENCH_WRITES_WARMUP_EVENTS (20,000) first, then BENCH_WRITES_EVENTS
 * (4,000) counted, in transactions of 16 events, each stage sent as its own statement (INGEST_PROFILE)
 * so that its counters are its own. Result: bench/results/writes.json, or <BENCH_WRITES_RESULT>.json.
 *
 * BENCH_WRITES_SEEKS=1 also runs the counted statements under PROFILE and reports, per stage, the index
 * seeks of its plan (operator and pattern) with the rows they found and their database hits per event
 * (which stages look up nodes again that an earlier stage or the read statement already found), and
 * the database hits of all its operators.
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
const SEEKS = process.env.BENCH_WRITES_SEEKS === '1';

interface PlanNode {
  operatorType: string;
  arguments?: Record<string, unknown>;
  rows: number;
  dbHits: number;
  children?: PlanNode[];
}

interface Hits {
  rows: number;
  dbHits: number;
}

/**
 * Adds each index seek of a profiled plan to `seeks`, keyed by stage, operator and pattern, and every
 * operator's database hits to the stage's total in `stageHits`.
 */
function addSeeks(stage: string, plan: PlanNode, seeks: Map<string, Hits>, stageHits: Map<string, number>): void {
  stageHits.set(stage, (stageHits.get(stage) ?? 0) + Number(plan.dbHits));
  if (/Seek/.test(plan.operatorType)) {
    const details = String(plan.arguments?.Details ?? '').replace(/ WHERE .*/, '');
    const key = `${stage} ${plan.operatorType.replace(/@neo4j$/, '')} ${details}`;
    const c = seeks.get(key) ?? { rows: 0, dbHits: 0 };
    c.rows += Number(plan.rows);
    c.dbHits += Number(plan.dbHits);
    seeks.set(key, c);
  }
  for (const child of plan.children ?? []) addSeeks(stage, child, seeks, stageHits);
}

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
    const seeks = new Map<string, Hits>();
    const stageHits = new Map<string, number>();
    const ingest = async (n: number, counts: Map<string, Record<string, number>> | null) => {
      const events = normalizedEvents(traffic.events(n / 2));
      for (let i = 0; i < events.length; i += BATCH) {
        const items = events.slice(i, i + BATCH).map((event) => ({ event, receivedAt: new Date().toISOString() }));
        await db.write({ op: 'bench:writes' }, async (tx) => {
          const counting = {
            run: async (query: string, params: Record<string, unknown>) => {
              const stage = stageOf.get(query) ?? 'other';
              const profiled = counts !== null && SEEKS && stage !== 'other';
              // PROFILE goes after the CYPHER options line, where Neo4j expects it.
              const text = profiled ? query.replace(/^(CYPHER [^\n]*\n)?/, (options) => `${options}PROFILE\n`) : query;
              const result = await tx.run(text, params);
              if (profiled) addSeeks(stage, result.summary.profile as unknown as PlanNode, seeks, stageHits);
              if (counts) {
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
      ...(SEEKS && {
        seeks: {
          perEvent: perEvent({
            rows: [...seeks.values()].reduce((a, c) => a + c.rows, 0),
            dbHits: [...seeks.values()].reduce((a, c) => a + c.dbHits, 0),
            allOperatorsDbHits: [...stageHits.values()].reduce((a, h) => a + h, 0),
          }),
          byStageOperatorAndPattern: Object.fromEntries([...seeks].sort().map(([k, c]) => [k, perEvent({ ...c })])),
          allOperatorsDbHitsByStage: perEvent(Object.fromEntries([...stageHits].sort())),
        },
      }),
    };
    console.log(JSON.stringify(result.perEvent), '\n', result.byStage);
    console.log(`results: ${writeResult(process.env.BENCH_WRITES_RESULT ?? 'writes', result)}`);
  } finally {
    await driver.close();
    await neo4j.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
