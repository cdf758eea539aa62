/**
 * Runs a private Neo4j 5.26 Community server for this process: jars resolved from Maven Central with
 * the machine's Maven (cached per version), a generated neo4j.conf, and a child `java` process that is
 * stopped when the service stops. It exists because our machines have no Docker engine.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { projectRoot } from '../../paths.js';
import type { Logger } from '../../logger.js';
import { findFreePort } from '../../free-port.js';
import { ensureProceduresJar, installProcedures } from './procedures.js';

/**
 * This folder in the source tree: its pom files and watchdog script are read from here, also when
 * the service runs compiled from dist/ (the build copies only JavaScript).
 */
const localDir = path.join(projectRoot, 'src', 'neo4j', 'local');

export interface LocalServerOptions {
  /** Root of the cache: jars under `dist/<version>/lib`, server home under `homeName`. */
  dir: string;
  version: string;
  /** 0 picks a free port. */
  boltPort: number;
  heap: string;
  pageCache: string;
  /** Extra JVM flags, appended after the defaults (diagnostics: GC logging, a flight recording from start). */
  jvmArgs?: string[];
  /** Extra neo4j.conf lines (`setting=value`), appended after the generated ones (benchmarks of settings). */
  extraConf?: string[];
  /** Sub-folder of `dir` holding conf, data and logs; tests use their own. */
  homeName?: string;
  /** Absolute server home (conf, data, logs); overrides `homeName`. */
  homeDir?: string;
  /** Throw-away data directory (tests): deleted on stop. */
  ephemeral?: boolean;
  logger?: Logger;
  startTimeoutMs?: number;
  /** Also serve Neo4j Browser over HTTP on 127.0.0.1 at this port (0 or busy: a free one); null/absent: HTTP off. */
  browserPort?: number | null;
  /**
   * Restart the server when it exits on its own (crash, OOM, SIGKILL), with exponential backoff:
   * the service's own Neo4j is its to keep running. Off for the tests' shared server.
   */
  supervise?: boolean;
  /**
   * First and longest wait before a restart (ms); the wait doubles per failed start and resets after a run of a minute.
   */
  restartBackoffMs?: { initial: number; max: number };
  /**
   * Start from a class-data archive of the server's classes (AppCDS; classDataSharingArgs), written
   * by the first run that stops cleanly: the JVM then starts in about half the time.
   */
  classDataSharing?: boolean;
}

/**
 * JVM flags for a class-data archive (AppCDS) of the server's classes under `libDir`. Neo4j loads
 * some 15,000 classes at start and more when it first plans a query; mapping them from an archive
 * instead of loading and verifying each jar entry halved the start of the JVM on the 2-core VM
 * (5.9 s against 10.8 s). The archive is per Java version, per collector (a JVM refuses an archive
 * written under another one) and per jar set (the folder); the first run without one writes it when
 * it exits cleanly (-XX:ArchiveClassesAtExit, to a file of its own, renamed into place on a clean
 * exit), later runs map it. An unusable archive only costs the speed: the JVM warns and loads the
 * classes as usual (-Xshare:auto). `jvmArgs`: the flags before the archive's, whose last
 * -XX:+Use<name>GC names the collector.
 */
export function classDataSharingArgs(
  libDir: string,
  javaVersion: string,
  jvmArgs: string[] = COLLECTOR_JVM_FLAGS,
): { args: string[]; archive: string; partial: string | null } {
  const collector =
    jvmArgs
      .map((a) => /^-XX:\+Use(\w+)GC$/.exec(a)?.[1])
      .filter(Boolean)
      .pop()
      ?.toLowerCase() ?? 'default';
  const version = javaVersion.replace(/[^\w.-]/g, '_');
  const archive = path.join(path.dirname(libDir), `server-classes-java-${version}-${collector}gc.jsa`);
  if (fs.existsSync(archive))
    return { args: [`-XX:SharedArchiveFile=${archive}`, '-Xshare:auto'], archive, partial: null };
  const partial = `${archive}.partial-${process.pid}`;
  return { args: [`-XX:ArchiveClassesAtExit=${partial}`], archive, partial };
}

