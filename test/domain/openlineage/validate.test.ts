import { expect } from 'chai';
import { eventKind, parseIsoDateTime, validateShape } from '../../../src/domain/openlineage/validate.js';

const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.0/integration/airflow';
const RUN_EVENT_SCHEMA = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

function runEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventType: 'START',
    eventTime: '2024-06-01T10:00:00.000Z',
    producer: PRODUCER,
    schemaURL: RUN_EVENT_SCHEMA,
    run: { runId: '0190a4a3-8d1c-7b5e-9f00-1a2b3c4d5e6f' },
    job: { namespace: 'airflow', name: 'orders.load' },
    inputs: [{ namespace: 'postgres://db:5432', name: 'shop.public.orders' }],
    outputs: [],
    ...overrides,
  };
}

const paths = (body: unknown) => validateShape(body).map((p) => p.path);

describe('OpenLineage validateShape', () => {
  describe('accepts', () => {
    for (const eventType of ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER']) {
      it(`a run event with eventType ${eventType}`, () => {
        expect(validateShape(runEvent({ eventType }))).to.deep.equal([]);
      });
    }

    it('a run event without eventType (optional in the spec) or with a null one', () => {
      const { eventType: _omitted, ...noType } = runEvent();
      expect(validateShape(noType)).to.deep.equal([]);
      expect(validateShape(runEvent({ eventType: null }))).to.deep.equal([]);
    });

    it('a JobEvent (job, no run) and a DatasetEvent (dataset, no job or run)', () => {
      const jobEvent = {
        eventTime: '2024-06-01T10:00:00Z',
        producer: PRODUCER,
        job: { namespace: 'ns', name: 'j' },
        inputs: [],
        outputs: [],
      };
      const datasetEvent = {
        eventTime: '2024-06-01T10:00:00Z',
        producer: PRODUCER,
        dataset: { namespace: 'ns', name: 'd', facets: {} },
      };
      expect(validateShape(jobEvent)).to.deep.equal([]);
      expect(validateShape(datasetEvent)).to.deep.equal([]);
    });

    it('a missing or null schemaURL, and the older #/definitions/ form', () => {
      const { schemaURL: _omitted, ...noSchemaUrl } = runEvent();
      expect(validateShape(noSchemaUrl)).to.deep.equal([]);
      expect(validateShape(runEvent({ schemaURL: null }))).to.deep.equal([]);
      expect(
        validateShape(
          runEvent({ schemaURL: 'https://openlineage.io/spec/1-0-5/OpenLineage.json#/definitions/RunEvent' }),
        ),
      ).to.deep.equal([]);
    });

    it('a runId that is not a UUID', () => {
      expect(validateShape(runEvent({ run: { runId: 'scheduled__2024-06-01T00:00:00+00:00' } }))).to.deep.equal([]);
    });

    it('unknown top-level keys and custom facets everywhere', () => {
      const body = runEvent({
        x_team: { owner: 'data-platform' },
        run: {
          runId: 'r-1',
          facets: {
            myCompany_cost: { _producer: PRODUCER, _schemaURL: 'https://example.com/cost.json', dollars: 3.5 },
          },
        },
        job: { namespace: 'ns', name: 'j', facets: { ownership: { owners: [{ name: 'alice' }] } } },
        inputs: [
          {
            namespace: 'ns',
            name: 'd',
            facets: { custom: { anything: [1, 2] } },
            inputFacets: { dataQualityMetrics: { rowCount: 3 } },
          },
        ],
      });
      expect(validateShape(body)).to.deep.equal([]);
    });

    it('odd content in run facets that normalization ignores (incomplete parent, numeric nominal time)', () => {
      const body = runEvent({
        run: {
          runId: 'r',
          facets: { parent: { run: 'not-an-object' }, nominalTime: { nominalStartTime: 1717236000 } },
        },
      });
      expect(validateShape(body)).to.deep.equal([]);
    });

    it('a facet marked _deleted with nothing else in it', () => {
      const body = {
        eventTime: '2024-06-01T10:00:00Z',
        producer: PRODUCER,
        dataset: { namespace: 'ns', name: 'd', facets: { schema: { _deleted: true } } },
      };
      expect(validateShape(body)).to.deep.equal([]);
    });

    it(
      "symlink identifiers that are no list, read as no symlinks (the Python client's legacy SymlinksDatasetFacet() " +
        'sends {})',
      () => {
        for (const identifiers of [{}, null, 'hive.orders']) {
          const body = runEvent({ inputs: [{ namespace: 'ns', name: 'd', facets: { symlinks: { identifiers } } }] });
          expect(paths(body), JSON.stringify(identifiers)).to.deep.equal([]);
        }
      },
    );
  });

  describe('rejects with a JSON pointer', () => {
    it('a missing producer at /producer', () => {
      const { producer: _omitted, ...body } = runEvent();
      expect(validateShape(body)).to.deep.equal([{ path: '/producer', message: 'is required' }]);
    });

    it('an empty producer at /producer', () => {
      expect(validateShape(runEvent({ producer: '' }))).to.deep.equal([
        { path: '/producer', message: 'must not be empty' },
      ]);
    });

    it('a missing eventTime at /eventTime', () => {
      const { eventTime: _omitted, ...body } = runEvent();
      expect(paths(body)).to.deep.equal(['/eventTime']);
    });

    it('a missing or empty run.runId at /run/runId', () => {
      expect(validateShape(runEvent({ run: { facets: {} } }))).to.deep.equal([
        { path: '/run/runId', message: 'is required' },
      ]);
      expect(paths(runEvent({ run: { runId: '' } }))).to.deep.equal(['/run/runId']);
      expect(paths(runEvent({ run: { runId: 42 } }))).to.deep.equal(['/run/runId']);
    });

    it('a job without namespace or name', () => {
      expect(paths(runEvent({ job: { name: 'j' } }))).to.deep.equal(['/job/namespace']);
      expect(paths(runEvent({ job: { namespace: 'ns', name: '' } }))).to.deep.equal(['/job/name']);
    });

    it('a dataset without name at /inputs/0/name, and one without namespace in outputs', () => {
      expect(validateShape(runEvent({ inputs: [{ namespace: 'ns' }] }))).to.deep.equal([
        { path: '/inputs/0/name', message: 'is required' },
      ]);
      expect(paths(runEvent({ outputs: [{ namespace: 'ns', name: 'ok' }, { name: 'd' }] }))).to.deep.equal([
        '/outputs/1/namespace',
      ]);
      const datasetEvent = { eventTime: '2024-06-01T10:00:00Z', producer: PRODUCER, dataset: { namespace: 'ns' } };
      expect(paths(datasetEvent)).to.deep.equal(['/dataset/name']);
    });

    it('inputs that are not an array of objects', () => {
      expect(paths(runEvent({ inputs: { namespace: 'ns', name: 'd' } }))).to.deep.equal(['/inputs']);
      expect(paths(runEvent({ inputs: ['ns.d'] }))).to.deep.equal(['/inputs/0']);
    });

    it('an eventType that is not one of the exact upper-case values', () => {
      expect(validateShape(runEvent({ eventType: 'start' }))).to.deep.equal([
        { path: '/eventType', message: 'must be one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER' },
      ]);
      expect(paths(runEvent({ eventType: 'DONE' }))).to.deep.equal(['/eventType']);
    });

    it('an unparseable eventTime at /eventTime', () => {
      for (const eventTime of [
        'yesterday',
        '2024-06-01',
        '2024-13-01T10:00:00Z',
        '2024-02-30T10:00:00Z',
        '2024-06-01T25:00:00Z',
        '2024-06-01T10:00:00+25:00',
        // The edge histories' "forever", and the instants of year 9999 after it in its zone.
        '9999-12-31T23:59:59.999Z',
        '9999-12-31T23:59:59.999999Z',
        '',
      ]) {
        expect(paths(runEvent({ eventTime })), eventTime).to.deep.equal(['/eventTime']);
      }
      expect(paths(runEvent({ eventTime: 1717236000000 }))).to.deep.equal(['/eventTime']);
    });

    it('a body that is not an object, at the root', () => {
      for (const body of [[], 'event', null, 42, undefined]) {
        expect(validateShape(body)).to.deep.equal([{ path: '', message: 'the event must be a JSON object' }]);
      }
    });

    it('facet slots or facets that are arrays', () => {
      expect(paths(runEvent({ run: { runId: 'r', facets: [] } }))).to.deep.equal(['/run/facets']);
      expect(paths(runEvent({ job: { namespace: 'ns', name: 'j', facets: { sql: ['select 1'] } } }))).to.deep.equal([
        '/job/facets/sql',
      ]);
      expect(paths(runEvent({ inputs: [{ namespace: 'ns', name: 'd', facets: [] }] }))).to.deep.equal([
        '/inputs/0/facets',
      ]);
      expect(paths(runEvent({ inputs: [{ namespace: 'ns', name: 'd', inputFacets: { stats: [] } }] }))).to.deep.equal([
        '/inputs/0/inputFacets/stats',
      ]);
      expect(paths(runEvent({ outputs: [{ namespace: 'ns', name: 'd', outputFacets: 'x' }] }))).to.deep.equal([
        '/outputs/0/outputFacets',
      ]);
      expect(paths(runEvent({ outputs: [{ namespace: 'ns', name: 'd', facets: { schema: [] } }] }))).to.deep.equal([
        '/outputs/0/facets/schema',
      ]);
    });

    it('schema fields that are not objects with a name, however deeply nested', () => {
      const withFields = (fields: unknown) =>
        runEvent({ outputs: [{ namespace: 'ns', name: 'd', facets: { schema: { fields } } }] });
      expect(paths(withFields({ id: 'int' }))).to.deep.equal(['/outputs/0/facets/schema/fields']);
      expect(paths(withFields(['id']))).to.deep.equal(['/outputs/0/facets/schema/fields/0']);
      expect(paths(withFields([{ type: 'int' }]))).to.deep.equal(['/outputs/0/facets/schema/fields/0/name']);
      expect(
        paths(withFields([{ name: 'address', type: 'struct', fields: [{ name: 'zip' }, { name: 7 }] }])),
      ).to.deep.equal(['/outputs/0/facets/schema/fields/0/fields/1/name']);
    });

    it('symlink identifiers without namespace or name', () => {
      const body = runEvent({
        inputs: [
          { namespace: 'ns', name: 'd', facets: { symlinks: { identifiers: [{ namespace: 'hive', type: 'TABLE' }] } } },
        ],
      });
      expect(paths(body)).to.deep.equal(['/inputs/0/facets/symlinks/identifiers/0/name']);
    });

    it('column lineage input fields that do not name a column', () => {
      const body = runEvent({
        outputs: [
          {
            namespace: 'ns',
            name: 'd',
            facets: {
              columnLineage: { fields: { total: { inputFields: [{ namespace: 'ns', name: 'src' }] }, qty: {} } },
            },
          },
        ],
      });
      expect(paths(body)).to.have.members([
        '/outputs/0/facets/columnLineage/fields/total/inputFields/0/field',
        '/outputs/0/facets/columnLineage/fields/qty/inputFields',
      ]);
    });

    it('reports every problem at once', () => {
      const body = {
        eventTime: 'soon',
        eventType: 'begin',
        run: { runId: '' },
        job: { namespace: 'ns' },
        inputs: [{ name: 'd' }],
      };
      expect(paths(body)).to.have.members([
        '/eventTime',
        '/eventType',
        '/producer',
        '/run/runId',
        '/job/name',
        '/inputs/0/namespace',
      ]);
    });

    it('an event with neither run+job, job nor dataset', () => {
      expect(validateShape({ eventTime: '2024-06-01T10:00:00Z', producer: PRODUCER })).to.deep.equal([
        { path: '', message: 'the event must have run and job (RunEvent), job (JobEvent) or dataset (DatasetEvent)' },
      ]);
    });

    it('a run without its job, pointing at /job', () => {
      const { job: _omitted, ...body } = runEvent();
      expect(paths(body)).to.deep.equal(['/job']);
    });
  });
});

