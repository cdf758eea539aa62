/**
 * npm run bench:lineage — latency of GET /api/v1/lineage on a graph of 100,000+ jobs and datasets.
 *
 * The graph is written straight into Neo4j with UNWIND-batched Cypher in the documented model shape
 * (cypher/README.md: Namespace, Dataset, Job, Run, DatasetVersion, INPUT_TO, PRODUCES, LATEST_RUN,
 * READ, WROTE, HAS_DATASET, HAS_JOB), not through POST /api/v1/lineage: ingesting 100k nodes over HTTP
 * would take far longer than the measurement and says nothing more about reads.
 *
 * Shape (deterministic PRNG): ~900 pipelines ("domains") of 15-35 layers, 1-4 datasets per layer,
 * one job per dataset reading 1-3 datasets of the layer before (diamonds) and sometimes two layers
 * back (skip edges); 10 raw "hub" tables fed by ingest jobs and read by the first layer of ~40% of the
 * domains with a skewed popularity; one dimension table (`dim_date`) read by ~5% of all jobs (a very
 * wide fan-out hub that ties the domains together for the undirected walk).
 *
 * Measured: p50/p95 at depth 1, 5, 20 for both/upstream/downstream, from small-degree datasets (a
 * rotating set) and from the two hubs; response size and node count; the Cypher plan (PROFILE) of the
 * traversal; and the time Neo4j spends on the query vs the whole request.
 * Env: BENCH_DOMAINS (default 900), BENCH_ITERATIONS (default 30 per case; fewer for huge results).
 */
import neo4jDriver from 'neo4j-driver';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { machine, request, startBenchNeo4j, startServiceProcess, summarize, writeResult } from './support.js';
import { rng } from './traffic.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import { graphQuery, maxRelsFor, type Direction } from '../src/store/lineage.js';

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 900);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const JOB_NS = 'airflow-prod';
const HUB_NS = 'kafka://broker-1.example.com:9092';
const dsNs = (k: number) => `postgres://warehouse-${k % 8}.example.com:5432`;
const TYPES = ['INTEGER', 'BIGINT', 'VARCHAR', 'TIMESTAMP', 'DECIMAL(18,2)', 'BOOLEAN'];

interface Ref {
  namespace: string;
  name: string;
}

interface GeneratedGraph {
  datasets: (Ref & { fields: string })[];
  jobs: (Ref & { inputs: Ref[]; outputs: Ref[]; failed: boolean })[];
  smallDegree: Ref[];
  /** raw: the most popular raw table; rare: an unpopular one (a mid-size downstream); dim: the dimension table. */
  hubs: { raw: Ref; rare: Ref; dim: Ref };
}

export function generate(domains: number): GeneratedGraph {
  const rand = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const fields = () =>
    JSON.stringify(
      Array.from({ length: 5 + Math.floor(rand() * 15) }, (_, i) => ({ name: `col_${i}`, type: pick(TYPES), description: null })),
    );
  const datasets: GeneratedGraph['datasets'] = [];
  const jobs: GeneratedGraph['jobs'] = [];
  const smallDegree: Ref[] = [];

  const hubs: Ref[] = Array.from({ length: 10 }, (_, h) => ({ namespace: HUB_NS, name: `raw.events_${h}` }));
  for (const [h, hub] of hubs.entries()) {
    const src = { namespace: HUB_NS, name: `source.topic_${h}` };
    datasets.push({ ...src, fields: fields() }, { ...hub, fields: fields() });
    jobs.push({ namespace: JOB_NS, name: `ingest.events_${h}`, inputs: [src], outputs: [hub], failed: false });
  }
  const dim = { namespace: dsNs(0), name: 'shared.dim_date' };
  datasets.push({ ...dim, fields: fields() });
  jobs.push({ namespace: JOB_NS, name: 'shared.build_dim_date', inputs: [], outputs: [dim], failed: false });

  for (let k = 0; k < domains; k++) {
    const ns = dsNs(k);
    const layers: Ref[][] = [];
    const depth = 15 + Math.floor(rand() * 21);
    for (let l = 0; l < depth; l++) {
      const width = 1 + Math.floor(rand() * 4);
      const layer: Ref[] = Array.from({ length: width }, (_, i) => ({ namespace: ns, name: `domain_${k}.l${l}_t${i}` }));
      for (const d of layer) datasets.push({ ...d, fields: fields() });
      if (l > 0) {
        for (const [i, out] of layer.entries()) {
          const prev = layers[l - 1];
          const inputs = new Set<Ref>();
          const n = 1 + Math.floor(rand() * Math.min(3, prev.length));
          while (inputs.size < n) inputs.add(pick(prev));
          if (l > 1 && rand() < 0.1) inputs.add(pick(layers[l - 2]));
          if (l === 1 && rand() < 0.4) inputs.add(hubs[Math.min(9, Math.floor(-Math.log(1 - rand() * 0.999) * 2.5))]);
          if (rand() < 0.05) inputs.add(dim);
          jobs.push({ namespace: JOB_NS, name: `domain_${k}.step_${l}_${i}`, inputs: [...inputs], outputs: [out], failed: rand() < 0.05 });
        }
      }
      layers.push(layer);
    }
    // A mid-chain dataset of the domain: a small-degree start node.
    if (k % 20 === 0) smallDegree.push(pick(layers[Math.floor(depth / 2)]));
  }
  return { datasets, jobs, smallDegree, hubs: { raw: hubs[0], rare: hubs[8], dim } };
}

