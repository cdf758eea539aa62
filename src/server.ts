/**
 * The process: configuration, the Neo4j runtime (external or a local server we start), schema,
 * HTTP listener and graceful shutdown. Everything request-related lives in app.ts.
 */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, ConfigError, type Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { answerClientErrors } from './http/client-errors.js';
import { startNeo4jRuntime, type Neo4jRuntime } from './neo4j/runtime.js';
import neo4j from 'neo4j-driver';
import { Db, PingTimeout, TransactionDeadlineExceeded } from './store/db.js';
import { Neo4jActivity } from './store/neo4j-activity.js';
import { NamespaceRepository } from './store/namespaces.js';
import { Neo4jUnavailable, isConfigurationError, isConnectionError } from './neo4j/availability.js';
import { applySchema } from './store/schema.js';
import { planIngestStatements, setIngestProfile } from './store/ingest.js';
import { createApp } from './app.js';
import { runMigrations } from './store/migrations.js';
import { projectRoot } from './paths.js';
import { trackConnections } from './http/connections.js';
import { observeNeo4j } from './metrics.js';
import { DEFAULT_IDLE_WARM_UP, warmUpWhileIdle, warmUpWritePath } from './ingest/warm-up.js';
import { applyMemorySettings, memorySettingsInEffect } from './memory.js';

/** Time allowed to receive a request's headers (ms), at most REQUEST_TIMEOUT_MS. */
const HEADERS_TIMEOUT_MS = 10_000;

export interface RunningService {
  server: http.Server;
  runtime: Neo4jRuntime;
  stop(): Promise<void>;
}

/**
 * Failures at start that heal by themselves: Neo4j not answering yet (refused, lost or unanswered
 * connections, a database still starting). Anything else (wrong credentials, an unknown database, a
 * server whose Cypher the schema does not parse) stops the start.
 */
export function healsByItself(err: unknown): boolean {
  if (isConfigurationError(err)) return false;
  return (
    isConnectionError(err) ||
    neo4j.isRetriableError(err) ||
    err instanceof PingTimeout ||
    err instanceof TransactionDeadlineExceeded ||
    (err as { code?: unknown } | null)?.code === 'Neo.TransientError.General.DatabaseUnavailable'
  );
}

/** What must be in the graph before the service reads or writes it: schema, migrations, the default namespace. */
async function prepareGraph(db: Db, logger: Logger): Promise<number> {
  const statements = await applySchema(db);
  // A database written by an older version gets what this one keeps (lineage edges' histories, ...).
  await runMigrations(db, logger);
  await new NamespaceRepository(db).ensureDefault();
  return statements;
}

/**
 * Starts the service. With Neo4j not answering at start (an external server still starting, a
 * network partition), the service still listens, unready: /healthz 200, /readyz 503 with the
 * reason, every request that needs the graph 503 + Retry-After at once; it probes Neo4j and applies
 * the schema, migrations and warm-up when it answers, then turns ready by itself. A failure that
 * will not heal (wrong credentials, unknown database) rejects the start; met later, while waiting for
 * Neo4j, it stops the service and calls `onFatal`.
 */
