/**
 * Writes a batch of normalized OpenLineage events into the graph inside a caller-provided
 * transaction (all-or-nothing). Every decision is made by the pure planner (domain/ingest/batch-plan.ts);
 * this module only runs the queries under cypher/ingest/, a constant number per batch.
 */
import { composite, compositeParams, cypher } from './cypher.js';
import { LastStatement, toNative, type TxRunner } from './db.js';
import type { ParamsOf, QueryName } from './catalogue.js';
import { iso } from './time.js';
import { takeApartAliasHistory } from './alias-repair.js';
import { mentionedJobs, mentionedRefs, mentionedRuns, planBatch } from '../domain/ingest/batch-plan.js';
import { AliasMap } from '../domain/ingest/aliases.js';
import { refKey } from '../domain/ingest/keys.js';
import { NEW_RUN, type StoredRun } from '../domain/ingest/stored.js';
import type { Incoming } from '../domain/ingest/rows.js';
import neo4j from 'neo4j-driver';
import type { EdgeWriteRow, StoredEdge } from '../domain/edge-plan.js';
import type { DatasetRef } from '../domain/openlineage/types.js';
import type { TerminalState } from '../domain/run-state.js';
import type { IngestProfile } from '../config.js';

/** Per-statement timings, collected only while profiling statements (INGEST_PROFILE; bench and diagnosis). */
export const queryTimings = new Map<string, number[]>();
/** Per-phase timings, collected only while profiling phases. */
export const phaseTimings = new Map<string, number[]>();
let profiling = false;
let phases = false;

/** Turns timing collection on or off for the process (server.ts passes config.ingestProfile). */
export function setIngestProfile(profile: IngestProfile): void {
  profiling = profile === 'statements';
  phases = profile === 'phases';
}
function phase(name: string, since: number): number {
  const now = performance.now();
  if (phases) {
    const list = phaseTimings.get(name) ?? [];
    list.push(now - since);
    phaseTimings.set(name, list);
  }
  return now;
}

async function run(tx: TxRunner, name: QueryName, params: Record<string, unknown>) {
  if (!profiling) return tx.run(cypher(name), params);
  const start = performance.now();
  const result = await tx.run(cypher(name), params);
  const list = queryTimings.get(name) ?? [];
  list.push(performance.now() - start);
  queryTimings.set(name, list);
  return result;
}

/**
 * Datasets-state's rows, sorted: that statement takes the datasets' write locks, and a fixed order keeps deadlocks
 * rare.
 */
function datasetsToRead(items: Incoming[]): DatasetRef[] {
  return mentionedRefs(items);
}

interface RunRecord {
  id: string;
  createdAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  terminalState: TerminalState | null;
  lastEventAt: string | null;
  jobNamespace: string | null;
  jobName: string | null;
  jobVersion: string | null;
  stamps: string[] | null;
  code: StoredRun['code'];
  reads: { namespace: string; name: string; at: string | null; stamps: string[] | null }[];
  writes: { namespace: string; name: string; createdAt: string | null; stamps: string[] | null }[];
}

interface DatasetRecord {
  from: DatasetRef;
  to: DatasetRef;
  stamps: string[];
}

function storedRuns(rows: RunRecord[]): Map<string, StoredRun> {
  const runs = new Map<string, StoredRun>();
  for (const r of rows) {
    runs.set(r.id, {
      ...NEW_RUN,
      times: { startedAt: iso(r.startedAt), endedAt: iso(r.endedAt), terminalState: r.terminalState ?? null },
      createdAt: iso(r.createdAt),
      lastEventAt: iso(r.lastEventAt),
      jobNamespace: r.jobNamespace,
      jobName: r.jobName,
      jobVersion: r.jobVersion ?? null,
      stamps: r.stamps ?? null,
      code: r.code,
      reads: r.reads.map((x) => ({ ...x, at: iso(x.at) })),
      writes: r.writes.map((x) => ({ ...x, createdAt: iso(x.createdAt) })),
    });
  }
  return runs;
}

const dateTime = (ms: number) => neo4j.types.DateTime.fromStandardDate(new Date(ms));

/**
 * lineage-edges.cypher's rows: times as driver DateTimes, so Neo4j stores them without parsing text
 * (and each row sends only the properties that change).
 */
