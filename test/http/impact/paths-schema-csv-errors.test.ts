/** GET /api/v1/impact/paths and /schema-changes; CSV answers parsed back; errors and timeouts. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { build, useTestApp, type TestApp } from '../../helper.js';
import { rows } from '../../support/graph.js';
import { facet, runEvent } from '../../support/events.js';
import {
  FIELD_COLUMNS,
  NODE_COLUMNS,
  PATH_COLUMNS,
  ROOT_CAUSE_COLUMNS,
  SCHEMA_CHANGE_COLUMNS,
} from '../../../src/http/routes/impact.js';
import { asCsvRow, columnLineageFacet, ds, getCsv, getImpact, impactPath, job, NS, runJob } from './support.js';

const paths = (from: string, to: string, params: Record<string, string | number> = {}) =>
  impactPath({ from, to, ...params }, '/api/v1/impact/paths');
const changes = (params: Record<string, string | number> = {}) => impactPath(params, '/api/v1/impact/schema-changes');

describe('GET /api/v1/impact/paths', () => {
  const t = useTestApp();

  // a -(j1)-> b -(j3)-> d, a -(j2)-> c -(j3)-> d (two paths of 4), a -(j4)-> e -(j5)-> f -(j6)-> d (one of 6).
  beforeEach(async function () {
    this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
    await runJob(t(), 'j1', ['a'], ['b']);
    await runJob(t(), 'j2', ['a'], ['c']);
    await runJob(t(), 'j3', ['b', 'c'], ['d']);
    await runJob(t(), 'j4', ['a'], ['e']);
    await runJob(t(), 'j5', ['e'], ['f']);
    await runJob(t(), 'j6', ['f'], ['d']);
  });

  it(
    'answers the shortest directed paths first, equal lengths in node-id order, each edge with its ' + 'history',
    async () => {
      const body = await getImpact(t(), paths(ds('a'), ds('d')));
      expect(body.from).to.equal(ds('a'));
      expect(body.to).to.equal(ds('d'));
      expect(body.paths.map((p: any) => [p.length, p.nodes])).to.deep.equal([
        [4, [ds('a'), job('j1'), ds('b'), job('j3'), ds('d')]],
        [4, [ds('a'), job('j2'), ds('c'), job('j3'), ds('d')]],
        [6, [ds('a'), job('j4'), ds('e'), job('j5'), ds('f'), job('j6'), ds('d')]],
      ]);
      const edge = body.paths[0].edges[0];
      expect(edge).to.include({ origin: ds('a'), destination: job('j1'), lastRunState: 'COMPLETED' });
      expect(edge.lastSeenAt).to.match(/Z$/);
      expect(edge.firstSeenAt).to.match(/Z$/);
      expect(edge.lastRunId).to.be.a('string');
      expect(body.paths[0].edges.map((e: any) => [e.origin, e.destination])).to.deep.equal([
        [ds('a'), job('j1')],
        [job('j1'), ds('b')],
        [ds('b'), job('j3')],
        [job('j3'), ds('d')],
      ]);
    },
  );

  it('from a node to itself: the empty path', async () => {
    const body = await getImpact(t(), paths(ds('b'), ds('b')));
    expect(body.paths).to.deep.equal([{ length: 0, nodes: [ds('b')], edges: [] }]);
  });

  it('takes a limit and a maximum depth, and answers an empty list when there is no path', async () => {
    // A limit falling among paths of equal length returns some of them (the search's choice).
    const one = (await getImpact(t(), paths(ds('a'), ds('d'), { limit: 1 }))).paths;
    expect(one).to.have.length(1);
    expect(one[0].length).to.equal(4);
    expect([job('j1'), job('j2')]).to.include(one[0].nodes[1]);
    expect(
      (await getImpact(t(), paths(ds('a'), ds('d'), { limit: 2 }))).paths.map((p: any) => p.nodes[1]),
    ).to.deep.equal([job('j1'), job('j2')]);
    // maxDepth counts job hops as depth does: 1 reaches two jobs in a row, not three.
    expect(
      (await getImpact(t(), paths(ds('a'), ds('d'), { maxDepth: 1 }))).paths.map((p: any) => p.length),
    ).to.deep.equal([4, 4]);
    expect((await getImpact(t(), paths(ds('a'), ds('d'), { maxDepth: 0 }))).paths).to.deep.equal([]);
    expect((await getImpact(t(), paths(ds('d'), ds('a')))).paths).to.deep.equal([]);
    expect((await getImpact(t(), paths(job('j1'), job('j3')))).paths.map((p: any) => p.nodes)).to.deep.equal([
      [job('j1'), ds('b'), job('j3')],
    ]);
  });

  it('is 404 when either end is unknown, 400 for bad parameters', async () => {
    const missing = await t().get(paths(ds('a'), ds('nope')));
    expect(missing.status).to.equal(404);
    expect(missing.body).to.include({ code: 404, error: 'not_found' });
    expect(missing.body.message).to.contain('nope');
    expect((await t().get(paths(ds('nope'), ds('a')))).status).to.equal(404);
    for (const bad of [
      impactPath({ to: ds('a') }, '/api/v1/impact/paths'),
      paths('table:x', ds('a')),
      paths(ds('a'), ds('d'), { limit: 0 }),
      paths(ds('a'), ds('d'), { limit: 101 }),
      paths(ds('a'), ds('d'), { maxDepth: -1 }),
      paths(ds('a'), ds('d'), { asOf: 'yesterday' }),
      paths(`datasetField:${NS}:a:x`, ds('d')),
    ]) {
      const res = await t().get(bad);
      expect(res.status, `${decodeURIComponent(bad)}: ${res.text}`).to.equal(400);
      expect(res.body).to.include({ code: 400, error: 'bad_request' });
      expect(res.body.errors?.[0], res.text).to.include({ in: 'query' });
    }
  });

  it('as CSV: one row per edge, numbered by path and step', async () => {
    const json = await getImpact(t(), paths(ds('a'), ds('d')));
    const csv = await getCsv(t(), paths(ds('a'), ds('d'), { format: 'csv' }), {});
    expect(csv.header).to.deep.equal([...PATH_COLUMNS]);
    const expected = json.paths.flatMap((p: any, i: number) =>
      p.edges.map((e: any, j: number) => asCsvRow({ ...e, path: i + 1, step: j + 1 }, PATH_COLUMNS)),
    );
    expect(csv.rows).to.deep.equal(expected);
  });
});

describe('GET /api/v1/impact/schema-changes', () => {
  const t = useTestApp();
  const totals = {
    name: 'totals',
    fields: [['total', 'DECIMAL']] as [string, string][],
    facets: { columnLineage: columnLineageFacet({ total: [{ name: 'orders', field: 'amount' }] }) },
  };
  let secondRun: string;

  // load writes orders(id, amount, tax); agg reads orders.amount into totals.total; report reads totals.
  // Then load writes orders(id BIGINT, tax, note): amount dropped, id retyped, note added.
  beforeEach(async function () {
    this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
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
            ['tax', 'DECIMAL'],
          ],
        },
      ],
    );
    await runJob(t(), 'agg', ['orders'], [totals]);
    await runJob(t(), 'report', ['totals'], ['dash']);
    secondRun = await runJob(
      t(),
      'load',
      ['src'],
      [
        {
          name: 'orders',
          fields: [
            ['id', 'BIGINT'],
            ['tax', 'DECIMAL'],
            ['note', 'VARCHAR'],
          ],
        },
      ],
    );
  });

  it(
    'lists each change with the diff, both versions, the run, what is downstream and the columns reading what was ' +
      'dropped',
    async () => {
      const body = await getImpact(t(), changes({ since: '2020-01-01T00:00:00Z' }));
      const [version] = await rows(t().db, 'MATCH (v:DatasetVersion {runId: $r}) RETURN v.id AS id', { r: secondRun });
      const [previous] = await rows(
        t().db,
        "MATCH (v:DatasetVersion {name: 'orders'}) WHERE v.runId <> $r RETURN v.id AS id",
        { r: secondRun },
      );
      expect(body.truncated).to.equal(false);
      expect(body.changes).to.have.length(1);
      const c = body.changes[0];
      expect(c).to.deep.include({
        dataset: ds('orders'),
        namespace: NS,
        name: 'orders',
        version: version.id,
        previousVersion: previous.id,
        runId: secondRun,
        added: [{ name: 'note', type: 'VARCHAR' }],
        removed: [{ name: 'amount', type: 'DECIMAL' }],
        retyped: [{ name: 'id', from: 'INTEGER', to: 'BIGINT' }],
        downstreamJobs: 2,
        downstreamDatasets: 2,
      });
      expect(c.changedAt).to.match(/Z$/);
      expect(c.affectedFields).to.deep.equal([
        { field: 'amount', reader: `datasetField:${NS}:totals:total`, job: job('agg'), transformationTypes: [] },
      ]);
    },
  );

  it('orders versions by commit, as they become current: overlapping runs committing out of start order', async () => {
    const orders = (...fields: [string, string][]) => ({ name: 'orders', fields });
    const a = randomUUID();
    const x = orders(['id', 'BIGINT'], ['tax', 'DECIMAL'], ['note', 'VARCHAR'], ['extra', 'INT']);
    const post = async (event: Record<string, unknown>) =>
      expect((await t().post('/api/v1/lineage', event)).status).to.equal(201);
    // A starts first and commits last; B runs (and commits) in between, with another schema.
    await post(
      runEvent({ job: 'load', runId: a, eventType: 'START', eventTime: '2025-01-01T10:00:00Z', outputs: [x] }),
    );
    const b = randomUUID();
    const y = orders(['id', 'BIGINT'], ['tax', 'DECIMAL']);
    await post(
      runEvent({ job: 'load2', runId: b, eventType: 'COMPLETE', eventTime: '2025-01-01T11:00:00Z', outputs: [y] }),
    );
    await post(
      runEvent({ job: 'load', runId: a, eventType: 'COMPLETE', eventTime: '2025-01-01T12:00:00Z', outputs: [x] }),
    );
    const dataset = await t().get(`/api/v1/namespaces/${encodeURIComponent(NS)}/datasets/orders`);
    expect(dataset.body.fields.map((f: any) => f.name)).to.deep.equal(['id', 'tax', 'note', 'extra']);
    const body = await getImpact(t(), changes({ since: '2025-01-01T00:00:00Z' }));
    expect(
      body.changes.map((c: any) => [
        c.runId,
        c.changedAt,
        c.added.map((f: any) => f.name),
        c.removed.map((f: any) => f.name),
      ]),
    ).to.deep.equal([
      [a, '2025-01-01T12:00:00.000Z', ['extra', 'note'], []],
      [b, '2025-01-01T11:00:00.000Z', [], ['note']],
    ]);
    // The newest change is the current version's.
    expect(body.changes[0].version).to.equal(dataset.body.currentVersion);
    expect(body.changes[0].previousVersion).to.equal(body.changes[1].version);
  });

  it('filters by time and namespace; since takes a duration', async () => {
    // The test events are from 2024.
    expect((await getImpact(t(), changes({ since: 'P1D' }))).changes).to.deep.equal([]);
    expect((await getImpact(t(), changes())).changes).to.deep.equal([]);
    expect((await getImpact(t(), changes({ since: '2020-01-01', namespace: 'elsewhere' }))).changes).to.deep.equal([]);
    expect((await getImpact(t(), changes({ since: '2020-01-01', namespace: NS }))).changes).to.have.length(1);
    expect((await getImpact(t(), changes({ since: 'P100Y' }))).changes).to.have.length(1);
  });

  it('drops readers whose declaration in force no longer reads the column', async () => {
    await runJob(
      t(),
      'agg',
      ['orders'],
      [{ ...totals, facets: { columnLineage: columnLineageFacet({ total: [{ name: 'orders', field: 'tax' }] }) } }],
    );
    const [c] = (await getImpact(t(), changes({ since: '2020-01-01T00:00:00Z' }))).changes;
    expect(c.affectedFields).to.deep.equal([]);
  });

  it('as CSV, with the same columns as the JSON items', async () => {
    const json = await getImpact(t(), changes({ since: '2020-01-01T00:00:00Z' }));
    const csv = await getCsv(t(), changes({ since: '2020-01-01T00:00:00Z' }));
    expect(csv.header).to.deep.equal([...SCHEMA_CHANGE_COLUMNS]);
    expect(csv.rows).to.deep.equal(json.changes.map((c: any) => asCsvRow(c, SCHEMA_CHANGE_COLUMNS)));
    expect(csv.totals).to.deep.equal({ total: null, truncated: String(json.truncated) });
  });

  it('400 for a bad since or limit', async () => {
    for (const bad of [
      changes({ since: 'yesterday' }),
      changes({ since: 'P' }),
      changes({ limit: 0 }),
      changes({ depth: 101 }),
    ]) {
      const res = await t().get(bad);
      expect(res.status, `${decodeURIComponent(bad)}: ${res.text}`).to.equal(400);
      expect(res.body).to.include({ code: 400 });
    }
  });
});

describe('GET /api/v1/impact: CSV', () => {
  const t = useTestApp();

  beforeEach(async function () {
    this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
    const ownership = facet({ owners: [{ name: 'team "data", core', type: 'TEAM' }] }, 'OwnershipJobFacet');
    await t().post(
      '/api/v1/lineage',
      runEvent({ job: 'j1', eventType: 'COMPLETE', inputs: ['a'], outputs: ['b'], jobFacets: { ownership } }),
    );
    await runJob(t(), 'j2', ['a'], ['c']);
    await runJob(t(), 'j3', ['b', 'c'], ['d'], { eventType: 'FAIL' });
    await t().db.write({ op: 'test' }, (tx) =>
      tx.run(`MATCH (d:Dataset {name: 'b'}) MERGE (t:Tag {name: 'line\nbreak, "quoted"'}) MERGE (d)-[:TAGGED]->(t)`),
    );
  });

  it('streams a header row and one row per JSON node, RFC 4180 quoted, by Accept or format=csv', async () => {
    const json = await getImpact(t(), impactPath({ nodeId: ds('a') }));
    for (const [path, headers] of [
      [impactPath({ nodeId: ds('a') }), { accept: 'text/csv' }],
      [impactPath({ nodeId: ds('a'), format: 'csv' }), {}],
      [impactPath({ nodeId: ds('a'), format: 'CSV' }), { accept: 'application/json' }],
    ] as const) {
      const csv = await getCsv(t(), path, headers);
      expect(csv.contentType).to.match(/^text\/csv/);
      expect(csv.header).to.deep.equal([...NODE_COLUMNS]);
      expect(csv.rows).to.deep.equal(json.nodes.map((n: any) => asCsvRow(n, NODE_COLUMNS)));
      expect(csv.text.endsWith('\r\n')).to.equal(true);
      expect(csv.text).to.contain('"[""team \\""data\\"", core""]"');
    }
    // format=json wins over Accept.
    const res = await t().request('GET', impactPath({ nodeId: ds('a'), format: 'json' }), {
      headers: { accept: 'text/csv' },
    });
    expect(res.headers.get('content-type')).to.match(/json/);
  });

  it('root cause and column impact have their own columns', async () => {
    const json = await getImpact(t(), impactPath({ nodeId: ds('d'), direction: 'upstream', state: 'FAILED' }));
    const csv = await getCsv(t(), impactPath({ nodeId: ds('d'), direction: 'upstream', state: 'FAILED' }));
    expect(csv.header).to.deep.equal([...ROOT_CAUSE_COLUMNS]);
    expect(csv.rows).to.deep.equal(json.nodes.map((n: any) => asCsvRow(n, ROOT_CAUSE_COLUMNS)));
    expect(csv.rows.map((r) => r.id)).to.deep.equal([job('j3')]);
    await runJob(
      t(),
      'cl',
      ['d'],
      [
        {
          name: 'e',
          fields: [['x', 'INT']],
          facets: { columnLineage: columnLineageFacet({ x: [{ name: 'd', field: 'x' }] }) },
        },
      ],
    );
    const fieldId = `datasetField:${NS}:d:x`;
    const fjson = await getImpact(t(), impactPath({ nodeId: fieldId }));
    const fcsv = await getCsv(t(), impactPath({ nodeId: fieldId }));
    expect(fcsv.header).to.deep.equal([...FIELD_COLUMNS]);
    expect(fcsv.rows).to.deep.equal(fjson.nodes.map((n: any) => asCsvRow(n, FIELD_COLUMNS)));
    expect(fcsv.rows).to.have.length(1);
    expect(fcsv.totals).to.deep.equal({ total: '1', truncated: 'false' });
  });

  it('says in headers how many nodes there are and whether the rows were cut at the limit', async () => {
    const all = await getImpact(t(), impactPath({ nodeId: ds('a') }));
    const whole = await getCsv(t(), impactPath({ nodeId: ds('a'), format: 'csv' }));
    expect(whole.totals).to.deep.equal({ total: String(all.total), truncated: 'false' });
    const cut = await getCsv(t(), impactPath({ nodeId: ds('a'), format: 'csv', limit: 2 }));
    expect(cut.rows).to.have.length(2);
    expect(cut.totals).to.deep.equal({ total: String(all.total), truncated: 'true' });
    // Root cause counts its jobs as rows stream: its rows wait for the count.
    await runJob(t(), 'j4', ['d'], ['e'], { eventType: 'FAIL' });
    const failed = impactPath({ nodeId: ds('e'), direction: 'upstream', state: 'FAILED', format: 'csv' });
    const rootCause = await getCsv(t(), failed);
    expect(rootCause.rows.map((r) => r.id)).to.deep.equal([job('j4'), job('j3')]);
    expect(rootCause.totals).to.deep.equal({ total: '2', truncated: 'false' });
    const nearest = await getCsv(t(), `${failed}&limit=1`);
    expect(nearest.rows.map((r) => r.id)).to.deep.equal([job('j4')]);
    expect(nearest.totals).to.deep.equal({ total: '2', truncated: 'true' });
  });

  it('writes a name a spreadsheet would run as a formula with a leading apostrophe', async () => {
    const evil = '=HYPERLINK("http://evil.example","click")';
    await runJob(t(), 'j5', ['d'], [evil, '@SUM(1+1)']);
    const json = await getImpact(t(), impactPath({ nodeId: ds('d') }));
    const csv = await getCsv(t(), impactPath({ nodeId: ds('d'), format: 'csv' }));
    expect(csv.text).to.contain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csv.text).to.contain(`,'@SUM(1+1),`);
    expect(csv.text).not.to.match(/(^|,)[=@]/m);
    // Read back with one leading apostrophe removed (csvValue), the rows are the JSON nodes.
    expect(csv.rows).to.deep.equal(json.nodes.map((n: any) => asCsvRow(n, NODE_COLUMNS)));
    expect(json.nodes.map((n: any) => n.name)).to.include.members([evil, '@SUM(1+1)']);
  });

  it('an empty answer is the header row alone; an unknown node is a JSON 404', async () => {
    const csv = await getCsv(t(), impactPath({ nodeId: ds('d'), format: 'csv' }));
    expect(csv.rows).to.deep.equal([]);
    expect(csv.text).to.equal(`${NODE_COLUMNS.join(',')}\r\n`);
    const res = await t().request('GET', impactPath({ nodeId: ds('nope') }), { headers: { accept: 'text/csv' } });
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ code: 404, error: 'not_found' });
  });
});

describe('GET /api/v1/impact: errors', () => {
  const t = useTestApp();
  beforeEach(async function () {
    this.timeout(120_000); // the first ingest of a run plans the ingest statements (seconds on a busy 2-core VM)
    await runJob(t(), 'j', ['a'], ['b']);
  });

  it(
    '400 for an unparseable id or a bad direction, depth, limit, state, asOf, window or format; 404 for an unknown ' +
      'node',
    async () => {
      for (const bad of [
        '/api/v1/impact',
        impactPath({ nodeId: 'table:x:y' }),
        impactPath({ nodeId: 'dataset:nocolon' }),
        impactPath({ nodeId: ds('a'), direction: 'both' }),
        impactPath({ nodeId: ds('a'), depth: -1 }),
        impactPath({ nodeId: ds('a'), depth: 'deep' }),
        impactPath({ nodeId: ds('a'), depth: 101 }),
        impactPath({ nodeId: ds('a'), limit: 0 }),
        impactPath({ nodeId: ds('a'), limit: 1_000_001 }),
        impactPath({ nodeId: ds('a'), state: 'BROKEN' }),
        impactPath({ nodeId: ds('a'), asOf: 'last tuesday' }),
        impactPath({ nodeId: ds('a'), window: 'P' }),
        impactPath({ nodeId: ds('a'), format: 'xml' }),
      ]) {
        const res = await t().get(bad);
        expect(res.status, `${decodeURIComponent(bad)}: ${res.text}`).to.equal(400);
        expect(res.body).to.include({ code: 400, error: 'bad_request' });
        expect(res.body.message).to.be.a('string');
      }
      for (const unknown of [ds('nope'), job('nope'), `datasetField:${NS}:a:nope`]) {
        const res = await t().get(impactPath({ nodeId: unknown }));
        expect(res.status, unknown).to.equal(404);
        expect(res.body).to.include({ code: 404, error: 'not_found' });
      }
    },
  );

  describe('timeouts', () => {
    let slow: TestApp;
    before(async () => {
      slow = await build({ queryTimeoutMs: 1 });
    });
    after(async () => {
      await slow.close();
    });

    it('a traversal past QUERY_TIMEOUT_MS answers 504 suggesting a smaller depth or a limit', async () => {
      // Neo4j checks transaction timeouts every 2 s, so a real over-long traversal is cut at some point
      // after the timeout; this checks deterministically what the client sees when it is.
      // The streamed blast radius runs in db.read, the other impact queries through db.execute (executeQuery).
      const timedOut = () =>
        Object.assign(new Error('The transaction has been terminated.'), {
          code: 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
        });
      const read = slow.db.read.bind(slow.db);
      slow.db.read = (async (opts, work) => {
        if (opts.op.startsWith('impact/')) throw timedOut();
        return read(opts, work);
      }) as typeof slow.db.read;
      const execute = slow.db.execute.bind(slow.db);
      slow.db.execute = (async (routing, op, text, params, opts) => {
        if (op.startsWith('impact/')) throw timedOut();
        return execute(routing, op, text, params, opts);
      }) as typeof slow.db.execute;
      for (const path of [
        impactPath({ nodeId: ds('a'), depth: 100 }),
        impactPath({ nodeId: ds('a'), format: 'csv' }),
        impactPath({ from: ds('a'), to: ds('b') }, '/api/v1/impact/paths'),
        changes({ since: 'P1Y' }),
      ]) {
        const res = await slow.get(path);
        expect(res.status, `${path}: ${res.text}`).to.equal(504);
        expect(res.body).to.include({ code: 504, error: 'timeout' });
        expect(res.body.message)
          .to.match(/smaller depth/)
          .and.match(/limit/);
      }
    });
  });
});
