/** Shared bench plumbing: a private Neo4j, the service as a child process, machine facts, percentiles. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { LocalNeo4jServer } from '../src/neo4j/local/server.js';
import { findFreePort } from '../src/free-port.js';
import { NEO4J_DEFAULT_VERSION } from '../src/config.js';
import { projectRoot } from '../src/paths.js';
import { parseEvent } from '../src/domain/openlineage/normalize.js';
import type { NormalizedEvent } from '../src/domain/openlineage/types.js';

/** USER_HZ: the unit of /proc times on Linux (getconf CLK_TCK), 100 on every common kernel. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat file, in seconds. */
function statCpuSeconds(statFile: string): number {
  const fields = fs.readFileSync(statFile, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function processCpuSeconds(pid: number): number {
  try {
    return statCpuSeconds(`/proc/${pid}/stat`);
  } catch {
    return NaN;
  }
}

/** CPU seconds a JVM's threads whose name matches `pattern` have used so far (Linux). */
function jvmThreadCpuSeconds(javaPid: number, pattern: RegExp): number {
  let total = 0;
  for (const tid of fs.readdirSync(`/proc/${javaPid}/task`)) {
    try {
      if (pattern.test(fs.readFileSync(`/proc/${javaPid}/task/${tid}/comm`, 'utf8')))
        total += statCpuSeconds(`/proc/${javaPid}/task/${tid}/stat`);
    } catch {
      /* thread ended */
    }
  }
  return total;
}

/** CPU seconds a JVM's JIT compiler threads (C1, C2) have used so far. */
export function jitCpuSeconds(javaPid: number): number {
  return jvmThreadCpuSeconds(javaPid, /Compiler/);
}

/**
 * CPU seconds a JVM's garbage-collector threads have used so far: HotSpot's parallel GC workers,
 * G1's concurrent markers, refinement and service threads, and the VM thread that runs pauses.
 */
export function gcCpuSeconds(javaPid: number): number {
  return jvmThreadCpuSeconds(javaPid, /^(GC Thread|G1 |VM Thread|GC Main|PGC|ParGC)/);
}

/** Machine-wide CPU time counters (jiffies) from /proc/stat: busy and idle (idle + iowait). */
export function machineCpu(): { busy: number; idle: number } {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { busy: user + nice + system + irq + softirq + steal, idle: idle + iowait };
  } catch {
    return { busy: NaN, idle: NaN };
  }
}

/**
 * A fixed single-threaded CPU task (JSON round trips and SHA-1 of a 7 KB document) for one second:
 * ops/s. Run on an idle machine before and after a bench, it shows whether the (shared, virtual)
 * CPU itself was slower during a run, which events/s alone cannot tell apart from a regression.
 */
export function cpuSpeedProbe(ms = 1000): number {
  const doc = {
    fields: Array.from({ length: 100 }, (_, i) => ({
      name: `field_${i}`,
      type: 'VARCHAR',
      description: 'd'.repeat(40),
    })),
  };
  const t0 = performance.now();
  let ops = 0;
  while (performance.now() - t0 < ms) {
    const text = JSON.stringify(doc);
    JSON.parse(text);
    createHash('sha1').update(text).digest('hex');
    ops++;
  }
  return Math.round((ops * 1000) / (performance.now() - t0));
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    neo4j: `${NEO4J_DEFAULT_VERSION} community (local, same machine)`,
    date: new Date().toISOString(),
    /** 1, 5 and 15 minute load averages when the result was written: other work on the machine. */
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 100) / 100;
}

export function summarize(latenciesMs: number[]) {
  const s = [...latenciesMs].sort((a, b) => a - b);
  return {
    count: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: percentile(s, 100),
  };
}

/** The generator's events as the service's parser normalizes them; an invalid one is a bug in the generator. */
export function normalizedEvents(events: Record<string, unknown>[]): NormalizedEvent[] {
  return events.map((e) => {
    const r = parseEvent(e);
    if (!r.ok) throw new Error(`generator produced an invalid event: ${JSON.stringify(r.problems)}`);
    return r.event;
  });
}

