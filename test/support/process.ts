/** Helpers for tests that run the service as its own process (`src/server.ts`), as a user starts it. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../src/paths.js';

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * JVM flags for the Neo4j servers tests start for themselves (each lives for one test, spent mostly
 * starting, planning the ingest statements and rehearsing them): the client compiler only. It halves
 * cold planning (docs/performance/service-journal.md) at the cost of peak speed, which such a server
 * never reaches. Not for the service's own Neo4j, which runs for long.
 */
export const SHORT_LIVED_NEO4J_JVM_ARGS = ['-XX:TieredStopAtLevel=1'];

/** `src/server.ts` in a child process with `env` over this process's environment. */
export function startServer(env: Record<string, string>): ServerProcess {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src/server.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Polls `check` every `pollMs` until it holds; throws naming `what` after `timeoutMs`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  pollMs = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * A command run to its end, like spawnSync, but without blocking this process: several can run at
 * once. Killed (SIGTERM) after `timeoutMs`; its status is then null.
 */
export function runToEnd(
  command: string,
  args: string[],
  opts: Omit<SpawnOptions, 'stdio'> & { timeoutMs?: number; input?: string } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { timeoutMs, input, ...spawnOpts } = opts;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...spawnOpts, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = timeoutMs === undefined ? null : setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ status: code, stdout, stderr });
    });
    child.stdin!.end(input ?? '');
  });
}
