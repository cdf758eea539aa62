/**
 * One run's share of a batch, folded onto what the graph holds about it (docs/ingest.md): its state
 * (run-state.ts), facets, the datasets it reads and writes (and their facets), and, once it ended,
 * its job version and the commits of what it wrote.
 */
import type { DatasetRef, NormalizedDataset, NormalizedEvent } from '../openlineage/types.js';
import { applyEvent, stateOf, type RunTimes } from '../run-state.js';
import { FACET_PREFIX, JOB_FACET_PREFIX } from '../facets.js';
import { FacetFold } from '../facet-stamps.js';
import { parentRef } from '../openlineage/normalize.js';
import { initialDatasetVersionId, jobVersionId, sortedRefs, writtenDatasetVersionId } from '../versions.js';
import { runEventObservations, type EdgeObservation } from '../edge-plan.js';
import { maxIso, minIso, ms, ref, refKey } from './keys.js';
import { codeOf, facetReports, isoOrNull, parseJsonObject, versionPromoted, type Obj } from './promoted.js';
import type { CommitRow, InputRow, OutputRow, RunRow, VersionRow } from './rows.js';
import type { StoredRun } from './stored.js';

export class RunJobConflict extends Error {}

interface DatasetShare {
  ref: DatasetRef;
  /** A read: when the run first named it; a write: when the version was created. */
  at: string;
  storedAt: string | null;
  existed: boolean;
  fold: FacetFold<Obj>;
}

/** A job version row from its four versioned facts (the id is their UUIDv5: versions.ts). */
export function versionOf(
  job: DatasetRef,
  location: string | null,
  context: Record<string, string>,
  inputs: DatasetRef[],
  outputs: DatasetRef[],
) {
  const sortedIn = sortedRefs(inputs);
  const sortedOut = sortedRefs(outputs);
  return {
    id: jobVersionId({
      namespace: job.namespace,
      name: job.name,
      location,
      context,
      inputs: sortedIn,
      outputs: sortedOut,
    }),
    location,
    context: JSON.stringify(context),
    inputs: sortedIn,
    outputs: sortedOut,
  };
}

/** A commit (or un-commit: null) of a dataset version. */
export function commitRow(versionId: string, dataset: DatasetRef, committedAt: string | null): CommitRow {
  return {
    versionId,
    namespace: dataset.namespace,
    name: dataset.name,
    committedAt,
    placeholderId: initialDatasetVersionId(dataset),
  };
}

/** When a run sorts among its job's runs: its start, else its end, else its first event. */
const sortTime = (times: RunTimes, createdAt: string | null): string | null =>
  times.startedAt ?? times.endedAt ?? createdAt;
/** When a run's version takes effect: its end, else its start (a streaming run), else its first event. */
const versionTime = (times: RunTimes, createdAt: string | null): string | null =>
  times.endedAt ?? times.startedAt ?? createdAt;

export class RunFold {
  private times: RunTimes;
  firstSeen: string;
  private lastSeen: string;
  /** Its newest own eventTime so far, while folding (edge observations span to it). */
  private lastEventAt: string | null;
  /** The earliest event of the batch naming it as a parent: it was created by then (parent-runs.cypher). */
  private mentionedAt: string | null = null;
  private readonly inputs: Map<string, DatasetRef>;
  private readonly outputs: Map<string, DatasetRef>;
  private readonly fold: FacetFold<Obj>;
  private readonly reads = new Map<string, DatasetShare>();
  private readonly writes = new Map<string, DatasetShare>();

  constructor(
    readonly id: string,
    readonly externalId: string,
    readonly job: DatasetRef,
    private readonly stored: StoredRun,
    t: string,
  ) {
    // Its own events decide a run's job: one linked to another job only as a parent may move.
    if (stored.jobName !== null && stored.lastEventAt !== null)
      this.checkJob(job, { namespace: stored.jobNamespace!, name: stored.jobName });
    this.times = stored.times;
    this.firstSeen = t;
    this.lastSeen = t;
    this.lastEventAt = stored.lastEventAt;
    this.inputs = new Map(stored.reads.map((r) => [refKey(r), ref(r)]));
    this.outputs = new Map(stored.writes.map((w) => [refKey(w), ref(w)]));
    this.fold = new FacetFold(stored.stamps);
  }

  checkJob(job: DatasetRef, owner: DatasetRef = this.job): void {
    if (owner.namespace !== job.namespace || owner.name !== job.name) {
      throw new RunJobConflict(
        `Run '${this.externalId}' belongs to job '${owner.namespace}:${owner.name}', not ` +
          `'${job.namespace}:${job.name}'`,
      );
    }
  }

