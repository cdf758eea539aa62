/**
 * npm run bench:cold-curve — where a cold Neo4j's CPU goes while the first events arrive, and what
 * JVM flags or Neo4j settings change it. In-process (no HTTP, no service), so the numbers are Neo4j's:
 * for each side, a fresh local Neo4j on an empty database, the schema, the ingest statements planned
 * (as the service's warm-up does), then bench:ingest's traffic through the ingest path with two
 * writers and batches of 4 (the service's transactions at concurrency 8), in windows of 2,000 events.
 * Per window: events/s and Neo4j's CPU per event; after each window, Neo4j's cumulative CPU by thread
 * (JIT compilers, Bolt workers, GC). Sides alternate round by round, so a change of load hits them alike.
 *
 * bench:cold-start measures the same curve as a user meets it (npm start, HTTP); this one says why.
 *
 * BENCH_COLD_CURVE_SIDES: `;`-separated `name=flags`, flags space-separated, each `-X...` a JVM flag
 *   and each `setting=value` a neo4j.conf line (default: `default=` against C2 compiling 4x later).
 *   A word `rehearse=<seconds>` in a side's flags first rehearses the service's warm-up batches (rolled
 *   back) for that long before the traffic: what a warm-up while the service is idle would buy.
 * BENCH_COLD_CURVE_EVENTS (14,000), BENCH_ROUNDS (2). Result: bench/results/cold-curve.json.
 */
import fs from 'node:fs';
import { TrafficGenerator } from './traffic.js';
import { cpuSpeedProbe, machine, normalizedEvents, startBenchNeo4j, writeResult } from './support.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import { planIngestStatements, writeEvents } from '../src/store/ingest.js';
import { warmUpBatch } from '../src/ingest/warm-up.js';

const C2_LATE = [
  '-XX:Tier4InvocationThreshold=20000',
  '-XX:Tier4MinInvocationThreshold=2400',
  '-XX:Tier4CompileThreshold=60000',
  '-XX:Tier4BackEdgeThreshold=160000',
].join(' ');
const SIDES = (process.env.BENCH_COLD_CURVE_SIDES ?? `default=;c2late=${C2_LATE}`)
  .split(';')
  .filter(Boolean)
  .map((s) => {
    const [name, flags = ''] = s.split(/=(.*)/s);
    const words = flags.split(/\s+/).filter(Boolean);
    const rehearse = Number(words.find((w) => w.startsWith('rehearse='))?.slice('rehearse='.length) ?? 0);
    const conf = words.filter((w) => !w.startsWith('-') && !w.startsWith('rehearse='));
    return { name, jvmArgs: words.filter((w) => w.startsWith('-')), conf, rehearseSeconds: rehearse };
  });
const EVENTS = Number(process.env.BENCH_COLD_CURVE_EVENTS ?? 14_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WINDOW = 2_000;
const BATCH = 4;

/** Cumulative CPU seconds of a JVM's threads, grouped by name with digits dropped ("C2 CompilerThre"). */
function cpuByThread(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, '#');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out[name] = (out[name] ?? 0) + (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      /* the thread ended */
    }
  }
  return Object.fromEntries(
    Object.entries(out)
      .filter(([, s]) => s >= 0.1)
      .sort((a, b) => b[1] - a[1])
      .map(([n, s]) => [n, Math.round(s * 10) / 10]),
  );
}

const total = (byThread: Record<string, number>) => Object.values(byThread).reduce((a, b) => a + b, 0);

async function pass(side: (typeof SIDES)[number], events: ReturnType<typeof normalizedEvents>) {
  const neo4j = await startBenchNeo4j(`cold-curve-${side.name}`, { jvmArgs: side.jvmArgs, conf: side.conf });
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  try {
    const pid = neo4j.jvmPid!;
    const db = new Db(driver, 'neo4j', 300_000);
    await applySchema(db);
    await db.write({ op: 'plan', timeoutMs: 300_000 }, planIngestStatements);
    const rehearsals: number[] = [];
    for (const until = performance.now() + side.rehearseSeconds * 1000; performance.now() < until; ) {
      const t = performance.now();
      await db.rehearse({ op: 'bench warm-up', timeoutMs: 60_000 }, (tx) =>
        writeEvents(
          tx,
          warmUpBatch().map((event) => ({ event, receivedAt: new Date().toISOString() })),
        ),
      );
      rehearsals.push(Math.round(performance.now() - t));
    }
    const atStart = cpuByThread(pid);
    const windows = [];
    let next = 0;
    for (let from = 0; from < events.length; from += WINDOW) {
      const end = Math.min(events.length, from + WINDOW);
      const before = total(cpuByThread(pid));
      const t0 = performance.now();
      const writer = async () => {
        while (next < end) {
          const batch = events.slice(next, Math.min(end, next + BATCH));
          next += batch.length;
          const items = batch.map((event) => ({ event, receivedAt: new Date().toISOString() }));
          await db.write({ op: 'bench' }, (tx) => writeEvents(tx, items));
        }
      };
      await Promise.all([writer(), writer()]);
      const seconds = (performance.now() - t0) / 1000;
      const byThread = cpuByThread(pid);
      windows.push({
        events: `${from + 1}-${end}`,
        eventsPerSecond: Math.round((end - from) / seconds),
        neo4jCpuMsPerEvent: Math.round(((total(byThread) - before) * 1000 * 100) / (end - from)) / 100,
        neo4jCpuSecondsByThreadSoFar: byThread,
      });
    }
    return {
      rehearsals: rehearsals.length,
      rehearsalMs: rehearsals,
      neo4jCpuSecondsByThreadBeforeTraffic: atStart,
      windows,
    };
  } finally {
    await driver.close();
    await neo4j.stop();
  }
}

async function main() {
  const traffic = new TrafficGenerator({ pipelines: 200, jobsPerPipeline: 10 });
  const events = normalizedEvents(traffic.events(EVENTS / 2));
  const probe = [cpuSpeedProbe()];
  const runs: Record<string, unknown[]> = Object.fromEntries(SIDES.map((s) => [s.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of SIDES) {
      const r = await pass(side, events);
      runs[side.name].push({ round, ...r });
      const curve = r.windows.map((w) => `${w.eventsPerSecond}`).join(' ');
      const cpu = r.windows.map((w) => w.neo4jCpuMsPerEvent).join(' ');
      console.log(`${side.name} round ${round}: events/s ${curve}; Neo4j CPU ms/event ${cpu}`);
    }
  }
  probe.push(cpuSpeedProbe());
  const file = writeResult('cold-curve', {
    benchmark: 'cold-curve',
    machine: { ...machine(), cpuSpeedProbeOpsPerSecond: probe },
    method:
      'in-process, a fresh local Neo4j per pass (empty database, schema, ingest statements planned), ' +
      `${events.length} events of bench:ingest's traffic through writeEvents, 2 writers, batches of ${BATCH}, ` +
      `windows of ${WINDOW}; ` +
      'sides alternate round by round',
    sides: Object.fromEntries(
      SIDES.map((s) => [s.name, { jvmArgs: s.jvmArgs, conf: s.conf, rehearseSeconds: s.rehearseSeconds }]),
    ),
    runs,
  });
  console.log(`results: ${file}`);
}

await main();
process.exit(0);
