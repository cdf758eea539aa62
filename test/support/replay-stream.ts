/**
 * A deterministic, realistic event stream for order and replay tests: several producers and jobs,
 * a failed run without outputs, partitioned outputs, a parent DAG, symlinks, column lineage, a
 * streaming job ending in FAIL, a JobEvent and DatasetEvents, an OTHER event before START, an event
 * without eventType, a non-UUID run id, event times with offsets and without one, and facets that
 * change between events of one run (the latest by event time must win whatever the arrival order).
 * Every id and time is fixed, so two builds are identical.
 */
import { facet, PRODUCER, RUN_EVENT_SCHEMA, schemaFacet } from './events.js';

const SCHEMA = (kind: string) => `https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/${kind}`;
const T0 = Date.parse('2024-03-01T00:00:00Z');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const at = (ms: number) => new Date(T0 + ms).toISOString();

const PG = 'postgres://warehouse.example.com:5432';
const HIVE = 'hive://metastore:9083';
const S3 = 's3://lake';
const KAFKA = 'kafka://broker:9092';

/** Fixed UUIDs (v4-shaped), one per name. */
const RUN = {
  dag1: '0190a000-0000-4000-8000-000000000001',
  extract1: '0190a000-0000-4000-8000-000000000011',
  extract2: '0190a000-0000-4000-8000-000000000012',
  extract3: '0190a000-0000-4000-8000-000000000013',
  part1: '0190a000-0000-4000-8000-000000000021',
  part2: '0190a000-0000-4000-8000-000000000022',
  reader: '0190a000-0000-4000-8000-000000000031',
  stream: '0190a000-0000-4000-8000-000000000041',
  report: '0190a000-0000-4000-8000-000000000051',
};
export const REPLAY_RUN_IDS = [...Object.values(RUN), 'manual__2024-03-03T00:00:00'];

interface Ds {
  namespace: string;
  name: string;
  facets?: Record<string, unknown>;
  inputFacets?: Record<string, unknown>;
  outputFacets?: Record<string, unknown>;
}

function run(o: {
  eventType?: string;
  time: string;
  runId: string;
  job: [string, string];
  inputs?: Ds[];
  outputs?: Ds[];
  runFacets?: Record<string, unknown>;
  jobFacets?: Record<string, unknown>;
}): Record<string, unknown> {
  const e: Record<string, unknown> = {
    eventTime: o.time,
    producer: PRODUCER,
    schemaURL: RUN_EVENT_SCHEMA,
    run: { runId: o.runId, facets: o.runFacets ?? {} },
    job: { namespace: o.job[0], name: o.job[1], facets: o.jobFacets ?? {} },
    inputs: o.inputs ?? [],
    outputs: o.outputs ?? [],
  };
  if (o.eventType) e.eventType = o.eventType;
  return e;
}

const parentOf = (runId: string, time: string) => ({
  parent: facet({ run: { runId }, job: { namespace: 'airflow', name: 'etl' } }, 'ParentRunFacet'),
  nominalTime: facet({ nominalStartTime: time }, 'NominalTimeRunFacet'),
});
const source = (name: string, uri: string) => facet({ name, uri }, 'DatasourceDatasetFacet');

