import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { rows, value } from '../../support/graph.js';
import { runEvent } from '../../support/events.js';

const RUN = '01909a1c-1111-7000-8000-00000000abcd';

describe('ingest: runs and their state', () => {
  const t = useTestApp();
  const post = async (e: Record<string, unknown>) =>
    expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  const run = async () =>
    (
      await rows(
        t().db,
        `MATCH (r:Run {id: $id}) RETURN r.state AS state,
          toString(r.startedAt) AS startedAt, toString(r.endedAt) AS endedAt,
           COLLECT { MATCH (r)-[:READ]->(v)-[:VERSION_OF]->(d) RETURN d.name ORDER BY d.name } AS inputs,
           COLLECT { MATCH (r)-[:WROTE]->(v)-[:VERSION_OF]->(d) RETURN d.name ORDER BY d.name } AS outputs,
           COLLECT { MATCH (r)-[:EXECUTED]->(v) RETURN v.id } AS versions`,
        { id: RUN },
      )
    )[0];

  it('START → RUNNING, COMPLETE → COMPLETED, with times from eventTime', async () => {
    await post(runEvent({ runId: RUN, eventType: 'START', eventTime: '2024-06-01T10:00:00Z', inputs: ['in'] }));
    expect((await run()).state).to.equal('RUNNING');
    await post(
      runEvent({ runId: RUN, eventType: 'COMPLETE', eventTime: '2024-06-01T10:05:00.250+02:00', outputs: ['out'] }),
    );
    const r = await run();
    expect(r.state).to.equal('COMPLETED');
    expect(new Date(r.startedAt).toISOString()).to.equal('2024-06-01T10:00:00.000Z');
    expect(new Date(r.endedAt).toISOString()).to.equal('2024-06-01T08:05:00.250Z');
  });

  for (const [eventType, state] of [
    ['FAIL', 'FAILED'],
    ['ABORT', 'ABORTED'],
    ['RUNNING', 'RUNNING'],
  ] as const) {
    it(`${eventType} → ${state}`, async () => {
      await post(runEvent({ runId: RUN, eventType: 'START', eventTime: '2024-06-01T10:00:00Z' }));
      await post(runEvent({ runId: RUN, eventType, eventTime: '2024-06-01T10:01:00Z' }));
      expect((await run()).state).to.equal(state);
    });
  }

  it('accumulates inputs and outputs over the events of a run; COMPLETE need not repeat inputs', async () => {
    await post(runEvent({ runId: RUN, eventType: 'START', inputs: ['a', 'b'] }));
    await post(runEvent({ runId: RUN, eventType: 'RUNNING', inputs: ['c'], outputs: ['x'] }));
    await post(runEvent({ runId: RUN, eventType: 'COMPLETE', outputs: ['y'] }));
    const r = await run();
    expect(r.inputs).to.deep.equal(['a', 'b', 'c']);
    expect(r.outputs).to.deep.equal(['x', 'y']);
    const v = await rows(
      t().db,
      `MATCH (:Run {id: $id})-[:EXECUTED]->(v:JobVersion)
       RETURN COLLECT { MATCH (v)-[:HAS_INPUT]->(d) RETURN d.name ORDER BY d.name } AS ins,
              COLLECT { MATCH (v)-[:HAS_OUTPUT]->(d) RETURN d.name ORDER BY d.name } AS outs`,
      { id: RUN },
    );
    expect(v).to.deep.equal([{ ins: ['a', 'b', 'c'], outs: ['x', 'y'] }]);
  });

  it('a late START never reopens a finished run', async () => {
    await post(runEvent({ runId: RUN, eventType: 'START', eventTime: '2024-06-01T10:00:00Z' }));
    await post(runEvent({ runId: RUN, eventType: 'COMPLETE', eventTime: '2024-06-01T10:05:00Z' }));
    await post(runEvent({ runId: RUN, eventType: 'START', eventTime: '2024-06-01T10:06:00Z' }));
    await post(runEvent({ runId: RUN, eventType: 'RUNNING', eventTime: '2024-06-01T10:07:00Z' }));
    const r = await run();
    expect(r.state).to.equal('COMPLETED');
    expect(new Date(r.startedAt).toISOString()).to.equal('2024-06-01T10:00:00.000Z');
  });

  it('COMPLETE before START ends exactly as in-order delivery', async () => {
    const events = [
      runEvent({ runId: RUN, eventType: 'START', eventTime: '2024-06-01T10:00:00Z', inputs: ['in'] }),
      runEvent({ runId: RUN, eventType: 'COMPLETE', eventTime: '2024-06-01T10:05:00Z', outputs: ['out'] }),
    ];
    for (const e of [...events].reverse()) await post(e);
    const reversed = await run();
    await t().app.services.db.write({ op: 'test' }, (tx) => tx.run('MATCH (n) DETACH DELETE n'));
    for (const e of events) await post(e);
    const inOrder = await run();
    expect(reversed).to.deep.equal(inOrder);
    expect(inOrder.state).to.equal('COMPLETED');
  });

  it('the earliest terminal event decides the final state, whatever the arrival order', async () => {
    await post(runEvent({ runId: RUN, eventType: 'COMPLETE', eventTime: '2024-06-01T10:09:00Z' }));
    await post(runEvent({ runId: RUN, eventType: 'FAIL', eventTime: '2024-06-01T10:05:00Z' }));
    expect((await run()).state).to.equal('FAILED');
  });

  it('maps a non-UUID run id to a stable UUID and keeps the original', async () => {
    await post(runEvent({ runId: 'scheduled__2024-06-01T00:00:00+00:00', eventType: 'START' }));
    await post(runEvent({ runId: 'scheduled__2024-06-01T00:00:00+00:00', eventType: 'COMPLETE' }));
    const r = await rows(t().db, 'MATCH (r:Run) RETURN r.id AS id, r.externalId AS ext, r.state AS state');
    expect(r).to.have.length(1);
    expect(r[0].id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r[0]).to.include({ ext: 'scheduled__2024-06-01T00:00:00+00:00', state: 'COMPLETED' });
  });

  it('OTHER before START creates the run without moving it past NEW', async () => {
    await post(runEvent({ runId: RUN, eventType: 'OTHER' }));
    expect((await run()).state).to.equal('NEW');
    await post(runEvent({ runId: RUN, eventType: 'START' }));
    expect((await run()).state).to.equal('RUNNING');
  });

  it('parent run facet creates and links the parent job and run', async () => {
    const parentRunId = '01909a1c-2222-7000-8000-000000000001';
    const parent = {
      _producer: 'p',
      _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json',
      run: { runId: parentRunId },
      job: { namespace: 'airflow', name: 'etl' },
    };
    await post(runEvent({ runId: RUN, job: 'etl.load_orders', runFacets: { parent } }));
    const r = await rows(
      t().db,
      `MATCH (r:Run {id: $id})-[:CHILD_OF]->(p:Run)-[:RUN_OF]->(pj:Job), (r)-[:RUN_OF]->(j:Job)-[:CHILD_OF]->(pj)
       RETURN p.id AS parentRun, pj.name AS parentJob, j.parentJobName AS parentJobName`,
      { id: RUN },
    );
    expect(r).to.deep.equal([{ parentRun: parentRunId, parentJob: 'etl', parentJobName: 'etl' }]);
  });

  it('tracks the job latest run by start time, whatever the arrival order', async () => {
    await post(
      runEvent({
        runId: '01909a1c-0000-7000-8000-000000000002',
        eventType: 'START',
        eventTime: '2024-06-02T00:00:00Z',
      }),
    );
    await post(
      runEvent({
        runId: '01909a1c-0000-7000-8000-000000000001',
        eventType: 'START',
        eventTime: '2024-06-01T00:00:00Z',
      }),
    );
    const latest = await rows(t().db, 'MATCH (j:Job)-[:LATEST_RUN]->(r) RETURN r.id AS id');
    expect(latest).to.deep.equal([{ id: '01909a1c-0000-7000-8000-000000000002' }]);
    expect(await value(t().db, 'MATCH (j:Job)<-[:RUN_OF]-(r) RETURN count(r)')).to.equal(2);
  });
});
