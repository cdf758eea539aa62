/**
 * Plans a whole batch of events (one transaction) as one set of rows per ingest stage, so a batch
 * costs a constant number of round trips however many events it holds.
 *
 * Every value it plans is a fold over the *set* of events, never over their arrival order
 * (docs/ingest.md): times are minima and maxima of event times, a facet is the one reported last by
 * event time (../facet-stamps.ts), a run's state follows its earliest terminal event (../run-state.ts),
 * a run's job version is computed from its whole I/O and its latest code, and every "current"
 * pointer is the greatest by (time, id). The batch's events are folded onto what the graph already
 * holds about the same runs, jobs and datasets (read under their locks by the read statement), so
 * the plan knows which stored values change. Pure.
 */
import type { DatasetRef, NormalizedDataset, NormalizedEvent } from '../openlineage/types.js';
import { FacetFold } from '../facet-stamps.js';
import { eventDatasetVersionId, eventFingerprint, canonicalEvent, canonicalJson } from '../versions.js';
import { jobEventObservations, planEdges, type EdgeObservation } from '../edge-plan.js';
import { declaredAliases, type AliasMap } from './aliases.js';
import { DatasetFold } from './dataset-fold.js';
import { JobFold } from './job-fold.js';
import { commitRow, RunFold, versionOf } from './run-fold.js';
import { byKey, byRef, maxIso, minIso, ms, ref, refKey } from './keys.js';
import { facetReports, versionPromoted, type Obj } from './promoted.js';
import type {
  AliasNameRow,
  BatchPlan,
  ColumnEdgeRow,
  CommitRow,
  DatasetEventRow,
  Incoming,
  ParentJobRow,
  ParentRunRow,
  RunRow,
  StoredEvent,
  VersionRow,
} from './rows.js';
import { NEW_RUN, type StoredState } from './stored.js';

/** The refs every event in the batch mentions, sorted (datasets-state.cypher locks them in this order). */
export function mentionedRefs(items: Incoming[]): DatasetRef[] {
  const seen = new Map<string, DatasetRef>();
  const add = (d: DatasetRef) => seen.set(refKey(d), ref(d));
  for (const { event } of items) {
    for (const d of [...event.inputs, ...event.outputs, ...(event.dataset ? [event.dataset] : [])]) {
      add(d);
      for (const c of d.columnLineage) for (const i of c.inputFields) add(i);
      for (const l of d.symlinks) add(l);
    }
  }
  return [...seen.values()].sort(byRef);
}

/** The jobs the batch's run events and JobEvents name, sorted (jobs-state.cypher locks them in this order). */
export function mentionedJobs(items: Incoming[]): DatasetRef[] {
  const seen = new Map<string, DatasetRef>();
  for (const { event } of items) if (event.job) seen.set(refKey(event.job), ref(event.job));
  return [...seen.values()].sort(byRef);
}

/**
 * The runs of the batch, each with its earliest event time, sorted by id (runs-prepare.cypher locks them in this
 * order).
 */
export function mentionedRuns(items: Incoming[]): { id: string; externalId: string; eventTime: string }[] {
  const runs = new Map<string, { id: string; externalId: string; eventTime: string }>();
  for (const { event } of items) {
    if (event.kind !== 'run') continue;
    const r = event.run!;
    const prev = runs.get(r.id);
    if (!prev || ms(event.eventTime) < ms(prev.eventTime))
      runs.set(r.id, { id: r.id, externalId: r.externalId, eventTime: event.eventTime });
  }
  return [...runs.values()].sort(byKey((r) => r.id));
}

export function planBatch(items: Incoming[], stored: StoredState): BatchPlan {
  const batch = new BatchFold(stored, items);
  for (const item of items) batch.add(item);
  return batch.plan();
}

/** The fold of one batch: an accumulator per entity, and what the events declare or observe. */
class BatchFold {
  private readonly aliases: AliasMap;
  private readonly newAliases: DatasetRef[];
  private readonly aliasNames = new Map<string, AliasNameRow>();
  private readonly datasets = new Map<string, DatasetFold>();
  private readonly jobs = new Map<string, JobFold>();
  private readonly runs = new Map<string, RunFold>();
  private readonly parentJobs = new Map<string, ParentJobRow>();
  private readonly parentRuns = new Map<string, ParentRunRow>();
  private readonly columnEdges = new Map<string, ColumnEdgeRow>();
  private readonly declaredVersions: VersionRow[] = [];
  private readonly datasetEvents = new Map<string, DatasetEventRow>();
  private readonly observations: EdgeObservation[] = [];
  private readonly events: StoredEvent[] = [];

  constructor(
    private readonly stored: StoredState,
    items: Incoming[],
  ) {
    // The batch's own symlink declarations resolve its other events too, whatever their order.
    const declared = declaredAliases(items, stored.aliases);
    this.aliases = stored.aliases.with(declared);
    this.newAliases = declared.map((a) => a.from);
  }

