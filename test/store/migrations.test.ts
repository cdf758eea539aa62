import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp, wipe, type TestApp } from '../helper.js';
import { graphShape, rows } from '../support/graph.js';
import { runEvent, completedRun, DEFAULT_DATASET_NS, facet } from '../support/events.js';
import {
  EDGE_HISTORY_MIGRATION,
  migrateEdgeHistory,
  migrateFoldBookkeeping,
  migrateDeletedLabel,
  migrateLatestRunEnd,
  migrateColumnLineageCount,
  migrateJobVersionLinks,
  migrateLatestRunParents,
  migrateSimpleNames,
  migratePlaceholderLastModified,
  migrateNestedFields,
  migrateDatasetWideColumnLineage,
} from '../../src/store/migrations.js';
import * as migrations from '../../src/store/migrations.js';
import { columnLineageFacet, ds, e, expectGraph, job, lineagePath as p } from '../http/lineage/support.js';

async function post(t: TestApp, events: Record<string, unknown>[]) {
  for (const event of events) {
    const res = await t.post('/api/v1/lineage', event);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  }
}

async function edgeRows(t: TestApp) {
  const res = await t.db.read({ op: 'test' }, (tx) =>
    tx.run(`MATCH (a)-[e:INPUT_TO|PRODUCES]->(b)
            RETURN a.name + ' ' + type(e) + ' ' + b.name AS edge, toString(e.firstSeenAt) AS first,
              toString(e.lastSeenAt) AS last,
                   e.lastRunId AS run, e.lastRunState AS state, e.current AS current,
                   [x IN e.seenFrom | toString(x)] AS seenFrom,
                   [x IN e.seenTo | toString(x)] AS seenTo,
                   [x IN e.heldUntil | toString(x)] AS heldUntil
            ORDER BY edge`),
  );
  return res.records.map((r) => r.toObject());
}

/** Puts the graph back in the shape the previous version wrote: edges of current versions only, without history. */
async function downgrade(t: TestApp) {
  await t.db.write({ op: 'test' }, async (tx) => {
    await tx.run('MATCH ()-[e:INPUT_TO|PRODUCES]->() DELETE e');
    await tx.run(
      'MATCH (j:Job)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_INPUT]->(d:Dataset) CREATE (d)-[:INPUT_TO]->(j)',
    );
    await tx.run(
      'MATCH (j:Job)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_OUTPUT]->(d:Dataset) CREATE (j)-[:PRODUCES]->(d)',
    );
    await tx.run('MATCH (r:Run) REMOVE r.lastEventAt');
    await tx.run('MATCH (m:Migration) DELETE m');
  });
}

describe('migration: lineage edges get their history', () => {
  const t = useTestApp();

  it('derives from the stored runs and JobEvents the same histories ingestion writes, once', async () => {
    // A producer whose last run failed before knowing its outputs, a partitioned writer, and a JobEvent.
    await post(t(), completedRun({ job: 'producer', inputs: ['staging'], outputs: ['orders'] }));
    await post(t(), completedRun({ job: 'producer', inputs: ['staging'], outputs: ['orders'] }));
    const failed = randomUUID();
    await post(t(), [
      runEvent({ job: 'producer', runId: failed, eventType: 'START', inputs: ['staging'] }),
      runEvent({ job: 'producer', runId: failed, eventType: 'FAIL' }),
    ]);
    await post(t(), completedRun({ job: 'partitioner', inputs: ['orders'], outputs: ['part1'] }));
    await post(t(), completedRun({ job: 'partitioner', inputs: ['orders'], outputs: ['part2'] }));
    const jobEvent = { ...runEvent({ job: 'declared', inputs: ['part2'], outputs: ['mart'] }), eventType: undefined };
    delete (jobEvent as Record<string, unknown>).run;
    await post(t(), [jobEvent]);
    const written = await edgeRows(t());
    expect(written.map((r) => r.edge)).to.include.members([
      'orders PRODUCES part1'.replace('orders', 'partitioner'),
      'part2 INPUT_TO declared',
    ]);

    await downgrade(t());
    // The old model lost the failed producer's output edge and the first partition's.
    expect((await edgeRows(t())).map((r) => r.edge)).to.not.include('producer PRODUCES orders');
    expect(await migrateEdgeHistory(t().db)).to.equal(3);
    expect(await edgeRows(t())).to.deep.equal(written);
    expect(await migrateEdgeHistory(t().db), 'recorded: not run again').to.equal(0);
    const recorded = await t().db.read({ op: 'test' }, (tx) =>
      tx.run('MATCH (m:Migration {name: $name}) RETURN count(m) AS n', { name: EDGE_HISTORY_MIGRATION }),
    );
    expect(recorded.records[0].get('n').toNumber()).to.equal(1);

    // The graph answers as it did before the downgrade.
    await expectGraph(t(), p(ds('orders'), { direction: 'upstream', window: 'all' }), {
      nodes: [ds('staging'), job('producer'), ds('orders')],
      edges: [e(ds('staging'), job('producer')), e(job('producer'), ds('orders'))],
    });
  });

  it('on an empty database only records itself', async () => {
    expect(await migrateEdgeHistory(t().db)).to.equal(0);
    expect(await migrateEdgeHistory(t().db)).to.equal(0);
  });
});