export function edgeWriteParams(rows: EdgeWriteRow[]) {
  return rows.map(({ set, ...row }) => {
    const props: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(set)) {
      props[key] =
        typeof value === 'number'
          ? dateTime(value)
          : Array.isArray(value)
            ? value.map((v) => dateTime(v as number))
            : value;
    }
    return { ...row, set: props };
  });
}

interface JobRecord {
  namespace: string;
  name: string;
  stamps: string[];
  edges: Record<string, unknown>[];
}

/** jobs-state's rows: every lineage edge of each job of the batch, by jobKey. */
function storedEdges(rows: JobRecord[]): Map<string, StoredEdge[]> {
  const num = (v: unknown) => (v === null || v === undefined ? null : (toNative(v) as number));
  const nums = (v: unknown) => ((v as unknown[] | null) ?? []).map((x) => toNative(x) as number);
  const out = new Map<string, StoredEdge[]>();
  for (const job of rows) {
    const edges: StoredEdge[] = [];
    for (const e of job.edges) {
      const seenFrom = nums(e.seenFrom);
      const seenTo = nums(e.seenTo);
      const firstSeenAt = num(e.firstSeenAt);
      const lastSeenAt = num(e.lastSeenAt);
      // An edge without a history (written before edges had one, and not migrated yet) starts afresh.
      if (firstSeenAt === null || lastSeenAt === null || seenFrom.length !== seenTo.length) continue;
      edges.push({
        eid: e.eid as string,
        input: e.input as boolean,
        namespace: e.namespace as string,
        name: e.name as string,
        firstSeenAt,
        lastSeenAt,
        lastRunId: (e.lastRunId as string | null) ?? null,
        lastRunState: (e.lastRunState as string | null) ?? null,
        spans: seenFrom.map((from, i) => ({ from, to: seenTo[i] })),
        heldUntil: nums(e.heldUntil),
      });
    }
    out.set(refKey(job), edges);
  }
  return out;
}

/** Which mentioned datasets are aliases (of which primary), and each primary's facet stamps. */
function datasetState(rows: DatasetRecord[]): { aliases: AliasMap; stamps: Map<string, string[]> } {
  const aliases: { from: DatasetRef; to: DatasetRef }[] = [];
  const stamps = new Map<string, string[]>();
  for (const { from, to, stamps: s } of rows) {
    if (from.namespace !== to.namespace || from.name !== to.name) aliases.push({ from, to });
    stamps.set(refKey(to), s);
  }
  return { aliases: new AliasMap(aliases), stamps };
}

/**
 * A stage of the ingest statements: a query file, its one list parameter and where its rows come
 * from, checked against the catalogue (the parameter is the file's, the rows are of its type).
 */
function stage<K extends QueryName, P extends keyof ParamsOf<K> & string, From>(
  name: K,
  param: P,
  rows: (from: From) => ParamsOf<K>[P],
) {
  return { name, param, rows: rows as (from: From) => unknown[] };
}

/** The read stages of a batch, in the order they run: statement, its list parameter, its rows. */
const READ_STAGES = [
  stage('ingest/runs-prepare', 'runs', mentionedRuns),
  stage('ingest/datasets-state', 'datasets', datasetsToRead),
  stage('ingest/jobs-state', 'jobs', mentionedJobs),
];

let readBatch: string | undefined;
/** The read stages as one statement, answering one row: runs, datasets, jobs (see composite in cypher.ts). */
export function readBatchStatement(): string {
  readBatch ??= composite(
    READ_STAGES.map((s) => s.name),
    ['runs', 'datasets', 'jobs'],
  );
  return readBatch;
}

async function readBatchState(
  tx: TxRunner,
  items: Incoming[],
): Promise<{ runs: RunRecord[]; datasets: DatasetRecord[]; jobs: JobRecord[] }> {
  const stages = READ_STAGES.map(({ name, param, rows }) => ({ name, params: { [param]: rows(items) } }));
  if (profiling) {
    const runs = (await run(tx, stages[0].name, stages[0].params)).records[0].get('runs');
    const datasets = (await run(tx, stages[1].name, stages[1].params)).records[0].get('datasets');
    const jobs = (await run(tx, stages[2].name, stages[2].params)).records[0].get('jobs');
    return { runs, datasets, jobs };
  }
  const [record] = (await tx.run(readBatchStatement(), compositeParams(stages.map((s) => s.params)))).records;
  return { runs: record.get('runs'), datasets: record.get('datasets'), jobs: record.get('jobs') };
}