  add({ event, receivedAt }: Incoming): void {
    this.events.push({ ...storedEvent(event), receivedAt });
    if (event.kind === 'run') this.runEvent(event);
    else if (event.kind === 'job') this.jobEvent(event);
    else this.datasetEvent(event);
  }

  /** A mentioned name resolved to its primary, dating the alias name by the mention. */
  private resolve<T extends DatasetRef>(d: T, t: string): T {
    const to = this.aliases.resolve(d);
    if (to.namespace !== d.namespace || to.name !== d.name) {
      const prev = this.aliasNames.get(refKey(d));
      this.aliasNames.set(refKey(d), {
        namespace: d.namespace,
        name: d.name,
        firstSeen: minIso(prev?.firstSeen ?? null, t),
        lastSeen: maxIso(prev?.lastSeen ?? null, t),
      });
    }
    return to;
  }

  private dataset(d: DatasetRef, t: string): DatasetFold {
    let fold = this.datasets.get(refKey(d));
    if (!fold) {
      fold = new DatasetFold(ref(d), this.stored.datasetStamps.get(refKey(d)), t);
      this.datasets.set(refKey(d), fold);
    }
    fold.touch(t);
    return fold;
  }

  private job(j: DatasetRef): JobFold {
    let fold = this.jobs.get(refKey(j));
    if (!fold) {
      fold = new JobFold(ref(j), this.stored.jobStamps.get(refKey(j)));
      this.jobs.set(refKey(j), fold);
    }
    return fold;
  }

  private run(event: NormalizedEvent): RunFold {
    const r = event.run!;
    const job = ref(event.job!);
    let fold = this.runs.get(r.id);
    if (!fold) {
      fold = new RunFold(r.id, r.externalId, job, this.stored.runs.get(r.id) ?? NEW_RUN, event.eventTime);
      this.runs.set(r.id, fold);
    } else fold.checkJob(job);
    return fold;
  }

  /** Column-level lineage the outputs declare: per mapping, the latest declaration's transformations. */
  private declareColumns(job: DatasetRef, outputs: NormalizedDataset[], t: string): void {
    for (const out of outputs) {
      for (const entry of out.columnLineage) {
        for (const input of entry.inputFields) {
          const inRef = this.resolve({ namespace: input.namespace, name: input.name }, t);
          this.dataset(inRef, t);
          const row: ColumnEdgeRow = {
            jobNamespace: job.namespace,
            jobName: job.name,
            namespace: out.namespace,
            name: out.name,
            field: entry.field,
            inNamespace: inRef.namespace,
            inName: inRef.name,
            inField: input.field,
            // Canonical, so the stored text is the same whatever the key order of the delivery.
            transformations: canonicalJson(input.transformations),
            at: t,
          };
          const k = JSON.stringify([
            job.namespace,
            job.name,
            out.namespace,
            out.name,
            entry.field,
            inRef.namespace,
            inRef.name,
            input.field,
          ]);
          const prev = this.columnEdges.get(k);
          if (!prev || ms(t) > ms(prev.at) || (t === prev.at && row.transformations > prev.transformations))
            this.columnEdges.set(k, row);
        }
      }
    }
  }

  private runEvent(event: NormalizedEvent): void {
    const t = event.eventTime;
    const run = this.run(event);
    const inputs = event.inputs.map((d) => this.resolve(d, t));
    const outputs = event.outputs.map((d) => this.resolve(d, t));
    this.observations.push(...run.add(event, inputs, outputs));
    const job = this.job(run.job);
    job.event(event.job!, t);
    const parent = event.run!.parent;
    if (parent) {
      if (!(parent.job.namespace === run.job.namespace && parent.job.name === run.job.name)) {
        job.parent(parent.job, t);
        const prev = this.parentJobs.get(refKey(parent.job));
        if (!prev || ms(t) < ms(prev.at)) this.parentJobs.set(refKey(parent.job), { ...ref(parent.job), at: t });
      }
      if (parent.runId !== run.id) {
        const prev = this.parentRuns.get(parent.runId);
        // The earliest mention names the run's job; on a tie, the smaller job key (parent-runs.cypher).
        if (!prev || ms(t) < ms(prev.at) || (ms(t) === ms(prev.at) && byRef(parent.job, prev.job) < 0))
          this.parentRuns.set(parent.runId, {
            runId: parent.runId,
            externalRunId: parent.externalRunId,
            job: ref(parent.job),
            at: t,
            own: false,
          });
      }
    }
    for (const d of [...inputs, ...outputs]) this.dataset(d, t).mention(d, t);
    this.declareColumns(run.job, outputs, t);
  }

