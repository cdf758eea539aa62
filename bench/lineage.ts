/**
 * npm run bench:lineage — latency and size of GET /api/v1/lineage on a graph of 100,000+ jobs and
 * datasets, built through the ingest path with a history per job (bench/lineage-graph.ts: three runs
 * per job over 45 days, failed last runs, partitioned outputs, inputs dropped long ago), so lineage
 * edges carry real observation spans and the default view's time rule has real work to do.
 *
 * Measured, end to end over HTTP against the service in its own process: p50/p95 at depth 1, 5, 20
 * for both/upstream/downstream from small-degree datasets (a rotating set) and from three hubs, in
 * the default view; at depth 20 also with window=all, asOf 30 days ago, and include=facets,latestRuns;
 * the size of each answer as sent and compressed (gzip and br, as a client asking for them gets it);
 * the Cypher plan (PROFILE) of the traversal, which must stay a pruning breadth-first expand.
 * Env: BENCH_DOMAINS (default 900), BENCH_ITERATIONS (default 30 per case; fewer for huge results);
 *   BENCH_NEO4J_HOME: a server home kept between runs, shared with bench:impact and bench:lineage:big (the
 *     same graph): the first run ingests it there, later runs reuse it (its times are then those of that run);
 *   BENCH_LINEAGE_STARTS: the starts to measure, of small,raw,rare,dim (default all; the hubs' huge answers
 *     take most of the run's half hour); BENCH_LINEAGE_RESULT: the result's name (default lineage[-ab]).
 *
 * Before/after a code change: BENCH_LINEAGE_A_REF=<commit> also runs that commit's service (a worktree,
 * see checkoutRef) on the same graph and Neo4j, and measures every depth-20 case of up to 5 MB on
 * both services, alternating which goes first per case; the result gets `ab` with B/A ratios of p50
 * and p95 (B = this checkout).
 */
import neo4jDriver from 'neo4j-driver';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import http from 'node:http';
import {
  checkoutRef,
  cpuSpeedProbe,
  machine,
  planSummary,
  request,
  startBenchNeo4j,
  startServiceProcess,
  summarize,
  writeResult,
  type PlanNode,
} from './support.js';
import { generate, ingestGraph, ingestOrReuse, KEPT_HOME } from './lineage-graph.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import { DEFAULT_WINDOW, graphQuery, maxRelsFor, viewParams, type Direction } from '../src/store/lineage/index.js';

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 900);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const A_REF = process.env.BENCH_LINEAGE_A_REF || null;

interface Case {
  start: string;
  ids: string[];
  direction: 'both' | 'upstream' | 'downstream';
  depth: number;
  /** Extra query parameters (a view: window, asOf, include). */
  view?: string;
}

/** Bytes of one answer as a client asking for `encoding` receives it. */
function wireBytes(url: string, encoding: 'gzip' | 'br'): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
      })
      .on('error', reject);
  });
}

async function measure(url: string, c: Case, iterations: number) {
  const latencies: number[] = [];
  let bytes = 0;
  let nodes = 0;
  let truncated = false;
  const statuses: Record<number, number> = {};
  // One warm-up request per start node (plan cache, page cache), then the timed ones.
  const q = (id: string) =>
    `${url}/api/v1/lineage?nodeId=${encodeURIComponent(id)}&depth=${c.depth}&direction=${c.direction}${c.view ?? ''}`;
  for (const id of c.ids) await request(q(id), 'GET');
  const sizes: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const id = c.ids[i % c.ids.length];
    const s = performance.now();
    const res = await request(q(id), 'GET');
    latencies.push(performance.now() - s);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    bytes = res.body.length;
    if (res.status === 200) {
      const body = JSON.parse(res.body) as { graph: unknown[]; truncated: boolean };
      nodes = body.graph.length;
      sizes.push(nodes);
      truncated ||= body.truncated;
    }
  }
  sizes.sort((a, b) => a - b);
  const last = c.ids[(iterations - 1) % c.ids.length];
  return {
    start: c.start,
    view: c.view || 'default (window LINEAGE_WINDOW=P30D, now)',
    direction: c.direction,
    depth: c.depth,
    lastResponseGzipBytes: await wireBytes(q(last), 'gzip'),
    lastResponseBrBytes: await wireBytes(q(last), 'br'),
    requests: iterations,
    statuses,
    latencyMs: summarize(latencies),
    nodes: { min: sizes[0], median: sizes[Math.floor(sizes.length / 2)], max: sizes[sizes.length - 1] },
    lastResponseBytes: bytes,
    msPerThousandNodes: sizes.length
      ? Math.round((summarize(latencies).p50 / Math.max(1, sizes[Math.floor(sizes.length / 2)])) * 1000 * 10) / 10
      : null,
    truncated,
  };
}

