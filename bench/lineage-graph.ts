/**
 * The 100k-node graph of bench:lineage and bench:impact, and how it gets into Neo4j: through the
 * ingest path (the planner and the ingest statements the service runs, in batched transactions in
 * this process, without HTTP), as OpenLineage events with a history per job, so lineage edges carry
 * real observation spans:
 *   - three runs per job: 45 days ago, 10 days ago and yesterday, each a single COMPLETE event with
 *     its inputs and outputs (the outputs with their schema), so each edge has three spans;
 *   - about 5% of jobs end with a failed run that read its inputs and never knew its outputs
 *     (START with inputs, FAIL without datasets): their outputs stay in view through the earlier runs;
 *   - about 3% write a partition of their own per run besides their table (dynamic outputs);
 *   - about 5% read one more table only in their first run (an input dropped 45 days ago: out of the
 *     default 30-day view, in view with window=all or asOf inside the old period).
 * Shape (deterministic PRNG): ~900 pipelines ("domains") of 15-35 layers, 1-4 datasets per layer,
 * one job per dataset reading 1-3 datasets of the layer before (diamonds) and sometimes two layers
 * back (skip edges); 10 raw "hub" tables fed by ingest jobs and read by the first layer of ~40% of the
 * domains with a skewed popularity; one dimension table (`dim_date`) read by ~5% of all jobs (a very
 * wide fan-out hub that ties the domains together for the undirected walk).
 */
import fs from 'node:fs';
import path from 'node:path';
import { rng } from './traffic.js';
import type { Db } from '../src/store/db.js';
import { writeEvents } from '../src/store/ingest.js';
import { parseEvent } from '../src/domain/openlineage/normalize.js';
import type { Incoming } from '../src/domain/ingest/rows.js';

/**
 * BENCH_NEO4J_HOME: a Neo4j server home kept between runs of bench:lineage, bench:lineage:big and bench:impact,
 * which share its graph (see ingestOrReuse); unset, each run builds its own.
 */
export const KEPT_HOME = process.env.BENCH_NEO4J_HOME ? path.resolve(process.env.BENCH_NEO4J_HOME) : undefined;

export const JOB_NS = 'airflow-prod';
export const HUB_NS = 'kafka://broker-1.example.com:9092';
const dsNs = (k: number) => `postgres://warehouse-${k % 8}.example.com:5432`;
const TYPES = ['INTEGER', 'BIGINT', 'VARCHAR', 'TIMESTAMP', 'DECIMAL(18,2)', 'BOOLEAN'];

export interface Ref {
  namespace: string;
  name: string;
}

export interface GeneratedGraph {
  datasets: (Ref & { fields: string })[];
  jobs: (Ref & { inputs: Ref[]; outputs: Ref[]; failed: boolean; partitioned: boolean; droppedInput: Ref | null })[];
  smallDegree: Ref[];
  /** raw: the most popular raw table; rare: an unpopular one (a mid-size downstream); dim: the dimension table. */
  hubs: { raw: Ref; rare: Ref; dim: Ref };
}

