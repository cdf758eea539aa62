/**
 * bench:pack: what packing an ingest batch's parameters into Bolt costs the service, with the
 * neo4j-driver's own per-value type checks (baseline) and with the plain-params fast path
 * (src/neo4j/patches/plain-params.ts), measured in alternating rounds in one process.
 *
 * The batches are real: bench traffic is ingested at concurrency 32 into a local Neo4j (so batches
 * have the sizes and the warm-graph contents they have under load: unchanged facets left out), and
 * the parameters of each write statement are recorded. Packing then runs offline, on one core, into
 * the driver's own buffer: no socket, no Neo4j.
 */
import { IngestCommitter } from '../src/ingest/committer.js';
import { createLogger } from '../src/logger.js';
import { createDriver } from '../src/neo4j/runtime.js';
import {
  installPlainParamsFastPath,
  requireFromDriver,
  TRANSFORMER_MODULE,
} from '../src/neo4j/patches/plain-params.js';
import { Db, type TxRunner } from '../src/store/db.js';
import { writeBatchStatement } from '../src/store/ingest.js';
import { applySchema } from '../src/store/schema.js';
import { cpuSpeedProbe, machine, normalizedEvents, startBenchNeo4j, writeResult } from './support.js';
import { TrafficGenerator } from './traffic.js';

const WARM_EVENTS = Number(process.env.BENCH_PACK_WARM_EVENTS ?? 6000);
const RECORDED_EVENTS = Number(process.env.BENCH_PACK_EVENTS ?? 3000);
const ROUNDS = Number(process.env.BENCH_PACK_ROUNDS ?? 6);

// Captured before createDriver installs the fast path: the driver's own method, for the baseline.
const Transformer = requireFromDriver(TRANSFORMER_MODULE).default;
const driverToStructure: (value: unknown) => unknown = Transformer.prototype.toStructure;
const typeTransformers = requireFromDriver(
  'neo4j-driver-bolt-connection/lib/bolt/bolt-protocol-v5x8.transformer.js',
).default;
const { v2 } = requireFromDriver('neo4j-driver-bolt-connection/lib/packstream/index.js');
const { alloc } = requireFromDriver('neo4j-driver-bolt-connection/lib/channel/index.js');

const probeBefore = cpuSpeedProbe();
const neo4j = await startBenchNeo4j('pack');
const driver = createDriver(neo4j.uri, 'neo4j', '');
if (!installPlainParamsFastPath()) throw new Error('the fast path could not be installed on this driver');
const db = new Db(driver, 'neo4j', 60_000);
await applySchema(db);

const recorded: { params: unknown }[] = [];
let recording = false;
const write = db.write.bind(db);
db.write = (opts, work) =>
  write(opts, (tx) =>
    work({
      run: (query: string, params?: Record<string, unknown>) => {
        if (recording && query === writeBatchStatement()) recorded.push({ params });
        return tx.run(query, params);
      },
    } as TxRunner),
  );
const committer = new IngestCommitter(db, createLogger('silent'), {});
const gen = new TrafficGenerator({ pipelines: 200, jobsPerPipeline: 10 });
async function ingest(events: number): Promise<void> {
  const parsed = normalizedEvents(gen.events(events / 2));
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < parsed.length) await committer.submit(parsed[next++]);
    }),
  );
}
await ingest(WARM_EVENTS);
recording = true;
await ingest(RECORDED_EVENTS);
recording = false;
await driver.close();
await neo4j.stop();

function packAll(toStructure: (value: unknown) => unknown): { ms: number; bytes: number } {
  const buffer = alloc(8 * 1024 * 1024);
  const packer = new v2.Packer(buffer);
  let bytes = 0;
  const t0 = performance.now();
  for (const { params } of recorded) {
    buffer.position = 0;
    packer.packable(params, toStructure)();
    bytes += buffer.position;
  }
  return { ms: performance.now() - t0, bytes };
}

const sides = {
  driver: () => {
    const t = new Transformer(Object.values(typeTransformers).map((create: any) => create({}, undefined)));
    return packAll(driverToStructure.bind(t));
  },
  fastPath: () => {
    const t = new Transformer(Object.values(typeTransformers).map((create: any) => create({}, undefined)));
    return packAll(t.toStructure);
  },
};
for (let i = 0; i < 2; i++) {
  sides.driver();
  sides.fastPath();
} // JIT warm-up
const rounds: { driverUsPerEvent: number; fastPathUsPerEvent: number; ratio: number }[] = [];
let bytes = 0;
for (let i = 0; i < ROUNDS; i++) {
  const a = sides.driver();
  const b = sides.fastPath();
  bytes = b.bytes;
  const us = (ms: number) => Math.round((ms * 1000 * 10) / RECORDED_EVENTS) / 10;
  rounds.push({
    driverUsPerEvent: us(a.ms),
    fastPathUsPerEvent: us(b.ms),
    ratio: Math.round((a.ms / b.ms) * 100) / 100,
  });
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const result = {
  bench: 'pack',
  description:
    'CPU time to pack the parameters of recorded ingest write statements into Bolt, per event, driver type checks vs ' +
    'plain-params fast path',
  batches: recorded.length,
  eventsPerBatch: Math.round((RECORDED_EVENTS / recorded.length) * 10) / 10,
  boltBytesPerEvent: Math.round(bytes / RECORDED_EVENTS),
  rounds,
  median: {
    driverUsPerEvent: median(rounds.map((r) => r.driverUsPerEvent)),
    fastPathUsPerEvent: median(rounds.map((r) => r.fastPathUsPerEvent)),
    ratio: median(rounds.map((r) => r.ratio)),
  },
  cpuSpeedProbe: { before: probeBefore, after: cpuSpeedProbe() },
  machine: machine(),
};
console.log(
  JSON.stringify(result.median),
  `${result.batches} batches, ${result.eventsPerBatch} events each, ${result.boltBytesPerEvent} Bolt bytes per event`,
);
console.log(`results: ${writeResult('pack', result)}`);