  private jobEvent(event: NormalizedEvent): void {
    const t = event.eventTime;
    const job = ref(event.job!);
    const ins = event.inputs.map((d) => this.resolve(d, t));
    const outs = event.outputs.map((d) => this.resolve(d, t));
    this.job(job).event(event.job!, t);
    for (const d of [...ins, ...outs]) this.dataset(d, t).mention(d, t);
    this.declareColumns(job, outs, t);
    this.observations.push(...jobEventObservations(job, ms(t), ins, outs));
    // One row per declaration: the stage keeps the earliest and the latest time of each version.
    this.declaredVersions.push({
      ...versionOf(job, event.job!.location, event.job!.context, ins, outs),
      job,
      runId: null,
      previous: null,
      time: t,
      retimed: false,
    });
  }

  private datasetEvent(event: NormalizedEvent): void {
    const t = event.eventTime;
    const d = this.resolve(event.dataset!, t);
    this.dataset(d, t).mention(d, t);
    // Its own version, keyed by its content: duplicates are the same version.
    const versionId = eventDatasetVersionId(d, eventFingerprint(event.raw));
    const fold = new FacetFold<Obj>(null);
    fold.offer(facetReports(d.facets, d.deletedFacets), ms(t));
    this.datasetEvents.set(versionId, {
      namespace: d.namespace,
      name: d.name,
      versionId,
      at: t,
      facetProps: fold.props(),
      derived: versionPromoted(fold),
    });
  }

  plan(): BatchPlan {
    // A run of the batch that a child of the batch names earlier sorts from that mention, as stored: the
    // candidate for its job's LATEST_RUN is chosen on the sortTime the run will have.
    for (const p of this.parentRuns.values()) this.runs.get(p.runId)?.mentioned(p.at);
    const runRows: RunRow[] = [];
    const newest = new Map<string, { row: RunRow; sort: string }>();
    const versions = [...this.declaredVersions];
    const commits = new Map<string, CommitRow>();
    for (const run of this.runs.values()) {
      const row = run.row();
      runRows.push(row);
      const cur = newest.get(refKey(run.job));
      if (!cur || ms(run.sortTime) > ms(cur.sort) || (ms(run.sortTime) === ms(cur.sort) && run.id > cur.row.id))
        newest.set(refKey(run.job), { row, sort: run.sortTime });
      const version = run.version();
      if (version) versions.push(version);
      for (const c of run.commits()) commits.set(c.versionId, c);
    }
    for (const { row } of newest.values()) row.latestCandidate = true;
    for (const e of this.datasetEvents.values()) commits.set(e.versionId, commitRow(e.versionId, e, e.at));

    const datasets = [...this.datasets.values()].map((d) => d.row()).sort(byRef);
    const jobs = [...this.jobs.values()].map((j) => j.row()).sort(byRef);
    // Namespaces are dated by the earliest event naming anything in them.
    const namespaces = new Map<string, string>();
    const date = (name: string, at: string) => namespaces.set(name, minIso(namespaces.get(name) ?? null, at));
    for (const d of datasets) {
      date(d.namespace, d.firstSeen);
      for (const l of d.symlinks) date(l.namespace, l.at);
    }
    for (const a of this.aliasNames.values()) date(a.namespace, a.firstSeen);
    for (const j of jobs) date(j.namespace, j.firstSeen);
    for (const p of this.parentJobs.values()) date(p.namespace, p.at);

    const runs = [...this.runs.values()];
    return {
      // Fixed lock orders keep deadlocks with other writers rare.
      namespaces: [...namespaces.entries()].map(([name, at]) => ({ name, at })).sort(byKey((n) => n.name)),
      datasets,
      aliasNames: [...this.aliasNames.values()].sort(byRef),
      newAliases: this.newAliases,
      jobs,
      parentJobs: [...this.parentJobs.values()].sort(byRef),
      runs: runRows.sort(byKey((r) => r.id)),
      parentRuns: [...this.parentRuns.values()]
        .map((p) => ({ ...p, own: this.runs.has(p.runId) }))
        .sort(byKey((r) => r.runId)),
      outputs: runs.flatMap((r) => r.outputRows((d) => this.datasets.get(refKey(d))?.fold)),
      datasetEvents: [...this.datasetEvents.values()],
      commits: [...commits.values()].sort(byKey((c) => c.versionId)),
      inputs: runs.flatMap((r) => r.inputRows()),
      columnEdges: [...this.columnEdges.values()],
      versions,
      lineageEdges: planEdges(this.stored.edges, this.observations, new Map(runRows.map((r) => [r.id, r.state]))),
      events: this.events,
    };
  }
}

function storedEvent(event: NormalizedEvent): Omit<StoredEvent, 'receivedAt'> {
  return {
    id: eventFingerprint(event.raw),
    kind: event.kind,
    eventType: event.eventType,
    eventTime: event.eventTime,
    producer: event.producer,
    schemaURL: event.schemaURL,
    runId: event.run?.id ?? null,
    jobNamespace: event.job?.namespace ?? null,
    jobName: event.job?.name ?? null,
    datasetNamespace: event.dataset?.namespace ?? null,
    datasetName: event.dataset?.name ?? null,
    payload: canonicalEvent(event.raw).json,
  };
}