export async function writeGraph(db: Db, g: GeneratedGraph): Promise<{ seconds: number; counts: Record<string, number> }> {
  const t0 = performance.now();
  const batches = <T>(xs: T[], n = 5000) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));
  const now = '2026-01-01T00:00:00Z';
  const namespaces = [...new Set([...g.datasets.map((d) => d.namespace), JOB_NS])];
  await db.write({ op: 'bench' }, (tx) =>
    tx.run(
      `UNWIND $names AS n MERGE (ns:Namespace {name: n}) ON CREATE SET ns.createdAt = datetime($now), ns.updatedAt = datetime($now), ns.ownerName = 'anonymous', ns.isHidden = false`,
      { names: namespaces, now },
    ),
  );
  for (const rows of batches(g.datasets)) {
    await db.write({ op: 'bench' }, (tx) =>
      tx.run(
        `UNWIND $rows AS r
         MATCH (ns:Namespace {name: r.namespace})
         CREATE (d:Dataset {namespace: r.namespace, name: r.name, physicalName: r.name, type: 'DB_TABLE', fields: r.fields,
                            createdAt: datetime($now), updatedAt: datetime($now), isDeleted: false, searchName: toLower(r.name)})
         CREATE (ns)-[:HAS_DATASET]->(d)
         CREATE (v:DatasetVersion {id: randomUUID(), namespace: r.namespace, name: r.name, createdAt: datetime($now), fields: r.fields})
         CREATE (v)-[:VERSION_OF]->(d), (d)-[:CURRENT_VERSION]->(v)
         SET d.currentVersion = v.id`,
        { rows, now },
      ),
    );
  }
  for (const rows of batches(g.jobs, 2000)) {
    await db.write({ op: 'bench' }, (tx) =>
      tx.run(
        `UNWIND $rows AS r
         MATCH (ns:Namespace {name: r.namespace})
         CREATE (j:Job {namespace: r.namespace, name: r.name, simpleName: r.name, type: 'BATCH', context: '{}',
                        createdAt: datetime($now), updatedAt: datetime($now), isDeleted: false, searchName: toLower(r.name)})
         CREATE (ns)-[:HAS_JOB]->(j)
         CREATE (run:Run {id: randomUUID(), state: CASE WHEN r.failed THEN 'FAILED' ELSE 'COMPLETED' END,
                          startedAt: datetime($now), endedAt: datetime($now) + duration('PT5M'), createdAt: datetime($now),
                          updatedAt: datetime($now), jobNamespace: r.namespace, jobName: r.name})
         CREATE (run)-[:RUN_OF]->(j), (j)-[:LATEST_RUN]->(run)
         WITH j, run, r
         CALL (j, run, r) {
           UNWIND r.inputs AS i
           MATCH (d:Dataset {namespace: i.namespace, name: i.name})-[:CURRENT_VERSION]->(v)
           CREATE (d)-[:INPUT_TO]->(j), (run)-[:READ]->(v)
         }
         CALL (j, run, r) {
           UNWIND r.outputs AS o
           MATCH (d:Dataset {namespace: o.namespace, name: o.name})-[:CURRENT_VERSION]->(v)
           CREATE (j)-[:PRODUCES]->(d), (run)-[:WROTE]->(v)
         }`,
        { rows, now },
      ),
    );
  }
  const res = await db.read({ op: 'bench' }, (tx) =>
    tx.run(`CALL () { MATCH (n) UNWIND labels(n) AS k RETURN k, count(*) AS c UNION ALL MATCH ()-[r]->() RETURN type(r) AS k, count(*) AS c } RETURN k, c`),
  );
  const counts: Record<string, number> = {};
  for (const r of res.records) counts[r.get('k')] = Number(r.get('c'));
  return { seconds: Math.round((performance.now() - t0) / 100) / 10, counts };
}