describe('migration: ingest bookkeeping of the fold', () => {
  const t = useTestApp();

  it(
    'restores READ.at, Job.lastEventAt and declared version times removed as an older version would lack them, ' +
      'once',
    async () => {
      await post(t(), completedRun({ job: 'loader', inputs: ['src'], outputs: ['dst'] }));
      await post(t(), [
        {
          eventTime: '2024-06-01T12:00:00Z',
          producer: 'p',
          schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
          job: { namespace: 'dbt', name: 'm' },
          inputs: [{ namespace: 'pg', name: 'dst' }],
          outputs: [{ namespace: 'pg', name: 'mart' }],
        },
      ]);
      const snapshot = async () =>
        (
          await t().db.read({ op: 'test' }, (tx) =>
            tx.run(`CALL () { MATCH (r:Run)-[rd:READ]->() RETURN 'read ' + coalesce(toString(rd.at), '-') AS v
                   UNION ALL MATCH (j:Job)-[:RUN_OF|VERSION_OF]-()
                     RETURN DISTINCT 'job ' + j.name + ' ' + coalesce(toString(j.lastEventAt), '-') AS v
                   UNION ALL MATCH (v:JobVersion)
                     RETURN 'version ' + v.name + ' ' + coalesce(toString(v.declaredFrom),
                       '-') + ' ' + coalesce(toString(v.declaredTo), '-') AS v }
                  RETURN v ORDER BY v`),
          )
        ).records.map((r) => r.get('v') as string);
      const before = await snapshot();
      await t().db.write({ op: 'test' }, async (tx) => {
        await tx.run('MATCH ()-[rd:READ]->() REMOVE rd.at');
        await tx.run('MATCH (j:Job) REMOVE j.lastEventAt');
        await tx.run('MATCH (v:JobVersion) REMOVE v.declaredFrom, v.declaredTo');
        await tx.run('MATCH (m:Migration) DELETE m');
      });
      // The JobEvent's job has no run to find it through: only jobs with runs get lastEventAt back.
      expect(await migrateFoldBookkeeping(t().db, undefined, 1)).to.be.greaterThan(0);
      const after = await snapshot();
      expect(after.filter((v) => !v.startsWith('job m') && !v.startsWith('version m'))).to.deep.equal(
        before.filter((v) => !v.startsWith('job m') && !v.startsWith('version m')),
      );
      expect(await migrateFoldBookkeeping(t().db), 'a second start does nothing').to.equal(0);
    },
  );
});

describe("migration: the end of each job's latest run", () => {
  const t = useTestApp();

  it('gives jobs the end of their latest run (latestRunEndedAt) as an older version would lack it, once', async () => {
    await post(t(), completedRun({ job: 'done1', inputs: ['a'], outputs: ['b'] }));
    await post(t(), completedRun({ job: 'done2', inputs: ['b'], outputs: ['c'] }));
    await post(t(), [runEvent({ job: 'running', eventType: 'START', inputs: ['c'] })]);
    const snapshot = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run(`MATCH (j:Job)-[:LATEST_RUN]->(r:Run)
                  RETURN j.name + ' ' + coalesce(toString(j.latestRunEndedAt), '-') + ' ' +
                    coalesce(toString(r.endedAt), '-') AS v ORDER BY v`),
        )
      ).records.map((r) => r.get('v') as string);
    const before = await snapshot();
    expect(before).to.have.length(3);
    expect(before).to.include('running - -');
    for (const v of before.filter((x) => x.startsWith('done'))) {
      const [, stored, end] = v.split(' ');
      expect(stored, v).to.equal(end);
      expect(end, v).to.not.equal('-');
    }
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run('MATCH (j:Job) REMOVE j.latestRunEndedAt');
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await migrateLatestRunEnd(t().db, undefined, 1), 'one batch per job').to.equal(2);
    expect(await snapshot()).to.deep.equal(before);
    expect(await migrateLatestRunEnd(t().db), 'a second start does nothing').to.equal(0);
  });
});

