import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/paths.js';

// With TEST_NEO4J_URI (or NEO4J_URI) pointing at a Neo4j elsewhere, neither the test fixture nor the
// service needs Java or Maven: the local launcher (src/neo4j/local/) is imported only to start a
// local server. Checked in a child process whose PATH has node and nothing else.
describe('a remote Neo4j needs no Java or Maven', function () {
  this.timeout(120_000);

  it('the test fixture, the app and the service runtime run with java and mvn off the PATH', () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'no-java-'));
    try {
      fs.symlinkSync(process.execPath, path.join(bin, 'node'));
      const script = `
        import { spawnSync } from 'node:child_process';
        for (const tool of ['java', 'mvn']) {
          if (!spawnSync(tool, ['-version']).error) throw new Error(tool + ' is still reachable');
        }
        const fixture = await import('./test/support/global-neo4j.ts');
        await fixture.mochaGlobalSetup();
        const { build } = await import('./test/helper.ts');
        const t = await build();
        const res = await t.get('/api/v1/namespaces');
        await t.close();
        const { loadConfig } = await import('./src/config.ts');
        const { startNeo4jRuntime } = await import('./src/neo4j/runtime.ts');
        const config = loadConfig({
          ...process.env,
          NEO4J_URI: process.env.TEST_NEO4J_URI,
          NEO4J_USER: process.env.TEST_NEO4J_USER ?? 'neo4j',
          NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? '',
        });
        const runtime = await startNeo4jRuntime(config.neo4j);
        await runtime.driver.verifyConnectivity();
        await runtime.close();
        await fixture.mochaGlobalTeardown();
        console.log('namespaces ' + res.status);
        process.exit(0);
      `;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: projectRoot,
        env: { ...process.env, PATH: bin },
        encoding: 'utf8',
        timeout: 110_000,
      });
      expect(r.status, `${r.stdout}\n${r.stderr}`).to.equal(0);
      expect(r.stdout).to.include('namespaces 200');
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
