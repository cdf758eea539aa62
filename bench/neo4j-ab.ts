/**
 * npm run bench:neo4j-ab — compares two Neo4j server configurations (JVM flags, neo4j.conf settings)
 * under the same ingest work. Two local Neo4j servers, A and B, each take the same deterministic
 * traffic through the service's own ingest path (parse, plan, group commit: no HTTP), in alternating
 * rounds at one concurrency (A first in odd pairs, B first in even ones). Each side is warmed until
 * its JIT compiler threads are quiet, because a JVM flag that changes compilation would otherwise be
 * measured on code in different states of warm-up.
 *
 * Why in-process: a Neo4j setting changes Neo4j's CPU per event, and without HTTP that is a larger
 * and steadier share of what is measured (events/s varies less between rounds).
 *
 *   BENCH_NEO4J_AB_B='{"jvmArgs":"-XX:+UseTransparentHugePages"}' npm run bench:neo4j-ab
 *   BENCH_NEO4J_AB_B='{"conf":["db.tx_state.memory_allocation=OFF_HEAP"]}' npm run bench:neo4j-ab
 *
 * A side is `{"jvmArgs": "flags separated by spaces", "conf": ["setting=value", ...], "dropIndexes": [name, ...]}`
 * (dropIndexes: schema indexes dropped on that side, to measure what an index costs ingestion); both default
 * to Neo4j's defaults as the service runs it, so equal sides give the A/A control. Other knobs:
 * BENCH_NEO4J_AB_PAIRS (8), BENCH_NEO4J_AB_ROUND_EVENTS (3000), BENCH_NEO4J_AB_CONCURRENCY (32),
 * BENCH_NEO4J_AB_WARMUP_EVENTS (36000 per side, at least), BENCH_NEO4J_AB_RESULT (neo4j-ab): the file
 * under bench/results/.
 */
import { TrafficGenerator } from './traffic.js';
import {
  cpuSpeedProbe,
  jitCpuSeconds,
  machine,
  normalizedEvents,
  processCpuSeconds,
  neo4jSideFromEnv,
  type Neo4jSideConfig,
  startBenchNeo4j,
  writeResult,
} from './support.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import { IngestCommitter } from '../src/ingest/committer.js';
import { createLogger } from '../src/logger.js';
import type { NormalizedEvent } from '../src/domain/openlineage/types.js';
import type { LocalNeo4jServer } from '../src/neo4j/local/server.js';
import type { Driver } from 'neo4j-driver';

type SideName = 'A' | 'B';

const PAIRS = Number(process.env.BENCH_NEO4J_AB_PAIRS ?? 8);
const ROUND_EVENTS = Number(process.env.BENCH_NEO4J_AB_ROUND_EVENTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_NEO4J_AB_CONCURRENCY ?? 32);
const WARMUP_EVENTS = Number(process.env.BENCH_NEO4J_AB_WARMUP_EVENTS ?? 36_000);
const WARMUP_MAX_EVENTS = WARMUP_EVENTS * 2;
const WARMUP_ROUND_EVENTS = 4000;
const JIT_QUIET_SHARE = 0.05;
// The side not being measured is frozen (SIGSTOP) during the other's round: its background work
// (checkpoints, index sampling, JIT) would otherwise run on the same 2 cores. BENCH_NEO4J_AB_PAUSE_IDLE=0 turns it off.
const PAUSE_IDLE = process.env.BENCH_NEO4J_AB_PAUSE_IDLE !== '0';

interface Side {
  name: SideName;
  config: Neo4jSideConfig;
  server: LocalNeo4jServer;
  driver: Driver;
  committer: IngestCommitter;
  traffic: TrafficGenerator;
}

interface Round {
  eventsPerSecond: number;
  neo4jMsPerEvent: number;
  jitShare: number;
}

let allSides: Side[] = [];

function setPaused(side: Side, paused: boolean): void {
  if (PAUSE_IDLE) process.kill(side.server.jvmPid!, paused ? 'SIGSTOP' : 'SIGCONT');
}

async function round(side: Side, events: number): Promise<Round> {
  const parsed = normalizedEvents(side.traffic.events(Math.ceil(events / 2)));
  const others = allSides.filter((s) => s !== side);
  for (const other of others) setPaused(other, true);
  try {
    return await measure(side, parsed);
  } finally {
    for (const other of others) setPaused(other, false);
  }
}

async function measure(side: Side, parsed: NormalizedEvent[]): Promise<Round> {
  const pid = side.server.jvmPid!;
  const cpu0 = processCpuSeconds(pid);
  const jit0 = jitCpuSeconds(pid);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < parsed.length) await side.committer.submit(parsed[next++]);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = processCpuSeconds(pid) - cpu0;
  const jit = jitCpuSeconds(pid) - jit0;
  return {
    eventsPerSecond: Math.round(parsed.length / seconds),
    neo4jMsPerEvent: Math.round((cpu * 1000 * 100) / parsed.length) / 100,
    jitShare: Math.round((jit / cpu) * 100) / 100,
  };
}