  /**
   * Folds one event of the run (its datasets already resolved); returns what it observed of its job's lineage edges.
   */
  add(event: NormalizedEvent, inputs: NormalizedDataset[], outputs: NormalizedDataset[]): EdgeObservation[] {
    const t = event.eventTime;
    const time = ms(t);
    const observations = runEventObservations({
      job: this.job,
      runId: this.id,
      eventTime: time,
      lastEventAt: this.lastEventAt === null ? null : ms(this.lastEventAt),
      inputs,
      outputs,
      earlierInputs: [...this.inputs.values()],
      earlierOutputs: [...this.outputs.values()],
    });
    this.times = applyEvent(this.times, event.eventType, t);
    this.firstSeen = minIso(this.firstSeen, t);
    this.lastSeen = maxIso(this.lastSeen, t);
    this.lastEventAt = maxIso(this.lastEventAt, t);
    this.fold.offer(
      [
        ...facetReports(event.run!.facets, []),
        ...facetReports(event.job!.facets, event.job!.deletedFacets, JOB_FACET_PREFIX),
      ],
      time,
    );
    for (const d of inputs) {
      this.inputs.set(refKey(d), ref(d));
      // A READ keeps what the run reported about its input, dataset facets included: the version it read
      // shows them (a placeholder version has no writer to report its schema).
      this.share(
        this.reads,
        d,
        t,
        this.stored.reads.find((r) => r.namespace === d.namespace && r.name === d.name),
      ).fold.offer(facetReports({ ...d.facets, ...d.inputFacets }, d.deletedFacets), time);
    }
    for (const d of outputs) {
      this.outputs.set(refKey(d), ref(d));
      const stored = this.stored.writes.find((w) => w.namespace === d.namespace && w.name === d.name);
      this.share(this.writes, d, t, stored && { at: stored.createdAt, stamps: stored.stamps }).fold.offer(
        facetReports({ ...d.facets, ...d.outputFacets }, d.deletedFacets),
        time,
      );
    }
    return observations;
  }

  private share(
    map: Map<string, DatasetShare>,
    d: DatasetRef,
    t: string,
    stored: { at: string | null; stamps: string[] | null } | undefined,
  ): DatasetShare {
    let share = map.get(refKey(d));
    if (!share) {
      share = {
        ref: ref(d),
        at: stored?.at ?? t,
        storedAt: stored?.at ?? null,
        existed: stored !== undefined,
        fold: new FacetFold(stored?.stamps),
      };
      map.set(refKey(d), share);
    }
    share.at = minIso(share.at, t);
    return share;
  }

  get state(): string {
    return stateOf(this.times);
  }

  /** An event of the batch names this run as its parent at `t`. */
  mentioned(t: string): void {
    this.mentionedAt = minIso(this.mentionedAt, t);
  }

  private get createdAt(): string {
    const own = minIso(this.stored.createdAt, this.firstSeen);
    return this.mentionedAt === null ? own : minIso(own, this.mentionedAt);
  }

  /** Its sortTime after the batch (LATEST_RUN candidates compare it). */
  get sortTime(): string {
    return sortTime(this.times, this.createdAt)!;
  }

  row(): RunRow {
    const nominal = this.fold.changed(`${FACET_PREFIX}nominalTime`);
    const parent = this.fold.changed(`${FACET_PREFIX}parent`);
    const parentRun = parent ? parentRef(parent.object ?? undefined) : null;
    const storedSort = sortTime(this.stored.times, this.stored.createdAt);
    return {
      id: this.id,
      job: this.job,
      firstSeen: this.firstSeen,
      lastSeen: this.lastSeen,
      state: this.state,
      startedAt: this.times.startedAt,
      endedAt: this.times.endedAt,
      terminalState: this.times.terminalState,
      facetProps: this.fold.props(),
      nominalChanged: nominal !== undefined,
      nominalStartTime: nominal?.object ? isoOrNull(nominal.object.nominalStartTime) : null,
      nominalEndTime: nominal?.object ? isoOrNull(nominal.object.nominalEndTime) : null,
      parentChanged: parent !== undefined,
      parentRunId: parentRun && parentRun.runId !== this.id ? parentRun.runId : null,
      facetStamps: this.fold.stamps(),
      latestCandidate: false,
      // A run known only as a parent may be its job's LATEST_RUN already: its first own events can move it earlier.
      sortTimeDecreased: storedSort !== null && ms(this.sortTime) < ms(storedSort),
    };
  }

  /** Its job's code as its events report it last, else as stored. */
  private code(): ReturnType<typeof codeOf> {
    return codeOf((name) => {
      const report = this.fold.winner(`${JOB_FACET_PREFIX}${name}`);
      return report ? report.object : parseJsonObject(this.stored.code[name]);
    });
  }

