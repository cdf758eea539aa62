import { expect } from 'chai';
import { v5 as uuidv5, validate as isUuid } from 'uuid';
import {
  DEFAULT_SCHEMA_URLS,
  RUN_ID_NAMESPACE,
  normalizeEventTime,
  parseEvent,
  pathOwners,
  schemaColumns,
  serviceRunId,
} from '../../../src/domain/openlineage/normalize.js';
import type { NormalizedEvent, SchemaField } from '../../../src/domain/openlineage/types.js';

const AIRFLOW = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.0/integration/airflow';
const SPARK = 'https://github.com/OpenLineage/OpenLineage/tree/1.23.0/integration/spark';
const RUN_EVENT_SCHEMA = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const PG = 'postgres://db.example.com:5432';

const facet = (name: string, body: Record<string, unknown>) => ({
  _producer: AIRFLOW,
  _schemaURL: `https://openlineage.io/spec/facets/1-0-1/${name}.json#/$defs/${name}`,
  ...body,
});

function parsed(body: unknown): NormalizedEvent {
  const result = parseEvent(body);
  if (!result.ok) throw new Error(`expected a valid event, got ${JSON.stringify(result.problems)}`);
  return result.event;
}

function runEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventType: 'START',
    eventTime: '2024-06-01T10:00:00.000Z',
    producer: AIRFLOW,
    schemaURL: RUN_EVENT_SCHEMA,
    run: { runId: '0190A4A3-8D1C-7B5E-9F00-1A2B3C4D5E6F', facets: {} },
    job: { namespace: 'airflow', name: 'orders.load', facets: {} },
    inputs: [],
    outputs: [],
    ...overrides,
  };
}

const withOutput = (dataset: Record<string, unknown>) =>
  runEvent({ outputs: [{ namespace: PG, name: 'shop.public.orders', ...dataset }] });
