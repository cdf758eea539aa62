/**
 * npm run bench:lineage:big — the large lineage answers (about 2,000-4,000 nodes, the size of the
 * issue's 2,515-node depth-20 answer) end to end over HTTP as a client asking for gzip gets them, on
 * bench:lineage's 100k-node graph. Target: the answer of about 2,500 nodes under 300 ms.
 *
 * Cases (all downstream from raw hubs of the graph): raw.events_6 at depth 20 (2,025 nodes),
 * raw.events_5 at depth 11 and 12 (2,427 and 2,623 nodes, around 2,515) and at depth 20 (4,048).
 * Each case: warm-up requests, then BENCH_ITERATIONS timed requests one at a time (keep-alive, the
 * body read and decompressed by the client, as fetch does).
 * Env: BENCH_NEO4J_HOME: a server home kept between runs (shared with bench:impact: the same graph);
 *   the first run builds the graph there (13-25 min on the shared VM), later runs reuse it;
 *   BENCH_DOMAINS (default 900); BENCH_ITERATIONS (default 21);
 *   BENCH_LINEAGE_BIG_A_REF=<commit>: also runs that commit's service on the same Neo4j and alternates
 *   requests between the two (A = that commit, B = this checkout), for a before/after in one run.
 */
import { request } from 'node:http';
import os from 'node:os';
import {
  cpuSpeedProbe,
  exportRef,
  machine,
  startBenchNeo4j,
  startServiceProcess,
  summarize,
  writeResult,
  type ServiceProcess,
} from './support.js';
import { generate, HUB_NS, ingestOrReuse, KEPT_HOME } from './lineage-graph.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 900);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 21);
const WARM_UP = 8;
const A_REF = process.env.BENCH_LINEAGE_BIG_A_REF || null;
const CASES: [hub: number, depth: number][] = [
  [6, 20],
  [5, 11],
  [5, 12],
  [5, 20],
];

/** One GET as a gzip-asking client meets it: until the decompressed body is read. */
async function timed(url: string): Promise<{ ms: number; nodes: number }> {
  const t = performance.now();
  const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  const text = await res.text();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return { ms, nodes: (JSON.parse(text) as { graph: unknown[] }).graph.length };
}

async function gzipSize(url: string): Promise<number> {
  // undici's fetch decompresses; node:http does not.
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => resolve(n));
    })
      .on('error', reject)
      .end();
  });
}

async function main() {
  const t0 = performance.now();
  const probe = cpuSpeedProbe();
  const neo4j = await startBenchNeo4j('lineage-big', { homeDir: KEPT_HOME });
  const db = new Db(createDriver(neo4j.uri, 'neo4j', ''), 'neo4j', 120_000);
  const services: Record<'A' | 'B', ServiceProcess | null> = { A: null, B: null };
  try {
    await applySchema(db);
    const g = generate(DOMAINS);
    const { written, reused } = await ingestOrReuse(db, g, DOMAINS, KEPT_HOME);
    const env = { QUERY_TIMEOUT_MS: '60000', INGEST_IDLE_WARM_UP_MS: '0' };
    services.B = await startServiceProcess(neo4j.uri, env);
    if (A_REF) services.A = await startServiceProcess(neo4j.uri, env, exportRef(A_REF));
    const sides = (A_REF ? ['A', 'B'] : ['B']) as ('A' | 'B')[];
    const results = [];
    for (const [hub, depth] of CASES) {
      const path_ =
        `/api/v1/lineage?nodeId=${encodeURIComponent(`dataset:${HUB_NS}:raw.events_${hub}`)}` +
        `&depth=${depth}&direction=downstream`;
      for (let i = 0; i < WARM_UP; i++) for (const s of sides) await timed(services[s]!.url + path_);
      const ms: Record<string, number[]> = { A: [], B: [] };
      let nodes = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        // Alternate which side goes first, so drift in the machine's load favours neither.
        for (const s of i % 2 ? [...sides].reverse() : sides) {
          const r = await timed(services[s]!.url + path_);
          ms[s].push(r.ms);
          nodes = r.nodes;
        }
      }
      const b = summarize(ms.B);
      const a = A_REF ? summarize(ms.A) : null;
      const row = {
        start: `dataset:${HUB_NS}:raw.events_${hub}`,
        depth,
        nodes,
        gzipBytes: await gzipSize(services.B.url + path_),
        latencyMs: b,
        ...(a ? { aLatencyMs: a, ratioP50: +(b.p50 / a.p50).toFixed(2), ratioP95: +(b.p95 / a.p95).toFixed(2) } : {}),
        loadAverage: os.loadavg()[0],
      };
      results.push(row);
      console.log(
        `raw.events_${hub} depth ${depth}: ${nodes} nodes, gzip ${Math.round(row.gzipBytes / 1024)} KiB: ` +
          `p50 ${b.p50} p95 ${b.p95} ms` +
          (a ? ` | A p50 ${a.p50} p95 ${a.p95} ms | B/A p50 ${row.ratioP50} p95 ${row.ratioP95}` : '') +
          ` | load ${os.loadavg()[0].toFixed(2)}`,
      );
    }
    const file = writeResult(process.env.BENCH_LINEAGE_BIG_RESULT ?? 'lineage-big', {
      machine: { ...machine(), loadAverageAtEnd: os.loadavg() },
      cpuSpeedProbeOpsPerSecond: probe,
      note:
        'End to end over HTTP from a client on the same 2-core machine, Accept-Encoding: gzip, one request at a ' +
        'time, until the decompressed body is read; the service and Neo4j in their own processes.',
      target: 'the depth-20 answer of about 2,500 nodes under 300 ms',
      graph: { domains: DOMAINS, reusedFrom: reused ? KEPT_HOME : null, events: written.events },
      aRef: A_REF,
      warmUpRequestsPerSide: WARM_UP,
      iterations: ITERATIONS,
      results,
      totalSeconds: Math.round((performance.now() - t0) / 1000),
    });
    console.log(`results: ${file}`);
  } finally {
    await services.B?.stop();
    await services.A?.stop();
    await db.driver.close();
    await neo4j.stop();
  }
}

await main();
