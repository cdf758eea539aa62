/**
 * The process as a user runs it: `src/server.ts` with its own local Neo4j (no NEO4J_URI), started,
 * queried, stopped by a signal, restarted on the same data, and killed hard. Slow (two Neo4j starts),
 * but it is the only test of the promise "no Java process is left behind".
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../src/free-port.js';
import { projectRoot } from '../src/paths.js';
import {
  runToEnd,
  SHORT_LIVED_NEO4J_JVM_ARGS,
  startServer as spawnServer,
  until,
  type ServerProcess,
} from './support/process.js';

const startServer = (env: Record<string, string>) => spawnServer({ NEO4J_URI: '', ...env });

/** Java processes whose command line names this server home. */
function javaProcessesFor(home: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((pid) => {
      try {
        const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return (
          path.basename(argv[0]) === 'java' &&
          argv.includes('org.neo4j.server.CommunityEntryPoint') &&
          argv.some((a) => a.includes(home))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('server process lifecycle (local Neo4j)', function () {
  this.timeout(180_000);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lineage-server-test-'));
  after(() => {
    for (const pid of javaProcessesFor(home)) process.kill(pid, 'SIGKILL');
    fs.rmSync(home, { recursive: true, force: true });
  });

  async function boot(): Promise<{ proc: ServerProcess; url: string }> {
    const port = await findFreePort();
    const proc = startServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      NEO4J_LOCAL_DATA_DIR: home,
      NEO4J_LOCAL_BOLT_PORT: '0',
      NEO4J_LOCAL_HEAP: '512m',
      NEO4J_LOCAL_PAGECACHE: '128m',
      NEO4J_LOCAL_JVM_ARGS: ['-Dlineage.test=extra-jvm-flag', ...SHORT_LIVED_NEO4J_JVM_ARGS].join(' '),
      // Long enough that a stop waiting for it is told apart from an immediate one.
      SHUTDOWN_GRACE_MS: '120000',
      REQUEST_TIMEOUT_MS: '3000',
      // A short idle warm-up: seen to run (below) without taking a core for a minute of the suite.
      INGEST_IDLE_WARM_UP_MS: '500',
    });
    await until(
      'the service to listen',
      () => proc.output().includes('lineage service listening') || proc.child.exitCode !== null,
      120_000,
    );
    expect(proc.child.exitCode, proc.output()).to.equal(null);
    return { proc, url: `http://127.0.0.1:${port}` };
  }

  let firstCreatedAt = '';

  it('starts its own Neo4j, serves the default namespace, and stops it on SIGINT', async () => {
    const { proc, url } = await boot();
    const res = await fetch(`${url}/api/v1/namespaces`);
    const body = (await res.json()) as { namespaces: { name: string; createdAt: string }[] };
    expect(body.namespaces.map((n) => n.name)).to.include('default');
    firstCreatedAt = body.namespaces.find((n) => n.name === 'default')!.createdAt;
    expect(javaProcessesFor(home)).to.have.length(1);
    const argv = fs.readFileSync(`/proc/${javaProcessesFor(home)[0]}/cmdline`, 'utf8').split('\0');
    expect(argv, 'NEO4J_LOCAL_JVM_ARGS reaches the JVM').to.include('-Dlineage.test=extra-jvm-flag');
    expect(argv, 'the parallel collector (src/neo4j/local/server.ts)').to.include('-XX:+UseParallelGC');
    expect(argv).not.to.include('-XX:+UseG1GC');
    // Idle connections do not hold the stop for the grace period (120 s here): one that made a
    // request (keep-alive) and one that never sent anything.
    const { port } = new URL(url);
    const keepAlive = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve) =>
      http.get(`${url}/healthz`, { agent: keepAlive }, (r) => r.resume().on('end', () => resolve())),
    );
    const silent = net.connect(Number(port), '127.0.0.1');
    silent.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    proc.child.kill('SIGINT');
    expect(await proc.exited).to.equal(0);
    // (Stopping Neo4j takes seconds, longer on a first run, which writes its class-data archive.)
    expect(Date.now() - t0, 'stopped without waiting for the idle connections').to.be.lessThan(60_000);
    expect(proc.output()).to.match(/"msg":"stopped"/);
    keepAlive.destroy();
    silent.destroy();
    expect(javaProcessesFor(home), 'no Neo4j left behind').to.deep.equal([]);
  });

  it('restarts on the persisted data with the cached jars (no download)', async () => {
    const { proc, url } = await boot();
    expect(proc.output()).not.to.include('fetching Neo4j server jars');
    const body = (await (await fetch(`${url}/api/v1/namespaces/default`)).json()) as { createdAt: string };
    expect(body.createdAt).to.equal(firstCreatedAt);
    // A client that stops sending mid-body gets 408 after REQUEST_TIMEOUT_MS (3 s here) instead of holding its
    // socket. (Sent now, answered while the service warms up below: the wait is not the suite's.)
    const stalledAnswer = new Promise<{ answer: string; ms: number }>((resolve) => {
      const started = Date.now();
      const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => (answer += d));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ answer, ms: Date.now() - started }));
      socket.write(
        'POST /api/v1/lineage HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ' +
          '100\r\n\r\n{"eventTime":',
      );
    });
    // The ingest statements are planned in the background after listening; /readyz says 503
    // (warming_up) until then, and is 200 only once they are planned.
    const readyStates: string[] = [];
    await until(
      'the service to be ready',
      async () => {
        const res = await fetch(`${url}/readyz`);
        const ready = (await res.json()) as { status: string };
        readyStates.push(`${res.status} ${ready.status}`);
        if (res.status !== 200) return false;
        expect(proc.output(), 'ready only after planning').to.include('ingest statements planned');
        return true;
      },
      90_000,
    );
    expect(
      readyStates.filter((s) => s !== '503 warming_up' && s !== '200 ready'),
      'no other readiness state',
    ).to.deep.equal([]);
    expect(proc.output(), 'ready only after a rehearsal of the write path').to.include('write path warmed up');
    await until(
      'rehearsals while ingestion is idle, after ready',
      () => proc.output().includes('write path warmed further while the service was idle'),
      60_000,
    );
    const stalled = await stalledAnswer;
    expect(stalled.answer).to.match(/^HTTP\/1\.1 408/);
    expect(stalled.ms).to.be.lessThan(30_000);
    expect(proc.output()).not.to.include('could not plan');
    proc.child.kill('SIGTERM');
    expect(await proc.exited).to.equal(0);
    expect(javaProcessesFor(home)).to.deep.equal([]);
  });

  it('leaves no Neo4j behind even when killed with SIGKILL while Neo4j starts', async () => {
    // Killed as soon as Neo4j's JVM exists, not once the service listens: the watchdog watches the
    // service's pid whatever Neo4j is doing, and a kill mid-start is the harder case for it (the pid
    // file may not be written yet). It also spares the suite a third full Neo4j start.
    const proc = startServer({
      PORT: String(await findFreePort()),
      HOST: '127.0.0.1',
      NEO4J_LOCAL_DATA_DIR: home,
      NEO4J_LOCAL_BOLT_PORT: '0',
      NEO4J_LOCAL_HEAP: '512m',
      NEO4J_LOCAL_PAGECACHE: '128m',
    });
    await until(
      "Neo4j's JVM to start",
      () => javaProcessesFor(home).length === 1 || proc.child.exitCode !== null,
      120_000,
    );
    expect(proc.child.exitCode, proc.output()).to.equal(null);
    proc.child.kill('SIGKILL');
    await proc.exited;
    await until('the watchdog to stop Neo4j', () => javaProcessesFor(home).length === 0, 60_000);
  });

  it('refuses to start on bad configuration, naming the variable', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src/server.ts')], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
    });
    expect(r.status).to.equal(2);
    expect(r.stderr).to.include('PORT');
  });

  it('refuses a HOST it cannot listen on and a PORT in use at once, naming the variable, before Neo4j', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = String((busy.address() as net.AddressInfo).port);
      // The three starts at once (each a process of its own): the checks are on each one's own answer.
      await Promise.all(
        (
          [
            [{ HOST: 'not-a-host.invalid', PORT: '0' }, 'HOST'],
            [{ HOST: '192.0.2.1', PORT: '0' }, 'HOST'],
            [{ HOST: '127.0.0.1', PORT: port }, 'PORT'],
          ] as const
        ).map(async ([env, variable]) => {
          const started = Date.now();
          const r = await runToEnd(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src/server.ts')], {
            // An external Neo4j that does not answer: the old code went on to wait for it.
            env: { ...process.env, ...env, NEO4J_URI: 'bolt://127.0.0.1:1', LOG_LEVEL: 'silent' },
            timeoutMs: 60_000,
          });
          expect(r.status, `${JSON.stringify(env)}: ${r.stderr}`).to.equal(2);
          expect(r.stderr).to.match(new RegExp(`Invalid configuration: ${variable} `));
          expect(Date.now() - started).to.be.lessThan(30_000);
        }),
      );
    } finally {
      busy.close();
    }
  });
});
