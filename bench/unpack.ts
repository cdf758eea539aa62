/**
 * bench:unpack: what reading a large lineage answer's Bolt messages costs the service, with the
 * neo4j-driver's own `Unpacker.unpack` (baseline) and with the fast-unpack patch
 * (src/neo4j/patches/fast-unpack.ts), in alternating rounds in one process.
 *
 * The messages are real: the lineage answers of bench:lineage:big (downstream of the raw hubs, 2,025
 * to 4,048 nodes) are asked of the graph kept in BENCH_NEO4J_HOME (bench:impact's; built there on
 * first use) through the service's driver, and every message's bytes are recorded as they arrive.
 * Unpacking then runs offline, on one core, from those bytes: no socket, no Neo4j.
 * Env: BENCH_NEO4J_HOME, BENCH_DOMAINS (default 900), BENCH_UNPACK_ROUNDS (default 12).
 */
import { createDriver } from '../src/neo4j/runtime.js';
import { installFastUnpack, PACKSTREAM_MODULE } from '../src/neo4j/patches/fast-unpack.js';
import { requireFromDriver, unpatched } from '../src/neo4j/patches/driver-internals.js';
import { Db, int } from '../src/store/db.js';
import { graphQuery, maxRelsFor, viewParams, DEFAULT_WINDOW } from '../src/store/lineage/view.js';
import { applySchema } from '../src/store/schema.js';
import { generate, HUB_NS, ingestOrReuse, KEPT_HOME } from './lineage-graph.js';
import { cpuSpeedProbe, machine, startBenchNeo4j, writeResult } from './support.js';

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 900);
const ROUNDS = Number(process.env.BENCH_UNPACK_ROUNDS ?? 12);
const CASES: [hub: number, depth: number][] = [
  [6, 20],
  [5, 11],
  [5, 20],
];

type Buf = { position: number; _buffer?: Buffer };
type Unpack = (this: unknown, buffer: Buf, hydrate?: (s: unknown) => unknown) => unknown;
const packstream = requireFromDriver(PACKSTREAM_MODULE);
const ChannelBuffer = requireFromDriver('neo4j-driver-bolt-connection/lib/channel/channel-buf.js').default;

const probe = cpuSpeedProbe();
const neo4j = await startBenchNeo4j('lineage-big', { homeDir: KEPT_HOME });
const driver = createDriver(neo4j.uri, 'neo4j', '');
if (!installFastUnpack()) throw new Error('the fast path could not be installed on this driver');
const fast = packstream.Unpacker.prototype.unpack as Unpack;
const driverOwn = unpatched(fast);
const answers: { name: string; messages: Buffer[]; bytes: number }[] = [];
try {
  const db = new Db(driver, 'neo4j', 120_000);
  await applySchema(db);
  await ingestOrReuse(db, generate(DOMAINS), DOMAINS, KEPT_HOME);
  // Record each message's bytes as the connection reads it (only the outermost call of a message).
  let depth = 0;
  let recording: Buffer[] | null = null;
  packstream.Unpacker.prototype.unpack = function (this: unknown, buffer: Buf, hydrate?: (s: unknown) => unknown) {
    if (depth === 0 && recording && buffer._buffer)
      recording.push(Buffer.from(buffer._buffer.subarray(buffer.position)));
    depth++;
    try {
      return fast.call(this, buffer, hydrate);
    } finally {
      depth--;
    }
  };
  for (const [hub, depthOfAnswer] of CASES) {
    const start = await driver.executeQuery(
      'MATCH (d:Dataset {namespace: $ns, name: $name}) RETURN elementId(d) AS e',
      {
        ns: HUB_NS,
        name: `raw.events_${hub}`,
      },
    );
    recording = [];
    const res = await driver.executeQuery(graphQuery('downstream', maxRelsFor('dataset', depthOfAnswer)), {
      startId: start.records[0].get('e'),
      ...viewParams({ asOf: null, window: DEFAULT_WINDOW }),
      facets: false,
      runDetails: false,
      maxNodes: int(20_001),
      chunk: int(500),
    });
    const messages = recording;
    const nodeCount = res.records.reduce((n, r) => n + (r.get('nodes') as unknown[]).length, 0);
    recording = null;
    answers.push({
      name: `raw.events_${hub} depth ${depthOfAnswer}: ${nodeCount} nodes`,
      messages,
      bytes: messages.reduce((n, m) => n + m.length, 0),
    });
  }
  packstream.Unpacker.prototype.unpack = fast;
} finally {
  await driver.close();
  await neo4j.stop();
}

// One unpacker class per side: the driver's own unpack recurses through `this.unpack`, so each side's
// method sits on its own prototype and every level of a message is read by that side.
const Unpacker = packstream.Unpacker as new (
  disableLosslessIntegers: boolean,
  useBigInt: boolean,
) => {
  unpack(buffer: Buf): unknown;
};
class DriverSide extends Unpacker {}
DriverSide.prototype.unpack = driverOwn;
class FastSide extends Unpacker {}
FastSide.prototype.unpack = fast;
const unpackers = { driver: new DriverSide(false, false), fastPath: new FastSide(false, false) };
function unpackAll(side: keyof typeof unpackers, messages: Buffer[]): number {
  const unpacker = unpackers[side];
  const t0 = performance.now();
  for (const m of messages) unpacker.unpack(new ChannelBuffer(m));
  return performance.now() - t0;
}
const results = answers.map(({ name, messages, bytes }) => {
  const ms = { driver: [] as number[], fastPath: [] as number[] };
  for (let i = 0; i < 10; i++) {
    unpackAll('driver', messages);
    unpackAll('fastPath', messages);
  }
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating which goes first, so drift in the machine's load favours neither.
    for (const side of i % 2 ? (['fastPath', 'driver'] as const) : (['driver', 'fastPath'] as const))
      ms[side].push(unpackAll(side, messages));
  }
  const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];
  const row = {
    answer: name,
    messages: messages.length,
    bytes,
    driverMs: +median(ms.driver).toFixed(1),
    fastPathMs: +median(ms.fastPath).toFixed(1),
    speedup: +(median(ms.driver) / median(ms.fastPath)).toFixed(2),
  };
  console.log(`${name}: driver ${row.driverMs} ms, fast path ${row.fastPathMs} ms per answer (${row.speedup}x)`);
  return row;
});
const file = writeResult('unpack', {
  machine: machine(),
  cpuSpeedProbeOpsPerSecond: { before: probe, after: cpuSpeedProbe() },
  note:
    'Median ms to unpack every Bolt message of a lineage answer, recorded from the kept bench graph, with the ' +
    "driver's own Unpacker.unpack and with the fast-unpack patch, alternating, in one process on one core.",
  rounds: ROUNDS,
  results,
});
console.log(`results: ${file}`);