async function startSide(name: SideName): Promise<Side> {
  const config = neo4jSideFromEnv(`BENCH_NEO4J_AB_${name}`) ?? { jvmArgs: [], conf: [] };
  const server = await startBenchNeo4j(`ab-${name}`, config);
  const driver = createDriver(server.uri, 'neo4j', '');
  const db = new Db(driver, 'neo4j', 60_000);
  await applySchema(db);
  // Names checked by neo4jSideFromEnv (word characters only): an index name cannot be a parameter.
  for (const index of config.dropIndexes ?? []) await db.write({ op: 'bench' }, (tx) => tx.run(`DROP INDEX ${index}`));
  // The same seed on both sides: the same pipelines, datasets and event shapes, round for round.
  return {
    name,
    config,
    server,
    driver,
    // No wait budget (the service's 1 s, issue 22): a cold side's first events wait longer, and a
    // refusal here would end the run; the HTTP benches set INGEST_MAX_WAIT_MS for the same reason.
    committer: new IngestCommitter(db, createLogger('silent'), { maxWaitMs: 120_000 }),
    traffic: new TrafficGenerator({ pipelines: 200, jobsPerPipeline: 10, seed: 42 }),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

async function main() {
  const probeBefore = cpuSpeedProbe();
  const sides: Side[] = [];
  try {
    sides.push(await startSide('A'));
    sides.push(await startSide('B'));
    allSides = sides;
    // Warm-up, alternating so both JVMs spend it under the same machine conditions.
    const warm: Record<SideName, { events: number; jitShare: number }> = {
      A: { events: 0, jitShare: 1 },
      B: { events: 0, jitShare: 1 },
    };
    const warming = () =>
      sides.filter(
        (s) =>
          warm[s.name].events < WARMUP_MAX_EVENTS &&
          (warm[s.name].events < WARMUP_EVENTS || warm[s.name].jitShare >= JIT_QUIET_SHARE),
      );
    for (let todo = warming(); todo.length > 0; todo = warming()) {
      for (const side of todo) {
        const r = await round(side, WARMUP_ROUND_EVENTS);
        warm[side.name].events += WARMUP_ROUND_EVENTS;
        warm[side.name].jitShare = r.jitShare;
        console.log(
          `warm-up ${side.name}: ${warm[side.name].events} events, ${r.eventsPerSecond} events/s, Neo4j ` +
            `${r.neo4jMsPerEvent} ms/event, JIT ${Math.round(r.jitShare * 100)}%`,
        );
      }
    }
    const pairs: { order: string; A: Round; B: Round; rateRatio: number; cpuRatio: number }[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const order = i % 2 === 0 ? sides : [sides[1], sides[0]];
      const result: Partial<Record<SideName, Round>> = {};
      for (const side of order) result[side.name] = await round(side, ROUND_EVENTS);
      const A = result.A!;
      const B = result.B!;
      const pair = {
        order: order.map((s) => s.name).join(''),
        A,
        B,
        rateRatio: r2(B.eventsPerSecond / A.eventsPerSecond),
        cpuRatio: r2(B.neo4jMsPerEvent / A.neo4jMsPerEvent),
      };
      pairs.push(pair);
      console.log(
        `pair ${i + 1} (${pair.order}): A ${A.eventsPerSecond}/s ${A.neo4jMsPerEvent} ms, B ${B.eventsPerSecond}/s ` +
          `${B.neo4jMsPerEvent} ms: rate B/A ${pair.rateRatio}, Neo4j CPU B/A ${pair.cpuRatio}`,
      );
    }
    const probeAfter = cpuSpeedProbe();
    const result = {
      benchmark: 'neo4j-ab',
      machine: { ...machine(), cpuSpeedProbeOpsPerSecond: { before: probeBefore, after: probeAfter } },
      method:
        `${PAUSE_IDLE ? 'the side not measured frozen with SIGSTOP; ' : ''}in-process ingest (parse, plan, ` +
        `group commit; no HTTP) at concurrency ${CONCURRENCY}, ${ROUND_EVENTS}-event rounds alternating between two ` +
        `Neo4j servers (A first in odd pairs), after warm-up until the JIT is under ${JIT_QUIET_SHARE * 100}% of ` +
        `each server's CPU`,
      sides: { A: sides[0].config, B: sides[1].config },
      warmup: warm,
      pairs,
      summary: {
        rateRatioMedian: r2(median(pairs.map((p) => p.rateRatio))),
        pairsFavouringB: pairs.filter((p) => p.rateRatio > 1).length,
        neo4jCpuRatioMedian: r2(median(pairs.map((p) => p.cpuRatio))),
        pairsWithLessNeo4jCpuOnB: pairs.filter((p) => p.cpuRatio < 1).length,
        eventsPerSecondMedian: {
          A: median(pairs.map((p) => p.A.eventsPerSecond)),
          B: median(pairs.map((p) => p.B.eventsPerSecond)),
        },
        neo4jMsPerEventMedian: {
          A: median(pairs.map((p) => p.A.neo4jMsPerEvent)),
          B: median(pairs.map((p) => p.B.neo4jMsPerEvent)),
        },
      },
    };
    console.log(result.summary);
    console.log(`results: ${writeResult(process.env.BENCH_NEO4J_AB_RESULT ?? 'neo4j-ab', result)}`);
  } finally {
    for (const side of sides) {
      await side.driver.close();
      await side.server.stop();
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