describe("migration: parent runs among their jobs' latest runs", () => {
  const t = useTestApp();

  it('points each job at its latest run, parent runs included, where an older version left an own run', async () => {
    const parentFacet = (runId: string) =>
      facet({ run: { runId }, job: { namespace: 'airflow', name: 'dag' } }, 'ParentRunFacet');
    const named = randomUUID();
    await post(t(), [runEvent({ job: 'dag', eventType: 'START', eventTime: '2024-06-01T10:00:00Z' })]);
    await post(t(), [
      runEvent({
        job: 'dag.task',
        eventType: 'START',
        eventTime: '2024-06-01T11:00:00Z',
        runFacets: { parent: parentFacet(named) },
      }),
    ]);
    await post(t(), [
      runEvent({
        job: 'only_parent.task',
        eventType: 'START',
        eventTime: '2024-06-01T12:00:00Z',
        runFacets: {
          parent: facet({ run: { runId: randomUUID() }, job: { namespace: 'airflow', name: 'only_parent' } }),
        },
      }),
    ]);
    const latest = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run(`MATCH (j:Job) WHERE j.name IN ['dag', 'only_parent'] OPTIONAL MATCH (j)-[:LATEST_RUN]->(r:Run)
                  RETURN j.name + ' ' + coalesce(r.id, '-') + ' ' + coalesce(j.latestRunState, '-') AS v ORDER BY v`),
        )
      ).records.map((r) => r.get('v') as string);
    const now = await latest();
    expect(now).to.deep.equal([`dag ${named} NEW`, now[1]]);
    expect(now[1]).to.match(/^only_parent \S+ NEW$/);

    // As an older version left it: only runs with events of their own were latest runs.
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run('MATCH (j:Job)-[l:LATEST_RUN]->(r:Run) WHERE r.lastEventAt IS NULL DELETE l');
      await tx.run('MATCH (j:Job {name: $name}) REMOVE j.latestRunState', { name: 'only_parent' });
      await tx.run(`MATCH (j:Job {name: 'dag'}), (r:Run {jobName: 'dag'}) WHERE r.lastEventAt IS NOT NULL
                    CREATE (j)-[:LATEST_RUN]->(r) SET j.latestRunState = r.state`);
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await latest()).to.not.deep.equal(now);
    expect(await migrateLatestRunParents(t().db, undefined, 1), 'the two parent runs, one per batch').to.equal(2);
    expect(await latest()).to.deep.equal(now);
    expect(await migrateLatestRunParents(t().db), 'a second start does nothing').to.equal(0);
  });
});

