import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp, type TestApp } from '../helper.js';
import { runEvent, completedRun } from '../support/events.js';
import { EDGE_HISTORY_MIGRATION, migrateEdgeHistory } from '../../src/store/migrations.js';
import { ds, e, expectGraph, job, lineagePath as p } from '../http/lineage/support.js';

async function post(t: TestApp, events: Record<string, unknown>[]) {
  for (const event of events) {
    const res = await t.post('/api/v1/lineage', event);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  }
}

async function edgeRows(t: TestApp) {
  const res = await t.db.read({ op: 'test' }, (tx) =>
    tx.run(`MATCH (a)-[e:INPUT_TO|PRODUCES]->(b)
            RETURN a.name + ' ' + type(e) + ' ' + b.name AS edge, toString(e.firstSeenAt) AS first, toString(e.lastSeenAt) AS last,
                   e.lastRunId AS run, e.lastRunState AS state, e.current AS current,
                   [x IN e.seenFrom | toString(x)] AS seenFrom, [x IN e.seenTo | toString(x)] AS seenTo, [x IN e.heldUntil | toString(x)] AS heldUntil
            ORDER BY edge`),
  );
  return res.records.map((r) => r.toObject());
}

/** Puts the graph back in the shape the previous version wrote: edges of current versions only, without history. */
async function downgrade(t: TestApp) {
  await t.db.write({ op: 'test' }, async (tx) => {
    await tx.run('MATCH ()-[e:INPUT_TO|PRODUCES]->() DELETE e');
    await tx.run('MATCH (j:Job)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_INPUT]->(d:Dataset) CREATE (d)-[:INPUT_TO]->(j)');
    await tx.run('MATCH (j:Job)-[:CURRENT_VERSION]->(:JobVersion)-[:HAS_OUTPUT]->(d:Dataset) CREATE (j)-[:PRODUCES]->(d)');
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
    await post(t(), [runEvent({ job: 'producer', runId: failed, eventType: 'START', inputs: ['staging'] }), runEvent({ job: 'producer', runId: failed, eventType: 'FAIL' })]);
    await post(t(), completedRun({ job: 'partitioner', inputs: ['orders'], outputs: ['part1'] }));
    await post(t(), completedRun({ job: 'partitioner', inputs: ['orders'], outputs: ['part2'] }));
    const jobEvent = { ...runEvent({ job: 'declared', inputs: ['part2'], outputs: ['mart'] }), eventType: undefined };
    delete (jobEvent as Record<string, unknown>).run;
    await post(t(), [jobEvent]);
    const written = await edgeRows(t());
    expect(written.map((r) => r.edge)).to.include.members(['orders PRODUCES part1'.replace('orders', 'partitioner'), 'part2 INPUT_TO declared']);

    await downgrade(t());
    // The old model lost the failed producer's output edge and the first partition's.
    expect((await edgeRows(t())).map((r) => r.edge)).to.not.include('producer PRODUCES orders');
    expect(await migrateEdgeHistory(t().db)).to.equal(3);
    expect(await edgeRows(t())).to.deep.equal(written);
    expect(await migrateEdgeHistory(t().db), 'recorded: not run again').to.equal(0);
    const recorded = await t().db.read({ op: 'test' }, (tx) => tx.run('MATCH (m:Migration {name: $name}) RETURN count(m) AS n', { name: EDGE_HISTORY_MIGRATION }));
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