export function generate(domains: number): GeneratedGraph {
  const rand = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const fields = () =>
    JSON.stringify(
      Array.from({ length: 5 + Math.floor(rand() * 15) }, (_, i) => ({
        name: `col_${i}`,
        type: pick(TYPES),
        description: null,
      })),
    );
  const datasets: GeneratedGraph['datasets'] = [];
  const jobs: GeneratedGraph['jobs'] = [];
  const smallDegree: Ref[] = [];

  const hubs: Ref[] = Array.from({ length: 10 }, (_, h) => ({ namespace: HUB_NS, name: `raw.events_${h}` }));
  for (const [h, hub] of hubs.entries()) {
    const src = { namespace: HUB_NS, name: `source.topic_${h}` };
    datasets.push({ ...src, fields: fields() }, { ...hub, fields: fields() });
    jobs.push({
      namespace: JOB_NS,
      name: `ingest.events_${h}`,
      inputs: [src],
      outputs: [hub],
      failed: false,
      partitioned: false,
      droppedInput: null,
    });
  }
  const dim = { namespace: dsNs(0), name: 'shared.dim_date' };
  datasets.push({ ...dim, fields: fields() });
  jobs.push({
    namespace: JOB_NS,
    name: 'shared.build_dim_date',
    inputs: [],
    outputs: [dim],
    failed: false,
    partitioned: false,
    droppedInput: null,
  });

  for (let k = 0; k < domains; k++) {
    const ns = dsNs(k);
    const layers: Ref[][] = [];
    const depth = 15 + Math.floor(rand() * 21);
    for (let l = 0; l < depth; l++) {
      const width = 1 + Math.floor(rand() * 4);
      const layer: Ref[] = Array.from({ length: width }, (_, i) => ({
        namespace: ns,
        name: `domain_${k}.l${l}_t${i}`,
      }));
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
          const failed = rand() < 0.05;
          const partitioned = rand() < 0.03;
          const spare = prev.filter((d) => !inputs.has(d));
          const droppedInput = spare.length > 0 && rand() < 0.05 ? pick(spare) : null;
          jobs.push({
            namespace: JOB_NS,
            name: `domain_${k}.step_${l}_${i}`,
            inputs: [...inputs],
            outputs: [out],
            failed,
            partitioned,
            droppedInput,
          });
        }
      }
      layers.push(layer);
    }
    // A mid-chain dataset of the domain: a small-degree start node.
    if (k % 20 === 0) smallDegree.push(pick(layers[Math.floor(depth / 2)]));
  }
  return { datasets, jobs, smallDegree, hubs: { raw: hubs[0], rare: hubs[8], dim } };
}

const DAY = 24 * 60 * 60 * 1000;
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.0/integration/airflow';
const SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

function runId(index: number, run: number): string {
  const hex = (index * 4 + run).toString(16).padStart(12, '0');
  return `0190b000-0000-7000-8000-${hex}`;
}

/** The events of one job's history (see the header), oldest first. */
export function jobEventsWith(
  job: GeneratedGraph['jobs'][number],
  now: number,
  index: number,
  fields: (d: Ref) => string | null,
): Record<string, unknown>[] {
  const ds = (d: Ref, withSchema: boolean) => {
    const f = withSchema ? fields(d) : null;
    return {
      namespace: d.namespace,
      name: d.name,
      facets: f
        ? {
            schema: {
              _producer: PRODUCER,
              _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json',
              fields: JSON.parse(f),
            },
          }
        : {},
    };
  };
  const event = (eventType: string, at: number, run: number, inputs: Ref[], outputs: Ref[]) => ({
    eventType,
    eventTime: new Date(at).toISOString(),
    producer: PRODUCER,
    schemaURL: SCHEMA_URL,
    run: { runId: runId(index, run), facets: {} },
    job: { namespace: job.namespace, name: job.name, facets: {} },
    inputs: inputs.map((d) => ds(d, false)),
    outputs: outputs.map((d) => ds(d, true)),
  });
  // Jobs of one run spread over an hour, so runs of a pipeline are ordered but not simultaneous.
  const offset = (index % 3600) * 1000;
  const partition = (run: number): Ref[] =>
    job.partitioned ? job.outputs.map((o) => ({ namespace: o.namespace, name: `${o.name}/part=${run}` })) : [];
  const events: Record<string, unknown>[] = [];
  events.push(
    event(
      'COMPLETE',
      now - 45 * DAY + offset,
      1,
      [...job.inputs, ...(job.droppedInput ? [job.droppedInput] : [])],
      [...job.outputs, ...partition(1)],
    ),
  );
  events.push(event('COMPLETE', now - 10 * DAY + offset, 2, job.inputs, [...job.outputs, ...partition(2)]));
  if (job.failed) {
    events.push(event('START', now - DAY + offset, 3, job.inputs, []));
    events.push(event('FAIL', now - DAY + offset + 60_000, 3, [], []));
  } else {
    events.push(event('COMPLETE', now - DAY + offset, 3, job.inputs, [...job.outputs, ...partition(3)]));
  }
  return events;
}