describe('migration: the Deleted label of soft-deleted datasets and jobs', () => {
  const t = useTestApp();

  it('labels what an older version soft-deleted (isDeleted, no label), once; the walk then skips it', async () => {
    await post(t(), completedRun({ job: 'j1', inputs: ['a'], outputs: ['b'] }));
    await post(t(), completedRun({ job: 'j2', inputs: ['b'], outputs: ['c'] }));
    await post(t(), completedRun({ job: 'j3', inputs: ['b'], outputs: ['d'] }));
    const dsNs = encodeURIComponent(DEFAULT_DATASET_NS);
    for (const path of ['airflow/jobs/j2', `${dsNs}/datasets/d`])
      expect((await t().request('DELETE', `/api/v1/namespaces/${path}`)).status, path).to.equal(200);
    const labelled = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run('MATCH (n:Deleted) RETURN n.name AS name, n.isDeleted AS deleted ORDER BY name'),
        )
      ).records.map((r) => `${r.get('name')} ${r.get('deleted')}`);
    expect(await labelled()).to.deep.equal(['d true', 'j2 true']);
    const walk = p(ds('a'), { direction: 'downstream' });
    const expected = {
      nodes: [ds('a'), job('j1'), ds('b'), job('j3')],
      edges: [e(ds('a'), job('j1')), e(job('j1'), ds('b')), e(ds('b'), job('j3'))],
    };
    await expectGraph(t(), walk, expected);

    // As an older version left it: the property without the label, and no record of the migration.
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run('MATCH (n:Deleted) REMOVE n:Deleted');
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await labelled()).to.deep.equal([]);
    expect(await migrateDeletedLabel(t().db, undefined, 1), 'a dataset and a job').to.equal(2);
    expect(await labelled()).to.deep.equal(['d true', 'j2 true']);
    await expectGraph(t(), walk, expected);
    expect(await migrateDeletedLabel(t().db), 'a second start does nothing').to.equal(0);
  });

  it('counts the versions declaring column lineage of what an older version wrote, once', async () => {
    const totals = (declares: boolean) => ({
      name: 'totals',
      facets: declares ? { columnLineage: columnLineageFacet({ total: [{ name: 'orders', field: 'amount' }] }) } : {},
    });
    for (const declares of [true, false, true])
      await post(t(), completedRun({ job: 'agg', inputs: ['orders'], outputs: [totals(declares)] }));
    const counts = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run('MATCH (d:Dataset) RETURN d.name AS name, d.columnLineageVersions AS n ORDER BY name'),
        )
      ).records.map((r) => `${r.get('name')} ${r.get('n')}`);
    expect(await counts()).to.deep.equal(['orders null', 'totals 2']);

    // As an older version left it: no counts, and no record of the migration.
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run('MATCH (d:Dataset) REMOVE d.columnLineageVersions');
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await migrateColumnLineageCount(t().db, undefined, 1), 'every dataset, one per batch').to.equal(2);
    expect(await counts()).to.deep.equal(['orders 0', 'totals 2']);
    expect(await migrateColumnLineageCount(t().db), 'a second start does nothing').to.equal(0);
  });
  it('job-version-links: a version linked twice to its job keeps one link', async () => {
    await post(t(), completedRun({ job: 'twice', inputs: ['i'], outputs: ['o'] }));
    await post(t(), completedRun({ job: 'once', inputs: ['o'], outputs: ['p'] }));
    const links = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run('MATCH (:JobVersion)-[l:VERSION_OF]->(j:Job) RETURN j.name AS job, count(l) AS n ORDER BY job'),
        )
      ).records.map((r) => `${r.get('job')} ${r.get('n')}`);
    // As an older release could leave it (two runs of one batch on a new version), unrecorded.
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run("MATCH (v:JobVersion)-[:VERSION_OF]->(j:Job {name: 'twice'}) CREATE (v)-[:VERSION_OF]->(j)");
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await links()).to.deep.equal(['once 1', 'twice 2']);
    expect(await migrateJobVersionLinks(t().db, undefined, 1), 'the one version repaired').to.equal(1);
    expect(await links()).to.deep.equal(['once 1', 'twice 1']);
    expect((await t().get('/api/v1/namespaces/airflow/jobs/twice/versions')).body.totalCount).to.equal(1);
    expect(await migrateJobVersionLinks(t().db), 'a second start does nothing').to.equal(0);
  });
  it("simple-names: jobs with a parent get Marquez's simpleName, the others are left alone", async () => {
    const child = (job: string, parentJob: string) =>
      runEvent({
        job,
        jobNamespace: 'sched',
        runFacets: {
          parent: facet(
            { run: { runId: randomUUID() }, job: { namespace: 'sched', name: parentJob } },
            'ParentRunFacet',
          ),
        },
      });
    await post(t(), [child('dag.group.task', 'dag'), child('model.build.run', 'dbt-run'), child('dag.other', 'dag')]);
    await post(t(), [runEvent({ job: 'plain.name', jobNamespace: 'sched' })]);
    const names = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run("MATCH (j:Job {namespace: 'sched'}) RETURN j.name + ' ' + j.simpleName AS v ORDER BY v"),
        )
      ).records.map((r) => r.get('v') as string);
    const now = await names();
    expect(now).to.deep.equal([
      'dag dag',
      'dag.group.task group.task',
      'dag.other other',
      'dbt-run dbt-run',
      'model.build.run model.build.run',
      'plain.name plain.name',
    ]);
    // As an older version left it: the part after the last dot, and no record of the migration.
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run("MATCH (j:Job {name: 'dag.group.task'}) SET j.simpleName = 'task'");
      await tx.run("MATCH (j:Job {name: 'model.build.run'}) SET j.simpleName = 'run'");
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await migrateSimpleNames(t().db, undefined, 1), 'the two renamed, one per batch').to.equal(2);
    expect(await names()).to.deep.equal(now);
    expect(await migrateSimpleNames(t().db), 'a second start does nothing').to.equal(0);
  });

  it('placeholder-last-modified: a dataset only ever read has no lastModifiedAt; a written one keeps it', async () => {
    await post(t(), [runEvent({ job: 'reader', eventType: 'COMPLETE', inputs: ['only.read'], outputs: ['written'] })]);
    const modified = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run("MATCH (d:Dataset) RETURN d.name + ' ' + coalesce(toString(d.lastModifiedAt), '-') AS v ORDER BY v"),
        )
      ).records.map((r) => r.get('v') as string);
    const now = await modified();
    expect(now[0]).to.equal('only.read -');
    expect(now[1]).to.match(/^written \d{4}-/);
    const api = await t().get(`/api/v1/namespaces/${encodeURIComponent(DEFAULT_DATASET_NS)}/datasets/only.read`);
    expect(api.body.lastModifiedAt).to.equal(null);
    // As an older version left it: the placeholder's commit time, and no record of the migration.
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run(
        "MATCH (d:Dataset {name: 'only.read'})-[:CURRENT_VERSION]->(v) SET d.lastModifiedAt = v.committedAt",
      );
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await migratePlaceholderLastModified(t().db, undefined, 1)).to.equal(1);
    expect(await modified()).to.deep.equal(now);
    expect(await migratePlaceholderLastModified(t().db), 'a second start does nothing').to.equal(0);
  });

  it('nested-fields: nested columns get column nodes, by dotted path, which an older version lacked', async () => {
    const col = (name: string, type: string, fields?: unknown[]) => ({ name, type, ...(fields ? { fields } : {}) });
    const schema = (fields: unknown[]) => ({ schema: facet({ fields }, 'SchemaDatasetFacet') });
    const v1 = [col('id', 'INT'), col('addr', 'STRUCT', [col('city', 'STRING'), col('zip', 'STRING')])];
    const v2 = [col('id', 'INT'), col('addr', 'STRUCT', [col('city', 'VARCHAR')])];
    await post(t(), completedRun({ job: 'w', outputs: [{ name: 'nested', facets: schema(v1) }] }));
    await post(t(), completedRun({ job: 'w', outputs: [{ name: 'nested', facets: schema(v2) }] }));
    await post(t(), completedRun({ job: 'w', outputs: [{ name: 'flat', fields: [['x', 'INT']] }] }));
    const nodes = async () =>
      (
        await t().db.read({ op: 'test' }, (tx) =>
          tx.run(`MATCH (d:Dataset)-[:HAS_FIELD]->(f:DatasetField)
                  RETURN d.name + ' ' + f.name + ' ' + coalesce(f.type, '-') AS v ORDER BY v`),
        )
      ).records.map((r) => r.get('v') as string);
    const now = await nodes();
    expect(now).to.deep.equal([
      'flat x INT',
      'nested addr STRUCT',
      'nested addr.city VARCHAR',
      'nested addr.zip -',
      'nested id INT',
    ]);
    // As an older version left it: top-level column nodes only, and no record of the migration.
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run("MATCH (f:DatasetField) WHERE f.name CONTAINS '.' DETACH DELETE f");
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await migrateNestedFields(t().db, undefined, 1), 'the one dataset with nested columns').to.equal(1);
    expect(await nodes()).to.deep.equal(now);
    const tagged = await t().request(
      'POST',
      `/api/v1/namespaces/${encodeURIComponent(DEFAULT_DATASET_NS)}/datasets/nested/fields/addr.city/tags/PII`,
    );
    expect(tagged.status, tagged.text).to.equal(200);
    expect(await migrateNestedFields(t().db), 'a second start does nothing').to.equal(0);
  });
});