function javaVersion(): string {
  return /version "([^"]+)"/.exec(commandVersion('java', ['-version']) ?? '')?.[1] ?? 'unknown';
}

/** Why the server process ended, as the supervisor logs and reports it. */
export interface ServerExit {
  /** Exit code of the JVM (via its watchdog), or null when the watchdog itself was killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** In words: "killed by SIGKILL", "exited with code 3 (out of memory)", ... */
  reason: string;
  /** The last lines of its console log (stdout and stderr). */
  logTail: string;
  /** How long it had been running (ms). */
  ranForMs: number;
}

export interface SupervisorEvents {
  /** The server exited without being asked to; a restart follows (after `restartInMs`). */
  exited(exit: ServerExit, restartInMs: number): void;
  /** The server answers on Bolt again after a restart. */
  restarted(attempt: number, tookMs: number): void;
}

const SIGNAL_EXIT_CODES: Record<number, string> = { 134: 'SIGABRT', 137: 'SIGKILL', 139: 'SIGSEGV', 143: 'SIGTERM' };

/** The watchdog exits with the JVM's status: 128 + n for a signal, 3 for -XX:+ExitOnOutOfMemoryError. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `its watchdog was killed by ${signal}`;
  if (code === null) return 'exited';
  if (SIGNAL_EXIT_CODES[code]) return `killed by ${SIGNAL_EXIT_CODES[code]} (exit code ${code})`;
  if (code > 128) return `killed by signal ${code - 128} (exit code ${code})`;
  if (code === 3) return 'exited with code 3 (out of memory: -XX:+ExitOnOutOfMemoryError)';
  return `exited with code ${code}`;
}

/**
 * The Neo4j Browser release served by the local server: `org.neo4j.client:neo4j-browser`, the newest
 * on Maven Central (the 5.26 distribution bundles a build of the browser that is not published there).
 * Neo4j 5.26 Community serves the `browser/` resources of that jar from its classpath at /browser/
 * once its HTTP connector is on (org.neo4j.server.modules.Neo4jBrowserModule).
 */
export const NEO4J_BROWSER_VERSION = '5.24.0';

export class Neo4jRuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Neo4jRuntimeError';
  }
}

function commandVersion(cmd: string, args: string[]): string | null {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return `${r.stdout}\n${r.stderr}`;
}

/** Fails with a message naming what to install when Java 17+ or Maven is missing. */
export function checkPrerequisites(needMaven: boolean): void {
  const java = commandVersion('java', ['-version']);
  if (java === null) {
    throw new Neo4jRuntimeError(
      'Java 17 is needed to run the local Neo4j server but `java` was not found. ' +
        'Install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless) or set NEO4J_URI to use an existing ' +
        'Neo4j.',
    );
  }
  const m = /version "(\d+)(?:\.(\d+))?/.exec(java);
  const major = m ? (m[1] === '1' ? Number(m[2]) : Number(m[1])) : 0;
  if (major < 17 || major > 21) {
    throw new Neo4jRuntimeError(
      `Neo4j 5.26 needs Java 17 or 21, but \`java -version\` reports ${major || 'an unknown version'}. ` +
        'Install Java 17 (apt-get install openjdk-17-jre-headless) or set NEO4J_URI.',
    );
  }
  if (needMaven && commandVersion('mvn', ['-v']) === null) {
    throw new Neo4jRuntimeError(
      'Maven is needed once to download the Neo4j server jars but `mvn` was not found. ' +
        'Install it (Debian/Ubuntu: apt-get install maven) or set NEO4J_URI to use an existing Neo4j.',
    );
  }
}

