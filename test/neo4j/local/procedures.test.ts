/**
 * The blast radius walks with the service's `lineage.blastRadius` procedure where Neo4j has it (the local
 * Neo4j always does), else in Cypher (impact/blast-radius.cypher). Both must answer the same: here every
 * job and dataset of stored histories of every kind is a start, both directions, near and far, now and
 * at points in time with several windows, and the two answers are held equal node for node (distance,
 * via, state, tags, owners, summary, totals). Also: the procedure is there, and a Neo4j without it is
 * walked in Cypher.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import {
  ImpactRepository,
  REACH_RULES,
  type AnyImpactNode,
  type ImpactHead,
  type ImpactQuery,
} from '../../../src/store/impact.js';
import { parseNodeId, datasetNodeId, jobNodeId } from '../../../src/domain/node-id.js';
import { parseDuration } from '../../../src/domain/duration.js';
import type { Db } from '../../../src/store/db.js';
import { useTestApp } from '../../helper.js';
import { NEO4J_DEFAULT_VERSION } from '../../../src/config.js';
import { projectRoot } from '../../../src/paths.js';
import type { Logger } from '../../../src/logger.js';
import {
  ensureProceduresJar,
  installProcedures,
  proceduresDigest,
  PROCEDURES_JAR,
  PROCEDURES_SOURCE_DIR,
} from '../../../src/neo4j/local/procedures.js';
import { rows } from '../../support/graph.js';
import { postHistoriesOfEveryKind } from '../../support/histories.js';

interface Answer {
  head: ImpactHead | null;
  nodes: AnyImpactNode[];
  tail: unknown;
}

async function answer(repo: ImpactRepository, id: string, q: ImpactQuery): Promise<Answer> {
  const out: Answer = { head: null, nodes: [], tail: null };
  out.tail = await repo.blastRadius(parseNodeId(id), q, {
    head: (h) => {
      out.head = h;
    },
    node: (n) => {
      out.nodes.push(n);
    },
  });
  return out;
}

/** A Db whose queries are changed on their way to Neo4j (the server itself answers them as it does). */
function rewriting(
  db: Db,
  change: (text: string, params: Record<string, unknown>) => [string, Record<string, unknown>],
) {
  const read: Db['read'] = (opts, work) =>
    db.read(opts, (tx) =>
      work({
        ...tx,
        run: ((text: string, params: Record<string, unknown> = {}) => tx.run(...change(text, params))) as typeof tx.run,
      } as typeof tx),
    );
  return Object.assign(Object.create(db), { read }) as Db;
}

