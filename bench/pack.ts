/**
 * bench:pack: what packing an ingest batch's parameters into Bolt costs the service, four ways in
 * alternating rounds in one process: the neo4j-driver's own packing with its per-value type checks
 * (driver), with the plain-params and fast-datetime fast paths (src/neo4j/patches/plain-params.ts,
 * fast-datetime.ts), with fast-pack on top (src/neo4j/patches/fast-pack.ts: values written straight into
 * the chunk buffer; what the service runs), and that last without fast-datetime (DateTimes encoded by the
 * driver's transformers).
 *
 * The batches are real: bench traffic is ingested at concurrency 32 into a local Neo4j (so batches
 * have the sizes and the warm-graph contents they have under load: unchanged facets left out), and
 * the parameters of each write statement are recorded. Packing then runs offline, on one core, into
 * the driver's own Chunker with the service's 16 KiB chunks (its writes discarded): no socket, no Neo4j.
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
const { Chunker } = requireFromDriver('neo4j-driver-bolt-connection/lib/channel/chunking.js');
const { installFastPack } = await import('../src/neo4j/patches/fast-pack.js');
const { isPlainObject } = await import('../src/neo4j/patches/plain-params.js');
const { unpatched } = await import('../src/neo4j/patches/driver-internals.js');
const { CHUNK_BUFFER_BYTES } = await import('../src/neo4j/patches/bolt-chunks.js');

const probeBefore = cpuSpeedProbe();
const neo4j = await startBenchNeo4j('pack');
const driver = createDriver(neo4j.uri, 'neo4j', '');
if (!installPlainParamsFastPath()) throw new Error('the fast path could not be installed on this driver');
if (!installFastPack()) throw new Error('fast-pack could not be installed on this driver');
/** The driver's own packer at every level (its packable recurses through this.packable). */
class DriverPacker extends v2.Packer {}
DriverPacker.prototype.packable = unpatched(v2.Packer.prototype.packable);
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
// A cold Neo4j is slow at first: no wait budget (the service's default refuses after 1 s).
const committer = new IngestCommitter(db, createLogger('silent'), { maxWaitMs: 120_000 });
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

function packAll(
  toStructure: (value: unknown) => unknown,
  P: new (channel: unknown) => { packable(x: unknown, d: unknown): () => void },
): { ms: number; bytes: number } {
  let bytes = 0;
  const chunker = new Chunker({ write: (b: { length: number }) => (bytes += b.length) }, CHUNK_BUFFER_BYTES);
  const packer = new P(chunker);
  const t0 = performance.now();
  for (const { params } of recorded) {
    packer.packable(params, toStructure)();
    chunker.messageBoundary();
    chunker.flush();
  }
  return { ms: performance.now() - t0, bytes };
}

/** The message bytes (chunk framing taken off) a side writes for every recorded batch: the same for all three. */
function messageBytes(
  toStructure: (value: unknown) => unknown,
  P: new (channel: unknown) => { packable(x: unknown, d: unknown): () => void },
): Buffer {
  const out: Buffer[] = [];
  const chunker = new Chunker(
    {
      write: (b: { _buffer: Buffer }) => {
        for (let at = 0; at < b._buffer.length; ) {
          const size = b._buffer.readUInt16BE(at);
          out.push(b._buffer.subarray(at + 2, at + 2 + size));
          at += 2 + size;
        }
      },
    },
    CHUNK_BUFFER_BYTES,
  );
  const packer = new P(chunker);
  for (const { params } of recorded) {
    packer.packable(params, toStructure)();
    chunker.messageBoundary();
    chunker.flush();
  }
  return Buffer.concat(out);
}