/**
 * Copies the runtime dependencies of `pom` (with `-D<property>=<version>`) into `target`, through a
 * staging folder renamed into place only when Maven succeeded (and `expected`, a file name, is there):
 * an interrupted fetch never leaves a half-filled folder in place.
 */
function fetchWithMaven(
  pom: string,
  property: string,
  version: string,
  target: string,
  expected: string | null,
  what: string,
): void {
  checkPrerequisites(true);
  const staging = `${target}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const r = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      '-f',
      pom,
      'dependency:copy-dependencies',
      `-DoutputDirectory=${staging}`,
      '-DincludeScope=runtime',
      `-D${property}=${version}`,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (r.status !== 0 || (expected !== null && !fs.existsSync(path.join(staging, expected)))) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Neo4jRuntimeError(
      `Maven could not fetch ${what} ${version}: ${(r.stdout + r.stderr).trim().slice(-2000)}`,
    );
  }
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.renameSync(staging, target);
}

/** Returns the folder of server jars for `version`, downloading them on first use. */
export function ensureServerJars(dir: string, version: string, logger?: Logger): string {
  const libDir = path.join(dir, 'dist', version, 'lib');
  if (fs.existsSync(path.join(libDir, '.complete'))) return libDir;
  logger?.info({ version, libDir }, 'fetching Neo4j server jars with Maven (first run only)');
  fetchWithMaven(path.join(localDir, 'pom.xml'), 'neo4j.version', version, libDir, null, 'Neo4j');
  // Written once the folder is in place: a start that finds no marker fetches again.
  fs.writeFileSync(path.join(libDir, '.complete'), new Date().toISOString());
  return libDir;
}

/** Returns the Neo4j Browser jar, downloading it with Maven on first use (cached under dist/browser/). */
export function ensureBrowserJar(dir: string, logger?: Logger, version = NEO4J_BROWSER_VERSION): string {
  const libDir = path.join(dir, 'dist', 'browser', version);
  const jar = path.join(libDir, `neo4j-browser-${version}.jar`);
  if (fs.existsSync(jar)) return jar;
  logger?.info({ version, libDir }, 'fetching Neo4j Browser with Maven (first use only)');
  fetchWithMaven(
    path.join(localDir, 'browser-pom.xml'),
    'browser.version',
    version,
    libDir,
    path.basename(jar),
    'Neo4j Browser',
  );
  return jar;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * The JVM flags Neo4j's own distribution starts the server with (its neo4j.conf template), but for
 * the collector (below). Without the --add-opens, Netty falls back to slower direct-buffer allocation
 * and Neo4j's native file accessor cannot reach file descriptors; TrustFinalNonStaticFields lets the
 * JIT fold final fields.
 */
const DISTRIBUTION_JVM_FLAGS = [
  '-XX:-OmitStackTraceInFastThrow',
  '-XX:+UnlockExperimentalVMOptions',
  '-XX:+TrustFinalNonStaticFields',
  '-XX:+DisableExplicitGC',
  '-XX:+ExitOnOutOfMemoryError',
  '-Djdk.nio.maxCachedBufferSize=1024',
  '-Dio.netty.tryReflectionSetAccessible=true',
  '-XX:+UnlockDiagnosticVMOptions',
  '-XX:+DebugNonSafepoints',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--enable-native-access=ALL-UNNAMED',
  '-Dlog4j2.disable.jmx=true',
];

/**
 * The collector: the parallel one, where Neo4j's distribution runs G1. A local Neo4j is the small
 * machine's (a 1 GB heap by default, a few cores), where little survives a young collection (about
 * 100 MB after each under sustained ingestion) and G1's young pauses were the longer: 75-190 ms
 * against under 10 ms (ingestion at c=32) and 95-117 against 40-70 ms (hub blast radius); the ingest
 * path ran 1.13x the events/s with 0.84x Neo4j's CPU per event, the hub's p95 267-390 against 347-442 ms
 * (docs/operations.md).
 * NEO4J_LOCAL_JVM_ARGS='-XX:-UseParallelGC -XX:+UseG1GC' brings G1 back (it comes later).
 */
export const COLLECTOR_JVM_FLAGS = ['-XX:+UseParallelGC'];

function neo4jConf(
  port: number,
  home: string,
  pageCache: string,
  extra: string[] = [],
  browserPort: number | null = null,
): string {
  const http =
    browserPort === null
      ? ['server.http.enabled=false']
      : [
          // Neo4j Browser (and the discovery document it starts from) on loopback only; Bolt stays the way in.
          'server.http.enabled=true',
          `server.http.listen_address=127.0.0.1:${browserPort}`,
          `server.http.advertised_address=127.0.0.1:${browserPort}`,
          'server.http_enabled_modules=BROWSER',
        ];
  return [
    '# Written by the lineage service at each start; edit NEO4J_LOCAL_* variables instead.',
    `server.default_listen_address=127.0.0.1`,
    `server.bolt.listen_address=127.0.0.1:${port}`,
    `server.bolt.advertised_address=127.0.0.1:${port}`,
    'server.bolt.tls_level=DISABLED',
    ...http,
    'server.https.enabled=false',
    'dbms.security.auth_enabled=false',
    'dbms.usage_report.enabled=false',
    `server.memory.pagecache.size=${pageCache}`,
    'db.tx_log.rotation.retention_policy=2 days 512M',
    'db.checkpoint.interval.time=5m',
    // Bolt's network threads wait this many seconds for late work before a stop goes on (Neo4j's default
    // 5, twice: 10 s of every stop). The service closes its driver before it stops its Neo4j, so nothing
    // can come: 0, as Neo4j's own test servers use. (An internal setting: see docs/operations.md.)
    'internal.dbms.bolt.netty_server_shutdown_quiet_period=0',
    `server.directories.data=${path.join(home, 'data')}`,
    `server.directories.logs=${path.join(home, 'logs')}`,
    `server.directories.run=${path.join(home, 'run')}`,
    `server.directories.plugins=${path.join(home, 'plugins')}`,
    `server.directories.import=${path.join(home, 'import')}`,
    ...extra,
    '',
  ].join('\n');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The live service process, other than this one, whose Neo4j the pid file names: its JVM's parent is
 * a watchdog whose first argument is the service's pid (watchdog.sh). Null when there is none (no
 * server, or one whose service is gone: left behind).
 */
function otherServiceUsing(pidFile: string): { service: number; neo4j: number } | null {
  try {
    const neo4j = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (!(neo4j > 0) || !fs.readFileSync(`/proc/${neo4j}/cmdline`, 'utf8').includes('CommunityEntryPoint')) return null;
    const stat = fs.readFileSync(`/proc/${neo4j}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const argv = fs.readFileSync(`/proc/${parent}/cmdline`, 'utf8').split('\0');
    const at = argv.findIndex((a) => path.basename(a) === 'watchdog.sh');
    const service = at >= 0 ? Number(argv[at + 1]) : 0;
    return service > 0 && service !== process.pid && isAlive(service) ? { service, neo4j } : null;
  } catch {
    return null; // no pid file, not Linux, or gone
  }
}