describe('OpenLineage eventKind', () => {
  it('follows the spec rule: run+job, else job without dataset, else dataset', () => {
    expect(eventKind({ run: {}, job: {} })).to.equal('run');
    expect(eventKind({ run: {}, job: {}, dataset: {} })).to.equal('run');
    expect(eventKind({ job: {} })).to.equal('job');
    expect(eventKind({ job: {}, dataset: {} })).to.equal('dataset');
    expect(eventKind({ run: {}, dataset: {} })).to.equal('dataset');
    expect(eventKind({ dataset: {} })).to.equal('dataset');
    expect(eventKind({ run: {} })).to.equal(null);
    expect(eventKind({})).to.equal(null);
  });
});

describe('OpenLineage parseIsoDateTime', () => {
  it('reads offsets, precision and missing offsets', () => {
    const utc = Date.parse('2024-01-01T08:00:00.123Z');
    expect(parseIsoDateTime('2024-01-01T10:00:00.123+02:00')).to.equal(utc);
    expect(parseIsoDateTime('2024-01-01T10:00:00.123+0200')).to.equal(utc);
    expect(parseIsoDateTime('2024-01-01T10:00:00.123+02')).to.equal(utc);
    expect(parseIsoDateTime('2024-01-01T03:30:00.123-04:30')).to.equal(utc);
    expect(parseIsoDateTime('2024-01-01T08:00:00.123456789Z')).to.equal(utc);
    expect(parseIsoDateTime('2024-01-01T08:00:00.123')).to.equal(utc);
    expect(parseIsoDateTime('2024-01-01T08:00Z')).to.equal(Date.parse('2024-01-01T08:00:00Z'));
  });

  it('knows the calendar', () => {
    expect(parseIsoDateTime('2024-02-29T00:00:00Z')).to.equal(Date.parse('2024-02-29T00:00:00Z'));
    expect(parseIsoDateTime('2023-02-29T00:00:00Z')).to.equal(null);
    expect(parseIsoDateTime('2100-02-29T00:00:00Z')).to.equal(null);
    expect(parseIsoDateTime('2024-04-31T00:00:00Z')).to.equal(null);
    expect(parseIsoDateTime('2024-01-01T10:60:00Z')).to.equal(null);
    expect(parseIsoDateTime('2024-01-01T10:00:00+02:75')).to.equal(null);
  });
});
