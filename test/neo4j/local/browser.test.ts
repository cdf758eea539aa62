/**
 * NEO4J_LOCAL_BROWSER=true: the local Neo4j 5.26 Community server serves Neo4j Browser (the
 * org.neo4j.client:neo4j-browser jar from Maven Central, on its classpath) over HTTP on 127.0.0.1.
 */
import { expect } from 'chai';
import path from 'node:path';
import { LocalNeo4jServer } from '../../../src/neo4j/local/server.js';
import { loadConfig, NEO4J_DEFAULT_VERSION } from '../../../src/config.js';
import { projectRoot } from '../../../src/paths.js';
import { SHORT_LIVED_NEO4J_JVM_ARGS } from '../../support/process.js';

describe('Neo4j Browser on the local server', function () {
  this.timeout(300_000);

  it('is off by default, and NEO4J_LOCAL_BROWSER=true asks for it on port 7474', () => {
    const local = (env: Record<string, string>) => loadConfig(env).neo4j as { browserPort: number | null };
    expect(local({}).browserPort).to.equal(null);
    expect(local({ NEO4J_LOCAL_BROWSER: 'true' }).browserPort).to.equal(7474);
    expect(local({ NEO4J_LOCAL_BROWSER: 'true', NEO4J_LOCAL_BROWSER_PORT: '0' }).browserPort).to.equal(0);
    expect(() => loadConfig({ NEO4J_LOCAL_BROWSER: 'maybe' })).to.throw(/NEO4J_LOCAL_BROWSER/);
  });

  it('is served at /browser/ on loopback, with the discovery document pointing at Bolt', async () => {
    const server = new LocalNeo4jServer({
      dir: process.env.NEO4J_LOCAL_DIR ?? path.join(projectRoot, '.neo4j'),
      version: NEO4J_DEFAULT_VERSION,
      boltPort: 0,
      heap: '512m',
      pageCache: '64m',
      homeName: `test-browser-${process.pid}`,
      ephemeral: true,
      browserPort: 0,
      jvmArgs: SHORT_LIVED_NEO4J_JVM_ARGS,
    });
    await server.start();
    try {
      expect(server.browserUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+\/browser\/$/);
      const page = await fetch(server.browserUrl!);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/text\/html/);
      expect(await page.text()).to.contain('<title>Neo4j Browser</title>');
      const discovery = await (
        await fetch(`http://127.0.0.1:${server.browserPort}/`, { headers: { accept: 'application/json' } })
      ).json();
      expect(discovery).to.deep.include({ bolt_direct: server.uri, neo4j_edition: 'community' });
    } finally {
      await server.stop();
    }
  });
});