interface Case {
  start: string;
  ids: string[];
  direction: 'both' | 'upstream' | 'downstream';
  depth: number;
}

async function measure(url: string, c: Case, iterations: number) {
  const latencies: number[] = [];
  let bytes = 0;
  let nodes = 0;
  let truncated = false;
  const statuses: Record<number, number> = {};
  // One warm-up request per start node (plan cache, page cache), then the timed ones.
  for (const id of c.ids) await request(`${url}/api/v1/lineage?nodeId=${encodeURIComponent(id)}&depth=${c.depth}&direction=${c.direction}`, 'GET');
  const sizes: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const id = c.ids[i % c.ids.length];
    const s = performance.now();
    const res = await request(`${url}/api/v1/lineage?nodeId=${encodeURIComponent(id)}&depth=${c.depth}&direction=${c.direction}`, 'GET');
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
  return {
    start: c.start,
    direction: c.direction,
    depth: c.depth,
    requests: iterations,
    statuses,
    latencyMs: summarize(latencies),
    nodes: { min: sizes[0], median: sizes[Math.floor(sizes.length / 2)], max: sizes[sizes.length - 1] },
    lastResponseBytes: bytes,
    msPerThousandNodes: sizes.length ? Math.round((summarize(latencies).p50 / Math.max(1, sizes[Math.floor(sizes.length / 2)])) * 1000 * 10) / 10 : null,
    truncated,
  };
}

type PlanNode = { operatorType: string; arguments: Record<string, unknown>; children: PlanNode[]; rows?: number; dbHits?: number };

function planSummary(p: PlanNode, depth = 0, out: string[] = []): string[] {
  const details = typeof p.arguments?.Details === 'string' ? ` ${(p.arguments.Details as string).replace(/\s+/g, ' ').slice(0, 160)}` : '';
  const stats = p.rows !== undefined ? ` [rows=${p.rows}, dbHits=${p.dbHits}]` : '';
  out.push(`${'  '.repeat(depth)}${p.operatorType.replace(/@neo4j$/, '')}${details}${stats}`);
  for (const c of p.children) planSummary(c, depth + 1, out);
  return out;
}

/** PROFILE of the traversal query exactly as the service sends it, and Neo4j's own timing of it. */
async function profile(db: Db, nodeId: { namespace: string; name: string }, direction: Direction, depth: number) {
  const eid = (await db.read({ op: 'bench' }, (tx) => tx.run('MATCH (d:Dataset {namespace: $namespace, name: $name}) RETURN elementId(d) AS eid', nodeId)))
    .records[0].get('eid') as string;
  const text = graphQuery(direction, maxRelsFor('dataset', depth));
  const params = { startId: eid, maxNodes: neo4jDriver.int(20_001) };
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
      rows: prof.records.length,
      driverRoundTripMs: summarize(timings),
      plan: planSummary(prof.summary.profile as unknown as PlanNode),
    };
  } finally {
    await session.close();
  }
}

