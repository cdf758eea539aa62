import { expect } from 'chai';
import { datasetKey, NOTHING_KNOWN, planBatch, type Incoming, type KnownState, type PreparedRun } from '../../src/domain/batch-plan.js';
import { digest } from '../../src/domain/facet-digests.js';
import { AliasMap } from '../../src/domain/ingest-plan.js';
import { parseEvent } from '../../src/domain/openlineage/normalize.js';
import { NO_TIMES } from '../../src/domain/run-state.js';
import { DEFAULT_DATASET_NS, facet, runEvent, schemaFacet } from '../support/events.js';

const orders = { namespace: DEFAULT_DATASET_NS, name: 'orders' };
const schema = schemaFacet([['id', 'INT']]);
const sql = facet({ query: 'SELECT 1' }, 'SQLJobFacet');

function incoming(events: Record<string, unknown>[]): Incoming[] {
  return events.map((e) => {
    const parsed = parseEvent(e);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return { event: parsed.event, receivedAt: '2024-06-01T00:00:00.000Z' };
  });
}

const fresh = (extra: Partial<PreparedRun> = {}): PreparedRun => ({ times: NO_TIMES, jobNamespace: null, jobName: null, inputs: [], outputs: [], ...extra });

function plan(items: Incoming[], known: Partial<KnownState> = {}, prepared: Record<string, Partial<PreparedRun>> = {}) {
  const runs = new Map<string, PreparedRun>();
  for (const { event } of items) if (event.run) runs.set(event.run.id, fresh(prepared[event.run.id]));
  return planBatch(items, runs, new AliasMap([]), { ...NOTHING_KNOWN, ...known });
}

const schemaJson = (items: Incoming[]) => JSON.stringify(items[0].event.inputs[0].facets.schema);

describe('batch plan: unchanged facets of jobs, runs and read versions are left out', () => {
  it('a job whose digests match its facets gets none resent', () => {
    const items = incoming([runEvent({ job: 'load', jobFacets: { sql } })]);
    const first = plan(items);
    expect(Object.keys(first.jobs[0].facetProps)).to.deep.equal(['facet.sql']);
    expect(first.jobs[0].sentDigests).to.have.length(1);
    const again = plan(items, { jobDigests: new Map([[datasetKey({ namespace: 'airflow', name: 'load' }), first.jobs[0].sentDigests]]) });
    expect(again.jobs[0].facetProps).to.deep.equal({});
    expect(again.jobs[0].sentDigests).to.deep.equal([]);
  });

  it("a run's facets and job facets are checked against the run's digests", () => {
    const items = incoming([runEvent({ eventType: 'COMPLETE', jobFacets: { sql }, runFacets: { nominalTime: facet({ nominalStartTime: '2024-06-01T00:00:00Z' }) } })]);
    const first = plan(items).runs[0];
    expect(Object.keys(first.facetProps)).to.deep.equal(['facet.nominalTime']);
    expect(Object.keys(first.jobFacetProps)).to.deep.equal(['jobFacet.sql']);
    const runId = items[0].event.run!.id;
    const again = plan(items, {}, { [runId]: { facetDigests: first.sentDigests } }).runs[0];
    expect(again.facetProps).to.deep.equal({});
    expect(again.jobFacetProps).to.deep.equal({});
  });

  it("a starting run's input facets are checked against the dataset's current version, which the row names", () => {
    const items = incoming([runEvent({ inputs: [{ name: 'orders', facets: { schema } }] })]);
    const current = { id: 'v-current', digests: [`facet.schema ${digest(schemaJson(items))}`] };
    const row = plan(items, { currentVersions: new Map([[datasetKey(orders), current]]) }).inputs[0];
    expect(row.versionId).to.equal('v-current');
    expect(row.versionFacetProps).to.deep.equal({});
    // With no current version the first version is created by the write: everything is sent.
    const first = plan(items).inputs[0];
    expect(first.versionId).to.equal(null);
    expect(Object.keys(first.versionFacetProps)).to.deep.equal(['facet.schema']);
  });

  it('a run that already reads a version keeps it, whatever the current version is', () => {
    const items = incoming([runEvent({ eventType: 'RUNNING', inputs: [{ name: 'orders', facets: { schema } }] })]);
    const runId = items[0].event.run!.id;
    const readVersions = [{ ...orders, id: 'v-old', digests: [] }];
    const row = plan(items, { currentVersions: new Map([[datasetKey(orders), { id: 'v-new', digests: [] }]]) }, { [runId]: { readVersions, inputs: [orders] } }).inputs[0];
    expect(row.versionId).to.equal('v-old');
    expect(Object.keys(row.versionFacetProps)).to.deep.equal(['facet.schema']);
  });

  it('runs of one batch reading one version see each other: a change, then the old value again, are both sent', () => {
    const changed = schemaFacet([['id', 'INT'], ['total', 'DECIMAL']]);
    const items = incoming([
      runEvent({ job: 'a', inputs: [{ name: 'orders', facets: { schema: changed } }] }),
      runEvent({ job: 'b', inputs: [{ name: 'orders', facets: { schema } }] }),
      runEvent({ job: 'c', inputs: [{ name: 'orders', facets: { schema } }] }),
    ]);
    const stored = [`facet.schema ${digest(JSON.stringify(items[1].event.inputs[0].facets.schema))}`];
    const rows = plan(items, { currentVersions: new Map([[datasetKey(orders), { id: 'v1', digests: stored }]]) }).inputs;
    expect(rows.map((r) => Object.keys(r.versionFacetProps).length)).to.deep.equal([1, 1, 0]);
  });

  it("a run's output versions are sent whole, with their digest entries", () => {
    const items = incoming([runEvent({ eventType: 'COMPLETE', outputs: [{ name: 'orders', facets: { schema } }] })]);
    const out = plan(items).outputs[0];
    expect(Object.keys(out.versionFacetProps)).to.deep.equal(['facet.schema']);
    expect(out.sentDigests).to.deep.equal([`facet.schema ${digest(out.versionFacetProps['facet.schema']!)}`]);
  });
});