/**
 * Kills a server left behind by a process that died without stopping it (e.g. SIGKILL). A server
 * another running service uses is not left behind: it is left alone.
 */
function reapStaleServer(pidFile: string, logger?: Logger): void {
  if (!fs.existsSync(pidFile) || otherServiceUsing(pidFile) !== null) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  if (pid > 0 && isAlive(pid)) {
    let cmdline = '';
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      /* not Linux, or gone */
    }
    if (cmdline.includes('CommunityEntryPoint')) {
      logger?.warn({ pid }, 'stopping a Neo4j server left running by an earlier process');
      process.kill(pid, 'SIGKILL');
    }
  }
  fs.rmSync(pidFile, { force: true });
}

export class LocalNeo4jServer {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly onProcessExit = () => this.killNow();
  private javaArgs: string[] = [];
  private classData: ReturnType<typeof classDataSharingArgs> | null = null;
  private logPath = '';
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private backoffMs = 0;
  private readonly listeners: Partial<{ [K in keyof SupervisorEvents]: SupervisorEvents[K][] }> = {};
  port = 0;
  home = '';
  /** The HTTP port serving Neo4j Browser, or null. */
  browserPort: number | null = null;
  /** Restarts after an unexpected exit (supervise), for /metrics. */
  restarts = 0;

