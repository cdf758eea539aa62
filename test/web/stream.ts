/**
 * The known event stream the browser tests ingest (and scripts/ui-screenshot.ts draws for the
 * README): a small shop warehouse, times relative to `now` so the edges have every staleness.
 *
 * raw.orders ─ingest.orders─▶ staging.orders ─┬─transform.daily_revenue─▶ mart.daily_revenue
 * ─report.revenue_dashboard─▶ bi.revenue_dashboard
 *   raw.customers ─ingest.customers (FAILED)─▶ staging.customers ─┘
 *                                   staging.orders ─legacy.export (20 days ago)─▶ legacy.orders_export
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_DATASET_NS, facet, runEvent } from '../support/events.js';

export const JOB_NS = 'shop';
export const DS_NS = DEFAULT_DATASET_NS;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

export interface Stream {
  events: Record<string, unknown>[];
  runs: Record<
    'ingestOrders1' | 'ingestOrders2' | 'ingestCustomers' | 'transform' | 'report' | 'legacy' | 'dag',
    string
  >;
  /** Between legacy.export's and ingest.orders' first runs and the rest: the as-of test's time. */
  fourDaysAgo: string;
}

function columnLineage(fields: Record<string, { name: string; field: string; type?: string }[]>) {
  return facet(
    {
      fields: Object.fromEntries(
        Object.entries(fields).map(([out, inputs]) => [
          out,
          {
            inputFields: inputs.map((i) => ({
              namespace: DS_NS,
              name: i.name,
              field: i.field,
              transformations: i.type ? [{ type: 'DIRECT', subtype: i.type, description: '', masking: false }] : [],
            })),
          },
        ]),
      ),
    },
    'ColumnLineageDatasetFacet',
  );
}

export function shopStream(now = Date.now()): Stream {
  const at = (ms: number) => new Date(now - ms).toISOString();
  const runs = {
    ingestOrders1: randomUUID(),
    ingestOrders2: randomUUID(),
    ingestCustomers: randomUUID(),
    transform: randomUUID(),
    report: randomUUID(),
    legacy: randomUUID(),
    dag: randomUUID(),
  };
  const job = (name: string) => ({ job: name, jobNamespace: JOB_NS });
  const rawOrders = {
    name: 'raw.orders',
    fields: [
      ['id', 'BIGINT'],
      ['amount', 'DECIMAL'],
    ] as [string, string][],
  };
  const ordersV1 = {
    name: 'staging.orders',
    fields: [
      ['id', 'BIGINT'],
      ['amount', 'DECIMAL'],
    ] as [string, string][],
  };
  const ordersV2 = {
    name: 'staging.orders',
    fields: [
      ['id', 'BIGINT'],
      ['amount', 'DECIMAL'],
      ['discount', 'DECIMAL'],
    ] as [string, string][],
  };
  const customers = {
    name: 'staging.customers',
    fields: [
      ['id', 'BIGINT'],
      ['name', 'VARCHAR'],
    ] as [string, string][],
  };
  const revenue = {
    name: 'mart.daily_revenue',
    fields: [
      ['day', 'DATE'],
      ['revenue', 'DECIMAL'],
    ] as [string, string][],
    facets: {
      columnLineage: columnLineage({
        revenue: [
          { name: 'staging.orders', field: 'amount', type: 'AGGREGATION' },
          { name: 'staging.orders', field: 'discount', type: 'AGGREGATION' },
        ],
        day: [{ name: 'staging.orders', field: 'id', type: 'IDENTITY' }],
      }),
    },
  };
  const sql = facet(
    {
      query:
        'SELECT order_day AS day, sum(amount - discount) AS revenue FROM staging.orders JOIN staging.customers USING ' +
        '(id) GROUP BY 1',
    },
    'SQLJobFacet',
  );
  const location = facet(
    { type: 'git', url: 'https://git.example.com/shop/dags/blob/main/daily_revenue.sql' },
    'SourceCodeLocationJobFacet',
  );
  const errorMessage = facet(
    {
      message: 'relation "raw.customers" does not exist',
      programmingLanguage: 'PYTHON',
      stackTrace:
        'Traceback (most recent call last):\n  File "ingest.py", line 12, in load\npsycopg2.errors.UndefinedTable',
    },
    'ErrorMessageRunFacet',
  );
  const parent = facet({ run: { runId: runs.dag }, job: { namespace: JOB_NS, name: 'shop_dag' } }, 'ParentRunFacet');
  const events = [
    runEvent({
      ...job('legacy.export'),
      runId: runs.legacy,
      eventType: 'START',
      eventTime: at(20 * DAY),
      inputs: [ordersV1],
      outputs: ['legacy.orders_export'],
    }),
    runEvent({ ...job('legacy.export'), runId: runs.legacy, eventType: 'COMPLETE', eventTime: at(20 * DAY - 4 * MIN) }),
    runEvent({
      ...job('ingest.orders'),
      runId: runs.ingestOrders1,
      eventType: 'START',
      eventTime: at(5 * DAY),
      inputs: [rawOrders],
      outputs: [ordersV1],
    }),
    runEvent({
      ...job('ingest.orders'),
      runId: runs.ingestOrders1,
      eventType: 'COMPLETE',
      eventTime: at(5 * DAY - 10 * MIN),
      outputs: [ordersV1],
    }),
    runEvent({
      ...job('ingest.orders'),
      runId: runs.ingestOrders2,
      eventType: 'START',
      eventTime: at(2 * HOUR),
      inputs: [rawOrders],
      outputs: [ordersV2],
    }),
    runEvent({
      ...job('ingest.orders'),
      runId: runs.ingestOrders2,
      eventType: 'COMPLETE',
      eventTime: at(2 * HOUR - 7 * MIN),
      outputs: [ordersV2],
    }),
    runEvent({
      ...job('ingest.customers'),
      runId: runs.ingestCustomers,
      eventType: 'START',
      eventTime: at(3 * HOUR),
      inputs: ['raw.customers'],
      outputs: [customers],
    }),
    runEvent({
      ...job('ingest.customers'),
      runId: runs.ingestCustomers,
      eventType: 'FAIL',
      eventTime: at(3 * HOUR - MIN),
      runFacets: { errorMessage },
    }),
    runEvent({
      ...job('transform.daily_revenue'),
      runId: runs.transform,
      eventType: 'START',
      eventTime: at(HOUR),
      inputs: ['staging.orders', 'staging.customers'],
      outputs: [revenue],
      jobFacets: { sql, sourceCodeLocation: location },
      runFacets: { parent },
    }),
    runEvent({
      ...job('transform.daily_revenue'),
      runId: runs.transform,
      eventType: 'COMPLETE',
      eventTime: at(HOUR - 3 * MIN),
      outputs: [revenue],
      jobFacets: { sql, sourceCodeLocation: location },
      runFacets: { parent },
    }),
    runEvent({
      ...job('report.revenue_dashboard'),
      runId: runs.report,
      eventType: 'START',
      eventTime: at(30 * MIN),
      inputs: ['mart.daily_revenue'],
      outputs: ['bi.revenue_dashboard'],
    }),
  ];
  return { events, runs, fourDaysAgo: at(4 * DAY) };
}
