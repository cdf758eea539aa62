import { expect } from 'chai';
import { planBatch } from '../../../src/domain/ingest/batch-plan.js';
import { AliasMap } from '../../../src/domain/ingest/aliases.js';
import { RunJobConflict } from '../../../src/domain/ingest/run-fold.js';
import { NEW_RUN, type StoredState } from '../../../src/domain/ingest/stored.js';
import type { Incoming } from '../../../src/domain/ingest/rows.js';
import type { NormalizedDataset, NormalizedEvent } from '../../../src/domain/openlineage/types.js';
import { parseStamps } from '../../../src/domain/facet-stamps.js';
import { refKey } from '../../../src/domain/ingest/keys.js';

const RUN = '01909a1c-0000-7000-8000-000000000001';

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

function event(
  eventType: NormalizedEvent['eventType'],
  time: string,
  inputs: NormalizedDataset[],
  outputs: NormalizedDataset[],
  jobFacets: Record<string, Record<string, unknown>> = {},
): Incoming {
  const sql = jobFacets.sql?.query as string | undefined;
  return {
    receivedAt: time,
    event: {
      kind: 'run',
      eventType,
      eventTime: time,
      producer: 'p',
      schemaURL: 's',
      run: { id: RUN, externalId: RUN, facets: {}, nominalStartTime: null, nominalEndTime: null, parent: null },
      job: {
        namespace: 'airflow',
        name: 'dag.task',
        facets: jobFacets,
        deletedFacets: [],
        location: null,
        context: sql ? { sql } : {},
        description: null,
        jobType: null,
      },
      inputs,
      outputs,
      dataset: null,
      raw: { eventTime: time, eventType },
    },
  };
}

const empty = (): StoredState => ({
  runs: new Map(),
  aliases: new AliasMap(),
  datasetStamps: new Map(),
  jobStamps: new Map(),
  edges: new Map(),
});
const schema = (...names: string[]) => ({
  schema: { _producer: 'p', _schemaURL: 's', fields: names.map((name) => ({ name, type: 'INT' })) },
});

