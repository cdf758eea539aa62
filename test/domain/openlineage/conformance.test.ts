/**
 * The OpenLineage conformance fixtures (test/fixtures/openlineage/) through the ingest parser: every
 * fixture is accepted, and each core facet becomes what the store is given (promoted fields, column
 * lineage edges, run ids, times) or is kept as sent.
 */
import { expect } from 'chai';
import { parseEvent, serviceRunId } from '../../../src/domain/openlineage/normalize.js';
import type { NormalizedEvent } from '../../../src/domain/openlineage/types.js';
import { CORE_FACETS, fixture, loadFixtures } from '../../support/conformance-fixtures.js';

function parsedAll(name: string): NormalizedEvent[] {
  return fixture(name).events.map((body, i) => {
    const result = parseEvent(body);
    if (!result.ok) throw new Error(`${name} event ${i}: ${JSON.stringify(result.problems)}`);
    return result.event;
  });
}
const parsed = (name: string): NormalizedEvent => parsedAll(name)[0];

const SNOWFLAKE = 'snowflake://acme-xy12345';
const PG = 'postgres://orders-db.internal:5432';

describe('OpenLineage conformance fixtures through the ingest parser', () => {
  describe('every fixture', () => {
    for (const f of loadFixtures()) {
      it(`${f.name} is accepted, every facet kept as sent`, () => {
        for (const [i, body] of f.events.entries()) {
          const result = parseEvent(body);
          expect(result.ok, `${f.name} event ${i}: ${JSON.stringify(!result.ok && result.problems)}`).to.equal(true);
          if (!result.ok) continue;
          const e = result.event;
          expect(e.raw).to.equal(body);
          const live = (slot: Record<string, any> | undefined) =>
            Object.fromEntries(Object.entries(slot ?? {}).filter(([, v]) => v._deleted !== true));
          if (e.run) expect(e.run.facets).to.deep.equal(live(body.run.facets));
          if (e.job) expect(e.job.facets).to.deep.equal(live(body.job.facets));
          for (const [slot, list] of [
            ['inputs', e.inputs],
            ['outputs', e.outputs],
          ] as const) {
            list.forEach((d, j) => {
              expect(d.facets).to.deep.equal(live(body[slot][j].facets));
              expect(slot === 'inputs' ? d.inputFacets : d.outputFacets).to.deep.equal(
                body[slot][j][slot === 'inputs' ? 'inputFacets' : 'outputFacets'] ?? {},
              );
            });
          }
          if (e.dataset) expect(e.dataset.facets).to.deep.equal(live(body.dataset.facets));
        }
      });
    }
  });

  it('each core facet of the spec has a fixture that sends it, at its spec version, in its slot', () => {
    for (const core of CORE_FACETS) {
      const sent = fixture(core.fixture).events.flatMap((e) => facetsIn(e, core.slot));
      const found = sent.find(([key, value]) => key === core.key && value._schemaURL === core.schemaURL);
      expect(found, `${core.fixture} sends ${core.slot}.${core.key} as ${core.schemaURL}`).to.not.equal(undefined);
    }
    const covered = new Set(CORE_FACETS.map((c) => c.fixture));
    const facetFixtures = loadFixtures().filter((f) => !f.name.startsWith('events/'));
    expect(facetFixtures.map((f) => f.name).filter((n) => !covered.has(n))).to.deep.equal([]);
  });

  describe('event schemas and kinds', () => {
    it('1-0-5 (#/definitions/): a RunEvent lifecycle with its legacy facets promoted', () => {
      const [start, running, complete] = parsedAll('events/run-1-0-5-definitions.json');
      expect([start.kind, start.eventType, running.eventType, complete.eventType]).to.deep.equal([
        'run',
        'START',
        'RUNNING',
        'COMPLETE',
      ]);
      expect(start.schemaURL).to.equal('https://openlineage.io/spec/1-0-5/OpenLineage.json#/definitions/RunEvent');
      expect(start.eventTime).to.equal('2026-06-01T01:00:00.000Z');
      expect(start.run!.nominalStartTime).to.equal('2026-06-01T00:00:00.000Z');
      expect(start.run!.nominalEndTime).to.equal(null);
      expect(start.run!.parent).to.deep.equal({
        runId: '5e3b0e1d-9a69-4b44-8927-0c1a2b3c4d5e',
        externalRunId: '5e3b0e1d-9a69-4b44-8927-0c1a2b3c4d5e',
        job: { namespace: 'airflow-legacy', name: 'warehouse' },
        root: null,
      });
      expect(start.job!.context).to.deep.equal({
        sql: 'INSERT INTO dim_customers SELECT id, email FROM public.customers',
      });
      expect(start.job!.description).to.equal('Customer dimension');
      const [customers] = start.inputs;
      expect(customers.source).to.deep.equal({ name: PG, uri: `${PG}/shop` });
      expect(customers.fields).to.deep.equal([
        { name: 'id', type: 'integer', description: null },
        { name: 'email', type: 'text', description: 'login e-mail' },
      ]);
      expect(complete.outputs[0].fields).to.deep.equal([
        { name: 'ID', type: 'NUMBER(38,0)', description: null },
        { name: 'EMAIL', type: 'VARCHAR', description: null },
      ]);
      expect(complete.outputs[0].outputFacets.outputStatistics).to.include({ rowCount: 20511, size: 1048576 });
    });

    it('1-0-5 with #/$defs/: a failed run keeps its error message', () => {
      const [start, fail] = parsedAll('events/run-1-0-5-defs-fail.json');
      expect([start.eventType, fail.eventType]).to.deep.equal(['START', 'FAIL']);
      expect(fail.run!.id).to.equal(start.run!.id);
      expect(fail.run!.facets.errorMessage).to.include({ programmingLanguage: 'PYTHON' });
      expect(fail.run!.facets.errorMessage.message).to.match(/^connection to server at "orders-db.internal"/);
    });

    it('2-0-0: an OTHER-only run', () => {
      const e = parsed('events/run-2-0-0-other-only.json');
      expect([e.kind, e.eventType, e.schemaURL]).to.deep.equal([
        'run',
        'OTHER',
        'https://openlineage.io/spec/2-0-0/OpenLineage.json#/$defs/RunEvent',
      ]);
      expect(e.run!.facets.tags.tags).to.deep.equal([{ key: 'triggered_by', value: 'backfill' }]);
    });

    it('2-0-2: START, RUNNING, COMPLETE and a late OTHER of one run; START then ABORT of another', () => {
      const lifecycle = parsedAll('events/run-2-0-2-lifecycle.json');
      expect(lifecycle.map((e) => e.eventType)).to.deep.equal(['START', 'RUNNING', 'COMPLETE', 'OTHER']);
      expect(new Set(lifecycle.map((e) => e.run!.id))).to.deep.equal(new Set(['0190b5e4-7c1a-7d3e-9f2b-000000000601']));
      expect(lifecycle[1].outputs.map((d) => d.name)).to.deep.equal(['lake/sessions']);
      expect(lifecycle[3].run!.facets.processing_engine).to.include({
        name: 'spark',
        version: '3.5.3',
        openlineageAdapterVersion: '1.54.0',
      });
      expect(parsedAll('events/run-2-0-2-abort.json').map((e) => e.eventType)).to.deep.equal(['START', 'ABORT']);
    });

    it('2-0-2: a RunEvent without eventType', () => {
      const e = parsed('events/run-2-0-2-no-event-type.json');
      expect([e.kind, e.eventType]).to.deep.equal(['run', null]);
      expect(e.inputs.map((d) => d.name)).to.deep.equal(['shop.public.orders']);
    });

    it('JobEvent 2-0-2 and 2-0-0 (#/definitions/): a job with its datasets and no run', () => {
      const e = parsed('events/job-2-0-2.json');
      expect([e.kind, e.eventType, e.run]).to.deep.equal(['job', null, null]);
      expect(e.job!.jobType).to.deep.equal({ processingType: 'BATCH', integration: 'DBT', jobType: 'MODEL' });
      expect(e.job!.context).to.deep.equal({ sql: 'select * from {{ ref("stg_orders") }}' });
      expect(e.job!.description).to.equal('Orders mart model');
      expect(e.outputs[0].fields!.map((f) => f.name)).to.deep.equal(['ORDER_ID', 'STATUS']);
      const old = parsed('events/job-2-0-0-definitions.json');
      expect([old.kind, old.schemaURL, old.eventTime]).to.deep.equal([
        'job',
        'https://openlineage.io/spec/2-0-0/OpenLineage.json#/definitions/JobEvent',
        '2026-06-01T07:05:00.000Z',
      ]);
      expect([old.inputs[0].name, old.outputs[0].name]).to.deep.equal([
        'ANALYTICS.STAGING.CUSTOMERS',
        'ANALYTICS.SNAPSHOTS.CUSTOMERS',
      ]);
    });

    it('DatasetEvent 2-0-2 and 2-0-1 (#/definitions/, offset time): a dataset with its facets promoted', () => {
      const e = parsed('events/dataset-2-0-2.json');
      expect([e.kind, e.eventType, e.run, e.job]).to.deep.equal(['dataset', null, null, null]);
      expect(e.dataset!.fields).to.deep.equal([
        { name: 'refund_id', type: 'uuid', description: null },
        { name: 'order_id', type: 'bigint', description: null },
        { name: 'amount', type: 'numeric(12,2)', description: null },
      ]);
      expect(e.dataset!.description).to.equal('Refunds issued by customer service');
      expect(e.dataset!.source).to.deep.equal({ name: PG, uri: `${PG}/shop` });
      const old = parsed('events/dataset-2-0-1-definitions.json');
      expect([old.kind, old.eventTime, old.dataset!.lifecycleState]).to.deep.equal([
        'dataset',
        '2026-06-01T06:05:00.000Z',
        'CREATE',
      ]);
    });

    it('custom facets are kept as sent in every slot, promoting nothing', () => {
      const e = parsed('events/run-custom-facets.json');
      expect(Object.keys(e.run!.facets).sort()).to.deep.equal(['acme_cost', 'spark_properties']);
      expect(e.job!.facets.acme_team).to.include({ slack: '#orders-data' });
      expect(e.job!.jobType).to.equal(null);
      expect(e.inputs[0].facets.acme_retention).to.include({ days: 90 });
      expect(e.inputs[0].inputFacets.acme_sampling).to.include({ fraction: 0.1 });
      expect(e.outputs[0].outputFacets.acme_quality_gate).to.include({ passed: true });
      expect([e.inputs[0].fields, e.inputs[0].source]).to.deep.equal([null, null]);
    });

    it('facets sent with _deleted: true are named for removal, not kept', () => {
      const [start, complete] = parsedAll('events/run-deleted-facets.json');
      expect(start.job!.description).to.equal("Archives last year's orders");
      expect(start.outputs[0].description).to.equal('Archived orders');
      expect([complete.job!.deletedFacets, complete.job!.facets, complete.job!.description]).to.deep.equal([
        ['documentation'],
        {},
        null,
      ]);
      expect(complete.outputs[0].deletedFacets).to.deep.equal(['documentation']);
      expect(complete.outputs[0].facets).to.deep.equal({});
    });
  });

  describe('dataset facets', () => {
    it('schema 1-2-0: fields with types, descriptions and nested columns', () => {
      const [orders] = parsed('dataset/schema.json').outputs;
      expect(orders.fields).to.deep.equal([
        { name: 'order_id', type: 'BIGINT', description: 'Primary key' },
        {
          name: 'customer',
          type: 'STRUCT',
          description: null,
          fields: [
            { name: 'id', type: 'BIGINT', description: null },
            {
              name: 'address',
              type: 'STRUCT',
              description: null,
              fields: [
                { name: 'city', type: 'VARCHAR', description: null },
                { name: 'country', type: 'CHAR(2)', description: 'ISO 3166-1 alpha-2' },
              ],
            },
          ],
        },
        {
          name: 'line_items',
          type: 'ARRAY',
          description: null,
          fields: [
            {
              name: '_element',
              type: 'STRUCT',
              description: null,
              fields: [
                { name: 'sku', type: 'VARCHAR', description: null },
                { name: 'quantity', type: 'INTEGER', description: null },
              ],
            },
          ],
        },
        { name: 'amount', type: 'DECIMAL(12,2)', description: null },
      ]);
    });

    it('dataSource 1-0-1 becomes the source (name and URI)', () => {
      expect(parsed('dataset/dataSource.json').inputs[0].source).to.deep.equal({ name: PG, uri: `${PG}/shop` });
    });

    it('documentation 1-1-0 becomes the description', () => {
      expect(parsed('dataset/documentation.json').outputs[0].description).to.equal(
        'One row per order line, loaded daily from the shop database.',
      );
    });

    it('lifecycleStateChange 1-0-1 becomes the lifecycle state (RENAME, previous identifier kept)', () => {
      const [renamed] = parsed('dataset/lifecycleStateChange.json').outputs;
      expect(renamed.lifecycleState).to.equal('RENAME');
      expect(renamed.facets.lifecycleStateChange.previousIdentifier).to.deep.equal({
        namespace: SNOWFLAKE,
        name: 'ANALYTICS.STAGING.ORDERS',
      });
    });

    it('datasetType 1-0-1 becomes the dataset type', () => {
      expect(parsed('dataset/datasetType.json').outputs[0].datasetType).to.equal('VIEW');
    });

    it('symlinks 1-0-1 become symlinks; the second event reads the dataset by its symlinked name', () => {
      const [write, read] = parsedAll('dataset/symlinks.json');
      expect(write.outputs[0].symlinks).to.deep.equal([
        { namespace: 'hive://metastore.internal:9083', name: 'curated.orders', type: 'TABLE' },
      ]);
      expect(read.inputs[0]).to.include({ namespace: 'hive://metastore.internal:9083', name: 'curated.orders' });
    });

    it('columnLineage 1-0-1: one edge per input column, the per-field transformationType as a transformation', () => {
      const [staging] = parsed('dataset/columnLineage-1-0-1.json').outputs;
      expect(staging.columnLineage).to.deep.equal([
        {
          field: 'amount_eur',
          inputFields: [
            {
              namespace: PG,
              name: 'shop.public.orders',
              field: 'amount',
              transformations: [{ type: 'TRANSFORMED', description: 'amount * rate' }],
            },
            {
              namespace: PG,
              name: 'shop.public.fx_rates',
              field: 'rate',
              transformations: [{ type: 'TRANSFORMED', description: 'amount * rate' }],
            },
          ],
        },
        {
          field: 'email_hash',
          inputFields: [
            {
              namespace: PG,
              name: 'shop.public.customers',
              field: 'email',
              transformations: [{ type: 'MASKED', description: 'sha256(email)' }],
            },
          ],
        },
        {
          field: 'order_id',
          inputFields: [
            {
              namespace: PG,
              name: 'shop.public.orders',
              field: 'id',
              transformations: [{ type: 'IDENTITY', description: 'identical' }],
            },
          ],
        },
      ]);
    });

    it('columnLineage 1-2-0: transformations kept, dataset-wide inputs feed every output column', () => {
      const [revenue] = parsed('dataset/columnLineage-1-2-0.json').outputs;
      const t = (type: string, subtype: string, description = '') => ({ type, subtype, description, masking: false });
      const orders = (field: string, ...transformations: object[]) => ({
        namespace: SNOWFLAKE,
        name: 'ANALYTICS.STAGING.ORDERS',
        field,
        transformations,
      });
      const filter = orders('STATUS', t('INDIRECT', 'FILTER', "STATUS = 'PAID'"));
      const sort = orders('CREATED_AT', t('INDIRECT', 'SORT'));
      expect(revenue.columnLineage).to.deep.equal([
        { field: 'customer_id', inputFields: [orders('CUSTOMER_ID', t('DIRECT', 'IDENTITY')), filter, sort] },
        {
          field: 'order_day',
          // CREATED_AT is named by the column and dataset-wide: one edge with both sets of transformations.
          inputFields: [
            orders(
              'CREATED_AT',
              t('DIRECT', 'TRANSFORMATION', 'DATE_TRUNC(day, CREATED_AT)'),
              t('INDIRECT', 'GROUP_BY'),
              t('INDIRECT', 'SORT'),
            ),
            filter,
          ],
        },
        { field: 'revenue', inputFields: [orders('AMOUNT', t('DIRECT', 'AGGREGATION', 'SUM(AMOUNT)')), filter, sort] },
      ]);
    });

    const keptOnly: [string, string, 'inputs' | 'outputs' | 'dataset', (facet: any) => void][] = [
      [
        'dataset/catalog.json',
        'catalog',
        'outputs',
        (f) => expect(f).to.include({ framework: 'iceberg', type: 'glue', name: 'lake_catalog' }),
      ],
      [
        'dataset/dataQualityMetrics.json',
        'dataQualityMetrics',
        'dataset',
        (f) => expect(f.columnMetrics.revenue).to.include({ nullCount: 0, distinctCount: 1458 }),
      ],
      [
        'dataset/hierarchy.json',
        'hierarchy',
        'inputs',
        (f) => expect(f.hierarchy.map((l: any) => l.type)).to.deep.equal(['DATABASE', 'SCHEMA', 'TABLE']),
      ],
      [
        'dataset/lineage.json',
        'lineage',
        'dataset',
        (f) => expect(f.fields.customer_id.inputs[0]).to.include({ field: 'id' }),
      ],
      [
        'dataset/ownership.json',
        'ownership',
        'outputs',
        (f) =>
          expect(f.owners).to.deep.equal([
            { name: 'team:analytics-engineering', type: 'OWNER' },
            { name: 'user:asmith', type: 'STEWARD' },
          ]),
      ],
      [
        'dataset/storage.json',
        'storage',
        'outputs',
        (f) => expect(f).to.include({ storageLayer: 'iceberg', fileFormat: 'parquet' }),
      ],
      [
        'dataset/tags.json',
        'tags',
        'outputs',
        (f) =>
          expect(f.tags[1]).to.deep.equal({ key: 'pii', value: 'true', source: 'DBT CORE', field: 'CUSTOMER_EMAIL' }),
      ],
      ['dataset/version.json', 'version', 'inputs', (f) => expect(f.datasetVersion).to.equal('4871651368295133431')],
    ];
    for (const [name, key, where, check] of keptOnly) {
      it(`${key} is kept as sent and promotes nothing (${name})`, () => {
        const e = parsed(name);
        const d = where === 'dataset' ? e.dataset! : e[where][0];
        check(d.facets[key]);
        expect([
          d.fields,
          d.source,
          d.description,
          d.lifecycleState,
          d.datasetType,
          d.symlinks,
          d.columnLineage,
        ]).to.deep.equal([null, null, null, null, null, [], []]);
      });
    }
  });

  describe('input and output dataset facets', () => {
    const cases: [string, 'inputs' | 'outputs', string, object][] = [
      [
        'input/dataQualityAssertions.json',
        'inputs',
        'dataQualityAssertions',
        { assertion: 'not_null', success: true, column: 'id', severity: 'error', name: 'not_null_orders_id' },
      ],
      [
        'input/dataQualityMetrics.json',
        'inputs',
        'dataQualityMetrics',
        { rowCount: 120433, bytes: 9830112, fileCount: 4 },
      ],
      ['input/icebergScanReport.json', 'inputs', 'icebergScanReport', { schemaId: 3 }],
      ['input/inputStatistics.json', 'inputs', 'inputStatistics', { rowCount: 120433, size: 9830112, fileCount: 4 }],
      [
        'input/subset.json',
        'inputs',
        'subset',
        { inputCondition: fixture('input/subset.json').events[0].inputs[0].inputFacets.subset.inputCondition },
      ],
      [
        'output/icebergCommitReport.json',
        'outputs',
        'icebergCommitReport',
        { sequenceNumber: 118, operation: 'append' },
      ],
      [
        'output/outputStatistics.json',
        'outputs',
        'outputStatistics',
        { rowCount: 120421, size: 7340032, fileCount: 2 },
      ],
      [
        'output/subset.json',
        'outputs',
        'subset',
        { outputCondition: { type: 'location', locations: ['s3://acme-lake/warehouse/orders/data/dt=2026-06-01'] } },
      ],
    ];
    for (const [name, side, key, expected] of cases) {
      it(`${key} stays in the ${side === 'inputs' ? 'inputFacets' : 'outputFacets'} of its dataset (${name})`, () => {
        const [d] = parsed(name)[side];
        const slot = side === 'inputs' ? d.inputFacets : d.outputFacets;
        const facet = key === 'dataQualityAssertions' ? (slot[key] as any).assertions[0] : slot[key];
        expect(facet).to.deep.include(expected);
        expect(d.facets).to.deep.equal({});
      });
    }
  });

  describe('job facets', () => {
    it('documentation 1-1-0 becomes the description', () => {
      expect(parsed('job/documentation.json').job!.description).to.equal(
        "Loads the day's orders from the shop database into the Snowflake staging schema.",
      );
    });

    it('jobType 2-0-4 becomes the job type, batch and streaming', () => {
      expect(parsed('job/jobType-batch.json').job!.jobType).to.deep.equal({
        processingType: 'BATCH',
        integration: 'SPARK',
        jobType: 'SQL_JOB',
      });
      const streaming = parsed('job/jobType-streaming.json').job!;
      expect(streaming.jobType).to.deep.equal({ processingType: 'STREAMING', integration: 'FLINK', jobType: 'JOB' });
      expect(streaming.facets.jobType.emissionPattern).to.deep.equal({
        eventTrigger: 'PERIODIC',
        eventContentMode: 'COMPLETE_SNAPSHOT',
        windowDuration: 300,
      });
    });

    it('sourceCodeLocation 1-1-0 becomes the location', () => {
      const [start, complete] = parsedAll('job/sourceCodeLocation.json');
      expect(start.job!.location).to.equal(
        'https://github.com/acme/data-pipelines/blob/9b1c3f7e2d4a/dags/orders_daily.py',
      );
      expect(complete.job!.location).to.equal(start.job!.location);
    });

    it('sql 1-1-0 becomes the job context', () => {
      expect(parsed('job/sql.json').job!.context).to.deep.equal({
        sql:
          'INSERT INTO analytics.staging.orders SELECT order_id, customer_id, amount, created_at FROM ' +
          'shop.public.orders WHERE created_at >= %(ds)s',
      });
    });

    it('sourceCode, ownership, tags and lineage are kept as sent and promote nothing', () => {
      for (const [name, key] of [
        ['job/sourceCode.json', 'sourceCode'],
        ['job/ownership.json', 'ownership'],
        ['job/tags.json', 'tags'],
        ['job/lineage.json', 'lineage'],
      ]) {
        const job = parsed(name).job!;
        expect(Object.keys(job.facets), name).to.deep.equal([key]);
        expect([job.location, job.context, job.description, job.jobType], name).to.deep.equal([null, {}, null, null]);
      }
      expect(parsed('job/sourceCode.json').job!.facets.sourceCode.language).to.equal('python');
      expect(parsed('job/ownership.json').job!.facets.ownership.owners).to.deep.equal([
        { name: 'team:data-platform', type: 'MAINTAINER' },
        { name: 'user:jdoe' },
      ]);
      expect(parsed('job/lineage.json').kind).to.equal('job');
    });
  });

  describe('run facets', () => {
    it('nominalTime 1-0-1 becomes the nominal start and end, in UTC', () => {
      const run = parsed('run/nominalTime.json').run!;
      expect([run.nominalStartTime, run.nominalEndTime]).to.deep.equal([
        '2026-06-01T00:00:00.000Z',
        '2026-06-02T00:00:00.000Z',
      ]);
    });

    it('parent 1-2-0 becomes the parent run and its root', () => {
      const ref = {
        runId: '0190b5e4-7c1a-7d3e-9f2b-0000000001ff',
        externalRunId: '0190b5e4-7c1a-7d3e-9f2b-0000000001ff',
        job: { namespace: 'airflow-prod', name: 'orders_daily' },
      };
      expect(parsed('run/parent.json').run!.parent).to.deep.equal({ ...ref, root: ref });
    });

    it('parent 1-0-1 (no root) becomes the parent run', () => {
      expect(parsed('run/parent-1-0-1.json').run!.parent).to.deep.equal({
        runId: '0190b5e4-7c1a-7d3e-9f2b-0000000001fe',
        externalRunId: '0190b5e4-7c1a-7d3e-9f2b-0000000001fe',
        job: { namespace: 'spark-prod', name: 'orders_enrichment' },
        root: null,
      });
    });

    it('errorMessage 1-0-1 is kept on the FAIL event of its run', () => {
      const [start, fail] = parsedAll('run/errorMessage.json');
      expect([start.eventType, fail.eventType, fail.run!.id]).to.deep.equal([
        'START',
        'FAIL',
        serviceRunId('0190b5e4-7c1a-7d3e-9f2b-000000000104'),
      ]);
      expect(fail.run!.facets.errorMessage).to.include({
        message: 'psycopg2.errors.UndefinedColumn: column "discount_code" does not exist',
        programmingLanguage: 'PYTHON',
      });
      expect(fail.run!.facets.errorMessage.stackTrace).to.match(/^Traceback/);
    });

    const keptOnly: [string, string, (facet: any) => void][] = [
      [
        'run/environmentVariables.json',
        'environmentVariables',
        (f) =>
          expect(f.environmentVariables).to.deep.equal([
            { name: 'SPARK_HOME', value: '/opt/spark' },
            { name: 'AWS_REGION', value: 'eu-west-1' },
          ]),
      ],
      [
        'run/executionParameters.json',
        'executionParameters',
        (f) => expect(f.parameters[1]).to.deep.equal({ key: 'retries', value: '3' }),
      ],
      [
        'run/externalQuery.json',
        'externalQuery',
        (f) =>
          expect(f).to.include({
            externalQueryId: 'acme-analytics:US.bquxjob_5f3c2a1b_18f0c2d4e6a',
            source: 'bigquery',
          }),
      ],
      ['run/extractionError.json', 'extractionError', (f) => expect(f).to.include({ totalTasks: 3, failedTasks: 1 })],
      [
        'run/jobDependencies.json',
        'jobDependencies',
        (f) => expect(f.upstream[0].job).to.deep.equal({ namespace: 'airflow-prod', name: 'orders_daily' }),
      ],
      [
        'run/processing_engine.json',
        'processing_engine',
        (f) => expect(f).to.include({ name: 'Airflow', version: '2.10.4', openlineageAdapterVersion: '2.5.0' }),
      ],
      [
        'run/tags.json',
        'tags',
        (f) => expect(f.tags.map((t: any) => t.key)).to.deep.equal(['environment', 'cost_center']),
      ],
      ['run/test.json', 'test', (f) => expect(f.tests.map((t: any) => t.status)).to.deep.equal(['pass', 'fail'])],
    ];
    for (const [name, key, check] of keptOnly) {
      it(`${key} is kept as sent and promotes nothing (${name})`, () => {
        const run = parsed(name).run!;
        expect(Object.keys(run.facets)).to.deep.equal([key]);
        check(run.facets[key]);
        expect([run.nominalStartTime, run.nominalEndTime, run.parent]).to.deep.equal([null, null, null]);
      });
    }
  });
});

/** [key, facet] of every facet an event sends in a slot. */
function facetsIn(event: Record<string, any>, slot: string): [string, Record<string, any>][] {
  const entries = (m: unknown) => Object.entries((m ?? {}) as Record<string, Record<string, any>>);
  const datasets = [...(event.inputs ?? []), ...(event.outputs ?? []), ...(event.dataset ? [event.dataset] : [])];
  switch (slot) {
    case 'run':
      return entries(event.run?.facets);
    case 'job':
      return entries(event.job?.facets);
    case 'dataset':
      return datasets.flatMap((d) => entries(d.facets));
    case 'input':
      return (event.inputs ?? []).flatMap((d: any) => entries(d.inputFacets));
    default:
      return (event.outputs ?? []).flatMap((d: any) => entries(d.outputFacets));
  }
}