  constructor(private readonly opts: LocalServerOptions) {}

  get uri(): string {
    return `bolt://127.0.0.1:${this.port}`;
  }

  /** Where Neo4j Browser is served, or null when it is not. */
  get browserUrl(): string | null {
    return this.browserPort === null ? null : `http://127.0.0.1:${this.browserPort}/browser/`;
  }

  /** The JVM's process id while the server runs (the watchdog writes it), for diagnostics. */
  get jvmPid(): number | null {
    try {
      return Number(fs.readFileSync(this.pidFile, 'utf8').trim()) || null;
    } catch {
      return null;
    }
  }

  private get pidFile(): string {
    return path.join(this.home, 'run', 'neo4j.pid');
  }

  on<K extends keyof SupervisorEvents>(event: K, listener: SupervisorEvents[K]): void {
    const list = (this.listeners[event] ?? []) as SupervisorEvents[K][];
    list.push(listener);
    this.listeners[event] = list as (typeof this.listeners)[K];
  }

  private emit<K extends keyof SupervisorEvents>(event: K, ...args: Parameters<SupervisorEvents[K]>): void {
    for (const listener of this.listeners[event] ?? []) {
      try {
        (listener as (...a: Parameters<SupervisorEvents[K]>) => void)(...args);
      } catch {
        /* a listener's failure is its own */
      }
    }
  }

  async start(): Promise<void> {
    const { dir, version, logger } = this.opts;
    checkPrerequisites(false);
    const libDir = ensureServerJars(dir, version, logger);
    this.home = this.opts.homeDir ?? path.join(dir, this.opts.homeName ?? 'server');
    const confDir = path.join(this.home, 'conf');
    for (const sub of ['conf', 'data', 'logs', 'run', 'plugins', 'import']) {
      fs.mkdirSync(path.join(this.home, sub), { recursive: true });
    }
    const user = otherServiceUsing(this.pidFile);
    if (user !== null) {
      throw new Neo4jRuntimeError(
        `the Neo4j server home ${this.home} is in use by another running service (process ${user.service}; its ` +
          `Neo4j is process ${user.neo4j}): stop it first, or give this one another NEO4J_LOCAL_DATA_DIR`,
      );
    }
    reapStaleServer(this.pidFile, logger);
    installProcedures(path.join(this.home, 'plugins'), ensureProceduresJar(dir, libDir, version, logger));

    let port = this.opts.boltPort;
    if (port === 0 || !(await portIsFree(port))) {
      if (port !== 0) logger?.warn({ port }, 'configured Bolt port is busy; using a free one');
      port = await findFreePort();
    }
    this.port = port;
    let classpath = `${libDir}/*`;
    this.browserPort = null;
    if (this.opts.browserPort !== undefined && this.opts.browserPort !== null) {
      classpath += `${path.delimiter}${ensureBrowserJar(dir, logger)}`;
      let httpPort = this.opts.browserPort;
      if (httpPort === 0 || httpPort === port || !(await portIsFree(httpPort))) {
        if (httpPort !== 0) logger?.warn({ port: httpPort }, 'configured Neo4j Browser port is busy; using a free one');
        do httpPort = await findFreePort();
        while (httpPort === port);
      }
      this.browserPort = httpPort;
    }
    fs.writeFileSync(
      path.join(confDir, 'neo4j.conf'),
      neo4jConf(port, this.home, this.opts.pageCache, this.opts.extraConf, this.browserPort),
    );

    this.logPath = path.join(this.home, 'logs', 'console.log');
    logger?.info({ port, home: this.home, version }, 'starting local Neo4j');
    const collectorArgs = [...COLLECTOR_JVM_FLAGS, ...(this.opts.jvmArgs ?? [])];
    this.classData = this.opts.classDataSharing ? classDataSharingArgs(libDir, javaVersion(), collectorArgs) : null;
    this.javaArgs = [
      `-Xms${this.opts.heap}`,
      `-Xmx${this.opts.heap}`,
      ...DISTRIBUTION_JVM_FLAGS,
      ...COLLECTOR_JVM_FLAGS,
      ...(this.classData?.args ?? []),
      ...(this.opts.jvmArgs ?? []),
      '-Dfile.encoding=UTF-8',
      '-cp',
      classpath,
      'org.neo4j.server.CommunityEntryPoint',
      `--home-dir=${this.home}`,
      `--config-dir=${confDir}`,
      '--console-mode',
    ];
    this.stopping = false;
    process.on('exit', this.onProcessExit);
    await this.launch();
    logger?.info({ uri: this.uri, browser: this.browserUrl ?? undefined }, 'local Neo4j is ready');
  }

