import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../../helper.js';
import { rows, value } from '../../support/graph.js';
import { completedRun, runEvent, schemaFacet } from '../../support/events.js';
import { parseEvent } from '../../../src/domain/openlineage/normalize.js';
import { writeEvents } from '../../../src/store/ingest.js';

describe('ingest: job and dataset versions', () => {
  const t = useTestApp();
  const post = async (e: Record<string, unknown>) =>
    expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  const postAll = async (events: Record<string, unknown>[]) => {
    for (const e of events) await post(e);
  };
  const executed = async (runId: string) =>
    value<string>(t().db, 'MATCH (:Run {id: $runId})-[:EXECUTED]->(v) RETURN v.id', { runId });

  describe('job versions', () => {
    it('same location, context, inputs and outputs → same version; any change → a new one', async () => {
      const [r1, r2, r3, r4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const sql = (q: string) => ({ sql: { _producer: 'p', _schemaURL: 's', query: q } });
      await postAll(completedRun({ runId: r1, inputs: ['a'], outputs: ['b'], jobFacets: sql('select 1') }));
      await postAll(completedRun({ runId: r2, inputs: ['a'], outputs: ['b'], jobFacets: sql('select 1') }));
      await postAll(completedRun({ runId: r3, inputs: ['a'], outputs: ['b'], jobFacets: sql('select 2') }));
      await postAll(completedRun({ runId: r4, inputs: ['a', 'c'], outputs: ['b'], jobFacets: sql('select 2') }));
      expect(await executed(r1)).to.equal(await executed(r2));
      expect(await executed(r3)).not.to.equal(await executed(r1));
      expect(await executed(r4)).not.to.equal(await executed(r3));
      expect(await value(t().db, 'MATCH (v:JobVersion) RETURN count(v)')).to.equal(3);
    });

    it('two runs of one transaction taking the same new version link it to its job once', async () => {
      const [r1, r2] = [randomUUID(), randomUUID()];
      const at = (m: number) => `2026-03-01T10:${String(m).padStart(2, '0')}:00Z`;
      // Each run's first event moves it to a version its last one leaves: both end on the version
      // reading i and writing o, which neither event of the batch found stored.
      const raw = [
        runEvent({ runId: r1, job: 'twice', eventType: 'COMPLETE', eventTime: at(2), outputs: ['o'] }),
        runEvent({ runId: r2, job: 'twice', eventType: 'START', eventTime: at(3), inputs: ['i'] }),
        runEvent({ runId: r2, job: 'twice', eventType: 'COMPLETE', eventTime: at(4), outputs: ['o'] }),
        runEvent({ runId: r1, job: 'twice', eventType: 'START', eventTime: at(1), inputs: ['i'] }),
      ];
      const items = raw.map((e) => {
        const parsed = parseEvent(e);
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
        return { event: parsed.event, receivedAt: new Date().toISOString() };
      });
      // One transaction, as the committer writes a batch.
      await t().db.write({ op: 'ingest x4', timeoutMs: 60_000 }, (tx) => writeEvents(tx, items));
      expect(await executed(r1)).to.equal(await executed(r2));
      expect(
        await value(t().db, 'MATCH (:JobVersion)-[l:VERSION_OF]->(:Job {name: $job}) RETURN count(l)', {
          job: 'twice',
        }),
      ).to.equal(1);
      const page = await t().get('/api/v1/namespaces/airflow/jobs/twice/versions');
      expect(page.body.totalCount).to.equal(1);
      expect(page.body.versions).to.have.length(1);
    });

    it('input order does not change the version', async () => {
      const [r1, r2] = [randomUUID(), randomUUID()];
      await postAll(completedRun({ runId: r1, inputs: ['a', 'b'], outputs: ['c'] }));
      await postAll(completedRun({ runId: r2, inputs: ['b', 'a'], outputs: ['c'] }));
      expect(await executed(r1)).to.equal(await executed(r2));
    });

    it(
      'a FAIL without known outputs gives a version with empty outputs, distinct from the ' + 'successful one',
      async () => {
        const ok = randomUUID();
        const failed = randomUUID();
        await postAll(completedRun({ runId: ok, inputs: ['a'], outputs: ['b'] }));
        await post(runEvent({ runId: failed, eventType: 'START', inputs: ['a'] }));
        await post(runEvent({ runId: failed, eventType: 'FAIL' }));
        expect(await executed(failed))
          .to.be.a('string')
          .and.not.equal(await executed(ok));
        const outs = await value(
          t().db,
          'MATCH (:Run {id: $id})-[:EXECUTED]->(v) RETURN COLLECT { MATCH (v)-[:HAS_OUTPUT]->(d) RETURN d.name }',
          { id: failed },
        );
        expect(outs).to.deep.equal([]);
      },
    );

    it('no version until the run is terminal; lineage edges accumulate and mark the latest I/O current', async () => {
      const r1 = randomUUID();
      await post(runEvent({ runId: r1, eventType: 'START', inputs: ['a'], outputs: ['b'] }));
      expect(await value(t().db, 'MATCH (v:JobVersion) RETURN count(v)')).to.equal(0);
      await post(runEvent({ runId: r1, eventType: 'COMPLETE' }));
      const job = (
        await rows(
          t().db,
          `MATCH (j:Job)-[:CURRENT_VERSION]->(v)
         RETURN j.currentVersion = v.id AS consistent,
                COLLECT { MATCH (d)-[:INPUT_TO]->(j) RETURN d.name } AS ins,
                COLLECT { MATCH (j)-[:PRODUCES]->(d) RETURN d.name } AS outs`,
        )
      )[0];
      expect(job).to.deep.equal({ consistent: true, ins: ['a'], outs: ['b'] });
      await postAll(completedRun({ inputs: ['a2'], outputs: ['b'] }));
      // The edge to `a` stays (nothing a run does not mention removes an edge), no longer current.
      const after = await rows(
        t().db,
        'MATCH (d)-[e:INPUT_TO]->(j:Job) RETURN d.name AS n, e.current AS current ORDER BY n',
      );
      expect(after).to.deep.equal([
        { n: 'a', current: false },
        { n: 'a2', current: true },
      ]);
      // The job itself answers its current version's I/O.
      const res = await t().get('/api/v1/namespaces/airflow/jobs/etl.load_orders');
      expect(res.body.inputs.map((i: { name: string }) => i.name)).to.deep.equal(['a2']);
    });

    it('lineage edges are made once per dataset and keep their identity across versions', async () => {
      // Each link as "<dataset> <relationship element id> <current>": a kept link keeps its id.
      const links = async () =>
        (
          await rows(
            t().db,
            `MATCH (j:Job)
           RETURN COLLECT { MATCH (d)-[e:INPUT_TO]->(j) RETURN d.name + ' ' + elementId(e) + ' ' + e.current
             ORDER BY d.name } AS ins,
                  COLLECT { MATCH (j)-[e:PRODUCES]->(d) RETURN d.name + ' ' + elementId(e) + ' ' + e.current
                    ORDER BY d.name } AS outs`,
          )
        )[0] as { ins: string[]; outs: string[] };
      const ids = (ls: string[]) => ls.map((l) => l.split(' ').slice(0, 2).join(' '));
      const current = (ls: string[]) => ls.filter((l) => l.endsWith(' true')).map((l) => l.split(' ')[0]);

      await postAll(completedRun({ inputs: ['a'], outputs: ['b'] }));
      const first = await links();
      await postAll(completedRun({ inputs: ['a', 'shared'], outputs: ['b'] }));
      const second = await links();
      expect(current(second.ins)).to.deep.equal(['a', 'shared']);
      expect(ids(second.ins)[0], 'the input both versions share is the same relationship').to.equal(ids(first.ins)[0]);
      expect(ids(second.outs)).to.deep.equal(ids(first.outs));

      // A FAIL that knew no outputs is a version without outputs, but it observed no output: the job
      // still produces b (its latest known output), and its latest inputs are the failed run's.
      const failed = randomUUID();
      await post(runEvent({ runId: failed, eventType: 'START', inputs: ['a'] }));
      await post(runEvent({ runId: failed, eventType: 'FAIL' }));
      const third = await links();
      expect(ids(third.ins)).to.deep.equal(ids(second.ins));
      expect(current(third.ins)).to.deep.equal(['a']);
      expect(ids(third.outs)).to.deep.equal(ids(first.outs));
      expect(current(third.outs)).to.deep.equal(['b']);

      await postAll(completedRun({ inputs: ['a', 'shared'], outputs: ['b'] }));
      const fourth = await links();
      expect(ids(fourth.ins)).to.deep.equal(ids(second.ins));
      expect(current(fourth.ins)).to.deep.equal(['a', 'shared']);
      expect(ids(fourth.outs)).to.deep.equal(ids(first.outs));
      expect(await value(t().db, 'MATCH (:Dataset)-[e:INPUT_TO|PRODUCES]-(:Job) RETURN count(e)')).to.equal(3);
    });

    it('a streaming job gets a version as soon as its I/O is known', async () => {
      const jobType = {
        jobType: { _producer: 'p', _schemaURL: 's', processingType: 'STREAMING', integration: 'FLINK', jobType: 'JOB' },
      };
      await post(runEvent({ eventType: 'START', jobFacets: jobType, inputs: ['topic'], outputs: ['sink'] }));
      expect(await value(t().db, "MATCH (j:Job {type: 'STREAM'})-[:CURRENT_VERSION]->(v) RETURN count(v)")).to.equal(1);
    });
  });

  describe('dataset versions', () => {
    it("a streaming run's output is current from its first report, whatever its state, in any order", async () => {
      const flink = '0190c000-0000-4000-8000-000000000001';
      const reader = '0190c000-0000-4000-8000-000000000002';
      const at = (m: number) => `2026-03-01T10:${String(m).padStart(2, '0')}:00.000Z`;
      const jobFacets = {
        jobType: { _producer: 'p', _schemaURL: 's', processingType: 'STREAMING', integration: 'FLINK', jobType: 'JOB' },
      };
      const stream = [
        runEvent({ runId: flink, job: 'flink', eventType: 'START', eventTime: at(0), jobFacets, inputs: ['clicks'] }),
        runEvent({ runId: flink, job: 'flink', eventType: 'RUNNING', eventTime: at(2), outputs: ['sink'] }),
        runEvent({ runId: flink, job: 'flink', eventType: 'RUNNING', eventTime: at(5), outputs: ['sink'] }),
        runEvent({ runId: flink, job: 'flink', eventType: 'ABORT', eventTime: at(10) }),
        ...completedRun({ runId: reader, job: 'report', eventTime: at(7), inputs: ['sink'], outputs: ['daily'] }),
      ];
      const state = async () =>
        rows(
          t().db,
          `MATCH (d:Dataset {name: 'sink'})-[:CURRENT_VERSION]->(cur)
           MATCH (:Run {id: $flink})-[:WROTE]->(w)-[:VERSION_OF]->(d)
           MATCH (:Run {id: $reader})-[:READ]->(seen)-[:VERSION_OF]->(d)
           RETURN cur.id = w.id AS currentIsFlinks, d.currentVersion = w.id AS pointer,
             toString(d.lastModifiedAt) AS lastModifiedAt, seen.id = w.id AS readerSawIt`,
          { flink, reader },
        );
      await postAll(stream);
      const firstReport = at(2).replace('.000', '');
      const expected = [{ currentIsFlinks: true, pointer: true, lastModifiedAt: firstReport, readerSawIt: true }];
      expect(await state()).to.deep.equal(expected);
      const mixed = [stream[2], stream[1], stream[4], stream[3], stream[0], stream[5]];
      for (const events of [[...stream].reverse(), mixed]) {
        await t().db.write({ op: 'test' }, (tx) => tx.run('MATCH (n) DETACH DELETE n'));
        await postAll([...events, events[0]]);
        expect(await state()).to.deep.equal(expected);
      }
    });

    it('each run that writes a dataset creates a version; the current one moves on completion', async () => {
      const w1 = randomUUID();
      await postAll(completedRun({ runId: w1, job: 'writer', outputs: [{ name: 'orders', fields: [['id', 'INT']] }] }));
      const v1 = await value(t().db, "MATCH (d:Dataset {name: 'orders'}) RETURN d.currentVersion");
      const w2 = randomUUID();
      await post(runEvent({ runId: w2, job: 'writer', eventType: 'START', outputs: ['orders'] }));
      expect(
        await value(t().db, "MATCH (d:Dataset {name: 'orders'}) RETURN d.currentVersion"),
        'moves only on COMPLETE',
      ).to.equal(v1);
      await post(runEvent({ runId: w2, job: 'writer', eventType: 'COMPLETE', outputs: ['orders'] }));
      const v2 = await value(t().db, "MATCH (d:Dataset {name: 'orders'}) RETURN d.currentVersion");
      expect(v2).not.to.equal(v1);
      expect(await value(t().db, "MATCH (v)-[:VERSION_OF]->(:Dataset {name: 'orders'}) RETURN count(v)")).to.equal(2);
    });

    it(
      'successive consumer runs read different versions; a run can read one version and write another of the same ' +
        'dataset',
      async () => {
        await postAll(completedRun({ job: 'writer', outputs: ['orders'] }));
        const c1 = randomUUID();
        await postAll(completedRun({ runId: c1, job: 'consumer', inputs: ['orders'], outputs: ['report'] }));
        await postAll(completedRun({ job: 'writer', outputs: ['orders'] }));
        const c2 = randomUUID();
        await postAll(completedRun({ runId: c2, job: 'consumer', inputs: ['orders'], outputs: ['report'] }));
        const read = (id: string) =>
          value(t().db, "MATCH (:Run {id: $id})-[:READ]->(v)-[:VERSION_OF]->(:Dataset {name: 'orders'}) RETURN v.id", {
            id,
          });
        expect(await read(c1)).not.to.equal(await read(c2));

        const rw = randomUUID();
        await postAll(completedRun({ runId: rw, job: 'dedupe', inputs: ['orders'], outputs: ['orders'] }));
        const r = (
          await rows(
            t().db,
            `MATCH (r:Run {id: $id})-[:READ]->(i:DatasetVersion)-[:VERSION_OF]->(d:Dataset {name: 'orders'})
              , (r)-[:WROTE]->(o:DatasetVersion)-[:VERSION_OF]->(d)
         RETURN i.id AS readVersion, o.id AS wroteVersion, d.currentVersion AS current`,
            { id: rw },
          )
        )[0];
        expect(r.readVersion).not.to.equal(r.wroteVersion);
        expect(r.current).to.equal(r.wroteVersion);
      },
    );

    it('a dataset read before anything wrote it gets a first version', async () => {
      await postAll(completedRun({ inputs: ['external.feed'], outputs: ['x'] }));
      const r = await rows(
        t().db,
        "MATCH (d:Dataset {name: 'external.feed'})-[:CURRENT_VERSION]->(v)<-[:READ]-(:Run) RETURN v.id AS id",
      );
      expect(r).to.have.length(1);
    });

    it('that first version shows the schema its reader reported, not a later writer’s', async () => {
      await postAll(
        completedRun({ job: 'reader', inputs: [{ name: 'feed', fields: [['id', 'INT']] }], outputs: ['x'] }),
      );
      await postAll(
        completedRun({
          job: 'writer',
          outputs: [
            {
              name: 'feed',
              fields: [
                ['id', 'INT'],
                ['note', 'TEXT'],
              ],
            },
          ],
        }),
      );
      const res = await t().get(
        `/api/v1/namespaces/${encodeURIComponent('postgres://db.example.com:5432')}/datasets/feed/versions`,
      );
      expect(res.body.versions.map((v: { fields: { name: string }[] }) => v.fields.map((f) => f.name))).to.deep.equal([
        ['id', 'note'],
        ['id'],
      ]);
    });

    it('output facets attach to the version the run created; input facets to the version read', async () => {
      const w = randomUUID();
      await postAll(
        completedRun({
          runId: w,
          job: 'writer',
          outputs: [
            {
              name: 'orders',
              fields: [
                ['id', 'INT'],
                ['amount', 'DECIMAL'],
              ],
            },
          ],
        }),
      );
      const stats = { inputStatistics: { _producer: 'p', _schemaURL: 's', rowCount: 42 } };
      const c = randomUUID();
      await post(
        runEvent({ runId: c, job: 'consumer', eventType: 'START', inputs: [{ name: 'orders', inputFacets: stats }] }),
      );
      await postAll(completedRun({ job: 'writer', outputs: [{ name: 'orders', fields: [['id', 'INT']] }] }));
      const written = await rows(
        t().db,
        `MATCH (:Run {id: $w})-[:WROTE]->(v) RETURN v.\`facet.schema\` AS schema, v.fields AS fields`,
        { w },
      );
      expect(JSON.parse(written[0].schema)).to.deep.equal(
        schemaFacet([
          ['id', 'INT'],
          ['amount', 'DECIMAL'],
        ]),
      );
      expect(JSON.parse(written[0].fields).map((f: { name: string }) => f.name)).to.deep.equal(['id', 'amount']);
      // Input facets stay with the run's READ, and show on the version read.
      const read = await rows(
        t().db,
        'MATCH (:Run {id: $c})-[rd:READ]->(v) RETURN rd.`facet.inputStatistics` AS s, v.runId AS writer, v.id AS ' +
          'version',
        { c },
      );
      expect(JSON.parse(read[0].s).rowCount).to.equal(42);
      expect(read[0].writer).to.equal(w);
      const version = await t().get(
        `/api/v1/namespaces/${encodeURIComponent('postgres://db.example.com:5432')}/datasets/orders` +
          `/versions/${read[0].version}`,
      );
      expect(version.body.facets.inputStatistics.rowCount).to.equal(42);
      expect(version.body.facets.schema.fields).to.have.length(2);
      expect(await value(t().db, "MATCH (d:Dataset {name: 'orders'}) RETURN d.fields")).to.equal(
        JSON.stringify([{ name: 'id', type: 'INT', description: null }]),
      );
    });
  });
});
