/**
 * npm run bench:read — read API latency on a large graph: 10,000 jobs, 20,000 datasets and
 * 100,000 runs written through the real ingest code (parser + committer, in-process, no HTTP, to
 * keep generation time down), then p50/p95 of the list endpoints (first and last page), job get,
 * dataset versions, runs, search. Target: p95 < 50 ms for each. Requests are sequential, through a
 * real HTTP listener of the app.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { machine, request, startBenchNeo4j, summarize, writeResult } from './support.js';
import { LocalNeo4jServer } from '../src/neo4j/local/server.js';
import { NEO4J_DEFAULT_VERSION } from '../src/config.js';
import { projectRoot } from '../src/paths.js';
import { rng } from './traffic.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { Db, toNative } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import { parseEvent } from '../src/domain/openlineage/normalize.js';
import { IngestCommitter } from '../src/ingest/committer.js';
import { queryTimings, setIngestProfile } from '../src/store/ingest.js';
import { ingestProfile } from '../src/config.js';

setIngestProfile(ingestProfile(process.env.INGEST_PROFILE));
import { createLogger } from '../src/logger.js';
import { createApp } from '../src/app.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);
const RUNS_PER_JOB = Number(process.env.BENCH_RUNS_PER_JOB ?? 10);
const DATASET_NS = 'postgres://warehouse:5432';
const JOB_NS = 'airflow-bench';
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.0/integration/airflow';
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);

const schema = (name: string) => ({
  _producer: PRODUCER,
  _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json',
  fields: ['id', 'created_at', 'amount', 'status', 'customer_id'].map((f, i) => ({
    name: `${f}`,
    type: ['BIGINT', 'TIMESTAMP', 'DECIMAL', 'VARCHAR', 'BIGINT'][i],
    description: `${f} of ${name}`,
  })),
});

/**
 * Job i reads ds_i (and sometimes ds_(i-1)) and writes ds_(10000+i): 2 datasets per job, chains through shared inputs.
 */
function runEventFor(job: number, run: number): Record<string, unknown> {
  const t = Date.parse('2024-01-01T00:00:00Z') + (run * JOBS + job) * 1000;
  const ds = (i: number) => ({
    namespace: DATASET_NS,
    name: `analytics.table_${String(i).padStart(5, '0')}`,
    facets: { schema: schema(`t${i}`) },
  });
  const inputs = [ds(job)];
  if (job > 0 && job % 3 === 0) inputs.push(ds(job - 1));
  return {
    eventType: (job + run) % 17 === 16 ? 'FAIL' : 'COMPLETE',
    eventTime: new Date(t).toISOString(),
    producer: PRODUCER,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: randomUUID(), facets: {} },
    job: { namespace: JOB_NS, name: `dag_${Math.floor(job / 10)}.task_${job % 10}`, facets: {} },
    inputs,
    outputs: [ds(JOBS + job)],
  };
}

async function generate(db: Db): Promise<number> {
  const committer = new IngestCommitter(db, createLogger('silent'), { maxBatch: 256, writers: 1, timeoutMs: 120_000 });
  const total = JOBS * RUNS_PER_JOB;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      while (next < total) {
        const i = next++;
        const parsed = parseEvent(runEventFor(i % JOBS, Math.floor(i / JOBS)));
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
        await committer.submit(parsed.event);
        if (i % 10_000 === 0)
          console.log(`  ingested ${i} / ${total} events (${Math.round((performance.now() - t0) / 1000)} s)`);
      }
    }),
  );
  return (performance.now() - t0) / 1000;
}

async function measure(
  base: string,
  paths: () => string,
): Promise<ReturnType<typeof summarize> & { status: number; bytes: number }> {
  const lat: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < 10; i++) await request(base + paths(), 'GET'); // warm-up: plans, page cache
  for (let i = 0; i < SAMPLES; i++) {
    const s = performance.now();
    const res = await request(base + paths(), 'GET');
    lat.push(performance.now() - s);
    status = res.status;
    bytes = Math.max(bytes, res.body.length);
  }
  return { ...summarize(lat), status, bytes };
}

/**
 * BENCH_REUSE=<name> keeps the generated graph in a persistent server home (.neo4j/<name>) and skips
 * generation when it already holds the graph: for iterating on read queries without re-ingesting.
 */
async function startNeo4j(): Promise<LocalNeo4jServer> {
  const reuse = process.env.BENCH_REUSE;
  if (!reuse) return startBenchNeo4j('read');
  const server = new LocalNeo4jServer({
    dir: process.env.NEO4J_LOCAL_DIR ?? path.join(projectRoot, '.neo4j'),
    version: NEO4J_DEFAULT_VERSION,
    boltPort: 0,
    heap: process.env.BENCH_NEO4J_HEAP ?? '2g',
    pageCache: process.env.BENCH_NEO4J_PAGECACHE ?? '1g',
    homeName: reuse,
    ephemeral: false,
  });
  await server.start();
  return server;
}