const withRunFacets = (facets: Record<string, unknown>) => runEvent({ run: { runId: 'r-1', facets } });
const withJobFacets = (facets: Record<string, unknown>) =>
  runEvent({ job: { namespace: 'airflow', name: 'orders.load', facets } });

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** A task of an Airflow DAG, as the Airflow provider sends it on completion. */
function airflowCompleteEvent(): Record<string, unknown> {
  return {
    eventType: 'COMPLETE',
    eventTime: '2024-06-01T02:15:07.123456+00:00',
    producer: AIRFLOW,
    schemaURL: RUN_EVENT_SCHEMA,
    run: {
      runId: '01900a7e-3b9c-7d21-8a4f-5b6c7d8e9f01',
      facets: {
        nominalTime: facet('NominalTimeRunFacet', {
          nominalStartTime: '2024-06-01T00:00:00+00:00',
          nominalEndTime: '2024-06-02T00:00:00+00:00',
        }),
        parent: facet('ParentRunFacet', {
          run: { runId: '01900a7e-0000-7000-8000-000000000001' },
          job: { namespace: 'airflow', name: 'orders' },
          root: {
            run: { runId: '01900a7e-0000-7000-8000-000000000001' },
            job: { namespace: 'airflow', name: 'orders' },
          },
        }),
        processing_engine: facet('ProcessingEngineRunFacet', {
          version: '2.9.2',
          name: 'Airflow',
          openlineageAdapterVersion: '1.24.0',
        }),
        airflow: {
          _producer: AIRFLOW,
          _schemaURL:
            'https://github.com/apache/airflow/tree/providers-openlineage/1.9.0/' +
            'airflow/providers/openlineage/facets/AirflowRunFacet.json',
          dag: { dag_id: 'orders', schedule_interval: '@daily' },
          taskInstance: { try_number: 1 },
        },
      },
    },
    job: {
      namespace: 'airflow',
      name: 'orders.load_orders',
      facets: {
        jobType: facet('JobTypeJobFacet', { processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' }),
        sql: facet('SQLJobFacet', { query: 'INSERT INTO analytics.orders SELECT id, amount FROM shop.public.orders' }),
        sourceCodeLocation: facet('SourceCodeLocationJobFacet', {
          type: 'git',
          url: 'https://github.com/acme/dags/blob/main/orders.py',
        }),
        documentation: facet('DocumentationJobFacet', { description: 'Loads orders into the warehouse.' }),
        ownership: facet('OwnershipJobFacet', { owners: [{ name: 'team:data-platform' }] }),
      },
    },
    inputs: [
      {
        namespace: PG,
        name: 'shop.public.orders',
        facets: {
          dataSource: facet('DatasourceDatasetFacet', { name: PG, uri: `${PG}/shop` }),
          schema: facet('SchemaDatasetFacet', {
            fields: [
              { name: 'id', type: 'integer' },
              { name: 'amount', type: 'numeric', description: 'in cents' },
            ],
          }),
        },
        inputFacets: {
          dataQualityMetrics: facet('DataQualityMetricsInputDatasetFacet', { rowCount: 1200, columnMetrics: {} }),
        },
      },
    ],
    outputs: [
      {
        namespace: 'snowflake://acme.eu-west-1',
        name: 'ANALYTICS.PUBLIC.ORDERS',
        facets: {
          schema: facet('SchemaDatasetFacet', {
            fields: [
              { name: 'ID', type: 'NUMBER' },
              { name: 'AMOUNT', type: 'NUMBER' },
            ],
          }),
          documentation: facet('DocumentationDatasetFacet', { description: 'Orders, daily.' }),
          columnLineage: facet('ColumnLineageDatasetFacet', {
            fields: {
              ID: {
                inputFields: [
                  {
                    namespace: PG,
                    name: 'shop.public.orders',
                    field: 'id',
                    transformations: [{ type: 'DIRECT', subtype: 'IDENTITY', description: '', masking: false }],
                  },
                ],
              },
              AMOUNT: { inputFields: [{ namespace: PG, name: 'shop.public.orders', field: 'amount' }] },
            },
          }),
        },
        outputFacets: {
          outputStatistics: facet('OutputStatisticsOutputDatasetFacet', { rowCount: 1200, size: 40960 }),
        },
      },
    ],
  };
}

/** A Spark SQL job writing a Hive table through its S3 location, with nested columns. */
function sparkCompleteEvent(): Record<string, unknown> {
  return {
    eventType: 'COMPLETE',
    eventTime: '2024-06-01T12:30:45.987654321+0200',
    producer: SPARK,
    schemaURL: RUN_EVENT_SCHEMA,
    run: {
      runId: '0190B2C3-D4E5-7F60-8172-839405A6B7C8',
      facets: {
        spark_properties: {
          _producer: SPARK,
          _schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunFacet',
          properties: { 'spark.master': 'yarn', 'spark.app.name': 'sessionize' },
        },
        processing_engine: {
          _producer: SPARK,
          _schemaURL:
            'https://openlineage.io/spec/facets/1-1-1/ProcessingEngineRunFacet.json#/$defs/ProcessingEngineRunFacet',
          version: '3.5.1',
          name: 'spark',
        },
        parent: {
          _producer: SPARK,
          _schemaURL: 'https://openlineage.io/spec/facets/1-0-0/ParentRunFacet.json#/$defs/ParentRunFacet',
          run: { runId: 'application_1717000000000_0042' },
          job: { namespace: 'spark-prod', name: 'sessionize' },
        },
      },
    },
    job: {
      namespace: 'spark-prod',
      name: 'sessionize.execute_insert_into_hadoop_fs_relation_command.warehouse_sessions',
      facets: {
        jobType: {
          _producer: SPARK,
          _schemaURL: 'https://openlineage.io/spec/facets/2-0-3/JobTypeJobFacet.json#/$defs/JobTypeJobFacet',
          processingType: 'BATCH',
          integration: 'SPARK',
          jobType: 'SQL_JOB',
        },
      },
    },
    inputs: [
      {
        namespace: 's3://raw-bucket',
        name: 'events/clicks',
        facets: {
          dataSource: { _producer: SPARK, _schemaURL: 'x', uri: 's3://raw-bucket' },
          schema: {
            _producer: SPARK,
            _schemaURL: 'x',
            fields: [
              { name: 'user_id', type: 'string' },
              { name: 'ts', type: 'timestamp' },
              {
                name: 'context',
                type: 'struct',
                fields: [
                  { name: 'page', type: 'string' },
                  { name: 'device', type: 'struct', fields: [{ name: 'os', type: 'string' }] },
                ],
              },
            ],
          },
        },
        inputFacets: {},
      },
    ],
    outputs: [
      {
        namespace: 's3://warehouse-bucket',
        name: 'warehouse/sessions',
        facets: {
          symlinks: {
            _producer: SPARK,
            _schemaURL: 'x',
            identifiers: [{ namespace: 'hive://metastore:9083', name: 'warehouse.sessions', type: 'TABLE' }],
          },
          lifecycleStateChange: { _producer: SPARK, _schemaURL: 'x', lifecycleStateChange: 'OVERWRITE' },
          datasetType: { _producer: SPARK, _schemaURL: 'x', datasetType: 'TABLE' },
          schema: {
            _producer: SPARK,
            _schemaURL: 'x',
            fields: [
              { name: 'user_id', type: 'string' },
              { name: 'session_start', type: 'timestamp' },
            ],
          },
          columnLineage: {
            _producer: SPARK,
            _schemaURL: 'x',
            fields: {
              user_id: {
                inputFields: [
                  {
                    namespace: 's3://raw-bucket',
                    name: 'events/clicks',
                    field: 'user_id',
                    transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }],
                  },
                ],
              },
              session_start: {
                inputFields: [
                  {
                    namespace: 's3://raw-bucket',
                    name: 'events/clicks',
                    field: 'ts',
                    transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION' }],
                  },
                ],
              },
            },
            dataset: [
              {
                namespace: 's3://raw-bucket',
                name: 'events/clicks',
                field: 'user_id',
                transformations: [{ type: 'INDIRECT', subtype: 'GROUP_BY' }],
              },
            ],
          },
        },
        outputFacets: { outputStatistics: { _producer: SPARK, _schemaURL: 'x', rowCount: 10, size: 1024 } },
      },
    ],
  };
}

