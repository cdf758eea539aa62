/**
 * npm run bench:faults — the service under Neo4j faults, measured as a producer sees it.
 *
 * 1. `kill`: the service as `npm start` runs it (its own local Neo4j, supervised), BENCH_FAULT_PRODUCERS
 *    (default 32) producers posting events, then the Neo4j JVM killed with SIGKILL: how fast requests
 *    are refused while it is down, how long until /readyz notices, until the supervisor has Neo4j back
 *    and until the service is ready again, the first POST after ready, and acknowledged events lost.
 * 2. `refused`: an external Neo4j (NEO4J_URI) stopped cleanly while the service runs, so every
 *    connection is refused: the latency of writes and reads during the outage, then the time until
 *    the service is ready again after Neo4j is started again on the same port (no supervisor: the
 *    service's own probe notices).
 *
 * Results: bench/results/faults.json (with the machine noted).
 */
import http from 'node:http';
import os from 'node:os';
import { runFaultDrill } from '../test/support/fault-drill.js';
import { runEvent } from '../test/support/events.js';
import { cpuSpeedProbe, machine, startBenchNeo4j, startServiceProcess, summarize, writeResult } from './support.js';
import { LocalNeo4jServer } from '../src/neo4j/local/server.js';
import { NEO4J_DEFAULT_VERSION } from '../src/config.js';
import { projectRoot } from '../src/paths.js';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const PRODUCERS = Number(process.env.BENCH_FAULT_PRODUCERS ?? 32);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function killScenario() {
  const drill = await runFaultDrill({
    producers: PRODUCERS,
    loadBeforeKillMs: 10_000,
    loadAfterReadyMs: 10_000,
    recoveryTimeoutMs: 300_000,
    built: true,
    log: (l) => console.log(`  kill: ${l}`),
  });
  const during = drill.answers.filter(
    (a) => a.sentAt >= drill.killedAt && (drill.readyAgainAt === null || a.sentAt < drill.readyAgainAt),
  );
  const refused = during.filter((a) => a.status === 503);
  const inFlightAtKill = drill.answers.filter((a) => a.sentAt < drill.killedAt && a.sentAt + a.ms > drill.killedAt);
  const knownDown = refused.filter(
    (a) =>
      drill.readyzDownAt !== null &&
      a.sentAt >= drill.readyzDownAt &&
      (drill.neo4jBackAt === null || a.sentAt < drill.neo4jBackAt),
  );
  const after = drill.answers.filter((a) => drill.readyAgainAt !== null && a.sentAt >= drill.readyAgainAt);
  const statuses = (list: typeof drill.answers) =>
    list.reduce<Record<string, number>>((acc, a) => {
      const key = `${a.status}${a.error ? ` ${a.error}` : ''}`;
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {});
  return {
    producers: PRODUCERS,
    answers: drill.answers.length,
    acknowledged: drill.acknowledged,
    lostAcknowledged: drill.lostAcknowledged.length,
    inFlightAtKill: {
      count: inFlightAtKill.length,
      answeredAfterKillMs: summarize(inFlightAtKill.map((a) => a.sentAt + a.ms - drill.killedAt)),
      statuses: statuses(inFlightAtKill),
    },
    duringOutage: {
      statuses: statuses(during),
      refusedLatencyMs: summarize(refused.map((a) => a.ms)),
      whileKnownDownLatencyMs: summarize(knownDown.map((a) => a.ms)),
    },
    timeline: {
      readyzDownAfterKillMs: drill.readyzDownAt === null ? null : drill.readyzDownAt - drill.killedAt,
      neo4jBackAfterKillMs: drill.neo4jBackAt === null ? null : drill.neo4jBackAt - drill.killedAt,
      readyAfterNeo4jBackMs:
        drill.readyAgainAt === null || drill.neo4jBackAt === null ? null : drill.readyAgainAt - drill.neo4jBackAt,
      readyAfterKillMs: drill.readyAgainAt === null ? null : drill.readyAgainAt - drill.killedAt,
    },
    firstPostAfterReady: drill.firstPostAfterReady,
    afterReady: {
      statuses: statuses(after),
      latencyMs: summarize(after.filter((a) => a.status === 201).map((a) => a.ms)),
    },
    restarts: Number(/^lineage_neo4j_restarts_total (\d+)/m.exec(drill.metricsAfter)?.[1] ?? NaN),
    serviceLog: drill.log.map((l) => l.slice(0, 400)).slice(0, 20),
    exitCode: drill.exitCode,
  };
}

function request(
  url: string,
  method: string,
  body?: string,
): Promise<{ status: number; ms: number; retryAfter?: string }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method,
        headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - t,
            retryAfter: res.headers['retry-after'] as string | undefined,
          }),
        );
      },
    );
    req.setTimeout(120_000, () => req.destroy());
    req.on('error', () => resolve({ status: -1, ms: performance.now() - t }));
    req.end(body);
  });
}

