/**
 * npm test (after its pretest): the whole suite, as two mocha runs at once on one test Neo4j.
 *
 * Most test files share the test database (each wipes it before its tests), so they run one after
 * the other, in one mocha. A few files start processes of their own instead: the service with its own
 * local Neo4j (killed, restarted), a Neo4j that appears late, Neo4j Browser, processes pointed at a
 * port where nothing answers. They never write to the shared database, and most of their time is spent
 * waiting for those processes, while the other run leaves part of a core idle between its requests and
 * Neo4j's answers. So they run in a second mocha alongside the first, where their time can overlap it
 * instead of adding to it (how much depends on the cores to spare: little on a machine already busy).
 *
 * The test Neo4j is started here (test/support/global-neo4j.ts) and passed to both runs in
 * TEST_NEO4J_URI. The first run's output is shown as it comes, the second's when it ends; the last
 * line adds up both runs' `N passed, N failed`. The exit code is 1 if either run failed.
 * With arguments (`npm test -- --grep x`), one mocha run of every file with them, as before.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { projectRoot } from '../src/paths.js';

/** Files that start their own processes and servers and leave the shared test database alone. */
const SEPARATE_RUN = [
  'test/faults.test.ts',
  'test/memory.test.ts',
  'test/neo4j/local/browser.test.ts',
  'test/neo4j/local/server.test.ts',
  'test/server-external.test.ts',
  'test/server.test.ts',
];

const mochaBin = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

interface RunResult {
  code: number | null;
  output: string;
  counts: [number, number, number] | null;
}

/** One mocha run; `live`: its output goes to stdout as it comes (but for its summary line). */
function mocha(args: string[], live: boolean): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const color = process.stdout.isTTY ? ['--color'] : [];
    const child = spawn(process.execPath, [mochaBin, ...color, ...args], {
      cwd: projectRoot,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let counts: RunResult['counts'] = null;
    let pending = '';
    const take = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = SUMMARY.exec(line);
        if (m) {
          counts = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
          continue;
        }
        output += `${line}\n`;
        if (live) process.stdout.write(`${line}\n`);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) => {
      if (pending) take(Buffer.from('\n'));
      resolve({ code, output, counts });
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
  });
}

async function main(): Promise<number> {
  const extra = process.argv.slice(2);
  if (extra.length > 0) {
    // As `mocha "test/**/*.test.ts" <arguments>` did: one run (its own test Neo4j, from .mocharc.json).
    const run = await mocha(['test/**/*.test.ts', ...extra], true);
    printTotal([run]);
    return run.code ?? 1;
  }

  const missing = SEPARATE_RUN.filter((f) => !fs.existsSync(path.join(projectRoot, f)));
  if (missing.length > 0) {
    console.error(`scripts/test.ts: SEPARATE_RUN names files that do not exist: ${missing.join(', ')}`);
    return 1;
  }
  const fixture = await import('../test/support/global-neo4j.js');
  await fixture.mochaGlobalSetup();
  let results: RunResult[];
  try {
    results = await Promise.all([
      mocha([...SEPARATE_RUN.flatMap((f) => ['--ignore', f]), 'test/**/*.test.ts'], true),
      mocha(SEPARATE_RUN, false),
    ]);
  } finally {
    await fixture.mochaGlobalTeardown();
  }
  const [, separate] = results;
  process.stdout.write(`\n  (run alongside: ${SEPARATE_RUN.join(', ')})\n${separate.output}`);
  printTotal(results);
  return results.every((r) => r.code === 0) ? 0 : 1;
}

/** The closing line CI reads, over all runs (a run that ended without its own counts counts as a failure). */
function printTotal(results: RunResult[]): void {
  const total = [0, 0, 0];
  for (const r of results) {
    const counts = r.counts ?? [0, r.code === 0 ? 0 : 1, 0];
    for (const [i, n] of counts.entries()) total[i] += n;
  }
  const skipped = total[2] ? `, ${total[2]} skipped` : '';
  process.stdout.write(`\n${total[0]} passed, ${total[1]} failed${skipped}\n`);
}

process.exitCode = await main();