/** As if Neo4j had no such procedure: the queries name one it does not have. */
const withoutReach = (db: Db) =>
  rewriting(db, (text, params) => [text.replace(/lineage\.(reach|blastRadius)\(/, 'lineage.notInstalled('), params]);

/** As if the jar were another release's: the installed procedure is asked for another edition of the rules. */
const otherRelease = (db: Db) =>
  rewriting(db, (text, params) => [text, 'rules' in params ? { ...params, rules: '2020-01-01' } : params]);

/** The node id of every job and dataset stored (symlink aliases aside), in order. */
async function everyStart(db: Db): Promise<string[]> {
  return (
    await rows(
      db,
      `MATCH (x) WHERE (x:Job OR x:Dataset) AND x.isAlias IS NULL
       RETURN x:Job AS isJob, x.namespace AS namespace, x.name AS name ORDER BY namespace, name`,
    )
  ).map((r) => (r.isJob ? jobNodeId(r.namespace, r.name) : datasetNodeId(r.namespace, r.name)));
}

/**
 * Tags (none, one or several) and owners on some of the jobs and datasets, so that the comparisons cover
 * the procedure's own rendering of them (the histories have none). About 50 TAGGED relationships: small
 * answers read each node's own relationships, larger ones all TAGGED relationships from the type index
 * (lineage.blastRadius's choice, by the count per node rendered), and both are compared.
 */
async function tagAndOwnSome(db: Db) {
  await db.write({ op: 'test' }, (tx) =>
    tx.run(`MATCH (x) WHERE (x:Job OR x:Dataset) AND x.isAlias IS NULL
            WITH x ORDER BY x.namespace, x.name WITH collect(x) AS xs
            UNWIND range(0, size(xs) - 1) AS i
            WITH xs[i] AS x, i
            CALL (x, i) {
              WITH x, i WHERE i % 3 = 0
              UNWIND range(0, i % 4) AS k MERGE (t:Tag {name: 'tag-' + k}) MERGE (x)-[:TAGGED]->(t)
            }
            CALL (x, i) {
              WITH x, i WHERE i % 5 = 0
              SET x.\`facet.ownership\` = '{"owners":[{"name":"team-' + i + '","type":"TEAM"}]}'
            }`),
  );
}

describe('blast radius: the lineage procedures and the Cypher walk', () => {
  const t = useTestApp();
  const repos = () => ({
    cypher: new ImpactRepository(t().db, t().app.services.lineage, 'cypher'),
    procedure: new ImpactRepository(t().db, t().app.services.lineage, 'procedure'),
  });

  it('the local Neo4j has the procedure, and the service walks with it', async () => {
    const [{ names }] = await rows(
      t().db,
      "SHOW PROCEDURES YIELD name WHERE name STARTS WITH 'lineage.' RETURN collect(name) AS names",
    );
    expect(names).to.deep.equal(['lineage.blastRadius', 'lineage.reach']);
    await t().post('/api/v1/lineage', {
      eventType: 'COMPLETE',
      eventTime: '2026-11-24T10:00:00Z',
      run: { runId: '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b' },
      job: { namespace: 'ns', name: 'j' },
      inputs: [{ namespace: 'ns', name: 'a' }],
      outputs: [{ namespace: 'ns', name: 'b' }],
      producer: 'https://example.com/me',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    });
    const res = await t().get('/api/v1/impact?nodeId=dataset:ns:a');
    expect(res.status).to.equal(200);
    expect(res.body.nodes.map((n: { id: string }) => n.id)).to.deep.equal(['job:ns:j', 'dataset:ns:b']);
    expect(t().app.services.impact.blastRadiusWalk).to.equal('procedure');
  });

  it('answers exactly what the Cypher walk answers, for every start, direction, depth and time', async function () {
    this.timeout(240_000);
    await postHistoriesOfEveryKind(t());
    await tagAndOwnSome(t().db);
    const starts = await everyStart(t().db);
    expect(starts.length).to.be.greaterThan(20);
    // Three points in time: the first and the middle stored observation, and just after the last.
    const times = (
      await rows(
        t().db,
        `MATCH ()-[e:INPUT_TO|PRODUCES]->() UNWIND e.seenFrom + e.seenTo + e.heldUntil AS at
         WITH DISTINCT at WHERE at.year < 9999 RETURN toString(at) AS at ORDER BY at`,
      )
    ).map((r) => r.at as string);
    const picked = [times[0], times[Math.floor(times.length / 2)]];
    picked.push(new Date(Date.parse(times[times.length - 1]) + 1).toISOString());
    // Near and far now; far at each time, in the default window (a day's for one) and all history.
    const views: Pick<ImpactQuery, 'asOf' | 'window' | 'depth'>[] = [
      { depth: 1, asOf: null, window: undefined },
      { depth: 20, asOf: null, window: undefined },
      { depth: 20, asOf: null, window: null },
      ...picked.flatMap((at, i) => [
        { depth: 20, asOf: new Date(at), window: i === 1 ? parseDuration('P1D') : undefined },
        { depth: 20, asOf: new Date(at), window: null },
      ]),
    ];
    const { cypher, procedure } = repos();
    let compared = 0;
    let reached = 0;
    let tagged = 0;
    let owned = 0;
    const cases = starts.flatMap((id) => (['downstream', 'upstream'] as const).map((direction) => ({ id, direction })));
    // A few at once: the comparisons are independent reads.
    await Promise.all(
      [0, 1, 2, 3].map(async (lane) => {
        for (const { id, direction } of cases.filter((_, i) => i % 4 === lane))
          for (const view of views) {
            const q: ImpactQuery = { direction, limit: 10_000, state: null, ...view };
            const want = await answer(cypher, id, q);
            const got = await answer(procedure, id, q);
            expect(got, `${id} ${direction} ${JSON.stringify(view)}`).to.deep.equal(want);
            compared++;
            reached += want.nodes.length;
            tagged += want.nodes.filter((n) => n.tags.length > 1).length;
            owned += want.nodes.filter((n) => n.owners.length > 0).length;
          }
      }),
    );
    expect(compared).to.be.greaterThan(400);
    expect(reached).to.be.greaterThan(700);
    expect(tagged).to.be.greaterThan(50);
    expect(owned).to.be.greaterThan(50);
  });

  it('the same truncation, root cause and summary', async () => {
    await postHistoriesOfEveryKind(t());
    await tagAndOwnSome(t().db);
    const { cypher, procedure } = repos();
    const [{ hub }] = await rows(
      t().db,
      `MATCH (d:Dataset) RETURN d.namespace + ':' + d.name AS hub ORDER BY COUNT { (d)--() } DESC LIMIT 1`,
    );
    for (const q of [
      { limit: 1, state: null },
      { limit: 3, state: null },
      { limit: 10_000, state: 'FAILED' as const },
      { limit: 10_000, state: 'COMPLETED' as const },
    ])
      for (const direction of ['downstream', 'upstream'] as const) {
        const full: ImpactQuery = { direction, depth: 20, asOf: null, window: null, ...q };
        const want = await answer(cypher, `dataset:${hub}`, full);
        expect(await answer(procedure, `dataset:${hub}`, full), JSON.stringify(full)).to.deep.equal(want);
      }
  });

  it('the same job states at points in time, for jobs of few runs and of many (read by the index)', async function () {
    this.timeout(120_000);
    // src -> (few: 3 runs) -> mid -> (many: 70 runs, a failure every 7th) -> out
    const post = async (job: string, i: number, input: string, output: string) => {
      const runId = `0193a1b2-7c3d-7e4f-8a5b-${String(i).padStart(4, '0')}${job === 'few' ? '00000001' : '00000002'}`;
      const at = (m: number) => new Date(Date.UTC(2026, 10, 1, 0, i * 10 + m)).toISOString();
      for (const [eventType, eventTime] of [
        ['START', at(0)],
        [i % 7 === 3 ? 'FAIL' : 'COMPLETE', at(5)],
      ] as const) {
        const res = await t().post('/api/v1/lineage', {
          eventType,
          eventTime,
          run: { runId },
          job: { namespace: 'ns', name: job },
          inputs: [{ namespace: 'ns', name: input }],
          outputs: eventType === 'START' ? [] : [{ namespace: 'ns', name: output }],
          producer: 'https://example.com/me',
          schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
        });
        expect(res.status, res.text).to.equal(201);
      }
    };
    for (let i = 0; i < 3; i++) await post('few', i, 'src', 'mid');
    for (let i = 0; i < 70; i++) await post('many', i, 'mid', 'out');
    const { cypher, procedure } = repos();
    let states = new Set<string | null>();
    // Before any run, between a START and its end, just after an end, and after the last run.
    for (const minute of [-1, 2, 6, 33, 36, 250, 402, 695, 701, 10_000]) {
      const q: ImpactQuery = {
        direction: 'downstream',
        depth: 20,
        asOf: new Date(Date.UTC(2026, 10, 1, 0, minute)),
        window: null,
        limit: 10_000,
        state: null,
      };
      const want = await answer(cypher, 'dataset:ns:src', q);
      expect(await answer(procedure, 'dataset:ns:src', q), `minute ${minute}`).to.deep.equal(want);
      states = new Set([...states, ...want.nodes.map((n) => ('latestRunState' in n ? n.latestRunState : null))]);
    }
    expect([...states]).to.include.members(['RUNNING', 'COMPLETED', 'FAILED']);
  });

  it('the same tags on a Neo4j without the relationship type index (read from each node instead)', async () => {
    await postHistoriesOfEveryKind(t());
    await tagAndOwnSome(t().db);
    const { cypher, procedure } = repos();
    const [{ name }] = await rows(
      t().db,
      "SHOW INDEXES YIELD name, type, entityType WHERE type = 'LOOKUP' AND entityType = 'RELATIONSHIP' RETURN name",
    );
    const starts = await everyStart(t().db);
    const schema = (text: string) => t().db.write({ op: 'test' }, (tx) => tx.run(text));
    await schema(`DROP INDEX ${name}`);
    try {
      let tagged = 0;
      for (const id of starts)
        for (const direction of ['downstream', 'upstream'] as const) {
          const q: ImpactQuery = { direction, depth: 20, asOf: null, window: null, limit: 10_000, state: null };
          const want = await answer(cypher, id, q);
          tagged += want.nodes.filter((n) => n.tags.length > 1).length;
          expect(await answer(procedure, id, q), `${id} ${direction}`).to.deep.equal(want);
        }
      expect(tagged).to.be.greaterThan(20);
    } finally {
      await schema(`CREATE LOOKUP INDEX ${name} IF NOT EXISTS FOR ()-[r]-() ON EACH type(r)`);
    }
  });

  it('walks in Cypher, from its first answer on, where Neo4j has no such procedure', async () => {
    await postHistoriesOfEveryKind(t());
    const db = withoutReach(t().db);
    const warnings: string[] = [];
    const auto = new ImpactRepository(db, t().app.services.lineage, 'auto', {
      warn: (_: unknown, msg?: string) => void warnings.push(msg ?? ''),
    } as Pick<Logger, 'warn'>);
    const forced = new ImpactRepository(db, t().app.services.lineage, 'procedure');
    const { cypher } = repos();
    const [{ start }] = await rows(
      t().db,
      `MATCH (d:Dataset) RETURN d.namespace + ':' + d.name AS start ORDER BY COUNT { (d)--() } DESC LIMIT 1`,
    );
    const q: ImpactQuery = { direction: 'downstream', depth: 20, asOf: null, window: null, limit: 10_000, state: null };
    expect(auto.blastRadiusWalk).to.equal('procedure');
    const want = await answer(cypher, `dataset:${start}`, q);
    expect(want.nodes.length).to.be.greaterThan(0);
    expect(await answer(auto, `dataset:${start}`, q)).to.deep.equal(want);
    expect(auto.blastRadiusWalk).to.equal('cypher');
    // Said once, for the operator: the next answer goes straight to Cypher.
    expect(await answer(auto, `dataset:${start}`, q)).to.deep.equal(want);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/no lineage\.blastRadius procedure of this release: blast radius walks in Cypher/);
    // Told to use the procedure, a repository reports Neo4j's error instead.
    const err = await answer(forced, `dataset:${start}`, q).then(
      () => null,
      (e: { code?: string }) => e,
    );
    expect(err?.code).to.equal('Neo.ClientError.Procedure.ProcedureNotFound');
    expect(neo4j.isRetriableError(err)).to.equal(false);
  });

  it("walks in Cypher where Neo4j has another release's procedure, which refuses the call", async () => {
    await postHistoriesOfEveryKind(t());
    const warnings: string[] = [];
    const auto = new ImpactRepository(otherRelease(t().db), t().app.services.lineage, 'auto', {
      warn: (_: unknown, msg?: string) => void warnings.push(msg ?? ''),
    } as Pick<Logger, 'warn'>);
    const q: ImpactQuery = { direction: 'upstream', depth: 20, asOf: null, window: null, limit: 10_000, state: null };
    const [{ start }] = await rows(
      t().db,
      `MATCH (d:Dataset) RETURN d.namespace + ':' + d.name AS start ORDER BY COUNT { (d)--() } DESC LIMIT 1`,
    );
    const want = await answer(repos().cypher, `dataset:${start}`, q);
    expect(await answer(auto, `dataset:${start}`, q)).to.deep.equal(want);
    expect(auto.blastRadiusWalk).to.equal('cypher');
    expect(warnings).to.have.length(1);
    // The procedure said why.
    const forced = new ImpactRepository(otherRelease(t().db), t().app.services.lineage, 'procedure');
    const err = await answer(forced, `dataset:${start}`, q).then(
      () => null,
      (e: { code?: string; message?: string }) => e,
    );
    expect(err?.code).to.equal('Neo.ClientError.Procedure.ProcedureCallFailed');
    expect(err?.message).to.match(
      /lineage\.blastRadius.*implement the rules of 2026-12-01, the caller expects 2020-01-01/s,
    );
    // At a point in time too.
    const atT = await answer(forced, `dataset:${start}`, { ...q, asOf: new Date() }).then(
      () => null,
      (e: { code?: string; message?: string }) => e,
    );
    expect(atT?.code).to.equal('Neo.ClientError.Procedure.ProcedureCallFailed');
    expect(atT?.message).to.match(
      /lineage\.blastRadius.*implement the rules of 2026-12-01, the caller expects 2020-01-01/s,
    );
  });

  it('the service expects the edition of the rules its own procedure implements', () => {
    const java = fs.readFileSync(path.join(PROCEDURES_SOURCE_DIR, 'lineage', 'Reach.java'), 'utf8');
    expect(/String RULES = "([^"]+)"/.exec(java)?.[1]).to.equal(REACH_RULES);
  });
});

