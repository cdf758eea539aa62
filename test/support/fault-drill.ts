/**
 * The fault drill: the service as `npm start` runs it (its own local Neo4j), producers posting
 * events, and Neo4j killed with SIGKILL under that load. Records every answer, how /readyz and
 * /metrics saw the outage, when the supervisor had Neo4j back and the service ready, and whether
 * every acknowledged (201) event is in the graph afterwards. test/faults.test.ts asserts on it;
 * bench/faults.ts runs it bigger and reports the figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { findFreePort } from '../../src/free-port.js';
import { projectRoot } from '../../src/paths.js';
import { runEvent } from './events.js';

export interface DrillOptions {
  producers: number;
  /** Load before the kill (ms). */
  loadBeforeKillMs: number;
  /** Load after the service is ready again (ms). */
  loadAfterReadyMs: number;
  /** Give up waiting for the service to be ready again after this long (ms). */
  recoveryTimeoutMs: number;
  /** Extra environment for the service. */
  env?: Record<string, string>;
  /** Run `dist/src/server.js` (built) instead of the TypeScript source. */
  built?: boolean;
  log?: (line: string) => void;
}

export interface Answer {
  /** ms since the drill's start when the request was sent. */
  sentAt: number;
  ms: number;
  status: number;
  error?: string;
  retryAfter?: string;
  runId: string;
}

export interface DrillResult {
  answers: Answer[];
  /** ms since start. */
  killedAt: number;
  /** First /readyz 503 after the kill, and its body. */
  readyzDownAt: number | null;
  readyzDownBody: Record<string, unknown> | null;
  /** The supervisor had Neo4j answering again (from the service log). */
  neo4jBackAt: number | null;
  /** /readyz 200 again. */
  readyAgainAt: number | null;
  /** The first POST after ready: status and latency. */
  firstPostAfterReady: { status: number; ms: number } | null;
  metricsDuringOutage: string;
  metricsAfter: string;
  /** Acknowledged (201) run ids not in the graph afterwards. */
  lostAcknowledged: string[];
  acknowledged: number;
  /** Service log lines about the outage. */
  log: string[];
  exitCode: number | null;
}

