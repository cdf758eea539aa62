/**
 * Mocha global fixture: one real Neo4j for the whole test run.
 *   TEST_NEO4J_URI set            → that server (its database is wiped between tests!)
 *   TEST_NEO4J=testcontainers     → a neo4j:5.26 container (needs a Docker engine)
 *   otherwise                     → the project's own local Neo4j server, on a throw-away data
 *                                   directory and a free port, so it never touches the service's data.
 */
import path from 'node:path';
import { NEO4J_DEFAULT_VERSION } from '../../src/config.js';
import { projectRoot } from '../../src/paths.js';
import { createDriver } from '../../src/neo4j/runtime.js';
import { Db } from '../../src/store/db.js';
import { applySchema } from '../../src/store/schema.js';
import { planIngestStatements } from '../../src/store/ingest.js';

let stop: (() => Promise<void>) | null = null;

async function startTestNeo4j(): Promise<string | null> {
  if (process.env.TEST_NEO4J_URI) return null;
  if (process.env.TEST_NEO4J === 'testcontainers') {
    const { Neo4jContainer } = await import('@testcontainers/neo4j');
    const container = await new Neo4jContainer('neo4j:5.26').withPassword('lineage-test').start();
    process.env.TEST_NEO4J_URI = container.getBoltUri();
    process.env.TEST_NEO4J_USER = container.getUsername();
    process.env.TEST_NEO4J_PASSWORD = container.getPassword();
    stop = async () => void (await container.stop());
    return null;
  }
  // Imported here, not at the top: with TEST_NEO4J_URI set, the launcher (Java, Maven) is never loaded.
  const { LocalNeo4jServer } = await import('../../src/neo4j/local/server.js');
  const server = new LocalNeo4jServer({
    dir: process.env.NEO4J_LOCAL_DIR ?? path.join(projectRoot, '.neo4j'),
    version: process.env.NEO4J_LOCAL_VERSION ?? NEO4J_DEFAULT_VERSION,
    boltPort: 0,
    heap: '1g',
    pageCache: '256m',
    homeName: `test-run-${process.pid}`,
    ephemeral: true,
  });
  const t0 = Date.now();
  await server.start();
  process.env.TEST_NEO4J_URI = server.uri;
  stop = () => server.stop();
  return `  (test Neo4j ${NEO4J_DEFAULT_VERSION} on ${server.uri}, started in ${Date.now() - t0} ms)`;
}

/**
 * The schema and the ingest statements' plans, once per run, as the service does before it turns
 * ready: otherwise the first test to ingest pays for planning them (tens of seconds on a cold, busy
 * Neo4j, past mocha's timeout).
 */
async function prepareTestNeo4j(): Promise<void> {
  const driver = createDriver(
    process.env.TEST_NEO4J_URI!,
    process.env.TEST_NEO4J_USER ?? 'neo4j',
    process.env.TEST_NEO4J_PASSWORD ?? '',
  );
  const db = new Db(driver, process.env.TEST_NEO4J_DATABASE ?? 'neo4j', 300_000);
  try {
    await applySchema(db);
    await db.write({ op: 'plan ingest statements', timeoutMs: 300_000 }, planIngestStatements);
  } finally {
    db.availability.close();
    await driver.close();
  }
}

/**
 * Started as soon as this file is loaded: mocha loads it (`require` in .mocharc.json) before the test
 * files, which takes seconds, and runs the global setup, which waits for it, only after them.
 */
const ready = (async () => {
  const started = await startTestNeo4j();
  const t0 = Date.now();
  await prepareTestNeo4j();
  return [started, `  (schema applied and ingest statements planned in ${Date.now() - t0} ms)`];
})();
ready.catch(() => undefined); // (reported by mochaGlobalSetup)

export async function mochaGlobalSetup(): Promise<void> {
  for (const line of await ready) if (line) console.log(line);
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stop?.();
}
