/**
 * The impact examples in cypher/examples/ answer what the endpoints answer, and `npm run cypher`
 * runs them in file mode against the test database (read-only unless --write).
 */
import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { paramValue } from '../../../scripts/cypher-shell.js';
import { projectRoot } from '../../../src/paths.js';
import { cypher } from '../../../src/store/cypher.js';
import { toNative } from '../../../src/store/db.js';
import { useTestApp } from '../../helper.js';
import { rows } from '../../support/graph.js';
import { columnLineageFacet, ds, getImpact, impactPath, job, NS, runJob } from './support.js';

/** Runs scripts/cypher-shell.ts as `npm run cypher -- <args>` would, against the test database. */
function shell(args: string[], input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(projectRoot, 'scripts', 'cypher-shell.ts'), ...args],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          NEO4J_URI: process.env.TEST_NEO4J_URI,
          NEO4J_USER: process.env.TEST_NEO4J_USER ?? 'neo4j',
          NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? '',
          NEO4J_DATABASE: process.env.TEST_NEO4J_DATABASE ?? 'neo4j',
        },
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      },
    );
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('impact examples and npm run cypher', () => {
  const t = useTestApp();
  const example = async (name: string, params: Record<string, unknown>) => {
    const res = await t().db.read({ op: `example/${name}` }, (tx) => tx.run(cypher(`examples/${name}`), params));
    return res.records.map((r) => toNative(r.toObject()) as Record<string, any>);
  };

  // src -(load)-> orders -(clean: FAILED)-> clean_orders -(agg)-> totals; column lineage
  // orders.amount -> clean_orders.amount -> totals.total; then load drops orders.amount.
  beforeEach(async function () {
    this.timeout(120_000);
    await runJob(
      t(),
      'load',
      ['src'],
      [
        {
          name: 'orders',
          fields: [
            ['id', 'INTEGER'],
            ['amount', 'DECIMAL'],
          ],
        },
      ],
    );
    const clean = {
      name: 'clean_orders',
      fields: [['amount', 'DECIMAL']] as [string, string][],
      facets: { columnLineage: columnLineageFacet({ amount: [{ name: 'orders', field: 'amount' }] }) },
    };
    await runJob(t(), 'clean', ['orders'], [clean]);
    await runJob(
      t(),
      'agg',
      ['clean_orders'],
      [
        {
          name: 'totals',
          fields: [['total', 'DECIMAL']],
          facets: { columnLineage: columnLineageFacet({ total: [{ name: 'clean_orders', field: 'amount' }] }) },
        },
      ],
    );
    await runJob(t(), 'clean', ['orders'], [clean], { eventType: 'FAIL' });
    await runJob(t(), 'load', ['src'], [{ name: 'orders', fields: [['id', 'INTEGER']] }]);
  });

  it('impact-blast-radius answers the distances and vias of GET /api/v1/impact', async () => {
    const mine = await example('impact-blast-radius', { namespace: NS, name: 'orders' });
    const api = await getImpact(t(), impactPath({ nodeId: ds('orders') }));
    expect(mine.map((r) => [r.kind === 'Job' ? job(r.name) : ds(r.name), r.distance, r.via])).to.deep.equal(
      api.nodes.map((n: any) => [n.id, n.distance, n.via.split(':').pop()]),
    );
    expect(mine.map((r) => r.name)).to.deep.equal(['clean', 'clean_orders', 'agg', 'totals']);
  });

  it('impact-root-cause answers GET /api/v1/impact?direction=upstream&state=FAILED', async () => {
    const mine = await example('impact-root-cause', { namespace: NS, name: 'totals', state: 'FAILED' });
    const api = await getImpact(t(), impactPath({ nodeId: ds('totals'), direction: 'upstream', state: 'FAILED' }));
    expect(mine.map((r) => [r.job, r.state, r.distance, r.path])).to.deep.equal([
      ['airflow:clean', 'FAILED', 3, ['totals', 'agg', 'clean_orders', 'clean']],
    ]);
    expect(api.nodes.map((n: any) => [n.id, n.distance, n.path.map((p: string) => p.split(':').pop())])).to.deep.equal([
      [job('clean'), 3, mine[0].path],
    ]);
  });

  it('impact-paths answers GET /api/v1/impact/paths', async () => {
    const mine = await example('impact-paths', {
      fromNamespace: NS,
      fromName: 'src',
      toNamespace: NS,
      toName: 'totals',
    });
    const api = await getImpact(t(), impactPath({ from: ds('src'), to: ds('totals') }, '/api/v1/impact/paths'));
    expect(mine.map((r) => r.path)).to.deep.equal(api.paths.map((p: any) => p.nodes));
    expect(mine.map((r) => r.hops)).to.deep.equal([6]);
    expect(mine[0].lastRunStates).to.deep.equal(api.paths[0].edges.map((e: any) => e.lastRunState));
  });

  it('impact-schema-changes answers GET /api/v1/impact/schema-changes', async () => {
    const mine = await example('impact-schema-changes', { since: '2020-01-01T00:00:00Z' });
    const api = await getImpact(t(), impactPath({ since: '2020-01-01T00:00:00Z' }, '/api/v1/impact/schema-changes'));
    expect(mine.map((r) => [r.dataset, r.version, r.previousVersion, r.runId, r.removed, r.readers])).to.deep.equal([
      [
        `${NS}:orders`,
        api.changes[0].version,
        api.changes[0].previousVersion,
        api.changes[0].runId,
        ['amount'],
        [`${NS}:clean_orders.amount by clean`],
      ],
    ]);
    expect(api.changes[0].affectedFields.map((f: any) => f.reader)).to.deep.equal([
      `datasetField:${NS}:clean_orders:amount`,
    ]);
  });

  describe('npm run cypher', function () {
    this.timeout(120_000);

    it('--file runs an example with --param values and prints JSON rows', async () => {
      // The two runs at once.
      const [r, csv] = await Promise.all([
        shell([
          '--file',
          'cypher/examples/impact-blast-radius.cypher',
          '--param',
          `namespace=${NS}`,
          '--param',
          'name=orders',
          '--format',
          'json',
        ]),
        shell([
          '--file',
          'cypher/examples/impact-root-cause.cypher',
          '--param',
          `namespace=${NS}`,
          '--param',
          'name=totals',
          '--param',
          'state=FAILED',
          '--format',
          'csv',
        ]),
      ]);
      expect(r.code, r.stderr).to.equal(0);
      expect(JSON.parse(r.stdout)).to.deep.equal(
        await example('impact-blast-radius', { namespace: NS, name: 'orders' }),
      );
      expect(csv.code, csv.stderr).to.equal(0);
      expect(csv.stdout.split('\r\n')[0]).to.equal('job,state,endedAt,distance,path');
      expect(csv.stdout).to.contain('airflow:clean,FAILED,');
    });

    it('--param reads a value as JSON first, so a string that would parse is passed quoted', () => {
      expect(neo4j.isInt(paramValue('2024'))).to.equal(true);
      expect(paramValue('"2024"')).to.equal('2024');
      expect(paramValue('orders')).to.equal('orders');
    });

    it('is read-only unless --write', async () => {
      const refused = await shell(['-e', 'CREATE (:ShellProbe {n: 1}) RETURN 1 AS one']);
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.match(/--write/);
      expect(await rows(t().db, 'MATCH (p:ShellProbe) RETURN count(p) AS n')).to.deep.equal([{ n: 0 }]);
      const written = await shell([
        '--write',
        '-e',
        'CREATE (p:ShellProbe {n: $n}) RETURN p.n AS n',
        '--param',
        'n=42',
      ]);
      expect(written.code, written.stderr).to.equal(0);
      expect(written.stdout).to.match(/\| 42 +\|/);
      expect(written.stdout).to.match(/nodesCreated: 1/);
      expect(await rows(t().db, 'MATCH (p:ShellProbe) RETURN p.n AS n')).to.deep.equal([{ n: 42 }]);
    });

    it('interactive: statements end with a semicolon, :param sets parameters', async () => {
      const r = await shell(
        [],
        ':param name=orders\nMATCH (d:Dataset {name: $name})\nRETURN d.name AS name;\nCREATE (x:ShellProbe);\n:exit\n',
      );
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/read-only/);
      expect(r.stdout).to.match(/\| orders +\|/);
      expect(r.stdout).to.match(/--write/);
      expect(await rows(t().db, 'MATCH (p:ShellProbe) RETURN count(p) AS n')).to.deep.equal([{ n: 0 }]);
    });

    it('exits 2 on a usage error and 1 on a Cypher error', async () => {
      const [usage, bad] = await Promise.all([shell(['--bogus']), shell(['-e', 'MATCH (n RETURN n'])]);
      expect(usage.code).to.equal(2);
      expect(bad.code).to.equal(1);
      expect(bad.stderr).to.match(/SyntaxError|Invalid input/);
    });
  });
});