/**
 * Writes the graph through the ingest path: every job's events, in transactions of `batch` events
 * (two at a time, as the service's two writers), oldest runs first. `now` anchors the history.
 */
export async function ingestGraph(
  db: Db,
  g: GeneratedGraph,
  opts: { now?: number; batch?: number; log?: (msg: string) => void } = {},
): Promise<{ seconds: number; events: number; counts: Record<string, number> }> {
  const t0 = performance.now();
  const now = opts.now ?? Date.now();
  const batch = opts.batch ?? 100;
  const fields = new Map(g.datasets.map((d) => [`${d.namespace}\u0000${d.name}`, d.fields]));
  // Runs in the order they happened: all first runs, then all second runs, then the third.
  const perJob = g.jobs.map((job, i) =>
    jobEventsWith(job, now, i, (d) => fields.get(`${d.namespace}\u0000${d.name}`) ?? null),
  );
  const ordered: Record<string, unknown>[] = [];
  for (let r = 0; r < 4; r++) for (const events of perJob) if (events[r]) ordered.push(events[r]);
  const items: Incoming[] = ordered.map((e) => {
    const parsed = parseEvent(e);
    if (!parsed.ok) throw new Error(`bench event rejected: ${JSON.stringify(parsed.problems)}`);
    return { event: parsed.event, receivedAt: parsed.event.eventTime };
  });
  let next = 0;
  let done = 0;
  const writer = async () => {
    for (;;) {
      const start = next;
      next += batch;
      if (start >= items.length) return;
      const slice = items.slice(start, start + batch);
      await db.write({ op: `bench ingest x${slice.length}`, timeoutMs: 300_000 }, (tx) => writeEvents(tx, slice));
      done += slice.length;
      if (opts.log && Math.floor(done / 20_000) !== Math.floor((done - slice.length) / 20_000)) {
        opts.log(
          `  ${done} / ${items.length} events ingested (${Math.round(done / ((performance.now() - t0) / 1000))} ` +
            `events/s)`,
        );
      }
    }
  };
  await Promise.all([writer(), writer()]);
  const res = await db.read({ op: 'bench' }, (tx) =>
    tx.run(
      `CALL () { MATCH (n) UNWIND labels(n) AS k RETURN k, count(*) AS c UNION ALL MATCH ()-[r]->() RETURN type(r) ` +
        `AS k, count(*) AS c } RETURN k, c`,
    ),
  );
  const counts: Record<string, number> = {};
  for (const r of res.records) counts[r.get('k')] = Number(r.get('c'));
  return { seconds: Math.round((performance.now() - t0) / 100) / 10, events: items.length, counts };
}

/**
 * The graph in a server home kept between runs (bench:impact, bench:lineage:big): ingested once, its
 * facts in a marker file written after the ingest, reused by later runs with the same `domains`.
 * Without a kept home it is ingested every time. `reused` says which happened.
 */
export async function ingestOrReuse(
  db: Db,
  g: GeneratedGraph,
  domains: number,
  keptHome: string | undefined,
): Promise<{ written: Awaited<ReturnType<typeof ingestGraph>>; reused: boolean }> {
  const marker = keptHome ? path.join(keptHome, 'bench-impact-graph.json') : null;
  const kept =
    marker && fs.existsSync(marker)
      ? (JSON.parse(fs.readFileSync(marker, 'utf8')) as {
          domains: number;
          written: Awaited<ReturnType<typeof ingestGraph>>;
        })
      : null;
  if (kept && kept.domains !== domains) throw new Error(`${keptHome} holds a graph of ${kept.domains} domains`);
  if (kept) {
    console.log(`reusing the graph in ${keptHome}, ingested ${kept.written.events} events earlier`);
    return { written: kept.written, reused: true };
  }
  const written = await ingestGraph(db, g, { log: console.log });
  console.log(`ingested ${written.events} events in ${written.seconds} s:`, written.counts);
  if (marker) fs.writeFileSync(marker, JSON.stringify({ domains, written, at: new Date() }));
  return { written, reused: false };
}
