/**
 * npm run fuzz — the whole hostile corpus (test/support/hostile.ts; `npm test` runs a sample) against
 * the real app on a private Neo4j (or FUZZ_NEO4J_URI, whose database is wiped), one request at a
 * time. Checks every answer (below 500, JSON error body) and, for each rejected event, that the
 * graph did not change. FUZZ_SEED (default 1) and FUZZ_RANDOM (default 2000) add seeded random
 * multi-field mutations; FUZZ_FILTER keeps the cases whose name contains it. Exit code 1 on any problem.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/logger.js';
import { LocalNeo4jServer } from '../src/neo4j/local/server.js';
import { createDriver } from '../src/neo4j/runtime.js';
import { NEO4J_DEFAULT_VERSION } from '../src/config.js';
import { projectRoot } from '../src/paths.js';
import { Db } from '../src/store/db.js';
import { applySchema } from '../src/store/schema.js';
import { planIngestStatements } from '../src/store/ingest.js';
import { answerProblems, hostileCorpus, send } from '../test/support/hostile.js';
import { graphShape } from '../test/support/graph.js';

async function main() {
  let server: LocalNeo4jServer | null = null;
  let uri = process.env.FUZZ_NEO4J_URI;
  if (!uri) {
    server = new LocalNeo4jServer({
      dir: path.join(projectRoot, '.neo4j'),
      version: NEO4J_DEFAULT_VERSION,
      boltPort: 0,
      heap: '1g',
      pageCache: '256m',
      homeName: `fuzz-${process.pid}`,
      ephemeral: true,
    });
    await server.start();
    uri = server.uri;
  }
  const driver = createDriver(uri, process.env.FUZZ_NEO4J_USER ?? 'neo4j', process.env.FUZZ_NEO4J_PASSWORD ?? '');
  const db = new Db(driver, 'neo4j');
  const listener = http.createServer();
  try {
    await applySchema(db);
    await db.write({ op: 'plan ingest statements', timeoutMs: 120_000 }, planIngestStatements);
    const app = createApp({ db, logger: createLogger('silent'), bodyLimitBytes: 10 * 1024 * 1024 });
    listener.on('request', app.koa.callback());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
    const baseUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    await db.write({ op: 'fuzz wipe' }, (tx) => tx.run('MATCH (n) DETACH DELETE n'));
    await app.services.namespaces.ensureDefault();

    const filter = process.env.FUZZ_FILTER ?? '';
    const corpus = hostileCorpus(Number(process.env.FUZZ_SEED ?? 1), Number(process.env.FUZZ_RANDOM ?? 2000)).filter(
      (c) => c.name.includes(filter),
    );
    const byStatus: Record<string, number> = {};
    const failures: { name: string; status: number; problems: string[]; answer: string }[] = [];
    let slowest = { name: '', ms: 0 };
    const t0 = performance.now();
    for (const [i, c] of corpus.entries()) {
      const before = c.ingest ? await graphShape(db) : null;
      let problems: string[];
      let status = 0;
      let answer = '';
      try {
        const a = await send(baseUrl, c);
        status = a.status;
        answer = a.text.slice(0, 300);
        problems = answerProblems(c, a);
        if (a.ms > slowest.ms) slowest = { name: c.name, ms: Math.round(a.ms) };
        const nothingStored =
          a.status >= 400 ||
          (a.status === 200 && c.path.endsWith('/batch') && JSON.parse(a.text).summary?.successful === 0);
        if (before && nothingStored && JSON.stringify(await graphShape(db)) !== JSON.stringify(before))
          problems.push('a rejected event changed the graph');
      } catch (err) {
        problems = [`no answer: ${(err as Error).message}`];
      }
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (problems.length > 0) failures.push({ name: c.name, status, problems, answer });
      if ((i + 1) % 1000 === 0) console.log(`${i + 1}/${corpus.length} cases, ${failures.length} problems`);
    }
    const summary = {
      cases: corpus.length,
      seconds: Math.round((performance.now() - t0) / 1000),
      byStatus,
      slowest,
      problems: failures.length,
    };
    console.log(JSON.stringify(summary, null, 2));
    for (const f of failures.slice(0, 50)) console.log(JSON.stringify(f));
    process.exitCode = failures.length > 0 ? 1 : 0;
  } finally {
    listener.close();
    await driver.close();
    await server?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
