import { expect } from 'chai';
import { useTestApp } from '../../helper.js';
import { rows } from '../../support/graph.js';
import { runEvent } from '../../support/events.js';

/** INGEST_MAX_QUEUE: past it, events are refused at once with a retriable 503, and nothing of them is written. */
describe('ingest backpressure (bounded queue)', () => {
  const t = useTestApp({ ingest: { maxQueue: 2 } });

  const storedRunIds = async () =>
    new Set((await rows(t().db, 'MATCH (r:Run) RETURN r.id AS id')).map((r) => r.id as string));
  const runIdOf = (e: Record<string, unknown>) => (e.run as { runId: string }).runId;

  it(
    'answers 503 overloaded with Retry-After when the queue is full; the accepted events are all stored, the ' +
      'refused ones not at all',
    async () => {
      const events = Array.from({ length: 24 }, (_, i) =>
        runEvent({ job: `job_${i}`, inputs: [`in_${i}`], outputs: [`out_${i}`] }),
      );
      const responses = await Promise.all(events.map((e) => t().post('/api/v1/lineage', e)));

      const refused = responses.filter((r) => r.status === 503);
      expect(refused.length, 'some events refused').to.be.greaterThan(0);
      expect(responses.every((r) => r.status === 201 || r.status === 503)).to.equal(true);
      for (const r of refused) {
        expect(r.body).to.include({ code: 503, error: 'overloaded' });
        expect(r.body.message).to.match(/overloaded/);
        expect(r.headers.get('retry-after')).to.equal('1');
      }
      const stored = await storedRunIds();
      for (const [i, e] of events.entries())
        expect(stored.has(runIdOf(e)), `event ${i} (${responses[i].status})`).to.equal(responses[i].status === 201);

      // Retried once the queue has room, the refused events go in.
      for (const [i, e] of events.entries())
        if (responses[i].status === 503) expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
      expect((await storedRunIds()).size).to.equal(events.length);
    },
  );

  it('reports refused events of a batch as retriable failures, and stores the rest', async () => {
    const events = Array.from({ length: 10 }, (_, i) => runEvent({ job: `job_${i}`, outputs: [`out_${i}`] }));
    const res = await t().post('/api/v1/lineage/batch', events);
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('partial_success');
    expect(res.body.summary.received).to.equal(10);
    expect(res.body.summary.failed).to.be.greaterThan(0);
    expect(res.body.summary.successful + res.body.summary.failed).to.equal(10);
    for (const f of res.body.failed_events)
      expect(f)
        .to.include({ retriable: true })
        .and.to.have.property('reason')
        .that.matches(/overloaded/);
    const failedIndexes = new Set(res.body.failed_events.map((f: { index: number }) => f.index));
    const stored = await storedRunIds();
    for (const [i, e] of events.entries()) expect(stored.has(runIdOf(e)), `event ${i}`).to.equal(!failedIndexes.has(i));
  });

  it('exposes the queue and the refusals in /metrics', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => t().post('/api/v1/lineage', runEvent({ job: `job_${i}` }))));
    const metrics = (await t().get('/metrics')).text;
    expect(metrics).to.match(/^lineage_ingest_refused_events_total [1-9]\d*$/m);
    expect(metrics).to.match(/^lineage_ingest_queued_events 0$/m);
    expect(metrics).to.match(/^lineage_ingest_transactions_in_flight 0$/m);
  });
});
