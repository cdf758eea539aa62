/**
 * npm run bench:overload — the service past its capacity: 256 concurrent producers, 256 concurrent
 * heavy readers (lineage at depth 20, search and lists of 1,000 rows), and both together. Reports,
 * per scenario, the accepted and refused requests, latency percentiles of each, client timeouts, and
 * the service's peak RSS. Sides (BENCH_OVERLOAD_SIDES, `name=ref`, `.` = this checkout) run in turn,
 * each on a fresh Neo4j seeded with the same traffic; the default compares the service before
 * issue 22 (a91d58a) with this checkout. Results: bench/results/overload.json.
 *
 * Per phase it also records the service's CPU and GC seconds and, from its /metrics at the sample nearest
 * the peak RSS, the memory by kind (V8 heap total and used, new and old space, external), and the
 * same idle after seeding. Knobs: BENCH_OVERLOAD_SECONDS (45), BENCH_OVERLOAD_CLIENTS (256),
 * BENCH_OVERLOAD_SEED_EVENTS (6000), BENCH_OVERLOAD_PHASES (producers,readers,mixed),
 * BENCH_OVERLOAD_RESULT (overload: the result file's name); BENCH_SERVICE_NODE_ARGS and the
 * service's own variables (e.g. HEAP_GROWTH_PERCENT) pass through to both sides;
 * BENCH_OVERLOAD_ENV_<side> (JSON) sets variables for one side only.
 *
 * The `large` phase (not in the default list) sends large events: BENCH_OVERLOAD_LARGE_CLIENTS (48)
 * producers each POSTing events of BENCH_OVERLOAD_LARGE_MB (4) MB, the bench:ingest events with a
 * Spark-style logical plan run facet (the facet that makes real Spark events megabytes long). It
 * measures what BODY_BYTES_IN_FLIGHT bounds: `npm run bench:overload:large` runs it with the cap
 * (the default) and without (BODY_BYTES_IN_FLIGHT=0), one side each.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { TrafficGenerator } from './traffic.js';
import {
  checkoutRef,
  cpuSpeedProbe,
  machine,
  processCpuSeconds,
  startBenchNeo4j,
  startServiceProcess,
  summarize,
  writeResult,
} from './support.js';
import { projectRoot } from '../src/paths.js';

const SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 45);
const CLIENTS = Number(process.env.BENCH_OVERLOAD_CLIENTS ?? 256);
const SEED_EVENTS = Number(process.env.BENCH_OVERLOAD_SEED_EVENTS ?? 6000);
const CLIENT_TIMEOUT_MS = 30_000;
// BENCH_OVERLOAD_PHASES: a subset of producers,readers,mixed (quicker runs while tuning one of them).
const PHASES = new Set((process.env.BENCH_OVERLOAD_PHASES ?? 'producers,readers,mixed').split(','));
const RESULT = process.env.BENCH_OVERLOAD_RESULT ?? 'overload';
const LARGE_CLIENTS = Number(process.env.BENCH_OVERLOAD_LARGE_CLIENTS ?? 48);
const LARGE_MB = Number(process.env.BENCH_OVERLOAD_LARGE_MB ?? 4);
const SIDES = (process.env.BENCH_OVERLOAD_SIDES ?? `before=a91d58a;after=.`)
  .split(';')
  .filter(Boolean)
  .map((s) => {
    const [name, ref] = s.split('=');
    return { name, ref, root: ref === '.' ? projectRoot : checkoutRef(ref) };
  });

interface Outcome {
  status: number;
  ms: number;
  error?: string;
  kind?: 'write' | 'read';
}

function call(agent: http.Agent, url: string, method: string, body?: Buffer): Promise<Outcome> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t }));
        res.on('error', () => resolve({ status: -1, ms: performance.now() - t, error: 'response error' }));
      },
    );
    req.setTimeout(CLIENT_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', (err) =>
      resolve({ status: err.message === 'timeout' ? -2 : -1, ms: performance.now() - t, error: err.message }),
    );
    req.end(body);
  });
}

/** The service's memory by kind (MiB), from its Prometheus /metrics (prom-client's process and V8 gauges). */
async function memoryBreakdown(url: string): Promise<Record<string, number> | null> {
  try {
    const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    const value = (name: string) => {
      const m = new RegExp(`^${name.replace(/[{}]/g, '\\$&')} ([0-9.e+]+)`, 'm').exec(text);
      return m ? Math.round(Number(m[1]) / 1048576) : -1;
    };
    const space = (s: string) => value(`nodejs_heap_space_size_used_bytes{space="${s}"}`);
    // GC time so far (s), all kinds: prom-client's histogram sums.
    const gcSeconds = [...text.matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} ([0-9.e+-]+)/gm)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    return {
      rss: value('process_resident_memory_bytes'),
      heapTotal: value('nodejs_heap_size_total_bytes'),
      heapUsed: value('nodejs_heap_size_used_bytes'),
      external: value('nodejs_external_memory_bytes'),
      newSpaceUsed: space('new'),
      oldSpaceUsed: space('old'),
      largeObjectSpaceUsed: space('large_object'),
      codeSpaceUsed: space('code'),
      gcSecondsSoFar: Math.round(gcSeconds * 100) / 100,
    };
  } catch {
    return null;
  }
}