describe('migration: FEEDS edges from dataset-wide column-lineage inputs', () => {
  const t = useTestApp();
  const TRINO = 'trino';
  const filter = [{ type: 'INDIRECT', subtype: 'FILTER' }];
  /** A COMPLETE run of `copy` reading orders_daily and writing filtered_copy (day, total) with this facet. */
  const copy = (columnLineage: Record<string, unknown>) =>
    runEvent({
      job: 'copy',
      jobNamespace: TRINO,
      runId: randomUUID(),
      eventType: 'COMPLETE',
      inputs: [
        {
          namespace: TRINO,
          name: 'orders_daily',
          fields: [
            ['id', 'BIGINT'],
            ['day', 'DATE'],
            ['amount', 'INT'],
          ],
        },
      ],
      outputs: [
        {
          namespace: TRINO,
          name: 'filtered_copy',
          fields: [
            ['day', 'DATE'],
            ['total', 'INT'],
          ],
          facets: { columnLineage: facet(columnLineage, 'ColumnLineageDatasetFacet') },
        },
      ],
    });
  /** Every node but the migration records, and every relationship, with all their properties. */
  const everything = async () => {
    const all = await rows(
      t().db,
      `CALL () { MATCH (n) WHERE NOT n:Migration RETURN labels(n) AS k, properties(n) AS p
         UNION ALL MATCH (a)-[r]->(b) RETURN [type(r), elementId(a), elementId(b)] AS k, properties(r) AS p }
       RETURN k, p`,
    );
    const sorted = (v: unknown): unknown =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
    return all.map((r) => JSON.stringify(sorted(r))).sort();
  };

  it('delivers again the stored events with such inputs, which gives the graph today’s ingestion makes', async () => {
    await post(t(), [
      copy({
        fields: {},
        dataset: [{ namespace: TRINO, name: 'orders_daily', field: 'day', transformations: filter }],
      }),
      copy({
        fields: { total: { inputFields: [{ namespace: TRINO, name: 'orders_daily', field: 'amount' }] } },
        dataset: [{ namespace: TRINO, name: 'orders_daily', field: 'id', transformations: filter }],
      }),
      runEvent({ inputs: ['a'], outputs: ['b'] }), // no column lineage: not delivered again
    ]);
    const today = await everything();
    const feedsFrom = `MATCH (f:DatasetField {namespace: 'trino', dataset: 'orders_daily'})-[e:FEEDS]->()
      WHERE f.name IN ['day', 'id']`;
    expect(await rows(t().db, `${feedsFrom} RETURN count(e) AS n`)).to.deep.equal([{ n: 4 }]);
    // As versions before 2026-11-27 wrote it: no edge from a dataset-wide input.
    await t().db.write({ op: 'test' }, async (tx) => {
      await tx.run(`${feedsFrom} DELETE e`);
      await tx.run('MATCH (m:Migration) DELETE m');
    });
    expect(await everything()).to.not.deep.equal(today);

    expect(await migrateDatasetWideColumnLineage(t().db, undefined, 1), 'one event per read batch').to.equal(2);
    expect(await everything()).to.deep.equal(today);
    expect(await migrateDatasetWideColumnLineage(t().db), 'a second start does nothing').to.equal(0);
  });
});