  /** Its job version, once it ended (or a streaming run has I/O), when it changed or moved in time. */
  version(): VersionRow | null {
    const code = this.code();
    const ins = [...this.inputs.values()];
    const outs = [...this.outputs.values()];
    if (this.times.terminalState === null && !(code.streaming && ins.length + outs.length > 0)) return null;
    const v = versionOf(this.job, code.location, code.context, ins, outs);
    const time = versionTime(this.times, this.createdAt)!;
    const storedTime = versionTime(this.stored.times, this.stored.createdAt);
    const moved = this.stored.jobVersion !== v.id;
    if (!moved && storedTime !== null && ms(storedTime) === ms(time)) return null;
    return {
      ...v,
      job: this.job,
      runId: this.id,
      previous: moved ? this.stored.jobVersion : null,
      time,
      retimed: !moved,
    };
  }

  /**
   * What it wrote is committed at its end when it COMPLETED, and no longer when an earlier end says otherwise.
   * A streaming run's output is in its dataset as it streams (as Marquez makes it current on each event):
   * committed at the earliest event reporting it, whatever the run's state, and never taken back. Its rows
   * are sent with every batch of the run (versions-commit.cypher skips those that change nothing), so the
   * commit holds whichever event first said the job streams.
   */
  commits(): CommitRow[] {
    const completed = this.state === 'COMPLETED';
    const wasCompleted = this.stored.times.terminalState === 'COMPLETED';
    const streaming = this.code().streaming;
    const out: CommitRow[] = [];
    for (const d of this.outputs.values()) {
      const id = writtenDatasetVersionId(d, this.id);
      if (streaming) {
        const since = this.writes.get(refKey(d))?.at ?? this.storedWriteAt(d);
        if (since !== null) out.push(commitRow(id, d, since));
        continue;
      }
      const isNew = this.writes.get(refKey(d))?.existed === false;
      if (completed && (isNew || !wasCompleted || this.stored.times.endedAt !== this.times.endedAt))
        out.push(commitRow(id, d, this.times.endedAt));
      else if (!completed && wasCompleted) out.push(commitRow(id, d, null));
    }
    return out;
  }

  /** When the stored run first reported writing `d` (its written version's createdAt). */
  private storedWriteAt(d: DatasetRef): string | null {
    return this.stored.writes.find((w) => w.namespace === d.namespace && w.name === d.name)?.createdAt ?? null;
  }

  /** READs to resolve (new, or named earlier than stored) or whose input facets changed. */
  inputRows(): InputRow[] {
    const rows: InputRow[] = [];
    for (const read of this.reads.values()) {
      const resolve = !read.existed || (read.storedAt !== null && ms(read.at) < ms(read.storedAt));
      const stamps = read.fold.stamps();
      if (!resolve && stamps === null && read.storedAt !== null) continue;
      rows.push({
        runId: this.id,
        namespace: read.ref.namespace,
        name: read.ref.name,
        at: read.at,
        resolve,
        initialVersionId: initialDatasetVersionId(read.ref),
        facetProps: read.fold.props(),
        facetStamps: stamps,
      });
    }
    return rows;
  }

  /**
   * Written versions that are new, created earlier than stored, or whose facets changed. A facet whose
   * content is the dataset's too (the usual case: the writer's report is the dataset's latest) is
   * copied from the dataset node rather than sent twice; so is the version's schema-derived `fields`.
   */
  outputRows(datasetFacets: (d: DatasetRef) => FacetFold<Obj> | undefined): OutputRow[] {
    const rows: OutputRow[] = [];
    for (const write of this.writes.values()) {
      const stamps = write.fold.stamps();
      if (write.existed && stamps === null && write.storedAt !== null && ms(write.at) >= ms(write.storedAt)) continue;
      const props = write.fold.props();
      const derived = versionPromoted(write.fold);
      const dataset = datasetFacets(write.ref);
      const same = dataset
        ? write.fold.sharedWith(
            dataset,
            Object.keys(props).filter((k) => props[k] !== null),
          )
        : [];
      for (const k of same) delete props[k];
      if (same.includes(`${FACET_PREFIX}schema`)) delete derived.fields;
      rows.push({
        runId: this.id,
        namespace: write.ref.namespace,
        name: write.ref.name,
        versionId: writtenDatasetVersionId(write.ref, this.id),
        createdAt: write.at,
        facetProps: props,
        sameAsDataset: same,
        derived,
        facetStamps: stamps,
      });
    }
    return rows;
  }
}
