/**
 * npm run bench:ingest-ab — compares two service configurations over HTTP on one Neo4j: two service
 * processes, A and B, started with different environment variables, take alternating rounds of the
 * same traffic at one concurrency (A first in odd pairs, B first in even ones). On a shared VM whose
 * speed drifts by 2x within minutes, separate bench runs cannot tell a 10% change from the drift;
 * alternating rounds in one run can, and every pair's ratio is reported, not just the medians.
 *
 * Each side posts its own copy of the traffic (job and dataset namespaces suffixed -a and -b), so the
 * sides never write the same jobs or datasets: two versions of the graph model can share the Neo4j.
 *
 * Each pair runs on two freshly started service processes (started in alternating order, each warmed
 * by one short round): two identically configured processes can differ by 10-15% in CPU per event
 * for as long as they live (an A/A run with long-lived processes favoured one side in 4 of 5 pairs,
 * median 1.04, up to 1.16), and fresh processes per pair turn that bias into noise the pairs show.
 * BENCH_AB_A equal to BENCH_AB_B is that A/A control.
 *
 *   BENCH_AB_A='{"INGEST_WRITERS":"2"}' BENCH_AB_B='{"INGEST_WRITERS":"3"}' npm run bench:ingest-ab
 *
 * A code change is compared the same way: BENCH_AB_A_REF / BENCH_AB_B_REF name a git commit (or
 * branch, tag) whose service that side runs, built in a worktree under .bench-worktrees/ (the
 * traffic, the harness and the graph schema come from this checkout):
 *
 *   BENCH_AB_A_REF=HEAD~3 npm run bench:ingest-ab
 *
 * BENCH_AB_A_PROCESSES / BENCH_AB_B_PROCESSES (1) run a side as that many service processes on the one
 * Neo4j (replicas, as behind a load balancer): producer i posts to process i mod n.
 *
 * BENCH_AB_A_NEO4J / BENCH_AB_B_NEO4J (`{"jvmArgs": "flags separated by spaces", "conf": ["setting=value"]}`)
 * give each side a Neo4j server of its own, started with those flags and settings: a product as it
 * shipped, its launcher's Neo4j flags included, against another. Either one set means a server per side
 * (both run all along; the idle one costs next to nothing); the warm-up then gives each its own rounds
 * (BENCH_AB_WARMUP_ROUNDS defaults to 20 there, 10 a side). The sides still write disjoint namespaces.
 *
 * BENCH_AB_TRAFFIC=new-entities sends jobs never seen before in every round (issue 22's onboarding shape).
 *
 * Other knobs: BENCH_AB_PAIRS (4), BENCH_AB_ROUND_EVENTS (3000), BENCH_AB_WARMUP_ROUNDS (8, of 4,000
 * events, alternating: Neo4j's JIT), BENCH_AB_PAIR_WARMUP_EVENTS (3000, per fresh process),
 * BENCH_AB_CONCURRENCY (32). Result: bench/results/ingest-ab.json, or <BENCH_AB_RESULT>.json.
 */
import { TrafficGenerator } from './traffic.js';
import {
  checkoutRef,
  cpuSpeedProbe,
  machine,
  neo4jSideFromEnv,
  startBenchNeo4j,
  startServiceProcess,
  writeResult,
  type Neo4jSideConfig,
  type ServiceProcess,
} from './support.js';
import { drive } from './drive.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import type { LocalNeo4jServer } from '../src/neo4j/local/server.js';

type Side = 'A' | 'B';