  /** Spawns the JVM (under its watchdog) and waits until it answers on Bolt. */
  private async launch(): Promise<void> {
    const pidFile = this.pidFile;
    const out = fs.openSync(this.logPath, 'a');
    // A small shell watchdog owns the JVM: it forwards SIGTERM and also stops Neo4j if this Node
    // process disappears without a clean shutdown (SIGKILL, crash), so no orphan JVM is left.
    // Own process group: a terminal Ctrl-C reaches only us, and we stop Neo4j after draining requests.
    const child = spawn(
      'sh',
      [path.join(localDir, 'watchdog.sh'), String(process.pid), pidFile, 'java', ...this.javaArgs],
      {
        cwd: this.home,
        stdio: ['ignore', out, out],
        detached: true,
      },
    );
    fs.closeSync(out);
    this.child = child;
    const launchedAt = Date.now();
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let exitedEarly = false;
    let ready = false;
    child.once('exit', (code, signal) => {
      exitedEarly = true;
      this.keepClassDataArchive(code);
      // A killed watchdog leaves its JVM running: stop it before anything starts another.
      reapStaleServer(pidFile, this.opts.logger);
      fs.rmSync(pidFile, { force: true });
      if (ready && !this.stopping && this.child === child) this.onUnexpectedExit(code, signal, Date.now() - launchedAt);
    });

    const deadline = Date.now() + (this.opts.startTimeoutMs ?? 120_000);
    const driver = neo4j.driver(this.uri, undefined, { logging: undefined, connectionTimeout: 2000 });
    try {
      for (;;) {
        if (exitedEarly) {
          throw new Neo4jRuntimeError(`Neo4j exited during startup; last log lines:\n${tail(this.logPath, 30)}`);
        }
        if (this.stopping) throw new Neo4jRuntimeError('Neo4j start cancelled: the service is stopping');
        try {
          await driver.verifyConnectivity();
          break;
        } catch {
          if (Date.now() > deadline) {
            await this.stop();
            throw new Neo4jRuntimeError(`Neo4j did not answer on Bolt within the start timeout; log: ${this.logPath}`);
          }
          await new Promise((r) => setTimeout(r, 300));
        }
      }
    } finally {
      await driver.close();
    }
    // The HTTP connector (Neo4j Browser) comes up a little after Bolt.
    while (this.browserPort !== null) {
      if (exitedEarly)
        throw new Neo4jRuntimeError(`Neo4j exited during startup; last log lines:\n${tail(this.logPath, 30)}`);
      const up = await fetch(`http://127.0.0.1:${this.browserPort}/`, { headers: { accept: 'application/json' } }).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) {
        await this.stop();
        throw new Neo4jRuntimeError(
          `Neo4j Browser did not answer on port ${this.browserPort} within the start timeout; log: ${this.logPath}`,
        );
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    ready = true;
  }

  /**
   * A class-data archive written at a clean exit (0, or 143 after our SIGTERM) goes into place; anything else is
   * dropped.
   */
  private keepClassDataArchive(code: number | null): void {
    const cds = this.classData;
    if (!cds?.partial || !fs.existsSync(cds.partial)) return;
    try {
      if ((code === 0 || code === 143) && !fs.existsSync(cds.archive)) fs.renameSync(cds.partial, cds.archive);
      else fs.rmSync(cds.partial, { force: true });
    } catch {
      /* another process put one in place meanwhile */
    }
  }

  /** The supervisor: logs why the server died and starts it again after a backoff. */
  private onUnexpectedExit(code: number | null, signal: NodeJS.Signals | null, ranForMs: number): void {
    const { logger } = this.opts;
    const exit: ServerExit = {
      code,
      signal,
      reason: describeExit(code, signal),
      logTail: tail(this.logPath, 20),
      ranForMs,
    };
    if (!this.opts.supervise) {
      logger?.error({ exit }, `local Neo4j ${exit.reason}; not supervised, so it stays down`);
      this.emit('exited', exit, -1);
      return;
    }
    const backoff = this.opts.restartBackoffMs ?? { initial: 1000, max: 30_000 };
    // A server that ran a while gets the short wait again; one that keeps dying waits longer each time.
    this.backoffMs =
      ranForMs > 60_000 || this.backoffMs === 0 ? backoff.initial : Math.min(backoff.max, this.backoffMs * 2);
    logger?.error(
      { exit, restartInMs: this.backoffMs },
      `local Neo4j ${exit.reason}; restarting it in ${this.backoffMs} ms`,
    );
    this.emit('exited', exit, this.backoffMs);
    this.scheduleRestart(this.backoffMs);
  }

  private scheduleRestart(delayMs: number): void {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      const attempt = ++this.restarts;
      const t0 = Date.now();
      this.opts.logger?.info({ attempt, port: this.port }, 'restarting local Neo4j');
      this.launch().then(
        () => {
          this.opts.logger?.info({ attempt, tookMs: Date.now() - t0, uri: this.uri }, 'local Neo4j is back');
          this.emit('restarted', attempt, Date.now() - t0);
        },
        (err) => {
          if (this.stopping) return;
          const backoff = this.opts.restartBackoffMs ?? { initial: 1000, max: 30_000 };
          this.backoffMs = Math.min(backoff.max, Math.max(backoff.initial, this.backoffMs * 2));
          this.opts.logger?.error(
            { err, attempt, restartInMs: this.backoffMs },
            `local Neo4j did not come back; trying again in ${this.backoffMs} ms`,
          );
          this.scheduleRestart(this.backoffMs);
        },
      );
    }, delayMs);
  }

  /** SIGTERM lets Neo4j check-point and release its store lock; SIGKILL only if it hangs. */
  async stop(timeoutMs = 30_000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.cleanup();
      return;
    }
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, timeoutMs);
    await this.exited;
    clearTimeout(timer);
    this.cleanup();
  }

  private cleanup(): void {
    process.off('exit', this.onProcessExit);
    this.child = null;
    if (this.opts.ephemeral && this.home) fs.rmSync(this.home, { recursive: true, force: true });
  }

  /** Last resort on process exit (synchronous context): never leave an orphan JVM behind. */
  private killNow(): void {
    if (this.child?.pid && this.child.exitCode === null) {
      try {
        // The watchdog forwards this to the JVM and would also notice our exit on its own.
        process.kill(this.child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
  }
}

function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
