/**
 * npm run conformance — sends the official OpenLineage Python client's every event kind and every
 * facet class to this service, and says which it accepted (201 and visible through the read API).
 *
 * 1. A throw-away virtualenv (python3 -m venv in a temporary folder, deleted at the end) gets
 *    `openlineage-python` from PyPI (CONFORMANCE_CLIENT_VERSION pins a release; default: the newest).
 * 2. The service: CONFORMANCE_URL (+ CONFORMANCE_API_KEY when it asks for keys) if set; otherwise one
 *    started in this process on a throw-away local Neo4j, as the tests do.
 * 3. scripts/conformance/emit.py finds the client's facet classes by introspection, builds each with
 *    minimal arguments and sends it with the client's HTTP transport.
 *
 * Writes the report to CONFORMANCE_REPORT (default bench/results/conformance.json, gitignored or not:
 * it is the run's evidence) and exits 1 when anything was refused or not stored.
 * Opt-in: it needs PyPI, so `npm test` does not run it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig, NEO4J_DEFAULT_VERSION } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { LocalNeo4jServer } from '../src/neo4j/local/server.js';
import { projectRoot } from '../src/paths.js';
import { startService } from '../src/server.js';

const emitter = path.join(projectRoot, 'scripts', 'conformance', 'emit.py');
const reportPath = path.resolve(
  process.env.CONFORMANCE_REPORT ?? path.join(projectRoot, 'bench', 'results', 'conformance.json'),
);

function run(cmd: string, args: string[], what: string): void {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${what} failed (${cmd} ${args.join(' ')}: exit ${r.status ?? r.signal})`);
}

async function waitReady(url: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not turn ready in 180 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main(): Promise<number> {
  const venv = fs.mkdtempSync(path.join(os.tmpdir(), 'ol-conformance-'));
  const stops: (() => Promise<void>)[] = [];
  try {
    console.log(`virtualenv ${venv}`);
    run('python3', ['-m', 'venv', venv], 'creating the virtualenv');
    const python = path.join(venv, 'bin', 'python');
    const pin = process.env.CONFORMANCE_CLIENT_VERSION;
    run(
      python,
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        pin ? `openlineage-python==${pin}` : 'openlineage-python',
      ],
      'pip install openlineage-python',
    );

    let url = process.env.CONFORMANCE_URL;
    if (!url) {
      const neo4j = new LocalNeo4jServer({
        dir: process.env.NEO4J_LOCAL_DIR ?? path.join(projectRoot, '.neo4j'),
        version: NEO4J_DEFAULT_VERSION,
        boltPort: 0,
        heap: '1g',
        pageCache: '256m',
        homeName: `conformance-${process.pid}`,
        ephemeral: true,
      });
      await neo4j.start();
      stops.unshift(() => neo4j.stop());
      const config = loadConfig({
        ...process.env,
        NEO4J_URI: neo4j.uri,
        NEO4J_PASSWORD: '',
        HOST: '127.0.0.1',
        PORT: '0',
        AUTH_MODE: 'off',
      });
      const service = await startService(config, createLogger('error'));
      stops.unshift(() => service.stop());
      url = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
      console.log(`service ${url} on a throw-away Neo4j (${neo4j.uri})`);
    }
    await waitReady(url);

    fs.mkdirSync(path.dirname(reportPath), { recursive: true });
    const args = [emitter, '--url', url, '--report', reportPath];
    if (process.env.CONFORMANCE_API_KEY) args.push('--api-key', process.env.CONFORMANCE_API_KEY);
    // Asynchronously: the service may be running in this very process and must keep answering.
    const status = await new Promise<number>((resolve, reject) => {
      const child = spawn(python, args, { stdio: 'inherit' });
      child.once('error', reject);
      child.once('exit', (code) => resolve(code ?? 1));
    });
    console.log(`report: ${path.relative(process.cwd(), reportPath)}`);
    return status;
  } finally {
    for (const stop of stops) await stop().catch((err) => console.error(err));
    fs.rmSync(venv, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