function envOf(name: string): Record<string, string> {
  const text = process.env[name] ?? '{}';
  const value = JSON.parse(text) as unknown;
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${name} must be a JSON object of environment variables`);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

// No idle warm-up unless a side asks for it: a fresh service rehearses rolled-back ingest transactions
// for up to a minute whenever its own producers are quiet, so one side's rehearsals would run (and take
// CPU, on a shared Neo4j too) while the other side's round is measured. Until 2026-11-26 they did, for
// every side whose code had them (c8a1124 and later), in that side's favour.
const NO_IDLE_WARM_UP = { INGEST_IDLE_WARM_UP_MS: '0' };
const env: Record<Side, Record<string, string>> = {
  A: { ...NO_IDLE_WARM_UP, ...envOf('BENCH_AB_A') },
  B: { ...NO_IDLE_WARM_UP, ...envOf('BENCH_AB_B') },
};
const refs: Record<Side, string | null> = {
  A: process.env.BENCH_AB_A_REF || null,
  B: process.env.BENCH_AB_B_REF || null,
};
const roots: Partial<Record<Side, string>> = {};
for (const side of ['A', 'B'] as const) if (refs[side]) roots[side] = checkoutRef(refs[side]!);
/**
 * Service processes per side (replicas on one Neo4j, producers spread over them): BENCH_AB_A_PROCESSES /
 * BENCH_AB_B_PROCESSES.
 */
const processes: Record<Side, number> = {
  A: Number(process.env.BENCH_AB_A_PROCESSES ?? 1),
  B: Number(process.env.BENCH_AB_B_PROCESSES ?? 1),
};
const neo4jSides: Record<Side, Neo4jSideConfig | null> = {
  A: neo4jSideFromEnv('BENCH_AB_A_NEO4J'),
  B: neo4jSideFromEnv('BENCH_AB_B_NEO4J'),
};
/** A Neo4j server per side when either side names its own flags or settings. */
const NEO4J_PER_SIDE = neo4jSides.A !== null || neo4jSides.B !== null;
const PAIRS = Number(process.env.BENCH_AB_PAIRS ?? 4);
const ROUND_EVENTS = Number(process.env.BENCH_AB_ROUND_EVENTS ?? 3000);
const WARMUP_ROUNDS = Number(process.env.BENCH_AB_WARMUP_ROUNDS ?? (NEO4J_PER_SIDE ? 20 : 8));
const CONCURRENCY = Number(process.env.BENCH_AB_CONCURRENCY ?? 32);
const PAIR_WARMUP_EVENTS = Number(process.env.BENCH_AB_PAIR_WARMUP_EVENTS ?? 3000);
const RESULT_NAME = process.env.BENCH_AB_RESULT ?? 'ingest-ab';
const NEW_ENTITIES = process.env.BENCH_AB_TRAFFIC === 'new-entities';

const round2 = (x: number) => Math.round(x * 100) / 100;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return round2(s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2);
};

async function main() {
  const servers: Record<Side, LocalNeo4jServer> = NEO4J_PER_SIDE
    ? {
        A: await startBenchNeo4j('ingest-ab-a', neo4jSides.A ?? {}),
        B: await startBenchNeo4j('ingest-ab-b', neo4jSides.B ?? {}),
      }
    : await startBenchNeo4j('ingest-ab').then((shared) => ({ A: shared, B: shared }));
  const uniqueServers = [...new Set([servers.A, servers.B])];
  const drivers = uniqueServers.map((server) => createDriver(server.uri, 'neo4j', ''));
  const services: Partial<Record<Side, ServiceProcess[]>> = {};
  const stopAll = () => Promise.all([...(services.A ?? []), ...(services.B ?? [])].map((svc) => svc.stop()));
  try {
    for (const driver of drivers) await applySchema(new Db(driver, 'neo4j', 60_000));
    async function restart(order: Side[]) {
      await stopAll();
      for (const side of order) {
        services[side] = [];
        for (let i = 0; i < processes[side]; i++)
          services[side].push(await startServiceProcess(servers[side].uri, env[side], roots[side]));
      }
    }
    await restart(['A', 'B']);
    // Each side writes its own jobs and datasets (namespaces suffixed -a / -b), so two versions of the
    // code never write the same part of the graph: a change of the graph model stays comparable.
    // BENCH_AB_TRAFFIC=new-entities: jobs never seen before in every round (issue 22's onboarding shape,
    // first runs only: 100,000 jobs in layers, more than a run of the harness reaches), instead of
    // bench:ingest's re-runs of 2,000 jobs.
    const pipelines = NEW_ENTITIES ? 10_000 : 200;
    const gens: Record<Side, TrafficGenerator> = {
      A: new TrafficGenerator({ pipelines, jobsPerPipeline: 10, namespaceSuffix: '-a' }),
      B: new TrafficGenerator({ pipelines, jobsPerPipeline: 10, namespaceSuffix: '-b' }),
    };

    async function round(side: Side, events: number) {
      const svcs = services[side]!;
      const bodies = gens[side].events(Math.ceil(events / 2)).map((e) => JSON.stringify(e));
      const rss = () => svcs.reduce((sum, svc) => sum + svc.rssMiB(), 0);
      return {
        side,
        ...(await drive(
          svcs.map((svc) => svc.url),
          bodies,
          CONCURRENCY,
          rss,
          { service: svcs.map((svc) => svc.child.pid!), neo4j: servers[side].jvmPid! },
          // Neither side's level pays for the generator's garbage of the other's (bench/drive.ts).
          { collectFirst: true },
        )),
      };
    }

    const probeBefore = cpuSpeedProbe();
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      const r = await round(i % 2 ? 'B' : 'A', 4000);
      console.log(`warm-up ${r.side}: ${r.eventsPerSecond} events/s, neo4j ${r.cpu.msPerEvent.neo4j} ms/event`);
    }
    type Round = Awaited<ReturnType<typeof round>>;
    const pairs: { order: string; a: Round; b: Round; bOverA: number }[] = [];
    for (let p = 0; p < PAIRS; p++) {
      const order: Side[] = p % 2 ? ['B', 'A'] : ['A', 'B'];
      await restart(order);
      for (const side of order) await round(side, PAIR_WARMUP_EVENTS);
      const [first, second] = [await round(order[0], ROUND_EVENTS), await round(order[1], ROUND_EVENTS)];
      const [a, b] = first.side === 'A' ? [first, second] : [second, first];
      const pair = { order: order.join(''), a, b, bOverA: round2(b.eventsPerSecond / a.eventsPerSecond) };
      console.log(
        `pair ${p + 1} (${pair.order}): A ${a.eventsPerSecond}/s, B ${b.eventsPerSecond}/s, B/A ${pair.bOverA}`,
      );
      pairs.push(pair);
    }
    const summary = (side: 'a' | 'b') => ({
      eventsPerSecond: median(pairs.map((p) => p[side].eventsPerSecond)),
      cpuMsPerEvent: {
        neo4j: median(pairs.map((p) => p[side].cpu.msPerEvent.neo4j)),
        service: median(pairs.map((p) => p[side].cpu.msPerEvent.service)),
      },
      machineBusyPercent: median(pairs.map((p) => p[side].cpu.machineBusyPercent)),
    });
    const result = {
      benchmark: 'ingest-ab',
      machine: { ...machine(), cpuSpeedProbeOpsPerSecond: { before: probeBefore, after: cpuSpeedProbe() } },
      traffic: NEW_ENTITIES ? 'new-entities (first runs of jobs never seen)' : 're-runs of 2,000 jobs (bench:ingest)',
      concurrency: CONCURRENCY,
      roundEvents: ROUND_EVENTS,
      freshProcessesPerPair: { warmupEvents: PAIR_WARMUP_EVENTS },
      env,
      neo4jPerSide: NEO4J_PER_SIDE ? neo4jSides : null,
      refs,
      processes,
      pairs,
      medians: { A: summary('a'), B: summary('b') },
      medianBOverA: median(pairs.map((p) => p.bOverA)),
      pairsFavouringB: pairs.filter((p) => p.bOverA > 1).length,
    };
    console.log(`median B/A ${result.medianBOverA}; ${result.pairsFavouringB} of ${pairs.length} pairs favour B`);
    console.log(`results: ${writeResult(RESULT_NAME, result)}`);
  } finally {
    await stopAll();
    for (const driver of drivers) await driver.close();
    for (const server of uniqueServers) await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