/** PROFILE of the traversal query exactly as the service sends it, and Neo4j's own timing of it. */
async function profile(db: Db, nodeId: { namespace: string; name: string }, direction: Direction, depth: number) {
  const eid = (
    await db.read({ op: 'bench' }, (tx) =>
      tx.run('MATCH (d:Dataset {namespace: $namespace, name: $name}) RETURN elementId(d) AS eid', nodeId),
    )
  ).records[0].get('eid') as string;
  const text = graphQuery(direction, maxRelsFor('dataset', depth));
  const params = {
    startId: eid,
    maxNodes: neo4jDriver.int(20_001),
    chunk: neo4jDriver.int(500),
    facets: false,
    runDetails: false,
    ...viewParams({ asOf: null, window: DEFAULT_WINDOW }),
  };
  const session = db.driver.session({ database: db.database });
  try {
    const prof = await session.run(`PROFILE ${text}`, params);
    const timings: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = performance.now();
      const r = await session.run(text, params);
      timings.push(performance.now() - s);
      void r;
    }
    return {
      start: `dataset:${nodeId.namespace}:${nodeId.name}`,
      direction,
      depth,
      rows: prof.records.reduce((n, r) => n + (r.get('nodes') as unknown[]).length, 0),
      driverRoundTripMs: summarize(timings),
      plan: planSummary(prof.summary.profile as unknown as PlanNode),
    };
  } finally {
    await session.close();
  }
}

function medianRatio(ratios: number[]): number | null {
  if (ratios.length === 0) return null;
  const sorted = [...ratios].sort((x, y) => x - y);
  return Math.round(sorted[Math.floor(sorted.length / 2)] * 100) / 100;
}

