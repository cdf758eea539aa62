/**
 * The process pointed at an external Neo4j (NEO4J_URI) that does not answer when the service starts:
 * it listens unready instead of exiting (no crash loop while a cluster comes up), refuses work with
 * 503 + Retry-After at once, and turns ready by itself, schema applied and write path warmed, once a
 * real Neo4j appears on that port. Configuration errors that no waiting cures still stop the start.
 * Slow (a second Neo4j start).
 */
import { expect } from 'chai';
import path from 'node:path';
import { findFreePort } from '../src/free-port.js';
import { NEO4J_DEFAULT_VERSION } from '../src/config.js';
import { projectRoot } from '../src/paths.js';
import {
  SHORT_LIVED_NEO4J_JVM_ARGS,
  startServer as spawnServer,
  until,
  type ServerProcess,
} from './support/process.js';
import type { LocalNeo4jServer } from '../src/neo4j/local/server.js';
import { runEvent } from './support/events.js';

const startServer = (env: Record<string, string>) => spawnServer({ LOG_FORMAT: 'json', HOST: '127.0.0.1', ...env });

async function listening(proc: ServerProcess): Promise<void> {
  await until(
    'the service to listen',
    () => proc.output().includes('lineage service listening') || proc.child.exitCode !== null,
    60_000,
  );
  expect(proc.child.exitCode, proc.output()).to.equal(null);
}

const post = (url: string, body: unknown) =>
  fetch(`${url}/api/v1/lineage`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('server process with an external Neo4j that is not up yet', function () {
  this.timeout(300_000);
  let neo4jServer: LocalNeo4jServer | null = null;
  let proc: ServerProcess | null = null;
  after(async () => {
    if (proc && proc.child.exitCode === null) proc.child.kill('SIGKILL');
    await neo4jServer?.stop();
  });

  it('listens unready, refuses work with 503 + Retry-After, and turns ready once Neo4j appears', async () => {
    const boltPort = await findFreePort();
    const port = await findFreePort();
    const url = `http://127.0.0.1:${port}`;
    proc = startServer({
      PORT: String(port),
      NEO4J_URI: `bolt://127.0.0.1:${boltPort}`,
      INGEST_IDLE_WARM_UP_MS: '1000',
    });
    await listening(proc);
    expect(proc.output()).to.include('Neo4j does not answer: listening unready');

    // Alive, not ready, and says why.
    expect((await fetch(`${url}/healthz`)).status).to.equal(200);
    const readyz = await fetch(`${url}/readyz`);
    expect(readyz.status).to.equal(503);
    expect(readyz.headers.get('retry-after')).to.match(/^\d+$/);
    const notReady = (await readyz.json()) as { neo4j: string; message: string };
    expect(notReady.neo4j).to.equal('down');
    expect(notReady.message).to.match(/ECONNREFUSED/);

    // Reads and writes: 503 unavailable with Retry-After, nothing waits for the driver's retries.
    const read = await fetch(`${url}/api/v1/namespaces`);
    expect(read.status).to.equal(503);
    expect(read.headers.get('retry-after')).to.match(/^\d+$/);
    expect(((await read.json()) as { error: string }).error).to.equal('unavailable');
    const event = runEvent({ jobNamespace: 'late-neo4j', job: 'first-job' });
    const write = await post(url, event);
    expect(write.status).to.equal(503);
    expect(write.headers.get('retry-after')).to.match(/^\d+$/);

    // Neo4j appears on that port: the service applies the schema, warms up and turns ready by itself.
    // (Its JVM starts now; Bolt answers seconds later, after the check below.)
    const { LocalNeo4jServer } = await import('../src/neo4j/local/server.js');
    neo4jServer = new LocalNeo4jServer({
      dir: process.env.NEO4J_LOCAL_DIR ?? path.join(projectRoot, '.neo4j'),
      version: process.env.NEO4J_LOCAL_VERSION ?? NEO4J_DEFAULT_VERSION,
      boltPort,
      heap: '512m',
      pageCache: '128m',
      homeName: `test-late-${process.pid}`,
      ephemeral: true,
      jvmArgs: SHORT_LIVED_NEO4J_JVM_ARGS,
      // The service's own class-data archive (the same jars), as its Neo4j starts: a faster JVM start.
      classDataSharing: true,
    });
    const neo4jStarted = neo4jServer.start();
    neo4jStarted.catch(() => undefined);

    // Still running a while later, Neo4j still away (it probes, it does not give up).
    await new Promise((r) => setTimeout(r, 1500));
    expect(proc.child.exitCode).to.equal(null);
    const stillAway = await fetch(`${url}/readyz`);
    expect(stillAway.status).to.equal(503);
    expect(((await stillAway.json()) as { neo4j: string }).neo4j).to.equal('down');

    await neo4jStarted;
    const states: string[] = [];
    await until(
      'the service to turn ready',
      async () => {
        const res = await fetch(`${url}/readyz`);
        states.push(`${res.status} ${((await res.json()) as { status: string }).status}`);
        return res.status === 200;
      },
      180_000,
    );
    expect(
      states.filter((s) => !['503 not_ready', '503 warming_up', '200 ready'].includes(s)),
      'no other readiness state',
    ).to.deep.equal([]);
    const log = proc.output();
    expect(log).to.include('graph schema applied');
    expect(log.indexOf('graph schema applied'), 'schema applied before the warm-up').to.be.lessThan(
      log.indexOf('write path warmed up'),
    );

    // Serving: the event is stored, the default namespace exists.
    expect((await post(url, event)).status).to.equal(201);
    const names = (await (await fetch(`${url}/api/v1/namespaces`)).json()) as { namespaces: { name: string }[] };
    expect(names.namespaces.map((n) => n.name)).to.include.members(['default', 'late-neo4j']);
    const job = await fetch(`${url}/api/v1/namespaces/late-neo4j/jobs/first-job`);
    expect(job.status).to.equal(200);

    proc.child.kill('SIGTERM');
    expect(await proc.exited).to.equal(0);
  });

  it('stops the start on a database that does not exist, naming it (no waiting cures it)', async () => {
    const port = await findFreePort();
    const bad = startServer({
      PORT: String(port),
      NEO4J_URI: process.env.TEST_NEO4J_URI!,
      NEO4J_USER: process.env.TEST_NEO4J_USER ?? 'neo4j',
      NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? '',
      NEO4J_DATABASE: 'nosuchdatabase',
    });
    expect(await bad.exited).to.equal(1);
    expect(bad.output()).to.match(/could not start.*nosuchdatabase/);
  });

  it('stops the start on a port that does not speak Bolt', async () => {
    // An HTTP server on the Neo4j port: the handshake fails for good.
    const http = await import('node:http');
    const decoy = http.createServer((_req, res) => res.end('not bolt'));
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', () => resolve()));
    const decoyPort = (decoy.address() as { port: number }).port;
    try {
      const bad = startServer({ PORT: String(await findFreePort()), NEO4J_URI: `bolt://127.0.0.1:${decoyPort}` });
      expect(await bad.exited).to.equal(1);
      expect(bad.output()).to.include('could not start');
    } finally {
      decoy.close();
    }
  });
});
