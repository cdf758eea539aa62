/**
 * npm run bench:cold-start — the service from a cold start, as a user starts it (`npm start`: its own
 * local Neo4j, no NEO4J_URI): time until it listens and until /readyz says ready, the first POST's
 * latency after that, then the cold-start curve: events/s (and p50/p99) per 2,000 events at
 * concurrency 8 while producers replay their backlog. Twice per side: on an empty database (first
 * start) and restarted on the data the first pass wrote (a restart, both processes new).
 *
 * Sides (BENCH_COLD_SIDES, `;`-separated `name=ref[|ENV=value,ENV=value]`, ref `.` = this checkout
 * as it is on disk) run one after the other on the same traffic; the default compares the service
 * before issue 22 (BENCH_COLD_BASE_REF, a91d58a) with this checkout. BENCH_COLD_IDLE_MS (0): how long
 * producers stay away after /readyz turned 200 (a restart in a quiet hour). Results:
 * bench/results/cold-start.json (BENCH_COLD_RESULT names another file).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TrafficGenerator } from './traffic.js';
import { KeepAliveConnection } from './http-client.js';
import {
  checkoutRef,
  cpuSpeedProbe,
  jitCpuSeconds,
  machine,
  processCpuSeconds,
  startScriptNodeFlags,
  summarize,
  writeResult,
} from './support.js';
import { findFreePort } from '../src/free-port.js';
import { projectRoot } from '../src/paths.js';

const EVENTS = Number(process.env.BENCH_COLD_EVENTS ?? 20_000);
const WINDOW = 2_000;
const CONCURRENCY = Number(process.env.BENCH_COLD_CONCURRENCY ?? 8);
const BASE_REF = process.env.BENCH_COLD_BASE_REF ?? 'a91d58a';
const SIDES = process.env.BENCH_COLD_SIDES ?? `before=${BASE_REF};after=.`;
const IDLE_MS = Number(process.env.BENCH_COLD_IDLE_MS ?? 0);
const RESULT = process.env.BENCH_COLD_RESULT ?? 'cold-start';

interface Side {
  name: string;
  root: string;
  ref: string;
  env: Record<string, string>;
}

function parseSides(spec: string): Side[] {
  return spec
    .split(';')
    .filter(Boolean)
    .map((part) => {
      const [head, envPart = ''] = part.split('|');
      const [name, ref] = head.split('=');
      const env = Object.fromEntries(
        envPart
          .split(',')
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
      return { name, ref, root: ref === '.' ? projectRoot : checkoutRef(ref), env };
    });
}

function build(root: string): void {
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm run build failed in ${root}`);
}

interface Started {
  child: ChildProcess;
  url: string;
  listenMs: number;
  readyMs: number;
  readyStates: Record<string, number>;
  neo4jPid: number | null;
}

/**
 * Starts `dist/src/server.js` of `root` with its start script's Node flags, on its own local Neo4j in
 * `home`; resolves once /readyz is 200.
 */
