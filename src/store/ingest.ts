/**
 * Writes one normalized OpenLineage event into the graph, inside a caller-provided transaction so
 * that an event is all-or-nothing and several events can share one commit. Every decision is made by
 * the pure planner (domain/ingest-plan.ts); this module only runs the queries under cypher/ingest/.
 */
import type { ManagedTransaction } from 'neo4j-driver';
import { cypher } from './cypher.js';
import type { NormalizedEvent, DatasetRef } from '../domain/openlineage/types.js';
import {
  AliasMap,
  datasetEventVersion,
  datasetRows,
  jobUpsert,
  jobVersionParams,
  planRunEvent,
  storedEvent,
  type RunSoFar,
} from '../domain/ingest-plan.js';
import type { TerminalState } from '../domain/run-state.js';

/** Per-query timings, collected only when INGEST_PROFILE is set (bench and diagnosis). */
export const queryTimings = new Map<string, number[]>();
const profiling = Boolean(process.env.INGEST_PROFILE);

async function run(tx: ManagedTransaction, name: string, params: Record<string, unknown>) {
  if (!profiling) return tx.run(cypher(name), params);
  const start = performance.now();
  const result = await tx.run(cypher(name), params);
  const list = queryTimings.get(name) ?? [];
  list.push(performance.now() - start);
  queryTimings.set(name, list);
  return result;
}

function refsOf(event: NormalizedEvent): DatasetRef[] {
  const all = [...event.inputs, ...event.outputs, ...(event.dataset ? [event.dataset] : [])];
  return all.map((d) => ({ namespace: d.namespace, name: d.name }));
}

async function prepareRun(tx: ManagedTransaction, event: NormalizedEvent): Promise<RunSoFar> {
  const res = await run(tx, 'ingest/run-prepare', {
    runId: event.run!.id,
    externalId: event.run!.externalId,
    eventTime: event.eventTime,
    datasets: refsOf(event),
  });
  const r = res.records[0];
  const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());
  return {
    times: {
      startedAt: iso(r.get('startedAt')),
      endedAt: iso(r.get('endedAt')),
      terminalState: (r.get('terminalState') as TerminalState | null) ?? null,
    },
    jobNamespace: r.get('jobNamespace'),
    jobName: r.get('jobName'),
    inputs: r.get('inputs'),
    outputs: r.get('outputs'),
    aliases: r.get('aliases'),
  };
}

async function resolveAliases(tx: ManagedTransaction, refs: DatasetRef[]): Promise<AliasMap> {
  if (refs.length === 0) return new AliasMap([]);
  const res = await run(tx, 'ingest/resolve-aliases', { datasets: refs });
  return new AliasMap(res.records.map((r) => ({ from: r.get('from'), to: r.get('to') })));
}

async function writeRunEvent(tx: ManagedTransaction, event: NormalizedEvent): Promise<void> {
  const plan = planRunEvent(event, await prepareRun(tx, event));
  const t = event.eventTime;
  if (plan.datasets.length) await run(tx, 'ingest/datasets-upsert', { eventTime: t, datasets: plan.datasets });
  await run(tx, 'ingest/job-upsert', { eventTime: t, job: plan.job });
  await run(tx, 'ingest/run-upsert', { eventTime: t, job: { namespace: plan.job.namespace, name: plan.job.name }, run: plan.run });
  if (plan.inputs.length) await run(tx, 'ingest/run-inputs', { runId: plan.run.id, eventTime: t, inputs: plan.inputs });
  if (plan.outputs.length) await run(tx, 'ingest/run-outputs', { runId: plan.run.id, eventTime: t, outputs: plan.outputs });
  if (plan.columnEdges.length) {
    await run(tx, 'ingest/column-lineage', { job: { namespace: plan.job.namespace, name: plan.job.name }, edges: plan.columnEdges });
  }
  if (plan.jobVersion) {
    await run(tx, 'ingest/job-version', {
      eventTime: t,
      versionTime: plan.versionTime,
      runId: plan.run.id,
      job: { namespace: plan.job.namespace, name: plan.job.name },
      version: plan.jobVersion,
    });
  }
  if (plan.completed) await run(tx, 'ingest/run-complete', { runId: plan.run.id });
}

async function writeJobEvent(tx: ManagedTransaction, event: NormalizedEvent): Promise<void> {
  const aliases = await resolveAliases(tx, refsOf(event));
  const inputs = event.inputs.map((d) => aliases.resolve(d));
  const outputs = event.outputs.map((d) => aliases.resolve(d));
  const datasets = datasetRows([...inputs, ...outputs]);
  const job = event.job!;
  const t = event.eventTime;
  if (datasets.length) await run(tx, 'ingest/datasets-upsert', { eventTime: t, datasets });
  await run(tx, 'ingest/job-upsert', { eventTime: t, job: jobUpsert(event) });
  await run(tx, 'ingest/job-version', {
    eventTime: t,
    versionTime: t,
    runId: null,
    job: { namespace: job.namespace, name: job.name },
    version: jobVersionParams(job.namespace, job.name, job.location, job.context, inputs, outputs),
  });
}

async function writeDatasetEvent(tx: ManagedTransaction, event: NormalizedEvent): Promise<void> {
  const aliases = await resolveAliases(tx, refsOf(event));
  const dataset = aliases.resolve(event.dataset!);
  const t = event.eventTime;
  await run(tx, 'ingest/datasets-upsert', { eventTime: t, datasets: datasetRows([dataset]) });
  await run(tx, 'ingest/dataset-event-version', { eventTime: t, dataset: datasetEventVersion({ ...event, dataset }) });
}

/** Applies one event in `tx`. Throws RunJobConflict for a run id reused by another job. */
export async function writeEvent(tx: ManagedTransaction, event: NormalizedEvent, receivedAt: string): Promise<void> {
  if (event.kind === 'run') await writeRunEvent(tx, event);
  else if (event.kind === 'job') await writeJobEvent(tx, event);
  else await writeDatasetEvent(tx, event);
  await run(tx, 'events/store', { receivedAt, event: storedEvent(event) });
}