const transformer = () => new Transformer(Object.values(typeTransformers).map((create: any) => create({}, undefined)));
const sides = {
  driver: () => {
    const t = transformer();
    return packAll(driverToStructure.bind(t), DriverPacker);
  },
  fastPath: () => packAll(transformer().toStructure, DriverPacker),
  fastPack: () => packAll(transformer().toStructure, v2.Packer),
  // fast-pack with plain-params but not fast-datetime: DateTimes through the driver's transformers.
  fastPackDriverDateTimes: () => {
    const t = transformer();
    const viaDriver = driverToStructure.bind(t);
    const plainOrDriver = (v: unknown) =>
      v === null || typeof v !== 'object' || Array.isArray(v) || isPlainObject(v) ? v : viaDriver(v);
    return packAll(plainOrDriver, v2.Packer);
  },
};
const expected = messageBytes(driverToStructure.bind(transformer()), DriverPacker);
if (!messageBytes(transformer().toStructure, v2.Packer).equals(expected))
  throw new Error('fast-pack wrote other message bytes than the driver');
for (let i = 0; i < 2; i++) {
  sides.driver();
  sides.fastPath();
  sides.fastPack();
  sides.fastPackDriverDateTimes();
} // JIT warm-up
const rounds: {
  driverUsPerEvent: number;
  fastPathUsPerEvent: number;
  fastPackUsPerEvent: number;
  fastPackDriverDateTimesUsPerEvent: number;
  ratio: number;
  fastPackRatio: number;
  fastDateTimeRatio: number;
}[] = [];
let bytes = 0;
for (let i = 0; i < ROUNDS; i++) {
  const a = sides.driver();
  const b = sides.fastPath();
  const c = sides.fastPack();
  const d = sides.fastPackDriverDateTimes();
  bytes = b.bytes;
  const us = (ms: number) => Math.round((ms * 1000 * 10) / RECORDED_EVENTS) / 10;
  rounds.push({
    driverUsPerEvent: us(a.ms),
    fastPathUsPerEvent: us(b.ms),
    fastPackUsPerEvent: us(c.ms),
    fastPackDriverDateTimesUsPerEvent: us(d.ms),
    ratio: Math.round((a.ms / b.ms) * 100) / 100,
    fastPackRatio: Math.round((b.ms / c.ms) * 100) / 100,
    fastDateTimeRatio: Math.round((d.ms / c.ms) * 100) / 100,
  });
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const result = {
  bench: 'pack',
  description:
    'CPU time to pack the parameters of recorded ingest write statements into Bolt chunks, per event: the driver ' +
    'with its type checks, with the plain-params and fast-datetime fast paths, and with fast-pack on top; ' +
    'ratio = driver / fastPath, ' +
    'fastPackRatio = fastPath / fastPack; fastDateTimeRatio = fast-pack with the driver encoding DateTimes / ' +
    'fast-pack with fast-datetime (plain-params, fast-datetime and fast-pack are what the service runs)',
  batches: recorded.length,
  eventsPerBatch: Math.round((RECORDED_EVENTS / recorded.length) * 10) / 10,
  boltBytesPerEvent: Math.round(bytes / RECORDED_EVENTS),
  rounds,
  median: {
    driverUsPerEvent: median(rounds.map((r) => r.driverUsPerEvent)),
    fastPathUsPerEvent: median(rounds.map((r) => r.fastPathUsPerEvent)),
    fastPackUsPerEvent: median(rounds.map((r) => r.fastPackUsPerEvent)),
    ratio: median(rounds.map((r) => r.ratio)),
    fastPackRatio: median(rounds.map((r) => r.fastPackRatio)),
    fastPackDriverDateTimesUsPerEvent: median(rounds.map((r) => r.fastPackDriverDateTimesUsPerEvent)),
    fastDateTimeRatio: median(rounds.map((r) => r.fastDateTimeRatio)),
  },
  cpuSpeedProbe: { before: probeBefore, after: cpuSpeedProbe() },
  machine: machine(),
};
console.log(
  JSON.stringify(result.median),
  `${result.batches} batches, ${result.eventsPerBatch} events each, ${result.boltBytesPerEvent} Bolt bytes per event`,
);
console.log(`results: ${writeResult('pack', result)}`);
