import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  checkPrerequisites,
  classDataSharingArgs,
  COLLECTOR_JVM_FLAGS,
  LocalNeo4jServer,
  Neo4jRuntimeError,
} from '../../../src/neo4j/local/server.js';
import { NEO4J_DEFAULT_VERSION } from '../../../src/config.js';
import { projectRoot } from '../../../src/paths.js';

describe('local Neo4j runtime prerequisites', () => {
  it('names Java when it is missing', () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(() => checkPrerequisites(true)).to.throw(Neo4jRuntimeError, /Java 17.*openjdk-17/);
    } finally {
      process.env.PATH = path;
    }
  });

  it('passes on this machine (Java 17 and Maven present)', () => {
    expect(() => checkPrerequisites(true)).not.to.throw();
  });
});

describe('local Neo4j class-data archive', () => {
  const lib = '/opt/neo4j/5.26.30/lib';
  const file = (args?: string[]) => classDataSharingArgs(lib, '17.0.15', args).archive.split('/').pop();

  it('is named by Java version and collector: a JVM refuses an archive written under another collector', () => {
    expect(file()).to.equal('server-classes-java-17.0.15-parallelgc.jsa');
    // NEO4J_LOCAL_JVM_ARGS come after the service's collector flag: the last one named wins.
    expect(file([...COLLECTOR_JVM_FLAGS, '-XX:-UseParallelGC', '-XX:+UseG1GC'])).to.equal(
      'server-classes-java-17.0.15-g1gc.jsa',
    );
    expect(file([])).to.equal('server-classes-java-17.0.15-defaultgc.jsa');
  });
});

describe('local Neo4j server home in use', () => {
  it("refuses to start on the home of another running service's Neo4j, and leaves that Neo4j running", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lineage-home-in-use-'));
    const pidFile = path.join(home, 'run', 'neo4j.pid');
    fs.mkdirSync(path.dirname(pidFile), { recursive: true });
    // Another service (a process that stays alive) and its "Neo4j" under the real watchdog: a process
    // whose command line names Neo4j's entry point, as the JVM's does.
    const service = spawn('sleep', ['300'], { stdio: 'ignore' });
    const watchdog = path.join(projectRoot, 'src', 'neo4j', 'local', 'watchdog.sh');
    const fakeNeo4j = ['-e', 'setInterval(() => {}, 1000)', 'org.neo4j.server.CommunityEntryPoint'];
    const dog = spawn('sh', [watchdog, String(service.pid), pidFile, process.execPath, ...fakeNeo4j], {
      stdio: 'ignore',
    });
    try {
      let neo4jPid = 0;
      for (let i = 0; i < 100 && !neo4jPid; i++) {
        await new Promise((r) => setTimeout(r, 50));
        if (fs.existsSync(pidFile)) neo4jPid = Number(fs.readFileSync(pidFile, 'utf8').trim());
      }
      await new Promise((r) => setTimeout(r, 200)); // the fake's command line in place
      const second = new LocalNeo4jServer({
        dir: path.join(projectRoot, '.neo4j'),
        version: NEO4J_DEFAULT_VERSION,
        homeDir: home,
        boltPort: 0,
        heap: '512m',
        pageCache: '64m',
        startTimeoutMs: 1,
      });
      let error: unknown = null;
      try {
        await second.start();
      } catch (err) {
        error = err;
      }
      await second.stop();
      expect(() => process.kill(neo4jPid, 0), 'the other service keeps its Neo4j').not.to.throw();
      expect(error).to.be.instanceOf(Neo4jRuntimeError);
      expect((error as Error).message).to.match(
        new RegExp(`in use by another running service \\(process ${service.pid};.*NEO4J_LOCAL_DATA_DIR`),
      );
    } finally {
      service.kill('SIGKILL');
      dog.kill('SIGTERM');
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
