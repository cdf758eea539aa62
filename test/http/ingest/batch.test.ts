import { expect } from 'chai';
import { build, useTestApp } from '../../helper.js';
import { generateKey, keyEntry, parseKeys } from '../../../src/auth/keys.js';
import { graphShape, value } from '../../support/graph.js';
import { completedRun, runEvent } from '../../support/events.js';

describe('POST /api/v1/lineage/batch', () => {
  const t = useTestApp();

  it('stores every valid event and reports a summary', async () => {
    const events = [
      ...completedRun({ inputs: ['a'], outputs: ['b'] }),
      ...completedRun({ job: 'other', inputs: ['b'], outputs: ['c'] }),
    ];
    const res = await t().post('/api/v1/lineage/batch', events);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      status: 'success',
      summary: { received: 4, successful: 4, failed: 0 },
      failed_events: [],
    });
    expect(await value(t().db, "MATCH (r:Run {state: 'COMPLETED'}) RETURN count(r)")).to.equal(2);
  });

  it("counts refused events in lineage_events_total: invalid ones and those outside the key's namespaces", async () => {
    const count = (metrics: string, labels: string) =>
      Number(new RegExp(`^lineage_events_total\\{${labels}\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    const invalid = 'kind="unknown",outcome="invalid"';
    const before = count((await t().get('/metrics')).text, invalid);
    const bad = { ...runEvent(), producer: undefined };
    expect(
      (await t().post('/api/v1/lineage/batch', [runEvent({ inputs: ['a'] }), bad, 'not an event'])).status,
    ).to.equal(200);
    expect(count((await t().get('/metrics')).text, invalid) - before).to.equal(2);

    const [writer, reader] = [generateKey(), generateKey()];
    const keys = parseKeys(
      [keyEntry('wh-writer', writer, ['write'], ['wh']), keyEntry('reader', reader, ['read'], null)].join('\n'),
      'test',
    );
    const a = await build({ auth: { mode: 'apikey', keys, metricsPublic: false } });
    try {
      const as = (key: string) => ({ authorization: `Bearer ${key}` });
      const outside = runEvent({ inputs: ['a'] });
      const batch = await a.post('/api/v1/lineage/batch', [outside, outside], as(writer));
      expect(batch.body.summary).to.deep.equal({ received: 2, successful: 0, failed: 2 });
      expect((await a.post('/api/v1/lineage', outside, as(writer))).status).to.equal(403);
      const metrics = (await a.request('GET', '/metrics', { headers: as(reader) })).text;
      expect(count(metrics, 'kind="run",outcome="forbidden"')).to.equal(3);
      expect(count(metrics, 'kind="run",outcome="stored"')).to.equal(0);
    } finally {
      await a.close();
    }
  });

  it('reports invalid events by index without failing the valid ones', async () => {
    const good = runEvent({ inputs: ['a'] });
    const bad = { ...runEvent(), producer: undefined };
    const res = await t().post('/api/v1/lineage/batch', [good, bad, 'not an event']);
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('partial_success');
    expect(res.body.summary).to.deep.equal({ received: 3, successful: 1, failed: 2 });
    expect(res.body.failed_events.map((f: { index: number }) => f.index)).to.deep.equal([1, 2]);
    expect(res.body.failed_events[0].retriable).to.equal(false);
    expect(res.body.failed_events[0].reason).to.include('producer');
    expect(await value(t().db, 'MATCH (r:Run) RETURN count(r)')).to.equal(1);
  });

  it('400 for a body that is not an array, writing nothing', async () => {
    const res = await t().post('/api/v1/lineage/batch', runEvent());
    expect(res.status).to.equal(400);
    expect(await graphShape(t().db)).to.deep.equal({ Namespace: 1 });
  });
});