async function main() {
  const neo4j = await startNeo4j();
  const driver = createDriver(neo4j.uri, 'neo4j', '');
  const db = new Db(driver, 'neo4j', 60_000);
  try {
    await applySchema(db);
    const existing = toNative(
      (await db.read({ op: 'bench' }, (tx) => tx.run('MATCH (j:Job) RETURN count(j) AS jobs'))).records[0].get('jobs'),
    ) as number;
    let seconds = 0;
    if (existing >= JOBS) console.log(`reusing the graph in ${process.env.BENCH_REUSE} (${existing} jobs)`);
    else {
      console.log(
        `generating ${JOBS} jobs, ${JOBS * 2} datasets, ${JOBS * RUNS_PER_JOB} runs through the ingest path...`,
      );
      seconds = await generate(db);
    }
    const counts = toNative(
      (
        await db.read({ op: 'bench' }, (tx) =>
          tx.run(
            'MATCH (j:Job) WITH count(j) AS jobs MATCH (d:Dataset) WITH jobs, count(d) AS datasets MATCH (r:Run) ' +
              'WITH jobs, datasets, count(r) AS runs MATCH (e:LineageEvent) RETURN jobs, datasets, runs, count(e) AS ' +
              'events',
          ),
        )
      ).records[0].toObject(),
    ) as Record<string, number>;
    console.log('graph:', counts, `in ${Math.round(seconds)} s`);
    if (queryTimings.size) {
      console.table(
        Object.fromEntries(
          [...queryTimings.entries()].map(([k, v]) => [
            k,
            { calls: v.length, totalMs: Math.round(v.reduce((a, b) => a + b, 0)) },
          ]),
        ),
      );
    }

    const { koa } = createApp({ db, logger: createLogger('silent'), bodyLimitBytes: 10 * 1024 * 1024 });
    const server = http.createServer(koa.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const rand = rng(7);
    const pick = (n: number) => Math.floor(rand() * n);
    const ns = encodeURIComponent(DATASET_NS);
    const jobName = () => encodeURIComponent(`dag_${pick(JOBS / 10)}.task_${pick(10)}`);
    const dsName = () => `analytics.table_${String(pick(JOBS * 2)).padStart(5, '0')}`;
    const lastJobs = Math.max(0, JOBS - 100);
    const lastDatasets = Math.max(0, JOBS * 2 - 100);
    const lastEvents = Math.max(0, counts.events - 100);
    const runId = toNative(
      (await db.read({ op: 'bench' }, (tx) => tx.run('MATCH (r:Run) RETURN r.id AS id LIMIT 1'))).records[0].get('id'),
    ) as string;
    const endpoints: Record<string, () => string> = {
      'namespace jobs, first page': () => `/api/v1/namespaces/${JOB_NS}/jobs?limit=100`,
      'namespace jobs, last page': () => `/api/v1/namespaces/${JOB_NS}/jobs?limit=100&offset=${lastJobs}`,
      'all jobs, first page': () => '/api/v1/jobs?limit=100',
      'all jobs, last page': () => `/api/v1/jobs?limit=100&offset=${lastJobs}`,
      'jobs filtered by lastRunStates=FAILED': () => '/api/v1/jobs?limit=100&lastRunStates=FAILED',
      'datasets, first page': () => `/api/v1/namespaces/${ns}/datasets?limit=100`,
      'datasets, last page': () => `/api/v1/namespaces/${ns}/datasets?limit=100&offset=${lastDatasets}`,
      'job get': () => `/api/v1/namespaces/${JOB_NS}/jobs/${jobName()}`,
      'job runs': () => `/api/v1/namespaces/${JOB_NS}/jobs/${jobName()}/runs?limit=100`,
      'job versions': () => `/api/v1/namespaces/${JOB_NS}/jobs/${jobName()}/versions`,
      'dataset get': () => `/api/v1/namespaces/${ns}/datasets/${dsName()}`,
      'dataset versions': () => `/api/v1/namespaces/${ns}/datasets/${dsName()}/versions`,
      'run get': () => `/api/v1/jobs/runs/${runId}`,
      'search (substring, ~100 matches, 10 results)': () => `/api/v1/search?q=table_0${pick(10)}${pick(10)}`,
      'search (~1,000 matches, sort=updated_at)': () => `/api/v1/search?q=table_1${pick(10)}&sort=updated_at`,
      'search (matches 30,000 names, 10 results)': () => `/api/v1/search?q=a`,
      'events, first page': () => '/api/v1/events/lineage?limit=100',
      'events, last page': () => `/api/v1/events/lineage?limit=100&offset=${lastEvents}`,
      namespaces: () => '/api/v1/namespaces',
      sources: () => '/api/v1/sources',
      tags: () => '/api/v1/tags',
      'stats lineage-events (DAY)': () => '/api/v1/stats/lineage-events?period=DAY',
      'stats jobs (WEEK)': () => '/api/v1/stats/jobs?period=WEEK&timezone=Europe/Paris',
      'stats datasets (DAY)': () => '/api/v1/stats/datasets?period=DAY',
    };
    // Not in the list: a one-letter query matching every name, to show that search costs grow
    // with the number of matches (the total must count them all).
    const stress = new Set(['search (matches 30,000 names, 10 results)']);
    const loadBefore = os.loadavg();
    const results: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(endpoints)) {
      const r = await measure(base, path);
      results[name] = r;
      console.log(`${name.padEnd(40)} status ${r.status}  p50 ${r.p50} ms  p95 ${r.p95} ms  (${r.bytes} bytes)`);
    }
    server.close();
    const measured = Object.entries(results)
      .filter(([name]) => !stress.has(name))
      .map(([, r]) => r) as { p95: number; status: number }[];
    writeResult('read', {
      benchmark: 'read',
      machine: machine(),
      loadAverage: { beforeMeasuring: loadBefore, after: os.loadavg() },
      graph: {
        ...counts,
        generatedThrough: 'parseEvent + IngestCommitter (the ingest path, in-process, no HTTP)',
        generationSeconds: Math.round(seconds),
      },
      samplesPerEndpoint: SAMPLES,
      endpoints: results,
      target: { p95Ms: 50 },
      met: measured.every((r) => r.status === 200 && r.p95 < 50),
      notCountedInMet: [...stress],
    });
  } finally {
    await driver.close();
    await neo4j.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