/** Peak RSS of `pid` (sampled every 200 ms) and the memory breakdown nearest that peak (every second). */
function rssSampler(pid: number, url: string) {
  let peak = 0;
  let atPeak: Record<string, number> | null = null;
  const sample = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, Math.round(kb / 1024));
    } catch {
      /* gone */
    }
  };
  const timer = setInterval(sample, 200);
  let scraping = false;
  const scraper = setInterval(async () => {
    if (scraping) return;
    scraping = true;
    const m = await memoryBreakdown(url);
    if (m && m.rss > (atPeak?.rss ?? 0)) atPeak = m;
    scraping = false;
  }, 1000);
  return () => {
    clearInterval(timer);
    clearInterval(scraper);
    sample();
    return { peak, atPeak };
  };
}

function report(outcomes: Outcome[], seconds: number) {
  const byStatus: Record<string, number> = {};
  for (const o of outcomes)
    byStatus[o.status === -2 ? 'client timeout' : o.status === -1 ? 'connection error' : o.status] =
      (byStatus[o.status === -2 ? 'client timeout' : o.status === -1 ? 'connection error' : o.status] ?? 0) + 1;
  const accepted = outcomes.filter((o) => o.status >= 200 && o.status < 300);
  const refused = outcomes.filter((o) => o.status === 503);
  return {
    requests: outcomes.length,
    byStatus,
    accepted: accepted.length,
    refused: refused.length,
    acceptedPerSecond: Math.round(accepted.length / seconds),
    acceptedLatencyMs: summarize(accepted.map((o) => o.ms)),
    refusedLatencyMs: summarize(refused.map((o) => o.ms)),
  };
}

/** What the service used during a phase, as every phase reports it. */
function serviceFacts(phase: Awaited<ReturnType<typeof load>>) {
  const { peakRssMiB, memoryAtPeakMiB, serviceCpuSeconds, serviceGcSeconds } = phase;
  return { peakRssMiB, memoryAtPeakMiB, serviceCpuSeconds, serviceGcSeconds };
}

/** `clients` loops for SECONDS, each sending what `next` gives; a 503 makes a client wait its Retry-After (1 s). */
async function load(
  clients: number,
  next: (i: number) => { url: string; method: string; body?: Buffer },
  servicePid: number,
  serviceUrl: string,
) {
  const kindOf = (method: string): 'write' | 'read' => (method === 'POST' ? 'write' : 'read');
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const outcomes: Outcome[] = [];
  const stopRss = rssSampler(servicePid, serviceUrl);
  const cpuBefore = processCpuSeconds(servicePid);
  const gcBefore = (await memoryBreakdown(serviceUrl))?.gcSecondsSoFar ?? Number.NaN;
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      let i = c;
      while (performance.now() < deadline) {
        const r = next(i);
        i += clients;
        const o = { ...(await call(agent, r.url, r.method, r.body)), kind: kindOf(r.method) };
        outcomes.push(o);
        if (o.status === 503) await new Promise((res) => setTimeout(res, 1000));
      }
    }),
  );
  agent.destroy();
  const { peak, atPeak } = stopRss();
  // The service's CPU over the phase (user + system): what its GC settings cost shows here.
  const serviceCpuSeconds = Math.round((processCpuSeconds(servicePid) - cpuBefore) * 10) / 10;
  const gcAfter = (await memoryBreakdown(serviceUrl))?.gcSecondsSoFar ?? Number.NaN;
  const serviceGcSeconds = Math.round((gcAfter - gcBefore) * 100) / 100;
  return { outcomes, peakRssMiB: peak, memoryAtPeakMiB: atPeak, serviceCpuSeconds, serviceGcSeconds };
}