export function replayStream(): Record<string, unknown>[] {
  const rawOrders: Ds = {
    namespace: PG,
    name: 'raw.orders',
    facets: {
      schema: schemaFacet([
        ['id', 'INT'],
        ['amount', 'DECIMAL'],
      ]),
      dataSource: source(PG, PG),
    },
  };
  const stage = (fields: [string, string][]): Ds => ({
    namespace: PG,
    name: 'stage.orders',
    facets: {
      schema: schemaFacet(fields),
      dataSource: source(PG, PG),
      columnLineage: facet(
        {
          fields: {
            id: {
              inputFields: [
                {
                  namespace: PG,
                  name: 'raw.orders',
                  field: 'id',
                  transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }],
                },
              ],
            },
          },
        },
        'ColumnLineageDatasetFacet',
      ),
    },
    outputFacets: { outputStatistics: facet({ rowCount: fields.length * 10 }, 'OutputStatisticsOutputDatasetFacet') },
  });
  const extract: [string, string] = ['airflow', 'etl.extract'];
  const partitioned: [string, string] = ['spark', 'orders_partitioner'];
  const customers: Ds = {
    namespace: HIVE,
    name: 'warehouse.customers',
    facets: {
      symlinks: facet(
        { identifiers: [{ namespace: S3, name: 'warehouse/customers', type: 'DIR' }] },
        'SymlinksDatasetFacet',
      ),
      schema: schemaFacet([['cid', 'BIGINT']]),
    },
  };
  const sql = (q: string) => ({ sql: facet({ query: q }, 'SQLJobFacet') });

  return [
    // The parent DAG run.
    run({ eventType: 'START', time: at(0), runId: RUN.dag1, job: ['airflow', 'etl'] }),
    run({ eventType: 'COMPLETE', time: at(2 * DAY + 30 * MIN), runId: RUN.dag1, job: ['airflow', 'etl'] }),

    // etl.extract: two successful runs, then one that fails before knowing its outputs. Run 2
    // changes the output schema (a field added) and its SQL between START and COMPLETE.
    run({
      eventType: 'OTHER',
      time: at(-1 * MIN),
      runId: RUN.extract1,
      job: extract,
      runFacets: parentOf(RUN.dag1, at(0)),
    }),
    run({
      eventType: 'START',
      time: at(0),
      runId: RUN.extract1,
      job: extract,
      inputs: [rawOrders],
      runFacets: parentOf(RUN.dag1, at(0)),
      jobFacets: sql('select id, amount from raw.orders'),
    }),
    run({
      eventType: 'COMPLETE',
      time: at(5 * MIN),
      runId: RUN.extract1,
      job: extract,
      outputs: [
        stage([
          ['id', 'INT'],
          ['amount', 'DECIMAL'],
        ]),
      ],
      jobFacets: sql('select id, amount from raw.orders'),
    }),
    run({
      eventType: 'START',
      time: at(DAY),
      runId: RUN.extract2,
      job: extract,
      inputs: [rawOrders],
      runFacets: parentOf(RUN.dag1, at(DAY)),
      jobFacets: sql('select id, amount from raw.orders'),
    }),
    run({
      eventType: 'RUNNING',
      time: at(DAY + 2 * MIN),
      runId: RUN.extract2,
      job: extract,
      runFacets: { processing: facet({ stage: 'halfway' }) },
    }),
    run({
      eventType: 'COMPLETE',
      time: at(DAY + 5 * MIN),
      runId: RUN.extract2,
      job: extract,
      outputs: [
        stage([
          ['id', 'INT'],
          ['amount', 'DECIMAL'],
          ['currency', 'VARCHAR'],
        ]),
      ],
      runFacets: { processing: facet({ stage: 'done' }) },
      jobFacets: sql('select id, amount, currency from raw.orders'),
    }),
    run({
      eventType: 'START',
      time: at(2 * DAY),
      runId: RUN.extract3,
      job: extract,
      inputs: [rawOrders],
      runFacets: parentOf(RUN.dag1, at(2 * DAY)),
    }),
    run({
      eventType: 'FAIL',
      time: at(2 * DAY + MIN),
      runId: RUN.extract3,
      job: extract,
      runFacets: {
        errorMessage: facet({ message: 'connection reset', programmingLanguage: 'python' }, 'ErrorMessageRunFacet'),
      },
    }),

    // A partitioned job: each run writes its own partition; event times with an offset and without.
    run({
      eventType: 'START',
      time: '2024-03-02T02:00:00+02:00',
      runId: RUN.part1,
      job: partitioned,
      inputs: [{ namespace: PG, name: 'stage.orders' }],
    }),
    run({
      eventType: 'COMPLETE',
      time: '2024-03-02T02:10:00+02:00',
      runId: RUN.part1,
      job: partitioned,
      outputs: [{ namespace: S3, name: 'orders/part=1' }],
    }),
    run({
      eventType: 'START',
      time: '2024-03-03T00:00:00',
      runId: RUN.part2,
      job: partitioned,
      inputs: [{ namespace: PG, name: 'stage.orders' }],
    }),
    run({
      eventType: 'COMPLETE',
      time: '2024-03-03T00:10:00.123456',
      runId: RUN.part2,
      job: partitioned,
      outputs: [{ namespace: S3, name: 'orders/part=2' }],
    }),

    // A job reads a table by its physical location, a symlink of the metastore name its writer uses;
    // the writer's run id is not a UUID; one event has no eventType.
    run({
      eventType: 'START',
      time: at(2 * DAY + 10 * MIN),
      runId: 'manual__2024-03-03T00:00:00',
      job: ['spark', 'customers_loader'],
      outputs: [customers],
    }),
    run({
      eventType: 'COMPLETE',
      time: at(2 * DAY + 20 * MIN),
      runId: 'manual__2024-03-03T00:00:00',
      job: ['spark', 'customers_loader'],
      outputs: [customers],
    }),
    run({
      time: at(2 * DAY + 40 * MIN),
      runId: RUN.reader,
      job: ['spark', 'customers_reader'],
      inputs: [{ namespace: S3, name: 'warehouse/customers' }],
      outputs: [{ namespace: PG, name: 'mart.customers' }],
    }),
    run({ eventType: 'COMPLETE', time: at(2 * DAY + 50 * MIN), runId: RUN.reader, job: ['spark', 'customers_reader'] }),

    // A streaming job: its final FAIL names no datasets.
    run({
      eventType: 'START',
      time: at(3 * MIN),
      runId: RUN.stream,
      job: ['flink', 'orders_stream'],
      inputs: [{ namespace: KAFKA, name: 'orders' }],
      outputs: [{ namespace: PG, name: 'raw.orders' }],
      jobFacets: {
        jobType: facet({ processingType: 'STREAMING', integration: 'FLINK', jobType: 'JOB' }, 'JobTypeJobFacet'),
      },
    }),
    run({
      eventType: 'RUNNING',
      time: at(DAY + 3 * MIN),
      runId: RUN.stream,
      job: ['flink', 'orders_stream'],
      inputs: [{ namespace: KAFKA, name: 'orders' }],
      outputs: [{ namespace: PG, name: 'raw.orders' }],
    }),
    run({ eventType: 'FAIL', time: at(2 * DAY + 3 * MIN), runId: RUN.stream, job: ['flink', 'orders_stream'] }),

    // A report reads the stage and the customers mart.
    run({
      eventType: 'START',
      time: at(2 * DAY + 55 * MIN),
      runId: RUN.report,
      job: ['airflow', 'etl.report'],
      inputs: [
        { namespace: PG, name: 'stage.orders' },
        { namespace: PG, name: 'mart.customers' },
      ],
      runFacets: parentOf(RUN.dag1, at(2 * DAY)),
    }),
    run({
      eventType: 'COMPLETE',
      time: at(2 * DAY + 58 * MIN),
      runId: RUN.report,
      job: ['airflow', 'etl.report'],
      outputs: [
        {
          namespace: PG,
          name: 'mart.revenue',
          facets: {
            schema: schemaFacet([
              ['day', 'DATE'],
              ['revenue', 'DECIMAL'],
            ]),
          },
        },
      ],
    }),

    // A dbt model declared by a JobEvent, twice (its SQL changed), and DatasetEvents.
    {
      eventTime: at(DAY + 30 * MIN),
      producer: PRODUCER,
      schemaURL: SCHEMA('JobEvent'),
      job: { namespace: 'dbt', name: 'models.revenue_by_day', facets: sql('select 1') },
      inputs: [{ namespace: PG, name: 'mart.revenue' }],
      outputs: [{ namespace: PG, name: 'mart.revenue_by_day' }],
    },
    {
      eventTime: at(2 * DAY + 59 * MIN),
      producer: PRODUCER,
      schemaURL: SCHEMA('JobEvent'),
      job: {
        namespace: 'dbt',
        name: 'models.revenue_by_day',
        facets: sql('select day, sum(revenue) from mart.revenue group by 1'),
      },
      inputs: [{ namespace: PG, name: 'mart.revenue' }],
      outputs: [{ namespace: PG, name: 'mart.revenue_by_day' }],
    },
    {
      eventTime: at(10 * MIN),
      producer: PRODUCER,
      schemaURL: SCHEMA('DatasetEvent'),
      dataset: {
        namespace: PG,
        name: 'raw.orders',
        facets: { documentation: facet({ description: 'orders as loaded' }, 'DocumentationDatasetFacet') },
      },
    },
    {
      eventTime: at(DAY + 10 * MIN),
      producer: PRODUCER,
      schemaURL: SCHEMA('DatasetEvent'),
      dataset: {
        namespace: PG,
        name: 'raw.orders',
        facets: { documentation: facet({ description: 'orders, deduplicated' }, 'DocumentationDatasetFacet') },
      },
    },
  ];
}

/** A seeded shuffle (mulberry32), so a failing order can be replayed. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