/** A Neo4j server's JVM flags and neo4j.conf lines, as a bench side names them. */
export interface Neo4jSideConfig {
  jvmArgs: string[];
  conf: string[];
  /** Indexes of the schema dropped on this side once it is applied (the cost of an index, bench:neo4j-ab). */
  dropIndexes?: string[];
}

/**
 * The environment variable `name` as a Neo4j side, `{"jvmArgs": "flags separated by spaces", "conf":
 * ["setting=value", ...]}` (bench:neo4j-ab's sides, bench:ingest-ab's per-side servers); null when unset.
 */
export function neo4jSideFromEnv(name: string): Neo4jSideConfig | null {
  const text = process.env[name];
  if (!text) return null;
  const value = JSON.parse(text) as { jvmArgs?: unknown; conf?: unknown; dropIndexes?: unknown };
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${name} must be a JSON object`);
  const dropIndexes = Array.isArray(value.dropIndexes) ? value.dropIndexes.map(String) : [];
  if (dropIndexes.some((index) => !/^\w+$/.test(index))) throw new Error(`${name}: dropIndexes are index names`);
  return {
    jvmArgs: typeof value.jvmArgs === 'string' ? value.jvmArgs.split(/\s+/).filter(Boolean) : [],
    conf: Array.isArray(value.conf) ? value.conf.map(String) : [],
    ...(dropIndexes.length > 0 ? { dropIndexes } : {}),
  };
}

/**
 * `extra`: JVM flags after NEO4J_LOCAL_JVM_ARGS, and neo4j.conf lines (bench:neo4j-ab's sides); `homeDir`: a
 * server home kept after stop (a graph built once and measured by several runs), else a throw-away one.
 */
export async function startBenchNeo4j(
  name: string,
  extra: { jvmArgs?: string[]; conf?: string[]; homeDir?: string } = {},
): Promise<LocalNeo4jServer> {
  const server = new LocalNeo4jServer({
    dir: process.env.NEO4J_LOCAL_DIR ?? path.join(projectRoot, '.neo4j'),
    version: NEO4J_DEFAULT_VERSION,
    boltPort: 0,
    heap: process.env.BENCH_NEO4J_HEAP ?? '2g',
    pageCache: process.env.BENCH_NEO4J_PAGECACHE ?? '1g',
    jvmArgs: [...(process.env.NEO4J_LOCAL_JVM_ARGS ?? '').split(/\s+/).filter(Boolean), ...(extra.jvmArgs ?? [])],
    homeName: `bench-${name}-${process.pid}`,
    // A kept home (a graph built once and measured many times) is not deleted on stop.
    homeDir: extra.homeDir,
    extraConf: extra.conf,
    ephemeral: extra.homeDir === undefined,
  });
  await server.start();
  return server;
}

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  rssMiB(): number;
  stop(): Promise<void>;
}

const built = new Set<string>();

/**
 * A checkout of another commit of this project, for A/B runs of a code change
 * (bench:ingest-ab's BENCH_AB_A_REF / BENCH_AB_B_REF): a detached git worktree under .bench-worktrees/
 * sharing this checkout's node_modules. Returns its root, for startServiceProcess.
 */
export function checkoutRef(ref: string): string {
  const sha = spawnSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: projectRoot, encoding: 'utf8' });
  if (sha.status !== 0) throw new Error(`not a commit: ${ref}`);
  const commit = sha.stdout.trim();
  const root = path.join(projectRoot, '.bench-worktrees', commit.slice(0, 12));
  if (!fs.existsSync(path.join(root, 'package.json'))) {
    const r = spawnSync('git', ['worktree', 'add', '--force', '--detach', root, commit], {
      cwd: projectRoot,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error(`git worktree add failed for ${ref}`);
  }
  const modules = path.join(root, 'node_modules');
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(projectRoot, 'node_modules'), modules, 'dir');
  return root;
}

/**
 * The files of another commit of this project, exported with `git archive` under .bench-worktrees/
 * (no git worktree: nothing is written to the repository's metadata), sharing this checkout's
 * node_modules. Returns its root, for startServiceProcess.
 */
export function exportRef(ref: string): string {
  const sha = spawnSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: projectRoot, encoding: 'utf8' });
  if (sha.status !== 0) throw new Error(`not a commit: ${ref}`);
  const commit = sha.stdout.trim();
  const root = path.join(projectRoot, '.bench-worktrees', `export-${commit.slice(0, 12)}`);
  if (!fs.existsSync(path.join(root, 'package.json'))) {
    fs.mkdirSync(root, { recursive: true });
    const r = spawnSync('sh', ['-c', `git archive ${commit} | tar -x -C "${root}"`], {
      cwd: projectRoot,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error(`git archive failed for ${ref}`);
  }
  const modules = path.join(root, 'node_modules');
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(projectRoot, 'node_modules'), modules, 'dir');
  return root;
}

/**
 * The Node flags a checkout's `npm start` launches the service with (`node <flags> dist/src/server.js`
 * in its package.json), so each side of an A/B runs as its own start script says.
 */
export function startScriptNodeFlags(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const words = (pkg.scripts?.start ?? '').split(/\s+/).filter(Boolean);
  if (words[0] !== 'node') return [];
  return words.slice(1).filter((w) => w.startsWith('--'));
}

/**
 * Runs the real service in its own process against `neo4jUri`, as `npm start` does: the compiled
 * JavaScript (built once per bench run and checkout), not the TypeScript loader the tests use.
 * `root` is the checkout to run (this one by default; see checkoutRef).
 */
export async function startServiceProcess(
  neo4jUri: string,
  extraEnv: Record<string, string> = {},
  root = projectRoot,
): Promise<ServiceProcess> {
  if (!built.has(root)) {
    const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`npm run build failed in ${root}`);
    built.add(root);
  }
  const port = await findFreePort();
  // The checkout's own launch flags (its `npm start`), then BENCH_SERVICE_NODE_ARGS: extra node flags
  // for the service (e.g. --cpu-prof when diagnosing).
  const nodeArgs = [
    ...startScriptNodeFlags(root),
    ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'dist/src/server.js')], {
    env: {
      ...process.env,
      NEO4J_URI: neo4jUri,
      NEO4J_PASSWORD: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // A service starting on a big graph written by a bench (not by a service) runs its data migrations
  // first, which takes minutes on a busy machine: BENCH_SERVICE_READY_TIMEOUT_MS (default 10 minutes).
  const deadline = Date.now() + Number(process.env.BENCH_SERVICE_READY_TIMEOUT_MS ?? 600_000);
  for (;;) {
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('service did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    rssMiB() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Minimal keep-alive HTTP client: lighter than fetch, so the generator steals less CPU from the service. */
export function request(
  url: string,
  method: string,
  body?: string | Buffer,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

export function writeResult(name: string, result: unknown): string {
  const dir = path.join(projectRoot, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

export type PlanNode = {
  operatorType: string;
  arguments: Record<string, unknown>;
  children: PlanNode[];
  rows?: number;
  dbHits?: number;
};

/**
 * A Cypher plan as lines, one operator each, indented by depth: its details (160 characters at most) and,
 * for a PROFILE, its rows and database hits.
 */
export function planSummary(p: PlanNode, depth = 0, out: string[] = []): string[] {
  const details =
    typeof p.arguments?.Details === 'string'
      ? ` ${(p.arguments.Details as string).replace(/\s+/g, ' ').slice(0, 160)}`
      : '';
  const stats = p.rows !== undefined ? ` [rows=${p.rows}, dbHits=${p.dbHits}]` : '';
  out.push(`${'  '.repeat(depth)}${p.operatorType.replace(/@neo4j$/, '')}${details}${stats}`);
  for (const c of p.children) planSummary(c, depth + 1, out);
  return out;
}