/**
 * A `spark.logicalPlan` run facet of about `bytes` bytes of JSON: a flat list of plan nodes with
 * their expressions, as the Spark integration sends for wide queries.
 */
function logicalPlanFacet(bytes: number): Buffer {
  const nodes: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const columns = Array.from({ length: 8 }, (_, c) => `col_${(i * 8 + c) % 997}#${i * 8 + c}L`);
    const node = JSON.stringify({
      class: `org.apache.spark.sql.catalyst.plans.logical.${['Project', 'Filter', 'Join', 'Aggregate'][i % 4]}`,
      'num-children': i % 4 === 2 ? 2 : 1,
      projectList: columns.map((c) => [
        { class: 'org.apache.spark.sql.catalyst.expressions.AttributeReference', name: c },
      ]),
      condition: `isnotnull(${columns[0]}) AND (${columns[1]} > ${i}) AND (${columns[2]} = ${columns[3]})`,
    });
    nodes.push(node);
    size += node.length + 1;
  }
  return Buffer.from(
    `{"_producer":"https://github.com/OpenLineage/OpenLineage/tree/1.24.0/integration/spark",` +
      `"_schemaURL":"https://openlineage.io/spec/facets/1-0-0/LogicalPlanRunFacet.json","plan":[${nodes.join(',')}]}`,
  );
}

/** Large events: each of `events` (parsed from the traffic) with `plan` as its `spark.logicalPlan` run facet. */
function largeEvents(events: Buffer[], plan: Buffer): (i: number) => Buffer {
  const PLACEHOLDER = '"__PLAN__"';
  const parts = events.map((e) => {
    const event = JSON.parse(e.toString()) as { run: { facets?: Record<string, unknown> } };
    event.run.facets = { ...event.run.facets, 'spark.logicalPlan': '__PLAN__' };
    const [before, after] = JSON.stringify(event).split(PLACEHOLDER);
    return [Buffer.from(before), Buffer.from(after)];
  });
  return (i) => {
    const [before, after] = parts[i % parts.length];
    return Buffer.concat([before, plan, after]);
  };
}