describe('OpenLineage parseEvent', () => {
  describe('run events', () => {
    it('normalizes a START event', () => {
      const event = parsed(runEvent({ inputs: [{ namespace: PG, name: 'shop.public.orders' }] }));
      expect(event.kind).to.equal('run');
      expect(event.eventType).to.equal('START');
      expect(event.eventTime).to.equal('2024-06-01T10:00:00.000Z');
      expect(event.producer).to.equal(AIRFLOW);
      expect(event.schemaURL).to.equal(RUN_EVENT_SCHEMA);
      expect(event.run).to.deep.equal({
        id: '0190a4a3-8d1c-7b5e-9f00-1a2b3c4d5e6f',
        externalId: '0190A4A3-8D1C-7B5E-9F00-1A2B3C4D5E6F',
        facets: {},
        nominalStartTime: null,
        nominalEndTime: null,
        parent: null,
      });
      expect(event.job).to.deep.equal({
        namespace: 'airflow',
        name: 'orders.load',
        facets: {},
        deletedFacets: [],
        location: null,
        context: {},
        description: null,
        jobType: null,
      });
      expect(event.inputs).to.deep.equal([
        {
          namespace: PG,
          name: 'shop.public.orders',
          facets: {},
          deletedFacets: [],
          inputFacets: {},
          outputFacets: {},
          fields: null,
          source: null,
          description: null,
          lifecycleState: null,
          datasetType: null,
          symlinks: [],
          columnLineage: [],
        },
      ]);
      expect(event.outputs).to.deep.equal([]);
      expect(event.dataset).to.equal(null);
    });

    it('normalizes an Airflow-style COMPLETE event with many facets', () => {
      const body = airflowCompleteEvent();
      const event = parsed(body);
      expect(event.eventType).to.equal('COMPLETE');
      expect(event.eventTime).to.equal('2024-06-01T02:15:07.123Z');

      const run = event.run!;
      expect(run.id).to.equal('01900a7e-3b9c-7d21-8a4f-5b6c7d8e9f01');
      expect(run.nominalStartTime).to.equal('2024-06-01T00:00:00.000Z');
      expect(run.nominalEndTime).to.equal('2024-06-02T00:00:00.000Z');
      expect(run.parent).to.deep.equal({
        runId: '01900a7e-0000-7000-8000-000000000001',
        externalRunId: '01900a7e-0000-7000-8000-000000000001',
        job: { namespace: 'airflow', name: 'orders' },
        root: {
          runId: '01900a7e-0000-7000-8000-000000000001',
          externalRunId: '01900a7e-0000-7000-8000-000000000001',
          job: { namespace: 'airflow', name: 'orders' },
        },
      });
      expect(run.facets).to.have.keys('nominalTime', 'parent', 'processing_engine', 'airflow');

      const job = event.job!;
      expect(job.name).to.equal('orders.load_orders');
      expect(job.location).to.equal('https://github.com/acme/dags/blob/main/orders.py');
      expect(job.context).to.deep.equal({
        sql: 'INSERT INTO analytics.orders SELECT id, amount FROM shop.public.orders',
      });
      expect(job.description).to.equal('Loads orders into the warehouse.');
      expect(job.jobType).to.deep.equal({ processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' });
      expect(job.facets.ownership).to.equal((body.job as { facets: Record<string, unknown> }).facets.ownership);

      const [input] = event.inputs;
      expect(input.source).to.deep.equal({ name: PG, uri: `${PG}/shop` });
      expect(input.fields).to.deep.equal([
        { name: 'id', type: 'integer', description: null },
        { name: 'amount', type: 'numeric', description: 'in cents' },
      ]);
      expect(input.inputFacets).to.have.keys('dataQualityMetrics');

      const [output] = event.outputs;
      expect(output.description).to.equal('Orders, daily.');
      expect(output.outputFacets.outputStatistics).to.include({ rowCount: 1200, size: 40960 });
      expect(output.columnLineage).to.deep.equal([
        {
          field: 'AMOUNT',
          inputFields: [{ namespace: PG, name: 'shop.public.orders', field: 'amount', transformations: [] }],
        },
        {
          field: 'ID',
          inputFields: [
            {
              namespace: PG,
              name: 'shop.public.orders',
              field: 'id',
              transformations: [{ type: 'DIRECT', subtype: 'IDENTITY', description: '', masking: false }],
            },
          ],
        },
      ]);
      expect(event.raw).to.equal(body);
    });

    it(
      'normalizes a Spark-style event: offset without colon, nanoseconds, non-UUID parent, symlinks, nested ' +
        'columns',
      () => {
        const event = parsed(sparkCompleteEvent());
        expect(event.eventTime).to.equal('2024-06-01T10:30:45.987Z');
        expect(event.run!.id).to.equal('0190b2c3-d4e5-7f60-8172-839405a6b7c8');
        expect(event.run!.parent).to.deep.equal({
          runId: serviceRunId('application_1717000000000_0042'),
          externalRunId: 'application_1717000000000_0042',
          job: { namespace: 'spark-prod', name: 'sessionize' },
          root: null,
        });
        expect(event.job!.jobType).to.deep.equal({ processingType: 'BATCH', integration: 'SPARK', jobType: 'SQL_JOB' });
        expect(event.job!.context).to.deep.equal({});
        expect(event.job!.location).to.equal(null);

        const [input] = event.inputs;
        expect(input.source).to.deep.equal({ name: 's3://raw-bucket', uri: 's3://raw-bucket' });
        expect(input.fields).to.deep.equal([
          { name: 'user_id', type: 'string', description: null },
          { name: 'ts', type: 'timestamp', description: null },
          {
            name: 'context',
            type: 'struct',
            description: null,
            fields: [
              { name: 'page', type: 'string', description: null },
              {
                name: 'device',
                type: 'struct',
                description: null,
                fields: [{ name: 'os', type: 'string', description: null }],
              },
            ],
          },
        ]);

        const [output] = event.outputs;
        expect(output.symlinks).to.deep.equal([
          { namespace: 'hive://metastore:9083', name: 'warehouse.sessions', type: 'TABLE' },
        ]);
        expect(output.lifecycleState).to.equal('OVERWRITE');
        expect(output.datasetType).to.equal('TABLE');
        expect(output.columnLineage.map((c) => c.field)).to.deep.equal(['session_start', 'user_id']);
        // The dataset-wide input (grouping by user_id) feeds every output column; a column that already
        // names that input keeps one input with both transformations, its own first.
        expect(output.columnLineage[0].inputFields).to.deep.equal([
          {
            namespace: 's3://raw-bucket',
            name: 'events/clicks',
            field: 'ts',
            transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION' }],
          },
          {
            namespace: 's3://raw-bucket',
            name: 'events/clicks',
            field: 'user_id',
            transformations: [{ type: 'INDIRECT', subtype: 'GROUP_BY' }],
          },
        ]);
        expect(output.columnLineage[1].inputFields).to.deep.equal([
          {
            namespace: 's3://raw-bucket',
            name: 'events/clicks',
            field: 'user_id',
            transformations: [
              { type: 'DIRECT', subtype: 'IDENTITY' },
              { type: 'INDIRECT', subtype: 'GROUP_BY' },
            ],
          },
        ]);
        expect(output.facets.columnLineage.dataset).to.have.length(1);
      },
    );

    it('fills in a default schemaURL per kind when it is missing, and keeps a #/definitions/ one', () => {
      const { schemaURL: _omitted, ...noSchemaUrl } = runEvent();
      expect(parsed(noSchemaUrl).schemaURL).to.equal(DEFAULT_SCHEMA_URLS.run);
      expect(parsed(runEvent({ schemaURL: null })).schemaURL).to.equal(DEFAULT_SCHEMA_URLS.run);
      const old = 'https://openlineage.io/spec/1-0-5/OpenLineage.json#/definitions/RunEvent';
      expect(parsed(runEvent({ schemaURL: old })).schemaURL).to.equal(old);
      expect(
        parsed({ eventTime: '2024-06-01T10:00:00Z', producer: AIRFLOW, job: { namespace: 'n', name: 'j' } }).schemaURL,
      ).to.equal(DEFAULT_SCHEMA_URLS.job);
      expect(
        parsed({ eventTime: '2024-06-01T10:00:00Z', producer: AIRFLOW, dataset: { namespace: 'n', name: 'd' } })
          .schemaURL,
      ).to.equal(DEFAULT_SCHEMA_URLS.dataset);
    });

    it('reads a missing or null eventType as null', () => {
      const { eventType: _omitted, ...noType } = runEvent();
      expect(parsed(noType).eventType).to.equal(null);
      expect(parsed(runEvent({ eventType: null })).eventType).to.equal(null);
    });
  });

  describe('JobEvent and DatasetEvent', () => {
    it('normalizes a JobEvent: no run, job and its declared inputs/outputs', () => {
      const event = parsed({
        eventTime: '2024-06-01T10:00:00Z',
        producer: AIRFLOW,
        schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
        job: {
          namespace: 'airflow',
          name: 'orders.load',
          facets: { sql: { query: 'select 1' }, documentation: { _deleted: true } },
        },
        inputs: [{ namespace: PG, name: 'a' }],
        outputs: [{ namespace: PG, name: 'b' }],
      });
      expect(event.kind).to.equal('job');
      expect(event.run).to.equal(null);
      expect(event.dataset).to.equal(null);
      expect(event.job!.context).to.deep.equal({ sql: 'select 1' });
      expect(event.job!.deletedFacets).to.deep.equal(['documentation']);
      expect(event.job!.facets).to.have.keys('sql');
      expect(event.inputs.map((d) => d.name)).to.deep.equal(['a']);
      expect(event.outputs.map((d) => d.name)).to.deep.equal(['b']);
    });

    it('normalizes a DatasetEvent: only the dataset', () => {
      const event = parsed({
        eventTime: '2024-06-01T10:00:00Z',
        producer: AIRFLOW,
        schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent',
        dataset: {
          namespace: PG,
          name: 'shop.public.orders',
          facets: {
            schema: { fields: [{ name: 'id', type: 'integer' }] },
            documentation: { description: 'All orders.' },
            dataSource: { name: 'shop-db' },
            lifecycleStateChange: { lifecycleStateChange: 'ALTER' },
            tags: { _deleted: true },
          },
        },
      });
      expect(event.kind).to.equal('dataset');
      expect(event.run).to.equal(null);
      expect(event.job).to.equal(null);
      expect(event.inputs).to.deep.equal([]);
      expect(event.outputs).to.deep.equal([]);
      const dataset = event.dataset!;
      expect(dataset.fields).to.deep.equal([{ name: 'id', type: 'integer', description: null }]);
      expect(dataset.description).to.equal('All orders.');
      expect(dataset.source).to.deep.equal({ name: 'shop-db', uri: null });
      expect(dataset.lifecycleState).to.equal('ALTER');
      expect(dataset.deletedFacets).to.deep.equal(['tags']);
      expect(dataset.facets).to.not.have.key('tags');
    });
  });

  describe('invalid events', () => {
    it('returns the problems instead of an event', () => {
      const { producer: _omitted, ...body } = runEvent();
      expect(parseEvent(body)).to.deep.equal({ ok: false, problems: [{ path: '/producer', message: 'is required' }] });
      const result = parseEvent(runEvent({ eventTime: 'not a time' }));
      expect(result.ok).to.equal(false);
      if (!result.ok) expect(result.problems.map((p) => p.path)).to.deep.equal(['/eventTime']);
      expect(parseEvent('[]')).to.deep.equal({
        ok: false,
        problems: [{ path: '', message: 'the event must be a JSON object' }],
      });
    });
  });

  describe('raw and unknown content', () => {
    it('keeps unknown top-level keys in raw and custom facets as sent', () => {
      const custom = {
        _producer: AIRFLOW,
        _schemaURL: 'https://acme.example/facets/Cost.json',
        dollars: 3.5,
        tags: ['a'],
      };
      const body = runEvent({
        x_acme_tenant: 'eu-1',
        run: { runId: 'r', facets: { acme_cost: custom } },
        outputs: [{ namespace: PG, name: 'd', facets: { acme_cost: custom }, outputFacets: { acme_cost: custom } }],
      });
      const event = parsed(body);
      expect(event.raw.x_acme_tenant).to.equal('eu-1');
      expect(event.run!.facets.acme_cost).to.deep.equal(custom);
      expect(event.outputs[0].facets.acme_cost).to.deep.equal(custom);
      expect(event.outputs[0].outputFacets.acme_cost).to.deep.equal(custom);
    });

    it('does not mutate the body', () => {
      const body = deepFreeze(airflowCompleteEvent());
      const before = JSON.stringify(body);
      const event = parsed(body);
      expect(JSON.stringify(body)).to.equal(before);
      expect(event.raw).to.equal(body);
    });
  });

  describe('facets', () => {
    it('moves facets sent with _deleted: true to deletedFacets, in every slot', () => {
      const event = parsed(
        withOutput({
          facets: { schema: { _deleted: true }, documentation: { description: 'kept' } },
          outputFacets: { outputStatistics: { _deleted: true } },
        }),
      );
      const [output] = event.outputs;
      expect(output.deletedFacets).to.deep.equal(['schema']);
      expect(output.facets).to.have.keys('documentation');
      expect(output.fields).to.equal(null);
      expect(output.outputFacets).to.deep.equal({});
    });

    it('only keeps a facet _deleted when the flag is exactly true', () => {
      const event = parsed(withOutput({ facets: { schema: { _deleted: false, fields: [] } } }));
      expect(event.outputs[0].deletedFacets).to.deep.equal([]);
      expect(event.outputs[0].fields).to.deep.equal([]);
    });

    it('promotes from the facets slot only, not from inputFacets/outputFacets', () => {
      const event = parsed(
        withOutput({ outputFacets: { schema: { fields: [{ name: 'x' }] }, documentation: { description: 'no' } } }),
      );
      expect(event.outputs[0].fields).to.equal(null);
      expect(event.outputs[0].description).to.equal(null);
      expect(event.outputs[0].outputFacets).to.have.keys('schema', 'documentation');
    });

    it('falls back from dataSource name to uri to the namespace', () => {
      expect(
        parsed(withOutput({ facets: { dataSource: { uri: 'jdbc:postgresql://db:5432/shop' } } })).outputs[0].source,
      ).to.deep.equal({
        name: 'jdbc:postgresql://db:5432/shop',
        uri: 'jdbc:postgresql://db:5432/shop',
      });
      expect(parsed(withOutput({ facets: { dataSource: {} } })).outputs[0].source).to.deep.equal({
        name: PG,
        uri: null,
      });
    });

    it('reads schema fields leniently: a non-string type or description becomes null', () => {
      const event = parsed(withOutput({ facets: { schema: { fields: [{ name: 'n', type: 7, description: null }] } } }));
      expect(event.outputs[0].fields).to.deep.equal([{ name: 'n', type: null, description: null }]);
    });

    it('reads symlinks with an optional type', () => {
      const event = parsed(
        withOutput({
          facets: {
            symlinks: {
              identifiers: [
                { namespace: 'hive://ms:9083', name: 'db.t', type: 'TABLE' },
                { namespace: 's3://b', name: 'p' },
              ],
            },
          },
        }),
      );
      expect(event.outputs[0].symlinks).to.deep.equal([
        { namespace: 'hive://ms:9083', name: 'db.t', type: 'TABLE' },
        { namespace: 's3://b', name: 'p', type: null },
      ]);
    });

    it(
      "reads no symlinks from identifiers that are no list (the Python client's legacy " +
        'SymlinksDatasetFacet() sends {})',
      () => {
        const event = parsed(withOutput({ facets: { symlinks: { identifiers: {} } } }));
        expect(event.outputs[0].symlinks).to.deep.equal([]);
        expect(event.outputs[0].facets.symlinks).to.deep.equal({ identifiers: {} });
      },
    );

    it('turns the per-field transformation of columnLineage 1-0-x into one transformation', () => {
      const input = { namespace: PG, name: 'src', field: 'a' };
      const event = parsed(
        withOutput({
          facets: {
            columnLineage: {
              fields: {
                z: { inputFields: [input], transformationDescription: 'a + 1', transformationType: 'IDENTITY' },
                m: { inputFields: [input], transformationDescription: 'copied' },
                b: {
                  inputFields: [{ ...input, transformations: [{ type: 'DIRECT' }] }],
                  transformationType: 'IGNORED',
                },
              },
            },
          },
        }),
      );
      expect(event.outputs[0].columnLineage).to.deep.equal([
        { field: 'b', inputFields: [{ ...input, transformations: [{ type: 'DIRECT' }] }] },
        { field: 'm', inputFields: [{ ...input, transformations: [{ type: null, description: 'copied' }] }] },
        { field: 'z', inputFields: [{ ...input, transformations: [{ type: 'IDENTITY', description: 'a + 1' }] }] },
      ]);
    });

    describe('dataset-wide column-lineage inputs (ColumnLineage 1-2-0 `dataset`)', () => {
      const filter = {
        namespace: 'trino',
        name: 'report.orders_daily',
        field: 'day',
        transformations: [{ type: 'INDIRECT', subtype: 'FILTER' }],
      };
      const schema = (...names: string[]) => ({ fields: names.map((name) => ({ name, type: 'varchar' })) });
      const output = (facets: Record<string, unknown>) => parsed(withOutput({ facets })).outputs[0];

      it('feed every top-level column of the schema sent with the facet, with `fields: {}` too', () => {
        const out = output({ schema: schema('day', 'total'), columnLineage: { fields: {}, dataset: [filter] } });
        expect(out.columnLineage).to.deep.equal([
          { field: 'day', inputFields: [filter] },
          { field: 'total', inputFields: [filter] },
        ]);
      });

      it('feed the schema columns the facet does not name as well as those it names', () => {
        const amount = { namespace: 'trino', name: 'report.orders_daily', field: 'amount', transformations: [] };
        const out = output({
          schema: schema('day', 'total'),
          columnLineage: {
            fields: { total: { inputFields: [amount] }, extra: { inputFields: [] } },
            dataset: [{ ...filter, field: 'id' }],
          },
        });
        const id = { ...filter, field: 'id' };
        expect(out.columnLineage).to.deep.equal([
          { field: 'day', inputFields: [id] },
          { field: 'extra', inputFields: [id] },
          { field: 'total', inputFields: [amount, id] },
        ]);
      });

      it('feed the top-level columns only (a STRUCT, not its members), each name once', () => {
        const out = output({
          schema: {
            fields: [
              { name: 'addr', type: 'struct', fields: [{ name: 'city', type: 'varchar' }] },
              { name: 'day', type: 'date' },
              { name: 'day', type: 'date' },
            ],
          },
          columnLineage: { fields: { 'addr.city': { inputFields: [] } }, dataset: [filter] },
        });
        expect(out.columnLineage.map((c) => c.field)).to.deep.equal(['addr', 'addr.city', 'day']);
      });

      it('a column naming the input itself gets a transformation once, whatever the order of its keys', () => {
        const reordered = { ...filter, transformations: [{ subtype: 'FILTER', type: 'INDIRECT' }] };
        const out = output({
          schema: schema('day'),
          columnLineage: { fields: { day: { inputFields: [reordered] } }, dataset: [filter] },
        });
        expect(out.columnLineage).to.deep.equal([{ field: 'day', inputFields: [reordered] }]);
      });

      it('without a schema, feed only the columns the facet names; without them, schema columns get nothing', () => {
        expect(output({ columnLineage: { fields: {}, dataset: [filter] } }).columnLineage).to.deep.equal([]);
        const amount = { namespace: 'trino', name: 'report.orders_daily', field: 'amount', transformations: [] };
        expect(
          output({ schema: schema('day', 'total'), columnLineage: { fields: { total: { inputFields: [amount] } } } })
            .columnLineage,
        ).to.deep.equal([{ field: 'total', inputFields: [amount] }]);
      });
    });

    it('reads job location only from sourceCodeLocation.url, and jobType fields that are missing as null', () => {
      const event = parsed(
        withJobFacets({
          sourceCode: { language: 'python', sourceCode: 'print(1)' },
          jobType: { processingType: 'STREAMING' },
        }),
      );
      expect(event.job!.location).to.equal(null);
      expect(event.job!.jobType).to.deep.equal({ processingType: 'STREAMING', integration: null, jobType: null });
    });
  });

  describe('run facets', () => {
    it('normalizes nominal times, and ignores unparseable ones', () => {
      expect(parsed(withRunFacets({ nominalTime: { nominalStartTime: '2024-06-01T02:00:00+02:00' } })).run).to.include({
        nominalStartTime: '2024-06-01T00:00:00.000Z',
        nominalEndTime: null,
      });
      expect(
        parsed(withRunFacets({ nominalTime: { nominalStartTime: 'midnight', nominalEndTime: 42 } })).run,
      ).to.include({
        nominalStartTime: null,
        nominalEndTime: null,
      });
    });

    it('ignores an incomplete parent facet but keeps it in facets', () => {
      for (const parent of [
        { run: { runId: 'p' } },
        { job: { namespace: 'n', name: 'j' } },
        { run: { runId: '' }, job: { namespace: 'n', name: 'j' } },
        { run: 'p', job: 'j' },
      ]) {
        const event = parsed(withRunFacets({ parent }));
        expect(event.run!.parent, JSON.stringify(parent)).to.equal(null);
        expect(event.run!.facets.parent).to.deep.equal(parent);
      }
    });

    it('keeps the parent but drops an incomplete root', () => {
      const event = parsed(
        withRunFacets({
          parent: { run: { runId: 'P' }, job: { namespace: 'n', name: 'j' }, root: { run: { runId: 'R' } } },
        }),
      );
      expect(event.run!.parent).to.deep.equal({
        runId: serviceRunId('P'),
        externalRunId: 'P',
        job: { namespace: 'n', name: 'j' },
        root: null,
      });
    });

    it('maps non-UUID parent and root run ids like any run id', () => {
      const event = parsed(
        withRunFacets({
          parent: {
            run: { runId: 'manual__2024-06-01T00:00:00+00:00' },
            job: { namespace: 'airflow', name: 'orders' },
            root: {
              run: { runId: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE' },
              job: { namespace: 'airflow', name: 'meta' },
            },
          },
        }),
      );
      const parent = event.run!.parent!;
      expect(parent.runId).to.equal(serviceRunId('manual__2024-06-01T00:00:00+00:00'));
      expect(parent.root).to.deep.equal({
        runId: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
        externalRunId: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE',
        job: { namespace: 'airflow', name: 'meta' },
      });
    });
  });
});

describe('OpenLineage serviceRunId', () => {
  it('lower-cases UUIDs of any version', () => {
    expect(serviceRunId('0190A4A3-8D1C-7B5E-9F00-1A2B3C4D5E6F')).to.equal('0190a4a3-8d1c-7b5e-9f00-1a2b3c4d5e6f');
    expect(serviceRunId('6BA7B810-9DAD-11D1-80B4-00C04FD430C8')).to.equal('6ba7b810-9dad-11d1-80b4-00c04fd430c8');
    // Not a valid RFC 9562 version/variant, but a UUID to Marquez (Java's UUID.fromString): kept.
    expect(serviceRunId('12345678-1234-1234-1234-123456789012')).to.equal('12345678-1234-1234-1234-123456789012');
  });

  it('maps other strings to a deterministic name-based UUID', () => {
    const id = serviceRunId('scheduled__2024-06-01T00:00:00+00:00');
    expect(isUuid(id)).to.equal(true);
    expect(id).to.equal(uuidv5('scheduled__2024-06-01T00:00:00+00:00', RUN_ID_NAMESPACE));
    expect(serviceRunId('scheduled__2024-06-01T00:00:00+00:00')).to.equal(id);
    expect(serviceRunId('scheduled__2024-06-02T00:00:00+00:00')).to.not.equal(id);
    // Case matters for non-UUID ids: they are opaque strings.
    expect(serviceRunId('Run-1')).to.not.equal(serviceRunId('run-1'));
  });

  it('gives a parsed event the same id for a non-UUID runId every time, and keeps the original', () => {
    const first = parsed(runEvent({ run: { runId: 'job-42-attempt-1' } }));
    const second = parsed(runEvent({ eventType: 'COMPLETE', run: { runId: 'job-42-attempt-1' } }));
    expect(first.run!.id).to.equal(second.run!.id);
    expect(first.run!.id).to.equal(serviceRunId('job-42-attempt-1'));
    expect(first.run!.externalId).to.equal('job-42-attempt-1');
  });
});

describe('OpenLineage normalizeEventTime', () => {
  const cases: [string, string][] = [
    ['2024-01-01T10:00:00.123456+02:00', '2024-01-01T08:00:00.123Z'],
    ['2024-01-01T10:00:00.123456789+0200', '2024-01-01T08:00:00.123Z'],
    ['2024-01-01T10:00:00+02', '2024-01-01T08:00:00.000Z'],
    ['2024-01-01T10:00:00Z', '2024-01-01T10:00:00.000Z'],
    ['2024-01-01T10:00:00.1Z', '2024-01-01T10:00:00.100Z'],
    ['2024-01-01T10:00:00.9999Z', '2024-01-01T10:00:00.999Z'],
    ['2024-01-01T10:00:00.5', '2024-01-01T10:00:00.500Z'],
    ['2024-01-01T10:00:00', '2024-01-01T10:00:00.000Z'],
    ['2024-01-01 10:00:00.000+00:00', '2024-01-01T10:00:00.000Z'],
    ['2024-01-01T01:00:00-05:00', '2024-01-01T06:00:00.000Z'],
    ['2024-01-01T01:00:00+05:30', '2023-12-31T19:30:00.000Z'],
    ['2024-01-01t10:00:00z', '2024-01-01T10:00:00.000Z'],
  ];
  for (const [input, expected] of cases) {
    it(`${input} → ${expected}`, () => expect(normalizeEventTime(input)).to.equal(expected));
  }

  it('returns null for what is not a date-time', () => {
    for (const input of [
      '',
      'now',
      '2024-01-01',
      '1717236000',
      '2024-02-30T10:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T10:00:00+2:00',
      '2024-01-01T10:00:00 UTC',
    ]) {
      expect(normalizeEventTime(input), input).to.equal(null);
    }
  });
});

describe('schemaColumns: every column of a schema under its dotted path', () => {
  type F = { name: string; type?: string | null; description?: string | null; fields?: F[] };
  const col = (f: F): SchemaField => ({
    name: f.name,
    type: f.type ?? null,
    description: f.description ?? null,
    ...(f.fields ? { fields: f.fields.map(col) } : {}),
  });
  const names = (fields: F[]) => schemaColumns(fields.map(col)).map((c) => `${c.name} ${c.type ?? '-'}`);

  it('names nested columns by their path from the top, level by level', () => {
    const schema: F[] = [
      { name: 'id', type: 'INT' },
      {
        name: 'addr',
        type: 'STRUCT',
        fields: [
          { name: 'city', type: 'STRING' },
          { name: 'geo', type: 'STRUCT', fields: [{ name: 'lat', type: 'DOUBLE' }] },
        ],
      },
    ];
    expect(names(schema)).to.deep.equal([
      'id INT',
      'addr STRUCT',
      'addr.city STRING',
      'addr.geo STRUCT',
      'addr.geo.lat DOUBLE',
    ]);
    expect(schemaColumns([])).to.deep.equal([]);
  });

  it('a path two columns spell belongs to the one nearest the top, then to the first in order', () => {
    const literalAfter: F[] = [
      { name: 'a', type: 'STRUCT', fields: [{ name: 'b', type: 'NESTED' }] },
      { name: 'a.b', type: 'TOP' },
    ];
    expect(names(literalAfter)).to.deep.equal(['a STRUCT', 'a.b TOP']);
    expect(pathOwners(literalAfter.map(col)).get('a.b')).to.equal(JSON.stringify(['a.b']));
    const sameLevel: F[] = [
      { name: 'a', fields: [{ name: 'b.c', type: 'FIRST' }] },
      { name: 'a.b', fields: [{ name: 'c', type: 'SECOND' }] },
    ];
    expect(names(sameLevel)).to.deep.equal(['a -', 'a.b -', 'a.b.c FIRST']);
  });

  it('a column named twice under the same path is one column, typed as its last mention', () => {
    expect(
      names([
        { name: 's', fields: [{ name: 'x', type: 'INT' }] },
        {
          name: 's',
          fields: [
            { name: 'x', type: 'BIGINT' },
            { name: 'y', type: 'INT' },
          ],
        },
      ]),
    ).to.deep.equal(['s -', 's.x BIGINT', 's.y INT']);
  });
});