async function main() {
  const t0 = performance.now();
  const speed = cpuSpeedProbe();
  const neo4j = await startBenchNeo4j('lineage', { homeDir: KEPT_HOME });
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const db = new Db(driver, 'neo4j', 60_000);
  let service: Awaited<ReturnType<typeof startServiceProcess>> | null = null;
  let serviceA: Awaited<ReturnType<typeof startServiceProcess>> | null = null;
  try {
    await applySchema(db);
    const g = generate(DOMAINS);
    const now = Date.now();
    console.log(
      `generated ${g.jobs.length} jobs + ${g.datasets.length} datasets = ${g.jobs.length + g.datasets.length} nodes; ` +
        `ingesting their histories through the ingest path`,
    );
    const { written, reused } = KEPT_HOME
      ? await ingestOrReuse(db, g, DOMAINS, KEPT_HOME)
      : { written: await ingestGraph(db, g, { now, log: console.log }), reused: false };
    if (!KEPT_HOME) console.log(`ingested ${written.events} events in ${written.seconds} s:`, written.counts);

    // No idle warm-up: its rehearsed ingest transactions would run between timed requests (bench/impact.ts).
    const env = { QUERY_TIMEOUT_MS: '60000', INGEST_IDLE_WARM_UP_MS: '0' };
    service = await startServiceProcess(neo4j.uri, env);
    if (A_REF) serviceA = await startServiceProcess(neo4j.uri, env, checkoutRef(A_REF));
    const ab: {
      case: string;
      nodes: number | undefined;
      a: { p50: number; p95: number };
      b: { p50: number; p95: number };
    }[] = [];
    const small = g.smallDegree.map((d) => `dataset:${d.namespace}:${d.name}`);
    const allStarts: Record<string, [label: string, ids: string[]]> = {
      small: ['small-degree dataset (mid-chain, 45 rotating)', small],
      raw: [
        `raw hub (dataset:${g.hubs.raw.namespace}:${g.hubs.raw.name})`,
        [`dataset:${g.hubs.raw.namespace}:${g.hubs.raw.name}`],
      ],
      rare: [
        `less-read raw hub (dataset:${g.hubs.rare.namespace}:${g.hubs.rare.name})`,
        [`dataset:${g.hubs.rare.namespace}:${g.hubs.rare.name}`],
      ],
      dim: [
        `dimension hub (dataset:${g.hubs.dim.namespace}:${g.hubs.dim.name})`,
        [`dataset:${g.hubs.dim.namespace}:${g.hubs.dim.name}`],
      ],
    };
    // BENCH_LINEAGE_STARTS=small,raw,rare,dim (all by default): which starts to measure.
    const only = process.env.BENCH_LINEAGE_STARTS?.split(',').map((x) => x.trim());
    const starts = Object.fromEntries(
      Object.entries(allStarts)
        .filter(([key]) => !only || only.includes(key))
        .map(([, [label, ids]]) => [label, ids]),
    );
    const asOf30 = new Date(now - 30 * 24 * 60 * 60 * 1000).toISOString();
    const views = ['', '&window=all', `&asOf=${asOf30}`, '&include=facets,latestRuns'];
    const results = [];
    for (const [start, ids] of Object.entries(starts)) {
      for (const direction of ['downstream', 'upstream', 'both'] as const) {
        for (const [depth, view] of [[1, ''], [5, ''], ...views.map((v) => [20, v] as const)] as const) {
          // Probe the size first: huge answers get fewer iterations so the bench ends in minutes.
          const probe = await request(
            `${service.url}/api/v1/lineage?nodeId=${encodeURIComponent(ids[0])}` +
              `&depth=${depth}&direction=${direction}${view}`,
            'GET',
          );
          const iterations = probe.body.length > 5_000_000 ? 5 : probe.body.length > 500_000 ? 10 : ITERATIONS;
          const c = { start, ids, direction, depth, view };
          const compare = serviceA !== null && depth === 20 && probe.body.length <= 5_000_000;
          // A first in every other compared case, so drift in the machine's load favours neither side.
          const aFirst = compare && ab.length % 2 === 0;
          const a1 = aFirst ? await measure(serviceA!.url, c, iterations) : null;
          const r = await measure(service.url, c, iterations);
          const a = a1 ?? (compare ? await measure(serviceA!.url, c, iterations) : null);
          if (a)
            ab.push({
              case: `${start} ${direction} depth ${depth} ${view || 'default'}`,
              nodes: r.nodes.median,
              a: { p50: a.latencyMs.p50, p95: a.latencyMs.p95 },
              b: { p50: r.latencyMs.p50, p95: r.latencyMs.p95 },
            });
          results.push(r);
          console.log(
            `${start.padEnd(44).slice(0, 44)} ${direction.padEnd(10)} depth ${String(depth).padStart(2)} ` +
              `${(view || 'default').slice(0, 26).padEnd(26)}: p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms, ` +
              `nodes ${r.nodes.median} (max ${r.nodes.max}), ${Math.round(r.lastResponseBytes / 1024)} KiB (gzip ` +
              `${Math.round(r.lastResponseGzipBytes / 1024)} KiB)${r.truncated ? ' TRUNCATED' : ''}`,
          );
        }
      }
    }

    const plans = [
      await profile(db, g.smallDegree[0], 'downstream', 20),
      await profile(db, g.smallDegree[0], 'both', 5),
      await profile(db, g.hubs.dim, 'downstream', 20),
    ];
    for (const p of plans)
      console.log(
        `\nPROFILE ${p.start} ${p.direction} depth ${p.depth} (${p.rows} rows, driver p50 ${p.driverRoundTripMs.p50} ` +
          `ms):\n${p.plan.join('\n')}`,
      );

    const within = results.filter((r) => r.depth === 20 && (r.nodes.max ?? 0) <= 1000);
    const file = writeResult(process.env.BENCH_LINEAGE_RESULT || (A_REF ? 'lineage-ab' : 'lineage'), {
      machine: { ...machine(), loadAverageAtEnd: os.loadavg().map((l) => Math.round(l * 100) / 100) },
      note:
        'Latencies are end to end over HTTP (keep-alive, one request at a time, uncompressed) from a client on ' +
        'the same 2-core machine; other work on the machine shows up in p95 (see loadAverageAtEnd). Sizes: bytes as ' +
        'sent without and with Accept-Encoding.',
      cpuSpeedProbeOpsPerSecond: speed,
      graph: {
        generatedBy:
          'bench/lineage-graph.ts: OpenLineage events (three runs per job over 45 days, failed last runs, ' +
          'partitions, dropped inputs) through the ingest path (writeEvents in this process, batches of 100, two ' +
          'writers)',
        domains: DOMAINS,
        jobs: g.jobs.length,
        datasets: g.datasets.length,
        events: written.events,
        counts: written.counts,
        ingestSeconds: written.seconds,
        reusedFrom: reused ? KEPT_HOME : null,
      },
      target:
        'p95 < 100 ms at depth 20 for results up to 1,000 nodes (default view and asOf); the depth-20 answer of ' +
        'about 2,500 nodes: no larger than 8.0 MB as sent, under 1 MB compressed, under 300 ms',
      depth20UpTo1000Nodes: within.map((r) => ({
        start: r.start,
        view: r.view,
        direction: r.direction,
        nodes: r.nodes.max,
        p95: r.latencyMs.p95,
      })),
      around2500Nodes: results
        .filter((r) => r.depth === 20 && (r.nodes.max ?? 0) >= 1500 && (r.nodes.max ?? 0) <= 4000)
        .map((r) => ({
          start: r.start,
          view: r.view,
          direction: r.direction,
          nodes: r.nodes.max,
          bytes: r.lastResponseBytes,
          gzipBytes: r.lastResponseGzipBytes,
          brBytes: r.lastResponseBrBytes,
          p50: r.latencyMs.p50,
          p95: r.latencyMs.p95,
        })),
      ab: A_REF
        ? {
            aRef: A_REF,
            note: 'B = this checkout; both services on the same graph and Neo4j, alternating which goes first per case',
            cases: ab,
            medianRatioP50: medianRatio(ab.map((x) => x.b.p50 / x.a.p50)),
            medianRatioP95: medianRatio(ab.map((x) => x.b.p95 / x.a.p95)),
          }
        : undefined,
      results,
      plans,
      totalSeconds: Math.round((performance.now() - t0) / 1000),
    });
    if (A_REF)
      console.log(
        `\nB/A (${A_REF} -> this checkout) over ${ab.length} depth-20 cases: median p50 ratio ` +
          `${medianRatio(ab.map((x) => x.b.p50 / x.a.p50))}, ` +
          `median p95 ratio ${medianRatio(ab.map((x) => x.b.p95 / x.a.p95))}`,
      );
    console.log(`\nresults: ${file}`);
  } finally {
    await service?.stop();
    await serviceA?.stop();
    await driver.close();
    await neo4j.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