describe('batch plan', () => {
  it("a START is not versioned; its COMPLETE versions the run's whole I/O and commits what it wrote", () => {
    const start = planBatch([event('START', '2024-06-01T00:00:00.000Z', [ds('a')], [])], empty());
    expect(start.versions).to.deep.equal([]);
    expect(start.runs[0].state).to.equal('RUNNING');
    const stored = empty();
    stored.runs.set(RUN, {
      ...NEW_RUN,
      times: { startedAt: '2024-06-01T00:00:00.000Z', endedAt: null, terminalState: null },
      createdAt: '2024-06-01T00:00:00.000Z',
      lastEventAt: '2024-06-01T00:00:00.000Z',
      jobNamespace: 'airflow',
      jobName: 'dag.task',
      reads: [{ namespace: 'pg', name: 'a', at: '2024-06-01T00:00:00.000Z', stamps: [] }],
    });
    const complete = planBatch([event('COMPLETE', '2024-06-01T00:05:00.000Z', [], [ds('b')])], stored);
    expect(complete.versions).to.have.length(1);
    expect(complete.versions[0].inputs).to.deep.equal([{ namespace: 'pg', name: 'a' }]);
    expect(complete.versions[0].outputs).to.deep.equal([{ namespace: 'pg', name: 'b' }]);
    expect(complete.versions[0].time).to.equal('2024-06-01T00:05:00.000Z');
    expect(complete.commits.map((c) => [c.name, c.committedAt])).to.deep.equal([['b', '2024-06-01T00:05:00.000Z']]);
  });

  it('a late START of an ended run changes neither its version nor its version time', () => {
    const stored = empty();
    const complete = planBatch(
      [event('COMPLETE', '2024-06-01T00:05:00.000Z', [], [ds('b')], { sql: { query: 'select 2' } })],
      stored,
    );
    const version = complete.versions[0];
    stored.runs.set(RUN, {
      ...NEW_RUN,
      times: { startedAt: null, endedAt: '2024-06-01T00:05:00.000Z', terminalState: 'COMPLETED' },
      createdAt: '2024-06-01T00:05:00.000Z',
      lastEventAt: '2024-06-01T00:05:00.000Z',
      jobNamespace: 'airflow',
      jobName: 'dag.task',
      jobVersion: version.id,
      stamps: complete.runs[0].facetStamps,
      code: { sourceCodeLocation: null, sql: JSON.stringify({ query: 'select 2' }), jobType: null },
      writes: [{ namespace: 'pg', name: 'b', createdAt: '2024-06-01T00:05:00.000Z', stamps: [] }],
    });
    // The START is older and reports older SQL: the run's code is still the COMPLETE's.
    const late = planBatch(
      [event('START', '2024-06-01T00:00:00.000Z', [], [], { sql: { query: 'select 1' } })],
      stored,
    );
    expect(late.versions).to.deep.equal([]);
    expect(late.runs[0].facetProps).to.deep.equal({});
    expect(late.runs[0].sortTimeDecreased, 'the run now sorts by its start').to.equal(true);
  });

  it('the facet reported last by event time wins, in either order of the same batch', () => {
    const older = event('START', '2024-06-01T00:00:00.000Z', [ds('a', { facets: schema('x') })], []);
    const newer = event('RUNNING', '2024-06-01T00:01:00.000Z', [ds('a', { facets: schema('x', 'y') })], []);
    for (const order of [
      [older, newer],
      [newer, older],
    ]) {
      const plan = planBatch(order, empty());
      const a = plan.datasets.find((d) => d.name === 'a')!;
      expect(JSON.parse(a.facetProps['facet.schema']!).fields.map((f: { name: string }) => f.name)).to.deep.equal([
        'x',
        'y',
      ]);
      expect(a.fieldTypes!.map((f) => f.name)).to.deep.equal(['x', 'y']);
      expect(parseStamps(a.facetStamps).get('facet.schema')!.at).to.equal(Date.parse('2024-06-01T00:01:00.000Z'));
      expect(plan.inputs[0].at, 'a read dates from the first event naming it').to.equal('2024-06-01T00:00:00.000Z');
    }
  });

  it('an older report than the stored one changes nothing but brings its columns as field nodes', () => {
    const first = planBatch(
      [event('START', '2024-06-01T00:05:00.000Z', [ds('a', { facets: schema('x', 'y') })], [])],
      empty(),
    );
    const stored = empty();
    stored.datasetStamps.set(refKey({ namespace: 'pg', name: 'a' }), first.datasets[0].facetStamps!);
    const late = planBatch(
      [event('START', '2024-06-01T00:00:00.000Z', [ds('a', { facets: schema('x', 'old') })], [])],
      stored,
    );
    expect(late.datasets[0].facetProps).to.deep.equal({});
    expect(late.datasets[0].fieldTypes).to.equal(null);
    expect(late.datasets[0].otherFieldNames).to.include('old');
    expect(late.datasets[0].firstSeen).to.equal('2024-06-01T00:00:00.000Z');
  });

  it('resolves symlink aliases before anything is written', () => {
    const stored = empty();
    const aliased = {
      ...stored,
      aliases: new AliasMap([{ from: { namespace: 'pg', name: '/hdfs/t' }, to: { namespace: 'hive', name: 'db.t' } }]),
    };
    const plan = planBatch([event('COMPLETE', '2024-06-01T00:00:00.000Z', [ds('/hdfs/t')], [])], aliased);
    expect(plan.inputs.map((i) => `${i.namespace}/${i.name}`)).to.deep.equal(['hive/db.t']);
    expect(plan.versions[0].inputs).to.deep.equal([{ namespace: 'hive', name: 'db.t' }]);
  });

  it('refuses a run id that belongs to another job', () => {
    const stored = empty();
    stored.runs.set(RUN, {
      ...NEW_RUN,
      jobNamespace: 'airflow',
      jobName: 'other',
      lastEventAt: '2024-06-01T00:00:00.000Z',
    });
    expect(() => planBatch([event('START', '2024-06-01T00:00:00.000Z', [], [])], stored)).to.throw(RunJobConflict);
  });
});

