import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp, wipe } from '../../helper.js';
import { graphShape, graphSnapshot, rows, staleFacetDigests } from '../../support/graph.js';
import { completedRun, facet, runEvent } from '../../support/events.js';

/** A small but complete stream: chains, a failure, a parent, symlinks, column lineage, a job and a dataset event. */
function stream(): Record<string, unknown>[] {
  const parent = {
    parent: facet({
      run: { runId: '01909a1c-9999-7000-8000-000000000001' },
      job: { namespace: 'airflow', name: 'daily' },
    }),
  };
  const columnLineage = facet({ fields: { id: { inputFields: [{ namespace: 'pg', name: 'raw', field: 'id' }] } } });
  const symlinks = facet({ identifiers: [{ namespace: 's3://bucket', name: 'clean/', type: 'DIR' }] });
  const failing = randomUUID();
  return [
    ...completedRun({
      job: 'daily.extract',
      runFacets: parent,
      inputs: [{ namespace: 'pg', name: 'raw', fields: [['id', 'INT']] }],
      outputs: [{ namespace: 'pg', name: 'clean', facets: { columnLineage, symlinks }, fields: [['id', 'INT']] }],
    }),
    ...completedRun({ job: 'daily.report', inputs: [{ namespace: 'pg', name: 'clean' }], outputs: ['report'] }),
    runEvent({
      runId: failing,
      job: 'daily.report',
      eventType: 'START',
      inputs: [{ namespace: 's3://bucket', name: 'clean/' }],
    }),
    runEvent({ runId: failing, job: 'daily.report', eventType: 'FAIL' }),
    {
      eventTime: '2024-06-01T12:00:00Z',
      producer: 'p',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
      job: { namespace: 'dbt', name: 'm' },
      inputs: [{ namespace: 'pg', name: 'report' }],
      outputs: [],
    },
    {
      eventTime: '2024-06-01T12:00:00Z',
      producer: 'p',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
      dataset: { namespace: 'pg', name: 'raw', facets: { documentation: facet({ description: 'raw rows' }) } },
    },
  ];
}

