/** One job's share of a batch: its own events' facets and the parent its runs name (docs/ingest.md). */
import type { DatasetRef, NormalizedJob } from '../openlineage/types.js';
import { FacetFold } from '../facet-stamps.js';
import { maxIso, minIso, ms } from './keys.js';
import { facetReports, jobPromoted, simpleName, type Obj } from './promoted.js';
import type { JobRow } from './rows.js';

/** The parent job is a pseudo-facet of the job: the latest run event naming one holds. */
const PARENT = 'parent';

export class JobFold {
  firstSeen: string | null = null;
  lastSeen: string | null = null;
  private readonly fold: FacetFold<Obj>;

  constructor(
    readonly ref: DatasetRef,
    stamps: readonly string[] | undefined,
  ) {
    this.fold = new FacetFold(stamps);
  }

  /** An event of the job itself (RunEvent or JobEvent). */
  event(job: NormalizedJob, t: string): void {
    this.firstSeen = minIso(this.firstSeen, t);
    this.lastSeen = maxIso(this.lastSeen, t);
    this.fold.offer(facetReports(job.facets, job.deletedFacets), ms(t));
  }

  /** A run event of the job naming a parent job. */
  parent(parent: DatasetRef, t: string): void {
    const object = { namespace: parent.namespace, name: parent.name };
    this.fold.offer([{ key: PARENT, json: JSON.stringify([parent.namespace, parent.name]), object }], ms(t));
  }

  row(): JobRow {
    const parent = this.fold.changed(PARENT);
    const parentRef = (parent?.object as DatasetRef | null | undefined) ?? null;
    return {
      namespace: this.ref.namespace,
      name: this.ref.name,
      firstSeen: this.firstSeen!,
      lastSeen: this.lastSeen!,
      facetProps: Object.fromEntries(Object.entries(this.fold.props()).filter(([k]) => k !== PARENT)),
      derived: jobPromoted(this.fold),
      parent: parentRef,
      parentChanged: parent !== undefined,
      simpleName: simpleName(this.ref.name, parentRef),
      facetStamps: this.fold.stamps(),
    };
  }
}