async function refusedScenario() {
  const neo4j = await startBenchNeo4j('faults-refused', {});
  const port = neo4j.port;
  const service = await startServiceProcess(neo4j.uri, { LOG_LEVEL: 'error' });
  let restarted: LocalNeo4jServer | null = null;
  try {
    for (let i = 0; i < 200; i++)
      await request(`${service.url}/api/v1/lineage`, 'POST', JSON.stringify(runEvent({ job: `warm_${i % 10}` })));
    // A clean stop: every new connection is refused from now on. The home is kept for the restart.
    const home = neo4j.home;
    const stopStarted = performance.now();
    await stopWithoutCleanup(neo4j);
    const stoppedMs = Math.round(performance.now() - stopStarted);
    await sleep(1000);
    const writes: Awaited<ReturnType<typeof request>>[] = [];
    const reads: Awaited<ReturnType<typeof request>>[] = [];
    const t0 = performance.now();
    while (performance.now() - t0 < 15_000) {
      const batch = await Promise.all([
        ...Array.from({ length: 8 }, () =>
          request(`${service.url}/api/v1/lineage`, 'POST', JSON.stringify(runEvent())),
        ),
        ...Array.from({ length: 8 }, () => request(`${service.url}/api/v1/namespaces/default/jobs`, 'GET')),
      ]);
      writes.push(...batch.slice(0, 8));
      reads.push(...batch.slice(8));
      await sleep(250);
    }
    const readyz = await request(`${service.url}/readyz`, 'GET');
    // Neo4j again, on the same port and data.
    restarted = new LocalNeo4jServer({
      dir: path.join(projectRoot, '.neo4j'),
      version: NEO4J_DEFAULT_VERSION,
      boltPort: port,
      heap: process.env.BENCH_NEO4J_HEAP ?? '2g',
      pageCache: process.env.BENCH_NEO4J_PAGECACHE ?? '1g',
      homeDir: home,
      ephemeral: true,
    });
    await restarted.start();
    const back = performance.now();
    let readyMs: number | null = null;
    while (performance.now() - back < 180_000) {
      if ((await request(`${service.url}/readyz`, 'GET')).status === 200) {
        readyMs = Math.round(performance.now() - back);
        break;
      }
      await sleep(100);
    }
    const first = await request(`${service.url}/api/v1/lineage`, 'POST', JSON.stringify(runEvent()));
    const count = (list: typeof writes) =>
      list.reduce<Record<string, number>>((acc, a) => {
        acc[a.status] = (acc[a.status] ?? 0) + 1;
        return acc;
      }, {});
    return {
      neo4jStopMs: stoppedMs,
      whileRefused: {
        writes: {
          statuses: count(writes),
          latencyMs: summarize(writes.map((w) => w.ms)),
          allWithRetryAfter: writes.every((w) => w.status !== 503 || w.retryAfter !== undefined),
        },
        reads: {
          statuses: count(reads),
          latencyMs: summarize(reads.map((w) => w.ms)),
          allWithRetryAfter: reads.every((w) => w.status !== 503 || w.retryAfter !== undefined),
        },
        readyz: { status: readyz.status, ms: Math.round(readyz.ms) },
      },
      readyAfterNeo4jBackMs: readyMs,
      firstPostAfterReady: { status: first.status, ms: Math.round(first.ms) },
    };
  } finally {
    await service.stop();
    await restarted?.stop();
  }
}

/** Stops a bench server but keeps its data (ephemeral servers delete theirs on stop). */
async function stopWithoutCleanup(server: LocalNeo4jServer): Promise<void> {
  const pid = server.jvmPid;
  if (pid) process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 600 && server.jvmPid !== null; i++) await sleep(100);
}

async function main() {
  const r = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
  const probeBefore = cpuSpeedProbe();
  const loadBefore = os.loadavg();
  const scenarios = (process.env.BENCH_FAULT_SCENARIOS ?? 'kill,refused').split(',');
  const results: Record<string, unknown> = {};
  if (scenarios.includes('kill')) results.kill = await killScenario();
  if (scenarios.includes('refused')) results.refused = await refusedScenario();
  const file = writeResult('faults', {
    benchmark: 'faults',
    machine: {
      ...machine(),
      nproc: os.cpus().length,
      loadAverage: { before: loadBefore, after: os.loadavg() },
      cpuSpeedProbeOpsPerSecond: { before: probeBefore, after: cpuSpeedProbe() },
    },
    method:
      'kill: the built service with its own local Neo4j (512m heap), producers posting run events (a 503 makes a ' +
      'producer wait Retry-After), Neo4j killed with SIGKILL after 10 s; refused: an external Neo4j stopped with ' +
      'SIGTERM under writes and reads, then started again on the same port',
    ...results,
  });
  console.log(JSON.stringify(results, null, 2));
  console.log(`wrote ${file}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
