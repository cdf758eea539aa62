/**
 * The impact view's model (web/src/impact.ts) on real answers: the shop stream of the browser tests
 * ingested through POST /api/v1/lineage, GET /api/v1/impact from the real service, then the rows and
 * summary the page shows.
 */
import { expect } from 'chai';
import { useTestApp } from '../helper.js';
import { csvFileName, impactRows, impactSummary, jobHops } from '../../web/src/impact.js';
import type { BlastRadius } from '../../web/src/api/types.js';
import { DS_NS, JOB_NS, shopStream } from './stream.js';

const enc = encodeURIComponent;
const ds = (name: string) => `dataset:${DS_NS}:${name}`;
const job = (name: string) => `job:${JOB_NS}:${name}`;

describe('web impact model (GET /api/v1/impact answers)', () => {
  const t = useTestApp();

  beforeEach(async () => {
    for (const event of shopStream().events) expect((await t().post('/api/v1/lineage', event)).status).to.equal(201);
  });

  async function impact(nodeId: string, extra = ''): Promise<BlastRadius> {
    const res = await t().get(`/api/v1/impact?nodeId=${enc(nodeId)}&window=all${extra}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as BlastRadius;
  }

  it(
    'counts job hops from the distance as `depth` does: odd distances are jobs from a dataset (the next ones hop 0), ' +
      'even ones from a job, every hop for a column',
    () => {
      expect([1, 2, 3, 4, 5].map((d) => jobHops('DATASET', d))).to.deep.equal([0, 0, 1, 1, 2]);
      expect([1, 2, 3, 4, 5].map((d) => jobHops('JOB', d))).to.deep.equal([0, 1, 1, 2, 2]);
      expect([1, 2, 3].map((d) => jobHops('DATASET_FIELD', d))).to.deep.equal([1, 2, 3]);
    },
  );

  it(
    'lists a dataset’s blast radius nearest first with job hops, states and the node each was reached ' + 'from',
    async () => {
      const answer = await impact(ds('staging.orders'));
      const rows = impactRows(answer);
      expect(rows.map((r) => [r.id, r.kind, r.distance, r.jobHops, r.viaLabel, r.state])).to.deep.equal([
        [job('legacy.export'), 'job', 1, 0, 'staging.orders', 'COMPLETED'],
        [job('transform.daily_revenue'), 'job', 1, 0, 'staging.orders', 'COMPLETED'],
        [ds('legacy.orders_export'), 'dataset', 2, 0, 'legacy.export', null],
        [ds('mart.daily_revenue'), 'dataset', 2, 0, 'transform.daily_revenue', null],
        [job('report.revenue_dashboard'), 'job', 3, 1, 'mart.daily_revenue', 'RUNNING'],
        [ds('bi.revenue_dashboard'), 'dataset', 4, 1, 'report.revenue_dashboard', null],
      ]);
      // The namespace (with its colons) and the name come from the answer, not from splitting ids.
      expect(rows[3]).to.include({ namespace: DS_NS, name: 'mart.daily_revenue', label: 'mart.daily_revenue' });
      expect(rows[1].endedAt).to.be.a('string');
      expect(rows[4].endedAt, 'a running job has not ended').to.equal(null);
      expect(impactSummary(answer)).to.deep.equal({
        total: 6,
        jobs: 3,
        datasets: 3,
        columns: 0,
        failingJobs: 0,
        byHops: [
          [0, 4],
          [1, 2],
        ],
        shown: 6,
        truncated: false,
      });
    },
  );

  it('counts hops from a job start and the failing jobs downstream', async () => {
    const fromJob = await impact(job('ingest.orders'));
    expect(impactRows(fromJob).map((r) => [r.label, r.jobHops])).to.deep.equal([
      ['staging.orders', 0],
      ['legacy.export', 1],
      ['transform.daily_revenue', 1],
      ['legacy.orders_export', 1],
      ['mart.daily_revenue', 1],
      ['report.revenue_dashboard', 2],
      ['bi.revenue_dashboard', 2],
    ]);
    expect(impactSummary(fromJob).byHops).to.deep.equal([
      [0, 1],
      [1, 4],
      [2, 2],
    ]);
    const failing = impactSummary(await impact(ds('raw.customers')));
    // raw.customers → ingest.customers (FAILED) → staging.customers → transform → mart → report → bi
    expect(failing).to.include({ total: 6, jobs: 3, datasets: 3, failingJobs: 1 });
  });

  it('keeps the summary of everything reached when the service cuts the list at the limit', async () => {
    const answer = await impact(ds('staging.orders'), '&limit=3');
    expect(impactRows(answer).map((r) => r.label)).to.deep.equal([
      'legacy.export',
      'transform.daily_revenue',
      'legacy.orders_export',
    ]);
    expect(answer.total).to.equal(6);
    expect(impactSummary(answer)).to.deep.equal({
      total: 6,
      jobs: 3,
      datasets: 3,
      columns: 0,
      failingJobs: 0,
      byHops: [
        [0, 4],
        [1, 2],
      ],
      shown: 3,
      truncated: true,
    });
  });

  it('shows a column’s impact as dataset.field with the job that maps it', async () => {
    const answer = await impact(`datasetField:${DS_NS}:staging.orders:amount`);
    const rows = impactRows(answer);
    expect(rows.map((r) => [r.kind, r.label, r.jobHops, r.viaLabel, r.viaJob, r.state])).to.deep.equal([
      ['field', 'mart.daily_revenue.revenue', 1, 'staging.orders.amount', job('transform.daily_revenue'), 'COMPLETED'],
    ]);
    expect(impactSummary(answer)).to.include({ total: 1, columns: 1, jobs: 1, failingJobs: 0 });
  });

  it('names the CSV download after the start node, keeping letters of any script', () => {
    expect(csvFileName('warehouse.заказы')).to.equal('impact-warehouse.заказы.csv');
    expect(csvFileName('s3://bucket/raw events')).to.equal('impact-s3_bucket_raw_events.csv');
    expect(csvFileName('販売_2026')).to.equal('impact-販売_2026.csv');
  });
});