export async function startService(
  config: Config,
  logger: Logger,
  onFatal: (err: Error) => void = () => undefined,
): Promise<RunningService> {
  setIngestProfile(config.ingestProfile);
  const runtime = await startNeo4jRuntime(config.neo4j, logger);
  try {
    const db = new Db(runtime.driver, runtime.database, config.queryTimeoutMs);
    // The schema, migrations and warm-up run on a view of the Db that ignores its hold (below).
    const startupDb = db.startupView();
    let statements: number | null = null;
    try {
      // No separate ping first: a refused connection fails the first schema statement at once (one
      // probe), and a cold server on a busy machine gets the statement's own timeout, not a ping's.
      statements = await prepareGraph(startupDb, logger);
    } catch (err) {
      if (!healsByItself(err)) throw err;
      const reason = (err as Error).message;
      if (!db.availability.isDown && !(err instanceof Neo4jUnavailable)) db.availability.markDown(reason);
      db.hold('the graph schema is not applied yet: Neo4j did not answer when the service started');
      logger.error(
        { err, neo4j: runtime.uri },
        'Neo4j does not answer: listening unready (requests get 503 at once); the graph schema, migrations and ' +
          'warm-up run when it answers',
      );
    }
    const { koa, services } = createApp({
      db,
      logger,
      bodyLimitBytes: config.bodyLimitBytes,
      bodyBytesInFlight: config.bodyBytesInFlight,
      ingest: {
        timeoutMs: config.ingestTimeoutMs,
        writers: config.ingestWriters,
        maxBatch: config.ingestMaxBatch,
        maxQueue: config.ingestMaxQueue,
        maxWaitMs: config.ingestMaxWaitMs,
        lingerMs: config.ingestLingerMs,
        minBatch: config.ingestMinBatch,
      },
      lineageWindow: config.lineageWindow,
      webRoot: path.join(projectRoot, 'dist', 'web'),
      queries: {
        maxConcurrent: config.queryMaxConcurrent,
        maxWaitMs: config.queryMaxWaitMs,
        memorySoftLimitBytes: config.queryMemorySoftLimitBytes,
      },
      facetKeysMax: config.facetKeysMax,
      auth: config.auth,
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy,
    });
    warnAboutExposure(config, logger);
    // Neo4j's state: requests fail fast while it is down (src/neo4j/availability.ts); the local
    // server's supervisor says so the moment it exits, and restarts it.
    const local = runtime.local;
    observeNeo4j(services.metrics, db.availability, local ? () => local.restarts : undefined);
    local?.on('exited', (exit) => db.availability.markDown(`the local Neo4j ${exit.reason}`));
    // A probe that meets a wrong password or an unknown database will never succeed: stop (below).
    let configurationError: Error | null = null;
    db.availability.onProbeFailure((err) => {
      if (isConfigurationError(err)) configurationError ??= err as Error;
    });
    db.availability.startHeartbeat();
    if (statements !== null)
      logger.info({ statements, neo4j: runtime.uri, database: runtime.database }, 'graph schema applied');

    const server = http.createServer(
      {
        // A client gets this long to send a whole request (a 10 MB event over a slow link fits);
        // a stalled or trickling one is answered 408 and closed instead of holding its socket.
        requestTimeout: config.requestTimeoutMs,
        headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.requestTimeoutMs),
        // How often Node checks those timeouts (default 30 s, which would double them).
        connectionsCheckingInterval: 1000,
      },
      koa.callback(),
    );
    server.keepAliveTimeout = 65_000;
    answerClientErrors(server, logger);
    const connections = trackConnections(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const addr = server.address();
    logger.info(
      { address: typeof addr === 'object' && addr ? `${addr.address}:${addr.port}` : addr },
      'lineage service listening',
    );

    // In the background: at start requests are served meanwhile (an early ingest batch just plans for
    // itself), but /readyz says 503 until the write path is warm, so orchestrators send traffic to a warm
    // service. Again each time Neo4j comes back: a restarted Neo4j has lost its plan cache, and events
    // are refused until then (see committer.hold) rather than wait 17-23 s behind the planning.
    let stopping: Promise<void> | null = null;
    const stopWarmUp = new AbortController();
    const warmUp = async () => {
      if (stopWarmUp.signal.aborted) return;
      const planStart = performance.now();
      await db.write({ op: 'plan ingest statements', timeoutMs: config.ingestTimeoutMs }, planIngestStatements);
      logger.info({ ms: Math.round(performance.now() - planStart) }, 'ingest statements planned');
      await warmUpWritePath(services.committer, logger, undefined, stopWarmUp.signal);
      // Transactions timed while Neo4j was cold say nothing about the waits to come.
      services.committer.resetTiming();
      warmWhileIdle();
    };
    // Ready now; the JIT goes on compiling for minutes of traffic, so it gets idle time first (warm-up.ts).
    let idleWarmUp: AbortController | null = null;
    const othersActivity = new Neo4jActivity(db);
    const warmWhileIdle = () => {
      idleWarmUp?.abort();
      if (config.idleWarmUpMs === 0 || stopWarmUp.signal.aborted) return;
      const outage = new AbortController();
      idleWarmUp = outage;
      const opts = { ...DEFAULT_IDLE_WARM_UP, budgetMs: config.idleWarmUpMs };
      const stopped = AbortSignal.any([stopWarmUp.signal, outage.signal]);
      const warming = warmUpWhileIdle(services.committer, logger, opts, stopped, services.admission, othersActivity);
      warming.catch((err: unknown) => {
        if (!stopWarmUp.signal.aborted && !outage.signal.aborted) logger.debug({ err }, 'idle warm-up stopped');
      });
    };
    const warmUpFailed = (what: string) => (err: unknown) => {
      if (!stopWarmUp.signal.aborted) logger.warn({ err }, what);
    };
    // Started unready: wait for Neo4j, prepare the graph (retried while the failures heal by
    // themselves), then lift the hold and warm up. A failure that will not heal stops the service.
    const prepareWhenReachable = async (): Promise<void> => {
      for (;;) {
        while (db.availability.isDown && configurationError === null && !stopWarmUp.signal.aborted)
          await new Promise((resolve) => setTimeout(resolve, 250));
        if (configurationError !== null) throw configurationError;
        if (stopWarmUp.signal.aborted) return;
        try {
          const applied = await prepareGraph(startupDb, logger);
          logger.info({ statements: applied, neo4j: runtime.uri, database: runtime.database }, 'graph schema applied');
          db.release();
          return;
        } catch (err) {
          if (stopWarmUp.signal.aborted) return;
          if (!healsByItself(err)) throw err;
          logger.warn({ err }, 'could not prepare the graph yet; trying again when Neo4j answers');
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    };
    let prepared = statements !== null;
    let warming: Promise<void>;
    if (prepared) {
      warming = warmUp().catch(warmUpFailed('could not warm up the write path; the first ingest batches will be slow'));
      services.readiness.waitFor('warming up the write path', warming);
    } else {
      const preparing = prepareWhenReachable().then(
        () => (prepared = true),
        (err: Error) => {
          logger.fatal({ err }, `cannot use Neo4j at ${runtime.uri}: ${err.message}`);
          void stop().finally(() => onFatal(err));
          throw err;
        },
      );
      services.readiness.waitFor('applying the graph schema and migrations once Neo4j answers', preparing);
      warming = preparing.then(
        () => warmUp().catch(warmUpFailed('could not warm up the write path; the first ingest batches will be slow')),
        () => undefined,
      );
      services.readiness.waitFor('warming up the write path', warming);
    }
    let holdGeneration = 0;
    db.availability.onChange((up, reason) => {
      if (!up) {
        idleWarmUp?.abort();
        services.committer.resetTiming();
        logger.error({ reason }, 'Neo4j is unreachable: requests get 503 at once until it answers again');
        return;
      }
      // Not prepared yet: prepareWhenReachable is waiting for exactly this, and warms up after.
      if (!prepared) {
        logger.info({ reason }, 'Neo4j answers; preparing the graph before turning ready');
        return;
      }
      logger.info({ reason }, 'Neo4j answers again; warming up the write path before turning ready');
      // Events are refused (503 + Retry-After) until the write path is warm again (committer.hold).
      const generation = ++holdGeneration;
      services.committer.hold('warming up the write path after Neo4j came back');
      warming = warming
        .then(warmUp)
        .catch(warmUpFailed('could not warm up the write path after Neo4j came back'))
        .finally(() => {
          if (generation === holdGeneration) services.committer.resume();
        });
      services.readiness.waitFor('warming up the write path', warming);
    });

    const stop = () =>
      (stopping ??= (async () => {
        logger.info('shutting down: no new connections, finishing in-flight requests');
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Connections without a request in flight are closed now, each busy one as soon as its
        // response is sent: with nothing in flight the stop is immediate.
        connections.drain();
        const grace = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
        await closed;
        clearTimeout(grace);
        db.availability.close();
        // A warm-up still running is only a rehearsal (rolled back): closing the driver ends it.
        stopWarmUp.abort();
        await runtime.close();
        logger.info('stopped');
      })());
    return { server, runtime, stop };
  } catch (err) {
    await runtime.close();
    throw err;
  }
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** Start-up warnings about who can reach the API (never the keys themselves). */
export function warnAboutExposure(config: Config, logger: Logger): void {
  const { auth } = config;
  if (auth.mode === 'off' && !isLoopback(config.host)) {
    logger.warn(
      { host: config.host, port: config.port },
      'AUTH_MODE=off on a non-loopback address: anyone who can reach this port can read, write and delete. Set ' +
        'AUTH_MODE=apikey (docs/operations.md#authentication) or HOST=127.0.0.1',
    );
  }
  if (auth.mode === 'off' && auth.keys.length > 0)
    logger.warn({ keys: auth.keys.length }, 'API keys are configured but AUTH_MODE=off: they are not checked');
  if (auth.mode === 'apikey') {
    logger.info(
      {
        keys: auth.keys.map((k) => ({ id: k.id, scopes: [...k.scopes], namespaces: k.namespaces })),
        from: auth.keySource,
        metricsPublic: auth.metricsPublic,
      },
      'API keys required',
    );
  }
}

/**
 * Listens on HOST:PORT for a moment and closes: an address the service cannot listen on is a bad
 * HOST or PORT, told at once (exit code 2) rather than after Neo4j has started, with the system's
 * reason only (getaddrinfo ENOTFOUND, EADDRINUSE).
 */
export async function checkListenAddress(host: string, port: number): Promise<void> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code ?? err.message;
      if (err.code === 'EADDRINUSE') reject(new ConfigError('PORT', `${port} is in use on ${host} (${why})`));
      else if (err.code === 'EACCES') reject(new ConfigError('PORT', `${port} needs privileges on ${host} (${why})`));
      else reject(new ConfigError('HOST', `'${host}' is not an address of this machine to listen on (${why})`));
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
    await checkListenAddress(config.host, config.port);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // Before anything big is allocated: the heap's growth between collections (src/memory.ts).
  applyMemorySettings({ heapGrowthPercent: config.heapGrowthPercent });
  const logger = createLogger(config.logLevel, config.logFormat);
  const memory = memorySettingsInEffect();
  logger.info(
    {
      heapGrowthPercent: config.heapGrowthPercent,
      heapSizeLimitMiB: Math.round(memory.heapSizeLimitBytes / 1048576),
      bodyLimitBytes: config.bodyLimitBytes,
      bodyBytesInFlight: config.bodyBytesInFlight,
      // The young generation is sized by a launch flag (`npm start`: --max-semi-space-size), not by the process.
      nodeFlags: process.execArgv.join(' ') || null,
      nodeOptions: process.env.NODE_OPTIONS || null,
    },
    'memory settings',
  );
  let service: RunningService;
  try {
    service = await startService(config, logger, () => process.exit(1));
  } catch (err) {
    logger.fatal({ err }, `could not start: ${(err as Error).message}`);
    process.exit(1);
  }
  let signals = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (++signals > 1) {
        logger.warn('second signal: exiting now');
        process.exit(1);
      }
      service.stop().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'error during shutdown');
          process.exit(1);
        },
      );
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) void main();