describe("batch plan: a job's LATEST_RUN candidate", () => {
  const A = '01909a1c-0000-7000-8000-00000000000a';
  const B = '01909a1c-0000-7000-8000-00000000000b';
  const CHILD = '01909a1c-0000-7000-8000-00000000000c';
  const runOf = (id: string, job: string, eventType: NormalizedEvent['eventType'], time: string, parent?: string) => {
    const e = event(eventType, time, [], []);
    e.event.run = {
      ...e.event.run!,
      id,
      externalId: id,
      parent: parent
        ? { runId: parent, externalRunId: parent, job: { namespace: 'airflow', name: 'dag' }, root: null }
        : null,
    };
    e.event.job = { ...e.event.job!, name: job };
    return e;
  };

  it('is chosen on the sortTime a run will have: a child of the batch naming it earlier dates it', () => {
    // A reports only OTHER (10:00) and is named at 09:00 by a child of the same batch: it sorts at 09:00,
    // before B (started 09:30), as it would if the child's event had been stored first.
    const plan = planBatch(
      [
        runOf(A, 'dag', 'OTHER', '2024-06-01T10:00:00.000Z'),
        runOf(B, 'dag', 'START', '2024-06-01T09:30:00.000Z'),
        runOf(CHILD, 'dag.task', 'START', '2024-06-01T09:00:00.000Z', A),
      ],
      empty(),
    );
    const candidates = plan.runs.filter((r) => r.job.name === 'dag' && r.latestCandidate).map((r) => r.id);
    expect(candidates).to.deep.equal([B]);
  });

  it('a run known only as a parent, whose first own event sorts it earlier, is chosen again', () => {
    const stored = empty();
    stored.runs.set(A, {
      ...NEW_RUN,
      createdAt: '2024-06-01T11:00:00.000Z',
      lastEventAt: null,
      jobNamespace: 'airflow',
      jobName: 'dag',
    });
    const plan = planBatch([runOf(A, 'dag', 'START', '2024-06-01T09:30:00.000Z')], stored);
    expect(plan.runs[0].sortTimeDecreased).to.equal(true);
  });
});

describe('batch plan: the job of a run known only as a parent', () => {
  const PARENT = '01909a1c-0000-7000-8000-0000000000f0';
  const child = (id: string, time: string, parentJob: string) => {
    const e = event('START', time, [], []);
    e.event.run = {
      ...e.event.run!,
      id,
      externalId: id,
      parent: { runId: PARENT, externalRunId: PARENT, job: { namespace: 'airflow', name: parentJob }, root: null },
    };
    e.event.job = { ...e.event.job!, name: `${parentJob}.task` };
    return e;
  };
  const C1 = '01909a1c-0000-7000-8000-0000000000f1';
  const C2 = '01909a1c-0000-7000-8000-0000000000f2';

  it('is the earliest mention’s, and on a tie the smaller job key’s, in either order', () => {
    const pick = (events: Incoming[]) => planBatch(events, empty()).parentRuns.map((p) => [p.runId, p.job.name, p.at]);
    const late = child(C1, '2024-06-01T10:00:00.000Z', 'a_late');
    const early = child(C2, '2024-06-01T09:00:00.000Z', 'z_early');
    expect(pick([late, early])).to.deep.equal([[PARENT, 'z_early', '2024-06-01T09:00:00.000Z']]);
    expect(pick([early, late])).to.deep.equal([[PARENT, 'z_early', '2024-06-01T09:00:00.000Z']]);
    const b = child(C1, '2024-06-01T09:00:00.000Z', 'tie_b');
    const a = child(C2, '2024-06-01T09:00:00.000Z', 'tie_a');
    expect(pick([b, a])).to.deep.equal([[PARENT, 'tie_a', '2024-06-01T09:00:00.000Z']]);
    expect(pick([a, b])).to.deep.equal([[PARENT, 'tie_a', '2024-06-01T09:00:00.000Z']]);
  });
});