describe('ingest: idempotency and concurrency', () => {
  const t = useTestApp();
  const postAll = async (events: Record<string, unknown>[]) => {
    for (const e of events) expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  };

  it('posting every event twice leaves an identical graph (counts, ids, relationships)', async () => {
    const events = stream();
    await postAll(events);
    const once = await graphSnapshot(t().db);
    for (const e of events) await postAll([e, e]);
    expect(await graphSnapshot(t().db)).to.deep.equal(once);
    expect(await staleFacetDigests(t().db)).to.deep.equal([]);
  });

  it('posting the whole stream twice leaves an identical graph', async () => {
    const events = stream();
    await postAll(events);
    const shape = await graphShape(t().db);
    const once = await graphSnapshot(t().db);
    await postAll(events);
    expect(await graphShape(t().db)).to.deep.equal(shape);
    expect(await graphSnapshot(t().db)).to.deep.equal(once);
  });

  it('32 concurrent producers sharing datasets and namespaces create no duplicates and get no 5xx', async function () {
    this.timeout(120_000);
    const producers = 32;
    const runsPerProducer = 4;
    const parentRuns = Array.from({ length: runsPerProducer }, () => randomUUID());
    const work = Array.from({ length: producers }, (_, p) => async () => {
      const statuses: number[] = [];
      for (let i = 0; i < runsPerProducer; i++) {
        // Every producer reads the shared 'hub' tables and writes its own table plus a shared one; runs
        // share four parent runs, and the hubs name their data source.
        const source = facet({ name: 'warehouse', uri: 'postgres://warehouse:5432' });
        const events = completedRun({
          job: `job_${p % 8}`,
          jobNamespace: p % 2 ? 'airflow' : 'spark',
          runFacets: { parent: facet({ run: { runId: parentRuns[i] }, job: { namespace: 'scheduler', name: 'dag' } }) },
          // Producers of one job disagree about its SQL and about a hub's owner, so concurrent
          // transactions change the same facets back and forth (facet digests must stay true).
          jobFacets: { sql: facet({ query: `SELECT ${(p + i) % 3}` }, 'SQLJobFacet') },
          inputs: [
            {
              name: 'shared.hub_a',
              facets: { dataSource: source },
              inputFacets: { ownership: facet({ owners: [{ name: `team_${p % 3}` }] }) },
            },
            { name: 'shared.hub_b', facets: { dataSource: source } },
            `own_${(p + 1) % producers}`,
          ],
          outputs: [`own_${p}`, 'shared.sink'],
        });
        for (const e of events) statuses.push((await t().post('/api/v1/lineage', e)).status);
      }
      return statuses;
    });
    const statuses = (await Promise.all(work.map((w) => w()))).flat();
    expect(
      statuses.filter((s) => s !== 201),
      'every event stored',
    ).to.deep.equal([]);

    const dupes = await rows(
      t().db,
      `CALL () { MATCH (d:Dataset)
        WITH d.namespace AS a, d.name AS b, count(*) AS c
        WHERE c > 1 RETURN 'dataset ' + b AS dup
        UNION MATCH (n:Namespace) WITH n.name AS b, count(*) AS c WHERE c > 1 RETURN 'namespace ' + b AS dup
        UNION MATCH (j:Job) WITH j.namespace AS a, j.name AS b, count(*) AS c WHERE c > 1 RETURN 'job ' + b AS dup
        UNION MATCH (a)-[r]->(b) WITH a, b, type(r) AS t, count(*) AS c WHERE c > 1 AND t <> 'FEEDS'
          RETURN 'rel ' + t AS dup
        UNION MATCH (j:Job) WHERE COUNT { (j)-[:LATEST_RUN]->() } > 1 OR COUNT { (j)-[:CURRENT_VERSION]->() } > 1
          RETURN 'pointer ' + j.name AS dup
        UNION MATCH (d:Dataset) WHERE COUNT { (d)-[:CURRENT_VERSION]->() } > 1 RETURN 'current ' + d.name AS dup }
       RETURN dup`,
    );
    expect(dupes).to.deep.equal([]);
    expect(await staleFacetDigests(t().db), 'facet digests match their facets').to.deep.equal([]);
    // Every link that ingest makes once (and then trusts a mirroring property for) exists exactly once.
    const links = await rows(
      t().db,
      `CALL () { MATCH (r:Run)
        WHERE COUNT { (r)-[:RUN_OF]->(:Job {namespace: r.jobNamespace, name: r.jobName}) } <> 1
        OR COUNT { (r)-[:RUN_OF]->() } <> 1
        RETURN 'run ' + r.id AS bad
        UNION MATCH (d:Dataset) WHERE COUNT { (:Namespace {name: d.namespace})-[:HAS_DATASET]->(d) } <> 1
          RETURN 'dataset ' + d.name AS bad
        UNION MATCH (j:Job) WHERE COUNT { (:Namespace {name: j.namespace})-[:HAS_JOB]->(j) } <> 1
          RETURN 'job ' + j.name AS bad
        UNION MATCH (d:Dataset) WHERE d.sourceName IS NOT NULL
          AND COUNT { (d)-[:FROM_SOURCE]->(:Source {name: d.sourceName}) } <> 1 RETURN 'source ' + d.name AS bad
        UNION MATCH (j:Job) WHERE j.parentJobName IS NOT NULL
          AND COUNT { (j)-[:CHILD_OF]->(:Job {namespace: j.parentJobNamespace, name: j.parentJobName}) } <> 1
            RETURN 'parent ' + j.name AS bad
        UNION MATCH (v:DatasetVersion) WHERE COUNT { (v)-[:VERSION_OF]->() } <> 1 RETURN 'version ' + v.id AS bad }
       RETURN bad`,
    );
    expect(links).to.deep.equal([]);
    expect(
      await rows(t().db, 'MATCH (d:Dataset)-[:FROM_SOURCE]->(s:Source) RETURN d.name AS d, s.name AS s ORDER BY d'),
    ).to.deep.equal([
      { d: 'shared.hub_a', s: 'warehouse' },
      { d: 'shared.hub_b', s: 'warehouse' },
    ]);
    const parents = await rows(
      t().db,
      'MATCH (c:Run)-[:CHILD_OF]->(p:Run)-[:RUN_OF]->(j:Job) RETURN p.id AS id, j.name AS job, count(c) AS children ' +
        'ORDER BY id',
    );
    expect(parents).to.have.length(runsPerProducer);
    for (const p of parents) expect(p.children).to.equal(producers);
    const counts = (
      await rows(
        t().db,
        'MATCH (r:Run) WHERE NOT r.jobNamespace = "scheduler" RETURN count(r) AS runs, sum(CASE r.state WHEN ' +
          '"COMPLETED" THEN 1 ELSE 0 END) AS done',
      )
    )[0];
    expect(counts).to.deep.equal({ runs: producers * runsPerProducer, done: producers * runsPerProducer });
    expect((await rows(t().db, 'MATCH (d:Dataset) RETURN count(d) AS c'))[0].c).to.equal(producers + 3);
  });

  it('the same events give the same graph after a wipe (deterministic ids)', async () => {
    const events = stream();
    await postAll(events);
    const first = await graphSnapshot(t().db);
    await wipe(t().db);
    await t().app.services.namespaces.ensureDefault();
    await postAll(events);
    expect(await graphSnapshot(t().db)).to.deep.equal(first);
  });
});
