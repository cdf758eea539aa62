import { expect } from 'chai';
import { planRunEvent, datasetRows, RunJobConflict, type RunSoFar } from '../../src/domain/ingest-plan.js';
import type { NormalizedDataset, NormalizedEvent } from '../../src/domain/openlineage/types.js';
import { NO_TIMES } from '../../src/domain/run-state.js';

function ds(name: string, extra: Partial<NormalizedDataset> = {}): NormalizedDataset {
  return {
    namespace: 'pg',
    name,
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
    ...extra,
  };
}

function event(eventType: NormalizedEvent['eventType'], inputs: NormalizedDataset[], outputs: NormalizedDataset[]): NormalizedEvent {
  return {
    kind: 'run',
    eventType,
    eventTime: '2024-06-01T00:00:00.000Z',
    producer: 'p',
    schemaURL: 's',
    run: { id: '01909a1c-0000-7000-8000-000000000001', externalId: '01909a1c-0000-7000-8000-000000000001', facets: {}, nominalStartTime: null, nominalEndTime: null, parent: null },
    job: { namespace: 'airflow', name: 'dag.task', facets: {}, deletedFacets: [], location: null, context: {}, description: null, jobType: null },
    inputs,
    outputs,
    dataset: null,
    raw: {},
  };
}

const fresh: RunSoFar = { times: NO_TIMES, jobNamespace: null, jobName: null, inputs: [], outputs: [], lastEventAt: null, aliases: [] };

describe('ingest plan', () => {
  it('a START is not versioned; a COMPLETE versions the accumulated I/O and completes', () => {
    const start = planRunEvent(event('START', [ds('a')], []), fresh);
    expect(start.jobVersion).to.equal(null);
    expect(start.run.state).to.equal('RUNNING');
    const soFar: RunSoFar = { ...fresh, times: { startedAt: start.run.startedAt, endedAt: null, terminalState: null }, jobNamespace: 'airflow', jobName: 'dag.task', inputs: [{ namespace: 'pg', name: 'a' }] };
    const complete = planRunEvent(event('COMPLETE', [], [ds('b')]), soFar);
    expect(complete.completed).to.equal(true);
    expect(complete.jobVersion!.inputs).to.deep.equal([{ namespace: 'pg', name: 'a' }]);
    expect(complete.jobVersion!.outputs).to.deep.equal([{ namespace: 'pg', name: 'b' }]);
  });

  it('resolves symlink aliases before anything is written', () => {
    const plan = planRunEvent(event('COMPLETE', [ds('/hdfs/t')], []), { ...fresh, aliases: [{ from: { namespace: 'pg', name: '/hdfs/t' }, to: { namespace: 'hive', name: 'db.t' } }] });
    expect(plan.inputs.map((i) => `${i.namespace}/${i.name}`)).to.deep.equal(['hive/db.t']);
    expect(plan.jobVersion!.inputs).to.deep.equal([{ namespace: 'hive', name: 'db.t' }]);
  });

  it('refuses a run id that belongs to another job', () => {
    expect(() => planRunEvent(event('START', [], []), { ...fresh, jobNamespace: 'airflow', jobName: 'other', lastEventAt: '2024-06-01T00:00:00.000Z' })).to.throw(RunJobConflict);
  });

  it("lets a run known only from another run's parent facet (no events of its own yet) take its own job", () => {
    const plan = planRunEvent(event('START', [], []), { ...fresh, jobNamespace: 'airflow', jobName: 'named_by_a_child', lastEventAt: null });
    expect(plan.job).to.include({ namespace: 'airflow', name: 'dag.task' });
  });

  it('merges a dataset read and written in one event into one upsert, in a fixed lock order', () => {
    const rows = datasetRows([ds('z'), ds('a', { description: 'x' }), ds('a', { description: null })]);
    expect(rows.map((r) => r.name)).to.deep.equal(['a', 'z']);
    expect(rows[0].description).to.equal('x');
  });
});