function post(
  url: string,
  body: string,
  agent: http.Agent,
): Promise<{ status: number; text: string; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/v1/lineage`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            retryAfter: res.headers['retry-after'] as string | undefined,
          }),
        );
      },
    );
    // The Python client's default timeout is 5 s; a hang shows up as a client timeout here too.
    req.setTimeout(120_000, () => req.destroy(new Error('client timeout (120 s)')));
    req.on('error', reject);
    req.end(body);
  });
}

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runFaultDrill(opts: DrillOptions): Promise<DrillResult> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lineage-fault-drill-'));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const entry = opts.built
    ? [path.join(projectRoot, 'dist/src/server.js')]
    : ['--import', 'tsx', path.join(projectRoot, 'src/server.ts')];
  let output = '';
  const child: ChildProcess = spawn(process.execPath, entry, {
    env: {
      ...process.env,
      NEO4J_URI: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      NEO4J_LOCAL_DATA_DIR: home,
      NEO4J_LOCAL_BOLT_PORT: '0',
      NEO4J_LOCAL_HEAP: '512m',
      NEO4J_LOCAL_PAGECACHE: '128m',
      LOG_LEVEL: 'info',
      ...(opts.env ?? {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const t0 = performance.now();
  const now = () => Math.round(performance.now() - t0);
  const log = opts.log ?? (() => undefined);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited: ${output.slice(-2000)}`);
      const r = await getJson(`${url}/readyz`);
      if (r?.status === 200) break;
      if (now() > 300_000) throw new Error('the service was not ready within 5 minutes');
      await sleep(200);
    }
    log(`ready after ${now()} ms`);
    const boltPort = /server\.bolt\.listen_address=127\.0\.0\.1:(\d+)/.exec(
      fs.readFileSync(path.join(home, 'conf', 'neo4j.conf'), 'utf8'),
    )![1];

    const answers: Answer[] = [];
    let stop = false;
    const agent = new http.Agent({ keepAlive: true, maxSockets: opts.producers });
    const producers = Array.from({ length: opts.producers }, async () => {
      while (!stop) {
        const event = runEvent({
          job: `drill_${Math.floor(Math.random() * 50)}`,
          inputs: ['src'],
          outputs: [`out_${Math.floor(Math.random() * 20)}`],
        });
        const runId = (event.run as { runId: string }).runId;
        const sentAt = now();
        const start = performance.now();
        try {
          const res = await post(url, JSON.stringify(event), agent);
          let error: string | undefined;
          try {
            error = (JSON.parse(res.text) as { error?: string }).error;
          } catch {
            /* 201 has no body */
          }
          answers.push({
            sentAt,
            ms: Math.round(performance.now() - start),
            status: res.status,
            error,
            retryAfter: res.retryAfter,
            runId,
          });
          // A producer honouring Retry-After waits before its next event.
          if (res.status === 503) await sleep(Number(res.retryAfter ?? 1) * 1000);
        } catch (err) {
          answers.push({
            sentAt,
            ms: Math.round(performance.now() - start),
            status: -1,
            error: (err as Error).message,
            runId,
          });
          await sleep(500);
        }
      }
    });

    await sleep(opts.loadBeforeKillMs);
    const jvmPid = Number(fs.readFileSync(path.join(home, 'run', 'neo4j.pid'), 'utf8').trim());
    process.kill(jvmPid, 'SIGKILL');
    const killedAt = now();
    log(`killed Neo4j (pid ${jvmPid}) at ${killedAt} ms`);

    let readyzDownAt: number | null = null;
    let readyzDownBody: Record<string, unknown> | null = null;
    let metricsDuringOutage = '';
    let neo4jBackAt: number | null = null;
    let readyAgainAt: number | null = null;
    for (;;) {
      const r = await getJson(`${url}/readyz`);
      if (r && r.status === 503 && readyzDownAt === null) {
        readyzDownAt = now();
        readyzDownBody = r.body;
        metricsDuringOutage = await (await fetch(`${url}/metrics`)).text();
      }
      // Neo4j answers again (the service is warming up before it turns ready).
      if (r && readyzDownAt !== null && neo4jBackAt === null && r.body.neo4j === 'up') neo4jBackAt = now();
      if (r?.status === 200 && readyzDownAt !== null) {
        readyAgainAt = now();
        break;
      }
      if (now() - killedAt > opts.recoveryTimeoutMs) break;
      await sleep(100);
    }
    log(`Neo4j back at ${neo4jBackAt} ms, ready again at ${readyAgainAt} ms`);

    let firstPostAfterReady: DrillResult['firstPostAfterReady'] = null;
    if (readyAgainAt !== null) {
      const start = performance.now();
      const res = await post(url, JSON.stringify(runEvent({ job: 'drill_first_after_ready' })), new http.Agent());
      firstPostAfterReady = { status: res.status, ms: Math.round(performance.now() - start) };
      await sleep(opts.loadAfterReadyMs);
    }
    stop = true;
    await Promise.all(producers);
    agent.destroy();
    const metricsAfter = await (await fetch(`${url}/metrics`)).text();

    const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.runId);
    const driver = neo4j.driver(`bolt://127.0.0.1:${boltPort}`);
    let stored = new Set<string>();
    try {
      const res = await driver.executeQuery('MATCH (r:Run) WHERE r.id IN $ids RETURN collect(r.id) AS ids', {
        ids: acknowledged,
      });
      stored = new Set(res.records[0].get('ids') as string[]);
    } finally {
      await driver.close();
    }
    child.kill('SIGTERM');
    const exitCode = await exited;
    return {
      answers,
      killedAt,
      readyzDownAt,
      readyzDownBody,
      neo4jBackAt,
      readyAgainAt,
      firstPostAfterReady,
      metricsDuringOutage,
      metricsAfter,
      lostAcknowledged: acknowledged.filter((id) => !stored.has(id)),
      acknowledged: acknowledged.length,
      log: output
        .split('\n')
        .filter((l) => /Neo4j|warm|unreachable|answers again|restart/i.test(l) && !/"path":"\/readyz"/.test(l)),
      exitCode,
    };
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    // The watchdog stops the JVM within a second of the service's exit; then the data can go.
    for (let i = 0; i < 50 && fs.existsSync(path.join(home, 'run', 'neo4j.pid')); i++) await sleep(200);
    fs.rmSync(home, { recursive: true, force: true });
  }
}
