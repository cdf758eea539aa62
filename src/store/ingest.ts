/**
 * Writes a batch of normalized OpenLineage events into the graph inside a caller-provided
 * transaction (all-or-nothing). Every decision is made by the pure planner (domain/batch-plan.ts);
 * this module only runs the queries under cypher/ingest/, a constant number per batch.
 */
import { composite, compositeParam, cypher } from './cypher.js';
import type { TxRunner } from './db.js';
import { AliasMap } from '../domain/ingest-plan.js';
import { datasetKey, mentionedRefs, planBatch, type Incoming, type PreparedRun } from '../domain/batch-plan.js';
import type { DatasetRef } from '../domain/openlineage/types.js';
import type { TerminalState } from '../domain/run-state.js';

/** Per-query timings, collected only when INGEST_PROFILE is set (bench and diagnosis). */
export const queryTimings = new Map<string, number[]>();
const profiling = Boolean(process.env.INGEST_PROFILE) && process.env.INGEST_PROFILE !== 'phases';
export const phaseTimings = new Map<string, number[]>();
const phases = process.env.INGEST_PROFILE === 'phases';
function phase(name: string, since: number): number {
  const now = performance.now();
  if (phases) {
    const list = phaseTimings.get(name) ?? [];
    list.push(now - since);
    phaseTimings.set(name, list);
  }
  return now;
}

async function run(tx: TxRunner, name: string, params: Record<string, unknown>) {
  if (!profiling) return tx.run(cypher(name), params);
  const start = performance.now();
  const result = await tx.run(cypher(name), params);
  const list = queryTimings.get(name) ?? [];
  list.push(performance.now() - start);
  queryTimings.set(name, list);
  return result;
}

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

async function prepareRuns(tx: TxRunner, items: Incoming[]): Promise<Map<string, PreparedRun>> {
  const runs = new Map<string, { id: string; externalId: string; eventTime: string }>();
  for (const { event } of items) {
    if (event.kind !== 'run') continue;
    const r = event.run!;
    const prev = runs.get(r.id);
    if (!prev || Date.parse(event.eventTime) < Date.parse(prev.eventTime)) runs.set(r.id, { id: r.id, externalId: r.externalId, eventTime: event.eventTime });
  }
  const prepared = new Map<string, PreparedRun>();
  if (runs.size === 0) return prepared;
  const sorted = [...runs.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const res = await run(tx, 'ingest/runs-prepare', { runs: sorted });
  for (const r of res.records) {
    prepared.set(r.get('id'), {
      times: { startedAt: iso(r.get('startedAt')), endedAt: iso(r.get('endedAt')), terminalState: (r.get('terminalState') as TerminalState | null) ?? null },
      jobNamespace: r.get('jobNamespace'),
      jobName: r.get('jobName'),
      inputs: r.get('inputs'),
      outputs: r.get('outputs'),
    });
  }
  return prepared;
}

/** Which mentioned datasets are aliases (of which primary), and each primary's facet digests. */
async function readDatasetState(tx: TxRunner, items: Incoming[]): Promise<{ aliases: AliasMap; digests: Map<string, string[]> }> {
  // Sorted: this statement takes the datasets' write locks, and a fixed order keeps deadlocks rare.
  const refs = mentionedRefs(items).sort((a, b) => (datasetKey(a) < datasetKey(b) ? -1 : datasetKey(a) > datasetKey(b) ? 1 : 0));
  if (refs.length === 0) return { aliases: new AliasMap([]), digests: new Map() };
  const res = await run(tx, 'ingest/datasets-state', { datasets: refs });
  const aliases: { from: DatasetRef; to: DatasetRef }[] = [];
  const digests = new Map<string, string[]>();
  for (const r of res.records) {
    const from = r.get('from') as DatasetRef;
    const to = r.get('to') as DatasetRef;
    if (from.namespace !== to.namespace || from.name !== to.name) aliases.push({ from, to });
    digests.set(datasetKey(to), r.get('digests') as string[]);
  }
  return { aliases: new AliasMap(aliases), digests };
}

type Plan = ReturnType<typeof planBatch>;

/** The write stages of a batch, in the order they run: statement, its list parameter, its rows. */
const WRITE_STAGES: [string, string, (plan: Plan) => unknown[]][] = [
  ['ingest/datasets-upsert', 'datasets', (p) => p.datasets],
  ['ingest/jobs-upsert', 'jobs', (p) => p.jobs],
  ['ingest/runs-upsert', 'runs', (p) => p.runs],
  ['ingest/run-inputs', 'inputs', (p) => p.inputs],
  ['ingest/run-outputs', 'outputs', (p) => p.outputs],
  ['ingest/column-lineage', 'edges', (p) => p.edges],
  ['ingest/job-versions', 'versions', (p) => p.versions],
  ['ingest/run-complete', 'runIds', (p) => p.completedRunIds],
  ['ingest/dataset-event-versions', 'datasets', (p) => p.datasetEvents],
  ['events/store', 'events', (p) => p.events],
];

let writeBatch: string | undefined;
/** All write stages as one statement (see composite in cypher.ts). */
export function writeBatchStatement(): string {
  writeBatch ??= composite(WRITE_STAGES.map(([name]) => name));
  return writeBatch;
}

/** Applies the events in `tx`, in order. Throws RunJobConflict for a run id reused by another job. */
export async function writeEvents(tx: TxRunner, items: Incoming[]): Promise<void> {
  let t = performance.now();
  // Both reads are sent before either answer is awaited: one round trip.
  const [prepared, { aliases, digests }] = await Promise.all([prepareRuns(tx, items), readDatasetState(tx, items)]);
  t = phase('prepare', t);
  const plan = planBatch(items, prepared, aliases, digests);
  t = phase('plan', t);
  // The write stages need no answers from each other, so they go to Neo4j as one statement (each
  // stage a subquery, run in this order): one round trip and one statement's fixed cost per batch.
  const stages = WRITE_STAGES.map(([name, param, pick]) => ({ name, param, rows: pick(plan) }));
  if (profiling) {
    // One statement per stage when profiling, so each stage's time is its own.
    for (const { name, param, rows } of stages) if (rows.length > 0) await run(tx, name, { [param]: rows });
  } else {
    const params = Object.fromEntries(stages.map(({ param, rows }, i) => [compositeParam(i, param), rows]));
    await tx.run(writeBatchStatement(), params);
  }
  phase('stages', t);
}