async function side(name: string, root: string, seed: Buffer[], events: Buffer[]) {
  const neo4j = await startBenchNeo4j(`overload-${name}`);
  // BENCH_OVERLOAD_ENV_<side name>: that side's own service variables, as JSON (e.g. two sides of one
  // checkout with HEAP_GROWTH_PERCENT 0 and 20).
  const sideEnv = JSON.parse(process.env[`BENCH_OVERLOAD_ENV_${name}`] ?? '{}') as Record<string, string>;
  const service = await startServiceProcess(neo4j.uri, { LOG_LEVEL: 'error', ...sideEnv }, root);
  const pid = service.child.pid!;
  try {
    const seedAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    let n = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (n < seed.length) await call(seedAgent, `${service.url}/api/v1/lineage`, 'POST', seed[n++]);
      }),
    );
    seedAgent.destroy();
    const idleRss = service.rssMiB();
    const WAREHOUSE = 'dataset:postgres://warehouse.internal:5432';
    const reads = [
      `/api/v1/lineage?nodeId=${encodeURIComponent(`${WAREHOUSE}:analytics.pipeline_0.stage_0`)}&depth=20`,
      `/api/v1/lineage?nodeId=${encodeURIComponent(`${WAREHOUSE}:analytics.pipeline_3.stage_6`)}&depth=20` +
        '&direction=both',
      '/api/v1/search?q=stage&limit=1000',
      '/api/v1/jobs?limit=1000',
      '/api/v1/search?q=a&limit=1000&offset=500',
    ].map((p) => `${service.url}${p}`);
    const results: Record<string, unknown> = {
      env: sideEnv,
      idleRssMiB: idleRss,
      idleMemoryMiB: await memoryBreakdown(service.url),
    };
    let e = 0;
    if (PHASES.has('producers')) {
      const producers = await load(
        CLIENTS,
        () => ({ url: `${service.url}/api/v1/lineage`, method: 'POST', body: events[e++ % events.length] }),
        pid,
        service.url,
      );
      results.producers = {
        clients: CLIENTS,
        ...report(producers.outcomes, SECONDS),
        ...serviceFacts(producers),
      };
      console.log(name, 'producers', JSON.stringify(results.producers));
    }
    if (PHASES.has('large')) {
      const plan = logicalPlanFacet(LARGE_MB * 1024 * 1024);
      const large = largeEvents(events, plan);
      let l = 0;
      const producers = await load(
        LARGE_CLIENTS,
        () => ({ url: `${service.url}/api/v1/lineage`, method: 'POST', body: large(l++) }),
        pid,
        service.url,
      );
      results.large = {
        clients: LARGE_CLIENTS,
        eventBytes: large(0).length,
        ...report(producers.outcomes, SECONDS),
        ...serviceFacts(producers),
      };
      console.log(name, 'large', JSON.stringify(results.large));
    }
    if (PHASES.has('readers')) {
      const readers = await load(CLIENTS, (i) => ({ url: reads[i % reads.length], method: 'GET' }), pid, service.url);
      results.readers = {
        clients: CLIENTS,
        ...report(readers.outcomes, SECONDS),
        ...serviceFacts(readers),
      };
      console.log(name, 'readers', JSON.stringify(results.readers));
    }
    if (PHASES.has('mixed')) {
      const mixed = await load(
        CLIENTS,
        (i) =>
          i % 2 === 0
            ? { url: `${service.url}/api/v1/lineage`, method: 'POST', body: events[e++ % events.length] }
            : { url: reads[i % reads.length], method: 'GET' },
        pid,
        service.url,
      );
      results.mixed = {
        clients: CLIENTS,
        writes: report(
          mixed.outcomes.filter((o) => o.kind === 'write'),
          SECONDS,
        ),
        reads: report(
          mixed.outcomes.filter((o) => o.kind === 'read'),
          SECONDS,
        ),
        ...serviceFacts(mixed),
      };
      console.log(name, 'mixed', JSON.stringify(results.mixed));
    }
    return results;
  } finally {
    await service.stop();
    await neo4j.stop();
  }
}

async function main() {
  // Pipelines with datasets in a namespace per pipeline (traffic.ts), so lineage reaches depth 10+.
  const gen = new TrafficGenerator({ pipelines: 60, jobsPerPipeline: 12 });
  const seed = gen.events(Math.ceil(SEED_EVENTS / 2)).map((x) => Buffer.from(JSON.stringify(x)));
  const events = gen.events(20_000).map((x) => Buffer.from(JSON.stringify(x)));
  const probeBefore = cpuSpeedProbe();
  const loadBefore = os.loadavg();
  const sides: Record<string, unknown> = {};
  for (const s of SIDES) sides[s.name] = { ref: s.ref, ...(await side(s.name, s.root, seed, events)) };
  const file = writeResult(RESULT, {
    benchmark: 'overload',
    machine: {
      ...machine(),
      nproc: os.cpus().length,
      loadAverage: { before: loadBefore, after: os.loadavg() },
      cpuSpeedProbeOpsPerSecond: { before: probeBefore, after: cpuSpeedProbe() },
    },
    method:
      `per side: a fresh Neo4j (bench heap), the built service with its defaults, ${SEED_EVENTS} events ` +
      `seeded; then ${SECONDS} s each of the phases ${[...PHASES].join(', ')}: ${CLIENTS} producers (bench:ingest ` +
      `traffic), ${CLIENTS} readers (lineage depth 20, search and job lists of 1,000), both mixed, or ` +
      `${LARGE_CLIENTS} producers of ${LARGE_MB} MB events (large: a spark.logicalPlan run facet); a client ` +
      `waits Retry-After (1 s) after a 503; ` +
      `client timeout ${CLIENT_TIMEOUT_MS / 1000} s; the load generator shares the 2 cores`,
    sides,
  });
  console.log(`wrote ${file}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
