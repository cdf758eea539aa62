/**
 * bench:joined-messages: what reading the hub's blast radius costs the service's driver with the
 * joined-messages patch (src/neo4j/patches/joined-messages.ts) and without it (the driver's combined
 * buffers), toggled per query in one process: the blast radius of the most-read raw hub at depth 20
 * (10,000 nodes wanted; 1,000 nodes per record, so every record is several Bolt chunks), asked of the
 * graph kept in BENCH_NEO4J_HOME (bench:impact's; built there on first use). Measured: this process's
 * CPU from the first record to the last (what the service spends reading; Neo4j's time before the first
 * record is the same for both), as medians over the rounds, alternating which side goes first.
 * Env: BENCH_NEO4J_HOME, BENCH_DOMAINS (default 900), BENCH_JOINED_ROUNDS (default 24).
 */
import { createDriver } from '../src/neo4j/runtime.js';
import { CHUNKING_MODULE } from '../src/neo4j/patches/bolt-chunks.js';
import { ORIGINAL, requireFromDriver } from '../src/neo4j/patches/driver-internals.js';
import { Db, int } from '../src/store/db.js';
import { impactQuery } from '../src/store/impact.js';
import { maxRelsFor, viewParams, DEFAULT_WINDOW } from '../src/store/lineage/view.js';
import { applySchema } from '../src/store/schema.js';
import { generate, HUB_NS, ingestOrReuse, KEPT_HOME } from './lineage-graph.js';
import { cpuSpeedProbe, machine, startBenchNeo4j, writeResult } from './support.js';

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 900);
const ROUNDS = Number(process.env.BENCH_JOINED_ROUNDS ?? 24);
const WARM_UP = 5;

type OnHeader = ((header: number) => unknown) & { [ORIGINAL]?: OnHeader };
const dechunker = (requireFromDriver(CHUNKING_MODULE) as { Dechunker: { prototype: { _onHeader: OnHeader } } })
  .Dechunker.prototype;

const probe = cpuSpeedProbe();
const neo4j = await startBenchNeo4j('joined-messages', { homeDir: KEPT_HOME });
const driver = createDriver(neo4j.uri, 'neo4j', '');
const joined = dechunker._onHeader;
const combined = joined[ORIGINAL];
if (!combined) throw new Error('the joined-messages patch is not installed on this driver');
const cpuMs = { joined: [] as number[], combined: [] as number[] };
let nodes = 0;
let records = 0;
try {
  const db = new Db(driver, 'neo4j', 120_000);
  await applySchema(db);
  await ingestOrReuse(db, generate(DOMAINS), DOMAINS, KEPT_HOME);
  const start = await driver.executeQuery('MATCH (d:Dataset {namespace: $ns, name: $name}) RETURN elementId(d) AS e', {
    ns: HUB_NS,
    name: 'raw.events_0',
  });
  const text = impactQuery('blast-radius', 'downstream', maxRelsFor('dataset', 20));
  const params = {
    startId: start.records[0].get('e'),
    ...viewParams({ asOf: null, window: DEFAULT_WINDOW }),
    rows: int(10_001),
    state: null,
    chunk: int(1000),
  };
  for (let i = 0; i < WARM_UP + ROUNDS; i++) {
    for (const side of i % 2 ? (['combined', 'joined'] as const) : (['joined', 'combined'] as const)) {
      dechunker._onHeader = side === 'joined' ? joined : combined;
      const session = driver.session({ defaultAccessMode: 'READ' });
      try {
        let first: NodeJS.CpuUsage | null = null;
        nodes = 0;
        records = 0;
        for await (const rec of session.run(text, params)) {
          first ??= process.cpuUsage();
          nodes += (rec.get('nodes') as unknown[]).length;
          records++;
        }
        const used = process.cpuUsage(first!);
        if (i >= WARM_UP) cpuMs[side].push((used.user + used.system) / 1000);
      } finally {
        await session.close();
      }
    }
  }
} finally {
  dechunker._onHeader = joined;
  await driver.close();
  await neo4j.stop();
}

const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];
const row = {
  answer: `blast radius of raw.events_0, downstream, depth 20: ${nodes} nodes in ${records} records`,
  joinedMs: +median(cpuMs.joined).toFixed(1),
  combinedMs: +median(cpuMs.combined).toFixed(1),
  ratio: +(median(cpuMs.joined) / median(cpuMs.combined)).toFixed(2),
};
console.log(`${row.answer}: joined ${row.joinedMs} ms, combined ${row.combinedMs} ms of CPU (${row.ratio})`);
const file = writeResult('joined-messages', {
  machine: machine(),
  cpuSpeedProbeOpsPerSecond: { before: probe, after: cpuSpeedProbe() },
  note:
    "Median CPU of the reading process from the first record to the last, with the driver's combined buffers " +
    'and with the joined-messages patch, toggled per query in one process, alternating which goes first.',
  rounds: ROUNDS,
  result: row,
});
console.log(`results: ${file}`);
