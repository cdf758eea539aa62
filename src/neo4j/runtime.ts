/**
 * Resolves where the graph lives: an external server when NEO4J_URI is set, otherwise a local
 * Neo4j server started (and later stopped) by this process. The local launcher (src/neo4j/local/)
 * is imported only in that second case, so a service or test pointed at a remote Neo4j never loads
 * it and needs neither Java nor Maven.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { LocalNeo4jServer } from './local/server.js';
import { installDriverPatches } from './patches/index.js';

export interface Neo4jRuntime {
  driver: Driver;
  database: string;
  uri: string;
  /** Closes the driver and stops the local server if this process started one. */
  close(): Promise<void>;
  /** The local server this process supervises (undefined for an external Neo4j). */
  local?: LocalNeo4jServer;
}

/**
 * How long the driver waits for a TCP connection to Neo4j, and for a pooled connection. The
 * driver's defaults (30 s and 60 s) turned an unreachable server into half-minute hangs; a server
 * on the same network answers a connect in milliseconds.
 */
export const CONNECTION_TIMEOUT_MS = 5000;
export const CONNECTION_ACQUISITION_TIMEOUT_MS = 10_000;

/** How long a transaction is retried after transient errors (deadlocks, leader switches, lost connections). */
export const MAX_TRANSACTION_RETRY_MS = 15_000;

const RELEASE_ERROR = 'ConnectionHolder got an error while releasing the connection';

export function createDriver(uri: string, user: string, password: string, logger?: Logger): Driver {
  installDriverPatches();
  const auth = password ? neo4j.auth.basic(user, password) : undefined;
  return neo4j.driver(uri, auth, {
    maxConnectionPoolSize: 64,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    connectionAcquisitionTimeout: CONNECTION_ACQUISITION_TIMEOUT_MS,
    maxTransactionRetryTime: MAX_TRANSACTION_RETRY_MS,
    disableLosslessIntegers: false,
    userAgent: 'lineage-graph-service/0.1',
    logging: logger
      ? {
          level: 'warn',
          // A failed connection is reported by the request or probe that met it (availability.ts); the
          // driver's own note on releasing it would repeat it at every probe while Neo4j is down.
          logger: (level, message) =>
            logger[message.startsWith(RELEASE_ERROR) ? 'debug' : level === 'error' ? 'error' : 'warn'](
              { neo4j: true },
              message,
            ),
        }
      : undefined,
  });
}

export async function startNeo4jRuntime(config: Config['neo4j'], logger?: Logger): Promise<Neo4jRuntime> {
  if (config.kind === 'external') {
    const driver = createDriver(config.uri, config.user, config.password, logger);
    return { driver, database: config.database, uri: config.uri, close: () => driver.close() };
  }
  const { LocalNeo4jServer } = await import('./local/server.js');
  const server = new LocalNeo4jServer({ ...config, logger, supervise: true, classDataSharing: true });
  await server.start();
  const driver = createDriver(server.uri, '', '', logger);
  return {
    driver,
    database: config.database,
    uri: server.uri,
    local: server,
    async close() {
      await driver.close();
      await server.stop();
    },
  };
}