describe('migrations at start (runMigrations)', () => {
  const t = useTestApp();
  const recorded = async () =>
    (await rows(t().db, 'MATCH (m:Migration) RETURN m.name AS name ORDER BY name')).map((r) => r.name as string);

  it('runs every migration this module declares', () => {
    const declared = Object.entries(migrations)
      .filter(([key, value]) => key.endsWith('_MIGRATION') && typeof value === 'string')
      .map(([, value]) => value as string);
    expect([...migrations.MIGRATION_NAMES].sort()).to.deep.equal(declared.sort());
  });

  it('a new database (no node at all) has nothing to migrate: each is recorded, nothing else written', async () => {
    await wipe(t().db); // (the reset before each test created the default namespace: a new database has none)
    expect(await migrations.runMigrations(t().db)).to.equal('recorded');
    expect(await recorded()).to.deep.equal([...migrations.MIGRATION_NAMES].sort());
    expect(await graphShape(t().db)).to.deep.equal({ Migration: migrations.MIGRATION_NAMES.length });
    expect(await migrations.runMigrations(t().db), 'no longer new: each runs unless recorded').to.equal('ran');
    expect(await graphShape(t().db), 'recorded once').to.deep.equal({ Migration: migrations.MIGRATION_NAMES.length });
  });

  it('a database with data runs each migration not recorded as done, and records it', async () => {
    const posted = await t().post('/api/v1/lineage', runEvent({ inputs: ['a'], outputs: ['b'] }));
    expect(posted.status).to.equal(201);
    expect(await migrations.runMigrations(t().db)).to.equal('ran');
    expect(await recorded()).to.deep.equal([...migrations.MIGRATION_NAMES].sort());
  });
});
