import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { useTestApp } from '../../helper.js';
import { completedRun, DEFAULT_DATASET_NS, facet, runEvent } from '../../support/events.js';
import type { IntervalMetric, LineageMetric, SearchResult } from '../../../src/api/types.js';

const enc = encodeURIComponent;
const NS = enc(DEFAULT_DATASET_NS);

describe('read API: search, raw events, stats', () => {
  const t = useTestApp();
  const post = async (events: Record<string, unknown>[]) => {
    for (const e of events) expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
  };
  const get = async <T = any>(path: string, status = 200) => {
    const res = await t().get<T>(path);
    expect(res.status, `${path}: ${res.text}`).to.equal(status);
    return res.body;
  };
  /** START and COMPLETE of one run, both at `at`. */
  const finished = (spec: Parameters<typeof runEvent>[0], at: string) => {
    const runId = randomUUID();
    return [
      runEvent({ ...spec, runId, eventType: 'START', eventTime: at, outputs: [] }),
      runEvent({ ...spec, runId, eventType: 'COMPLETE', eventTime: at, inputs: [] }),
    ];
  };
  const names = (body: { results: SearchResult[] }) => body.results.map((r) => `${r.type}:${r.name}`);

  describe('search', () => {
    beforeEach(async () => {
      await post(
        finished({ job: 'orders_loader', outputs: ['public.Orders', 'public.order_items'] }, '2024-03-01T10:00:00Z'),
      );
      await post(
        finished(
          { job: 'customers.sync', inputs: ['public.Orders'], outputs: ['public.customers'] },
          '2024-03-05T10:00:00Z',
        ),
      );
    });

    it('finds datasets and jobs by case-insensitive substring, sorted by name, with the real total', async () => {
      const all = await get('/api/v1/search?q=ORDER');
      expect(names(all)).to.deep.equal(['JOB:orders_loader', 'DATASET:public.Orders', 'DATASET:public.order_items']);
      expect(all.totalCount).to.equal(3);
      const r = all.results.find((x: SearchResult) => x.name === 'public.Orders');
      expect(r).to.deep.include({
        type: 'DATASET',
        namespace: DEFAULT_DATASET_NS,
        nodeId: `dataset:${DEFAULT_DATASET_NS}:public.Orders`,
      });
      expect(r.updatedAt).to.match(/Z$/);
      expect(all.results[0].nodeId).to.equal('job:airflow:orders_loader');
      const limited = await get('/api/v1/search?q=order&limit=1');
      expect(limited.results).to.have.length(1);
      expect(limited.totalCount).to.equal(3);
      expect(names(await get('/api/v1/search?q=order&limit=2&offset=1'))).to.deep.equal([
        'DATASET:public.Orders',
        'DATASET:public.order_items',
      ]);
    });

    it('sort=relevance puts names equal to q first, then names starting with it, each group by name', async () => {
      await post(finished({ job: 'order', outputs: ['order', 'xorder'] }, '2024-03-06T10:00:00Z'));
      expect(names(await get('/api/v1/search?q=ORDER&sort=relevance'))).to.deep.equal([
        'JOB:order', // equal names: by namespace (airflow before postgres://...)
        'DATASET:order',
        'JOB:orders_loader',
        'DATASET:public.Orders',
        'DATASET:public.order_items',
        'DATASET:xorder',
      ]);
      expect((await get('/api/v1/search?q=order&sort=relevance&limit=2')).totalCount).to.equal(6);
    });

    it('filters by type and namespace, sorts by updated_at, and windows by before/after dates', async () => {
      expect(names(await get('/api/v1/search?q=order&filter=dataset'))).to.deep.equal([
        'DATASET:public.Orders',
        'DATASET:public.order_items',
      ]);
      expect(names(await get('/api/v1/search?q=order&filter=JOB'))).to.deep.equal(['JOB:orders_loader']);
      expect(names(await get('/api/v1/search?q=s&namespace=airflow'))).to.deep.equal([
        'JOB:customers.sync',
        'JOB:orders_loader',
      ]);
      // public.Orders is also read by the later run, so it was updated last among the "order" matches.
      const byTime = await get('/api/v1/search?q=o&sort=updated_at');
      const times = byTime.results.map((x: SearchResult) => x.updatedAt);
      expect(times).to.deep.equal([...times].sort().reverse());
      expect(byTime.results[0].updatedAt >= '2024-03-05').to.equal(true);
      expect(names(await get('/api/v1/search?q=order&sort=updated_at'))).to.deep.equal([
        'DATASET:public.Orders',
        'JOB:orders_loader',
        'DATASET:public.order_items',
      ]);
      expect(names(await get('/api/v1/search?q=o&before=2024-03-02'))).to.deep.equal([
        'JOB:orders_loader',
        'DATASET:public.order_items',
      ]);
      expect(names(await get('/api/v1/search?q=o&after=2024-03-05&filter=job'))).to.deep.equal(['JOB:customers.sync']);
      expect((await get('/api/v1/search?q=o&after=2024-03-06')).totalCount).to.equal(0);
    });

    it('leaves out soft-deleted datasets and jobs, and finds a primary dataset by its alias name', async () => {
      expect((await t().request('DELETE', `/api/v1/namespaces/${NS}/datasets/public.order_items`)).status).to.equal(
        200,
      );
      expect((await t().request('DELETE', '/api/v1/namespaces/airflow/jobs/orders_loader')).status).to.equal(200);
      expect(names(await get('/api/v1/search?q=order'))).to.deep.equal(['DATASET:public.Orders']);
      const symlinks = facet({
        identifiers: [{ namespace: 'hive://metastore:9083', name: 'warehouse.zebra_orders', type: 'TABLE' }],
      });
      await post(completedRun({ job: 'z', outputs: [{ name: 'public.customers', facets: { symlinks } }] }));
      const zebra = await get('/api/v1/search?q=zebra');
      expect(names(zebra)).to.deep.equal(['DATASET:public.customers']);
      expect(zebra.totalCount).to.equal(1);
    });

    it('lists, totals and search stay right when many datasets and jobs are hidden', async () => {
      const many = Array.from({ length: 103 }, (_, i) =>
        runEvent({
          job: `j${i}`,
          jobNamespace: 'many',
          eventType: 'COMPLETE',
          outputs: [{ namespace: 'many-ds', name: `t${i}` }],
        }),
      );
      const batch = await t().post('/api/v1/lineage/batch', many);
      expect(batch.body.summary.successful, batch.text).to.equal(103);
      expect((await t().request('DELETE', '/api/v1/namespaces/many')).status).to.equal(200);
      expect((await t().request('DELETE', '/api/v1/namespaces/many-ds')).status).to.equal(200);
      for (const i of [1, 2])
        await post(
          finished(
            { job: `j${i}`, jobNamespace: 'many', outputs: [{ namespace: 'many-ds', name: `t${i}` }] },
            '2024-03-10T00:00:00Z',
          ),
        );
      expect(await get('/api/v1/namespaces/many-ds/datasets')).to.deep.include({ totalCount: 2 });
      expect(
        (await get('/api/v1/namespaces/many-ds/datasets?offset=1')).datasets.map((d: { name: string }) => d.name),
      ).to.deep.equal(['t2']);
      const jobs = await get('/api/v1/namespaces/many/jobs');
      expect([jobs.totalCount, jobs.jobs.map((j: { name: string }) => j.name)]).to.deep.equal([2, ['j1', 'j2']]);
      const all = await get('/api/v1/jobs?limit=1&offset=2'); // after airflow's two jobs
      expect([all.totalCount, all.jobs.map((j: { name: string }) => j.name)]).to.deep.equal([4, ['j1']]);
      const found = await get('/api/v1/search?q=t&namespace=many-ds');
      expect([found.totalCount, names(found)]).to.deep.equal([2, ['DATASET:t1', 'DATASET:t2']]);
      expect((await get('/api/v1/search?q=j')).totalCount).to.equal(2);
    });

    it('400 for a missing q, bad filter, sort, dates or limit', async () => {
      await get('/api/v1/search', 400);
      await get('/api/v1/search?q=', 400);
      await get('/api/v1/search?q=a&filter=table', 400);
      await get('/api/v1/search?q=a&sort=size', 400);
      await get('/api/v1/search?q=a&before=yesterday', 400);
      await get('/api/v1/search?q=a&after=2024-02-30', 400);
      await get('/api/v1/search?q=a&limit=1001', 400);
      await get('/api/v1/search?q=a&limit=abc', 400);
      expect((await get('/api/v1/search?q=%25')).totalCount).to.equal(0);
      expect((await get('/api/v1/search?q=a&sort=UPDATE_AT')).totalCount).to.be.greaterThan(0);
    });
  });

  describe('raw events', () => {
    it('lists the stored events as received, newest first by default, with windows and paging', async () => {
      const runId = randomUUID();
      const sent = [
        runEvent({ runId, eventType: 'START', eventTime: '2024-05-01T10:00:00Z', inputs: ['a'] }),
        runEvent({ runId, eventType: 'RUNNING', eventTime: '2024-05-01T11:00:00+02:00' }),
        runEvent({ runId, eventType: 'COMPLETE', eventTime: '2024-05-01T12:00:00Z', outputs: ['b'] }),
      ];
      (sent[0] as Record<string, unknown>).customTopLevel = { kept: true };
      await post(sent);
      const desc = await get('/api/v1/events/lineage');
      expect(desc.totalCount).to.equal(3);
      expect(desc.events.map((e: { eventType: string }) => e.eventType)).to.deep.equal([
        'COMPLETE',
        'START',
        'RUNNING',
      ]);
      expect(desc.events[1]).to.deep.equal(sent[0]);
      const asc = await get('/api/v1/events/lineage?sortDirection=asc&limit=2');
      expect(asc.events.map((e: { eventType: string }) => e.eventType)).to.deep.equal(['RUNNING', 'START']);
      expect(asc.totalCount).to.equal(3);
      const window = await get(
        `/api/v1/events/lineage?after=${enc('2024-05-01T08:30:00Z')}&before=${enc('2024-05-01T11:00:00Z')}`,
      );
      expect(window.events.map((e: { eventType: string }) => e.eventType)).to.deep.equal(['START', 'RUNNING']);
      expect(window.totalCount).to.equal(2);
      // `before` is exclusive (Marquez's window): an event at that instant belongs to the next window.
      const day = await get('/api/v1/events/lineage?after=2024-05-01&before=2024-05-01T10:00:00');
      expect(day.events.map((e: { eventType: string }) => e.eventType)).to.deep.equal(['RUNNING']);
      const next = await get('/api/v1/events/lineage?after=2024-05-01T10:00:00Z&before=2024-05-02');
      expect(next.events.map((e: { eventType: string }) => e.eventType)).to.deep.equal(['COMPLETE', 'START']);
      expect((await get('/api/v1/events/lineage?offset=3')).events).to.deep.equal([]);
    });

    it('lists events from any year by default, before 1970 and in years 0-99 included', async () => {
      await post([
        runEvent({ job: 'moon', eventType: 'COMPLETE', eventTime: '1969-07-20T20:17:40Z' }),
        runEvent({ job: 'ancient', eventType: 'COMPLETE', eventTime: '0050-03-01T00:00:00Z' }),
        runEvent({ job: 'recent', eventType: 'COMPLETE', eventTime: '2024-05-01T10:00:00Z' }),
      ]);
      const all = await get('/api/v1/events/lineage?sortDirection=asc');
      expect(all.totalCount).to.equal(3);
      expect(all.events.map((e: { job: { name: string } }) => e.job.name)).to.deep.equal(['ancient', 'moon', 'recent']);
      // A bare date in year 50 is that year, not 1950.
      const early = await get('/api/v1/events/lineage?before=0051-01-01');
      expect(early.events.map((e: { job: { name: string } }) => e.job.name)).to.deep.equal(['ancient']);
    });

    it('400 for bad dates, directions and limits', async () => {
      await get('/api/v1/events/lineage?before=tomorrow', 400);
      await get('/api/v1/events/lineage?after=2024-13-01', 400);
      await get('/api/v1/events/lineage?sortDirection=up', 400);
      await get('/api/v1/events/lineage?limit=-1', 400);
    });
  });

  describe('stats', () => {
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

    it('counts lineage events by type in hourly (DAY) and daily (WEEK) buckets', async () => {
      const runId = randomUUID();
      await post([
        runEvent({ runId, eventType: 'START', eventTime: hoursAgo(2) }),
        runEvent({ runId, eventType: 'COMPLETE', eventTime: hoursAgo(1.5) }),
        runEvent({ job: 'other', eventType: 'FAIL', eventTime: hoursAgo(72) }),
        runEvent({ job: 'old', eventType: 'ABORT', eventTime: hoursAgo(24 * 30) }),
      ]);
      const day = await get<LineageMetric[]>('/api/v1/stats/lineage-events?period=DAY');
      expect(day).to.have.length(24);
      for (const b of day) expect(Date.parse(b.endInterval) - Date.parse(b.startInterval)).to.equal(3_600_000);
      expect(Date.parse(day[23].endInterval)).to.be.greaterThan(Date.now());
      expect(day[23].startInterval).to.match(/T\d{2}:00:00\.000Z$/);
      const sum = (bs: LineageMetric[], k: keyof LineageMetric) => bs.reduce((a, b) => a + (b[k] as number), 0);
      expect([sum(day, 'start'), sum(day, 'complete'), sum(day, 'fail'), sum(day, 'abort')]).to.deep.equal([
        1, 1, 0, 0,
      ]);
      expect(day[0]).to.have.keys(
        'startInterval',
        'endInterval',
        'start',
        'running',
        'complete',
        'fail',
        'abort',
        'other',
      );

      const week = await get<LineageMetric[]>('/api/v1/stats/lineage-events?period=WEEK&timezone=Asia/Kolkata');
      expect(week).to.have.length(7);
      // Days begin at midnight in the given zone (UTC+05:30).
      for (const b of week) expect(b.startInterval).to.match(/T18:30:00\.000Z$/);
      expect([sum(week, 'start'), sum(week, 'complete'), sum(week, 'fail'), sum(week, 'abort')]).to.deep.equal([
        1, 1, 1, 0,
      ]);
    });

    it('cumulative jobs, datasets and sources per bucket', async () => {
      await post(
        finished(
          {
            job: 'a',
            outputs: [{ name: 'old', facets: { dataSource: facet({ name: 'pg', uri: 'postgres://db:5432' }) } }],
          },
          hoursAgo(24 * 10),
        ),
      );
      await post(finished({ job: 'b', outputs: ['new1', 'new2'] }, hoursAgo(3)));
      const jobs = await get<IntervalMetric[]>('/api/v1/stats/jobs?period=DAY');
      expect(jobs).to.have.length(24);
      expect(jobs[0].count).to.equal(1);
      expect(jobs[23].count).to.equal(2);
      const datasets = await get<IntervalMetric[]>('/api/v1/stats/datasets?period=WEEK&timezone=Europe/Paris');
      expect(datasets).to.have.length(7);
      expect(datasets[0].count).to.equal(1);
      expect(datasets[6].count).to.equal(3);
      expect(datasets[6]).to.have.keys('startInterval', 'endInterval', 'count');
      const sources = await get<IntervalMetric[]>('/api/v1/stats/sources');
      expect(sources.map((s) => s.count)).to.deep.equal(Array(24).fill(1));
    });

    it("an event or a job exactly at a bucket's start counts from that bucket, in any zone", async () => {
      // The start of the hour before this one, as stored times are written: UTC, 'Z'.
      const start = new Date(Date.now() - 3_600_000);
      start.setUTCMinutes(0, 0, 0);
      const at = start.toISOString();
      await post([runEvent({ job: 'on_the_hour', eventType: 'ABORT', eventTime: at })]);
      for (const timezone of ['UTC', 'Europe/Paris']) {
        const day = await get<LineageMetric[]>(`/api/v1/stats/lineage-events?period=DAY&timezone=${timezone}`);
        const i = day.findIndex((b) => b.startInterval === at);
        expect(i, `a bucket starts at ${at}`).to.be.greaterThan(0);
        expect([day[i - 1].abort, day[i].abort], timezone).to.deep.equal([0, 1]);
        const jobs = await get<IntervalMetric[]>(`/api/v1/stats/jobs?period=DAY&timezone=${timezone}`);
        expect([jobs[i - 1].count, jobs[i].count], timezone).to.deep.equal([0, 1]);
      }
    });

    it('400 for a bad period or time zone', async () => {
      await get('/api/v1/stats/lineage-events?period=MONTH', 400);
      await get('/api/v1/stats/jobs?period=WEEK&timezone=Mars/Olympus', 400);
      await get('/api/v1/stats/datasets?timezone=%2B99:00', 400);
    });
  });
});
