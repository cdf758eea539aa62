/**
 * npm run bench:bolt-sockets — what the bolt-sockets driver patch (src/neo4j/patches/bolt-sockets.ts:
 * TCP_NODELAY and one write per tick on Bolt sockets) changes, over plain Bolt and over TLS.
 *
 * Each measurement is a child process (the patch is process-wide and cannot be taken back) that runs
 * small statements one after another, as a request does: `driver.executeQuery('RETURN $i')`, and a
 * transaction of a statement with an ingest-sized parameter (~100 KB), a small one and COMMIT (the
 * shape of an ingest write). Children alternate patched
 * and unpatched, plain and TLS, for BENCH_BOLT_ROUNDS rounds (3). TLS goes through a TLS-terminating
 * proxy in this process in front of the Bolt port (a self-signed certificate made with openssl); the
 * plain runs go through a plain proxy of the same code, so both pay the same extra hop.
 *
 * Neo4j: BENCH_NEO4J_URI if set (no auth), else a local server started for the bench.
 * Result: bench/results/bolt-sockets.json.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';
import { installBoltSocketTuning } from '../src/neo4j/patches/bolt-sockets.js';
import { cpuSpeedProbe, machine, startBenchNeo4j, writeResult } from './support.js';
import { selfSignedCertificate } from '../test/support/certificate.js';

const OPS = Number(process.env.BENCH_BOLT_OPS ?? 200);
const ROUNDS = Number(process.env.BENCH_BOLT_ROUNDS ?? 3);

/** An ingest-sized parameter (about 100 KB of Bolt, many 1,400-byte chunks), as a batch of events sends. */
const BATCH = Array.from({ length: 200 }, (_, k) => ({
  runId: `run-${k}`,
  job: `job-${k % 7}`,
  facets: 'x'.repeat(400),
  at: k,
}));

interface ChildResult {
  executeQueryMs: number;
  transactionMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

async function child(uri: string, patched: boolean): Promise<void> {
  if (patched && !installBoltSocketTuning()) throw new Error('the patch did not install');
  const driver = neo4j.driver(uri);
  const eq: number[] = [];
  const txs: number[] = [];
  try {
    for (let i = 0; i < OPS + 20; i++) {
      let t0 = performance.now();
      await driver.executeQuery('RETURN $i AS i', { i }, { database: 'neo4j' });
      if (i >= 20) eq.push(performance.now() - t0);
      const session = driver.session({ database: 'neo4j' });
      t0 = performance.now();
      const tx = session.beginTransaction();
      await tx.run('UNWIND $rows AS row RETURN count(row) AS n', { rows: BATCH });
      await tx.run('RETURN $i + 1 AS j', { i });
      await tx.commit();
      if (i >= 20) txs.push(performance.now() - t0);
      await session.close();
    }
  } finally {
    await driver.close();
  }
  const result: ChildResult = { executeQueryMs: round2(median(eq)), transactionMs: round2(median(txs)) };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** A proxy to the Bolt port, TLS-terminating or plain, with TCP_NODELAY on its own sockets. */
async function proxy(boltPort: number, secure: boolean): Promise<{ port: number; close(): void }> {
  const sockets = new Set<net.Socket>();
  const forward = (client: net.Socket) => {
    const server = net.connect(boltPort, '127.0.0.1');
    for (const s of [client, server]) {
      // The proxy's own sockets must not delay anything: only the driver's socket differs between runs.
      s.setNoDelay(true);
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        client.destroy();
        server.destroy();
      });
    }
    client.pipe(server).pipe(client);
  };
  const listener = secure ? tls.createServer(selfSignedCertificate(), forward) : net.createServer(forward);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (listener.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      listener.close();
    },
  };
}

function runChild(uri: string, patched: boolean): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--child', uri, patched ? '1' : '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult)
        : reject(new Error(`child exited with ${code}`)),
    );
  });
}

async function main() {
  const server = process.env.BENCH_NEO4J_URI ? null : await startBenchNeo4j('bolt-sockets');
  const boltPort = Number(new URL(process.env.BENCH_NEO4J_URI ?? server!.uri).port);
  const plain = await proxy(boltPort, false);
  const secure = await proxy(boltPort, true);
  const probeBefore = cpuSpeedProbe();
  const kinds = [
    { name: 'plain', uri: `bolt://127.0.0.1:${plain.port}` },
    { name: 'tls', uri: `bolt+ssc://127.0.0.1:${secure.port}` },
  ];
  const rounds: Record<string, unknown>[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of kinds) {
        // Alternate which goes first, so drift over the round does not favour one side.
        const order = r % 2 === 0 ? [false, true] : [true, false];
        const got: Record<string, ChildResult> = {};
        for (const patched of order) got[patched ? 'patched' : 'driver'] = await runChild(kind.uri, patched);
        const row = { round: r + 1, connection: kind.name, ...got };
        console.log(JSON.stringify(row));
        rounds.push(row);
      }
    }
  } finally {
    plain.close();
    secure.close();
    await server?.stop();
  }
  const summary: Record<string, unknown> = {};
  for (const kind of kinds) {
    const rows = rounds.filter((r) => r.connection === kind.name) as unknown as {
      driver: ChildResult;
      patched: ChildResult;
    }[];
    summary[kind.name] = {
      executeQueryMs: {
        driver: median(rows.map((r) => r.driver.executeQueryMs)),
        patched: median(rows.map((r) => r.patched.executeQueryMs)),
      },
      transactionMs: {
        driver: median(rows.map((r) => r.driver.transactionMs)),
        patched: median(rows.map((r) => r.patched.transactionMs)),
      },
    };
  }
  const file = writeResult('bolt-sockets', {
    bench: 'bolt-sockets',
    description:
      'Median ms per sequential executeQuery(RETURN) and per transaction (a ~100 KB-parameter statement, a small ' +
      'one, COMMIT), neo4j-driver as is vs with the bolt-sockets patch, plain Bolt and TLS (through a local proxy)',
    machine: {
      ...machine(),
      loadAverage: os.loadavg(),
      cpuSpeedProbeOpsPerSecond: { before: probeBefore, after: cpuSpeedProbe() },
    },
    opsPerChild: OPS,
    rounds,
    summary,
  });
  console.log(JSON.stringify(summary, null, 2));
  console.log(`written ${file}`);
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4] === '1');
else await main();