async function main() {
  const t0 = performance.now();
  const neo4j = await startBenchNeo4j('lineage');
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const db = new Db(driver, 'neo4j', 60_000);
  let service: Awaited<ReturnType<typeof startServiceProcess>> | null = null;
  try {
    await applySchema(db);
    const g = generate(DOMAINS);
    console.log(`generated ${g.jobs.length} jobs + ${g.datasets.length} datasets = ${g.jobs.length + g.datasets.length} nodes; writing them straight to Neo4j (UNWIND batches, model shape)`);
    const written = await writeGraph(db, g);
    console.log(`written in ${written.seconds} s:`, written.counts);

    service = await startServiceProcess(neo4j.uri, { QUERY_TIMEOUT_MS: '30000' });
    const small = g.smallDegree.map((d) => `dataset:${d.namespace}:${d.name}`);
    const starts: Record<string, string[]> = {
      'small-degree dataset (mid-chain, 45 rotating)': small,
      [`raw hub (dataset:${g.hubs.raw.namespace}:${g.hubs.raw.name})`]: [`dataset:${g.hubs.raw.namespace}:${g.hubs.raw.name}`],
      [`less-read raw hub (dataset:${g.hubs.rare.namespace}:${g.hubs.rare.name})`]: [`dataset:${g.hubs.rare.namespace}:${g.hubs.rare.name}`],
      [`dimension hub (dataset:${g.hubs.dim.namespace}:${g.hubs.dim.name})`]: [`dataset:${g.hubs.dim.namespace}:${g.hubs.dim.name}`],
    };
    const results = [];
    for (const [start, ids] of Object.entries(starts)) {
      for (const direction of ['downstream', 'upstream', 'both'] as const) {
        for (const depth of [1, 5, 20]) {
          // Probe the size first: huge answers get fewer iterations so the bench ends in minutes.
          const probe = await request(`${service.url}/api/v1/lineage?nodeId=${encodeURIComponent(ids[0])}&depth=${depth}&direction=${direction}`, 'GET');
          const iterations = probe.body.length > 5_000_000 ? 5 : probe.body.length > 500_000 ? 10 : ITERATIONS;
          const r = await measure(service.url, { start, ids, direction, depth }, iterations);
          results.push(r);
          console.log(
            `${start.padEnd(52).slice(0, 52)} ${direction.padEnd(10)} depth ${String(depth).padStart(2)}: p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms, ` +
              `nodes ${r.nodes.median} (max ${r.nodes.max}), ${Math.round(r.lastResponseBytes / 1024)} KiB${r.truncated ? ' TRUNCATED' : ''}`,
          );
        }
      }
    }

    const plans = [
      await profile(db, g.smallDegree[0], 'downstream', 20),
      await profile(db, g.smallDegree[0], 'both', 5),
      await profile(db, g.hubs.dim, 'downstream', 20),
    ];
    for (const p of plans) console.log(`\nPROFILE ${p.start} ${p.direction} depth ${p.depth} (${p.rows} rows, driver p50 ${p.driverRoundTripMs.p50} ms):\n${p.plan.join('\n')}`);

    const within = results.filter((r) => r.depth === 20 && (r.nodes.max ?? 0) <= 1000);
    const file = writeResult('lineage', {
      machine: { ...machine(), loadAverageAtEnd: os.loadavg().map((l) => Math.round(l * 100) / 100) },
      note: 'Latencies are end to end over HTTP (keep-alive, one request at a time) from a client on the same 2-core machine; other work on the machine shows up in p95 (see loadAverageAtEnd).',
      graph: {
        generatedBy: 'bench/lineage.ts: written straight into Neo4j with UNWIND-batched Cypher in the documented model shape (not ingested over HTTP)',
        domains: DOMAINS,
        jobs: g.jobs.length,
        datasets: g.datasets.length,
        counts: written.counts,
        writeSeconds: written.seconds,
      },
      target: 'p95 < 100 ms at depth 20 for results up to 1,000 nodes',
      depth20UpTo1000Nodes: within.map((r) => ({ start: r.start, direction: r.direction, nodes: r.nodes.max, p95: r.latencyMs.p95 })),
      results,
      plans,
      totalSeconds: Math.round((performance.now() - t0) / 1000),
    });
    console.log(`\nresults: ${file}`);
  } finally {
    await service?.stop();
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