type Plan = ReturnType<typeof planBatch>;

/** The write stages of a batch, in the order they run: statement, its list parameter, its rows. */
const WRITE_STAGES = [
  stage('ingest/namespaces', 'namespaces', (p: Plan) => p.namespaces),
  stage('ingest/datasets-upsert', 'datasets', (p: Plan) => p.datasets),
  stage('ingest/alias-names', 'names', (p: Plan) => p.aliasNames),
  stage('ingest/parent-jobs', 'parents', (p: Plan) => p.parentJobs),
  stage('ingest/jobs-upsert', 'jobs', (p: Plan) => p.jobs),
  stage('ingest/parent-runs', 'parents', (p: Plan) => p.parentRuns),
  stage('ingest/runs-upsert', 'runs', (p: Plan) => p.runs),
  stage('ingest/run-outputs', 'outputs', (p: Plan) => p.outputs),
  stage('ingest/dataset-event-versions', 'datasets', (p: Plan) => p.datasetEvents),
  stage('ingest/versions-commit', 'commits', (p: Plan) => p.commits),
  stage('ingest/run-inputs', 'inputs', (p: Plan) => p.inputs),
  stage('ingest/column-lineage', 'edges', (p: Plan) => p.columnEdges),
  stage('ingest/job-versions', 'versions', (p: Plan) => p.versions),
  stage('ingest/lineage-edges', 'edges', (p: Plan) => edgeWriteParams(p.lineageEdges)),
  stage('events/store', 'events', (p: Plan) => p.events),
];

let writeBatch: string | undefined;
/** All write stages as one statement (see composite in cypher.ts). */
export function writeBatchStatement(): string {
  writeBatch ??= composite(WRITE_STAGES.map((s) => s.name));
  return writeBatch;
}

/**
 * Applies the events in `tx`, in order. Throws RunJobConflict for a run id reused by another job.
 * Returns the write statement unanswered (LastStatement): Db awaits its answer, then commits.
 */
export async function writeEvents(tx: TxRunner, items: Incoming[]): Promise<LastStatement | undefined> {
  let t = performance.now();
  const state = await readBatchState(tx, items);
  t = phase('prepare', t);
  const { aliases, stamps } = datasetState(state.datasets);
  const plan = planBatch(items, {
    runs: storedRuns(state.runs),
    aliases,
    datasetStamps: stamps,
    jobStamps: new Map(state.jobs.map((j) => [refKey(j), j.stamps])),
    edges: storedEdges(state.jobs),
  });
  t = phase('plan', t);
  // The write stages need no answers from each other, so they go to Neo4j as one statement (each
  // stage a subquery, run in this order): one round trip and one statement's fixed cost per batch.
  const stages = WRITE_STAGES.map(({ name, param, rows }) => ({ name, param, rows: rows(plan) }));
  if (profiling) {
    // One statement per stage when profiling, so each stage's time is its own.
    for (const { name, param, rows } of stages) if (rows.length > 0) await run(tx, name, { [param]: rows });
  } else {
    const write = tx.run(writeBatchStatement(), compositeParams(stages.map(({ param, rows }) => ({ [param]: rows }))));
    if (!phases && plan.newAliases.length === 0) return new LastStatement(write);
    await write;
    phase('stages', t);
  }
  // Names that just became aliases, recorded before as datasets of their own: rebuilt from their events.
  if (plan.newAliases.length > 0) {
    const replay = await takeApartAliasHistory(tx, plan.newAliases);
    if (replay.length > 0) return writeEvents(tx, replay);
  }
}

/**
 * Plans both ingest statements by running them on a batch of no events (which reads and writes
 * nothing), so that the first producer after a start does not wait for the planning: seconds of CPU
 * on a cold Neo4j. Each statement has one plan whatever the batch (see composite in cypher.ts), so
 * this one run covers all later batches.
 */
export async function planIngestStatements(tx: TxRunner): Promise<void> {
  await writeEvents(tx, []);
}