async function startService(side: Side, home: string): Promise<Started> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [...startScriptNodeFlags(side.root), path.join(side.root, 'dist/src/server.js')],
    {
      env: {
        ...process.env,
        NEO4J_URI: '',
        NEO4J_LOCAL_DIR: path.join(projectRoot, '.neo4j'),
        NEO4J_LOCAL_DATA_DIR: home,
        NEO4J_LOCAL_BOLT_PORT: '0',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        ...side.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  let listenMs = NaN;
  const readyStates: Record<string, number> = {};
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${side.name}: the service exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (Number.isNaN(listenMs)) listenMs = performance.now() - t0;
      const body = (await res.json()) as { status?: string };
      const key = `${res.status} ${body.status}`;
      readyStates[key] = (readyStates[key] ?? 0) + 1;
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (performance.now() - t0 > 300_000) throw new Error(`${side.name}: not ready within 5 minutes`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const readyMs = performance.now() - t0;
  let neo4jPid: number | null = null;
  try {
    neo4jPid = Number(fs.readFileSync(path.join(home, 'run', 'neo4j.pid'), 'utf8').trim()) || null;
  } catch {
    /* no pid file */
  }
  return { child, url, listenMs: Math.round(listenMs), readyMs: Math.round(readyMs), readyStates, neo4jPid };
}

async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** Posts `events` at CONCURRENCY; per WINDOW events (in completion order): events/s, latency, statuses. */
async function curve(url: string, events: Buffer[], neo4jPid: number | null) {
  const first = new KeepAliveConnection(url, '/api/v1/lineage');
  const t = performance.now();
  const firstAnswer = await first.post(events[0]);
  const firstPostMs = Math.round(performance.now() - t);
  first.close();
  let next = 1;
  const done: { at: number; ms: number; status: number }[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const conn = new KeepAliveConnection(url, '/api/v1/lineage');
      try {
        while (next < events.length) {
          const body = events[next++];
          const start = performance.now();
          let status = 0;
          try {
            status = (await conn.post(body)).status;
          } catch {
            status = -1;
          }
          done.push({ at: performance.now() - t0, ms: performance.now() - start, status });
        }
      } finally {
        conn.close();
      }
    }),
  );
  const windows = [];
  for (let i = 0; i < done.length; i += WINDOW) {
    const slice = done.slice(i, i + WINDOW);
    const from = i === 0 ? 0 : done[i - 1].at;
    const seconds = (slice[slice.length - 1].at - from) / 1000;
    const statuses: Record<string, number> = {};
    for (const d of slice) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
    const s = summarize(slice.map((d) => d.ms));
    windows.push({
      events: `${i + 1}-${i + slice.length}`,
      eventsPerSecond: Math.round(slice.length / seconds),
      p50Ms: Math.round(s.p50),
      p99Ms: Math.round(s.p99),
      maxMs: Math.round(s.max),
      statuses,
    });
  }
  const total = done[done.length - 1].at / 1000;
  return {
    firstPost: { status: firstAnswer.status, ms: firstPostMs },
    overall: {
      events: done.length,
      seconds: Math.round(total * 10) / 10,
      eventsPerSecond: Math.round(done.length / total),
    },
    neo4jCpuSeconds: neo4jPid ? Math.round(processCpuSeconds(neo4jPid)) : null,
    neo4jJitCpuSeconds: neo4jPid ? Math.round(jitCpuSeconds(neo4jPid)) : null,
    windows,
  };
}

async function pass(side: Side, home: string, events: Buffer[], label: string) {
  const started = await startService(side, home);
  try {
    if (IDLE_MS > 0) await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const result = await curve(started.url, events, started.neo4jPid);
    const out = {
      pass: label,
      listenMs: started.listenMs,
      readyMs: started.readyMs,
      readyStates: started.readyStates,
      ...result,
    };
    console.log(JSON.stringify({ side: side.name, ...out, windows: out.windows.map((w) => w.eventsPerSecond) }));
    return out;
  } finally {
    await stopService(started.child);
  }
}

async function main() {
  const sides = parseSides(SIDES);
  for (const root of new Set(sides.map((s) => s.root))) build(root);
  const gen = new TrafficGenerator({ pipelines: 200, jobsPerPipeline: 10 });
  const firstEvents = gen
    .events(Math.ceil(EVENTS / 2))
    .slice(0, EVENTS)
    .map((e) => Buffer.from(JSON.stringify(e)));
  const restartEvents = gen
    .events(Math.ceil(EVENTS / 2))
    .slice(0, EVENTS)
    .map((e) => Buffer.from(JSON.stringify(e)));
  const probeBefore = cpuSpeedProbe();
  const loadBefore = os.loadavg();
  const results: Record<string, unknown> = {};
  for (const side of sides) {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), `bench-cold-${side.name}-`));
    try {
      results[side.name] = {
        ref: side.ref,
        env: side.env,
        fresh: await pass(side, home, firstEvents, 'fresh'),
        restart: await pass(side, home, restartEvents, 'restart'),
      };
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  }
  const file = writeResult(RESULT, {
    benchmark: 'cold-start',
    machine: {
      ...machine(),
      nproc: os.cpus().length,
      loadAverage: { before: loadBefore, after: os.loadavg() },
      cpuSpeedProbeOpsPerSecond: { before: probeBefore, after: cpuSpeedProbe() },
    },
    method:
      `the service as npm start runs it (own local Neo4j, fresh processes), ${EVENTS} events of bench:ingest's ` +
      `traffic at concurrency ${CONCURRENCY} ${IDLE_MS > 0 ? `${IDLE_MS} ms after` : 'right after'} /readyz ` +
      `turned 200, windows of ${WINDOW} events; 'fresh' on an empty database, 'restart' on the data the fresh ` +
      'pass wrote; sides one after the other',
    sides: results,
  });
  console.log(`wrote ${file}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