describe('local Neo4j: building the lineage procedures', () => {
  const version = NEO4J_DEFAULT_VERSION;
  const libDir = path.join(projectRoot, '.neo4j', 'dist', version, 'lib');
  const warnings: string[] = [];
  const logger = {
    info: () => undefined,
    warn: (_: unknown, msg: string) => void warnings.push(msg),
  } as unknown as Logger;

  it('builds the jar once per source digest, and reuses it', function () {
    this.timeout(60_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lineage-procedures-'));
    const jar = ensureProceduresJar(dir, libDir, version, logger);
    expect(jar).to.equal(path.join(dir, 'dist', 'procedures', proceduresDigest(version), PROCEDURES_JAR));
    const built = fs.statSync(jar!).mtimeMs;
    expect(ensureProceduresJar(dir, libDir, version, logger)).to.equal(jar);
    expect(fs.statSync(jar!).mtimeMs).to.equal(built);
    // Nothing half-built is left beside it.
    expect(fs.readdirSync(path.dirname(path.dirname(jar!)))).to.deep.equal([proceduresDigest(version)]);
    // Another Neo4j version (or other sources) is another digest.
    expect(proceduresDigest('5.26.0')).to.not.equal(proceduresDigest(version));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts without them, saying why, when they cannot be built (no JDK, sources that do not compile)', function () {
    this.timeout(60_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lineage-procedures-'));
    const sources = path.join(dir, 'src');
    fs.mkdirSync(sources);
    fs.writeFileSync(path.join(sources, 'Broken.java'), 'class Broken { int x = ; }');
    warnings.length = 0;
    expect(ensureProceduresJar(dir, libDir, version, logger, sources)).to.equal(null);
    const searchPath = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(ensureProceduresJar(dir, libDir, version, logger)).to.equal(null);
    } finally {
      process.env.PATH = searchPath;
    }
    expect(warnings).to.have.length(2);
    expect(warnings[0]).to.match(/blast radius walks in Cypher/);
    // No jar, and nothing half-built left behind.
    const built = path.join(dir, 'dist', 'procedures');
    expect(fs.existsSync(built) ? fs.readdirSync(built) : []).to.deep.equal([]);
    // A plugins folder gets no jar of ours then: an older build must not answer for the sources in hand.
    const plugins = path.join(dir, 'plugins');
    fs.mkdirSync(plugins);
    fs.writeFileSync(path.join(plugins, PROCEDURES_JAR), 'stale');
    installProcedures(plugins, null);
    expect(fs.readdirSync(plugins)).to.deep.equal([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
