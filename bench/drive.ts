/**
 * Drives the running service over HTTP: POSTs events at a given concurrency and measures events/s,
 * latency, the service's RSS, its ingest transactions (from /metrics) and CPU per event by process.
 * Shared by bench:ingest and bench:ingest-ab.
 */
import { gcCpuSeconds, jitCpuSeconds, machineCpu, processCpuSeconds, request, summarize } from './support.js';
import { KeepAliveConnection, type Answer } from './http-client.js';

/**
 * The generator's HTTP client: `lean` (default), one KeepAliveConnection per producer; `node`, Node's
 * http.request with a keep-alive agent (what the bench used before 2026-11-24; BENCH_HTTP_CLIENT=node).
 */
export const HTTP_CLIENT = process.env.BENCH_HTTP_CLIENT === 'node' ? 'node' : 'lean';

function producerClient(url: string): { post(body: Buffer): Promise<Answer>; close(): void } {
  if (HTTP_CLIENT === 'lean') return new KeepAliveConnection(url, '/api/v1/lineage');
  return { post: (body) => request(`${url}/api/v1/lineage`, 'POST', body), close: () => undefined };
}

export interface Pids {
  /** The service's process, or its processes when it runs as several replicas. */
  service: number | number[];
  neo4j: number;
}

const serviceCpuSeconds = (service: number | number[]) =>
  [service].flat().reduce((sum, pid) => sum + processCpuSeconds(pid), 0);

/**
 * CPU per event by process and how busy the whole machine was, over one measured level: on 2
 * cores this says whether a level was CPU-bound and who spent the CPU.
 */
function cpuMeter(pids: Pids) {
  const start = {
    service: serviceCpuSeconds(pids.service),
    neo4j: processCpuSeconds(pids.neo4j),
    jit: jitCpuSeconds(pids.neo4j),
    gc: gcCpuSeconds(pids.neo4j),
    client: process.cpuUsage(),
    machine: machineCpu(),
  };
  return (events: number) => {
    const client = process.cpuUsage(start.client);
    const m = machineCpu();
    const perEvent = (seconds: number) => Math.round((seconds * 1000 * 100) / events) / 100;
    const neo4jSeconds = processCpuSeconds(pids.neo4j) - start.neo4j;
    const jitSeconds = jitCpuSeconds(pids.neo4j) - start.jit;
    const gcSeconds = gcCpuSeconds(pids.neo4j) - start.gc;
    return {
      jitShareOfNeo4j: Math.round((jitSeconds / neo4jSeconds) * 100) / 100,
      gcShareOfNeo4j: Math.round((gcSeconds / neo4jSeconds) * 100) / 100,
      msPerEvent: {
        neo4j: perEvent(neo4jSeconds),
        service: perEvent(serviceCpuSeconds(pids.service) - start.service),
        loadGenerator: perEvent((client.user + client.system) / 1e6),
      },
      machineBusyPercent: Math.round(
        ((m.busy - start.machine.busy) / (m.busy - start.machine.busy + m.idle - start.machine.idle)) * 100,
      ),
    };
  };
}

/** The service's ingest transaction counters (GET /metrics), summed over its replicas. */
async function ingestCounters(urls: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const url of urls) {
    const text = await (await fetch(`${url}/metrics`)).text();
    for (const m of text.matchAll(/^lineage_ingest_(\w+)_total (\d+)/gm)) out[m[1]] = (out[m[1]] ?? 0) + Number(m[2]);
    for (const m of text.matchAll(/^lineage_ingest_transaction_events_bucket\{le="([^"]+)"\} (\d+)/gm))
      out[`le${m[1]}`] = (out[`le${m[1]}`] ?? 0) + Number(m[2]);
  }
  return out;
}

/**
 * `url` may list several replicas of the service (one Neo4j): producer i then always posts to
 * replica i mod n, as behind a load balancer with sticky connections.
 */
export async function drive(
  url: string | string[],
  events: string[],
  concurrency: number,
  sampleRss: () => number,
  pids: Pids,
  { collectFirst = false }: { collectFirst?: boolean } = {},
) {
  const urls = [url].flat();
  const before = await ingestCounters(urls);
  // Encoded before the clock starts: a producer has its event in hand when it posts.
  const bodies = events.map((e) => Buffer.from(e));
  // collectFirst (bench:ingest-ab, run with --expose-gc): the generator's garbage is collected before the
  // meter starts. A major collection of the generator's heap inside a measured level took the machine from
  // the side being measured, and showed as 0.8-1.1 ms of load-generator CPU per event where it is under 0.1
  // (bench/results/ingest-ab-new-entities-fast-pack.json). The collection's sweeping goes on in the
  // background after gc() returns: 300 ms lets it finish, where starting at once put about 0.1 ms per
  // event of it inside the level. bench:ingest does not pause: its cold-start curve and sustained rate are
  // of producers that do not stop between levels.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (collectFirst && gc) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const cpu = cpuMeter(pids);
  let next = 0;
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let maxRss = 0;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, sampleRss())), 250);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, producer) => {
      const client = producerClient(urls[producer % urls.length]);
      try {
        while (next < bodies.length) {
          const body = bodies[next++];
          const s = performance.now();
          const res = await client.post(body);
          latencies.push(performance.now() - s);
          if (res.status !== 201) failures[res.status] = (failures[res.status] ?? 0) + 1;
        }
      } finally {
        client.close();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpuUse = cpu(events.length);
  clearInterval(sampler);
  maxRss = Math.max(maxRss, sampleRss());
  const after = await ingestCounters(urls);
  const transactions = after.transactions - before.transactions;
  // Share of transactions by size, from the service's histogram: "le8" is the share with 5-8 events.
  const bounds = Object.keys(after).filter((k) => k.startsWith('le') && k !== 'le+Inf');
  const sizes: Record<string, number> = {};
  let below = 0;
  for (const k of bounds) {
    const cumulative = (after[k] ?? 0) - (before[k] ?? 0);
    if (cumulative > below) sizes[k] = Math.round(((cumulative - below) / transactions) * 100) / 100;
    below = cumulative;
  }
  const transactionsInfo = {
    count: transactions,
    meanEvents: Math.round(((after.committed_events - before.committed_events) / transactions) * 10) / 10,
    sizeShares: sizes,
    retried: after.retries - before.retries,
    split: after.split_batches - before.split_batches,
  };
  return {
    concurrency,
    httpClient: HTTP_CLIENT,
    events: events.length,
    seconds: Math.round(seconds * 100) / 100,
    eventsPerSecond: Math.round(events.length / seconds),
    latencyMs: summarize(latencies),
    failures,
    serviceRssMiB: maxRss,
    transactions: transactionsInfo,
    cpu: cpuUse,
  };
}
