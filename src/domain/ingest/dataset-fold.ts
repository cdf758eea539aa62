/** One dataset's share of a batch: its mentions folded onto its stored facet stamps (docs/ingest.md). */
import type { DatasetRef, NormalizedDataset } from '../openlineage/types.js';
import { FACET_PREFIX } from '../facets.js';
import { digest, FacetFold } from '../facet-stamps.js';
import { byKey, byRef, maxIso, minIso, ms, ref, refKey } from './keys.js';
import { dataSourceOf, datasetPromoted, facetReports, fieldRows, type Obj } from './promoted.js';
import type { DatasetRow } from './rows.js';

type Source = NonNullable<ReturnType<typeof dataSourceOf>>;

export class DatasetFold {
  firstSeen: string;
  lastSeen: string;
  /** Its facets after the batch (written versions copy the ones they share). */
  readonly fold: FacetFold<Obj>;
  /** Schema reports by JSON → column names, nested ones dotted (field nodes exist for every column ever reported). */
  private readonly schemas = new Map<string, string[]>();
  private readonly sources = new Map<string, Source & { at: string }>();
  private readonly symlinks = new Map<string, DatasetRef & { at: string }>();

  constructor(
    readonly ref: DatasetRef,
    stamps: readonly string[] | undefined,
    t: string,
  ) {
    this.firstSeen = t;
    this.lastSeen = t;
    this.fold = new FacetFold(stamps);
  }

  /** Any mention dates the dataset. */
  touch(t: string): void {
    this.firstSeen = minIso(this.firstSeen, t);
    this.lastSeen = maxIso(this.lastSeen, t);
  }

  /** A mention by an event: its facets, schema, source and symlinks too. */
  mention(d: NormalizedDataset, t: string): void {
    this.touch(t);
    const reports = facetReports(d.facets, d.deletedFacets);
    this.fold.offer(reports, ms(t));
    const schema = reports.find((r) => r.key === `${FACET_PREFIX}schema` && r.json !== null);
    if (schema?.json)
      this.schemas.set(
        schema.json,
        fieldRows(schema.object).map((f) => f.name),
      );
    const source = dataSourceOf(d.facets.dataSource ?? null, d.namespace);
    if (source) {
      const prev = this.sources.get(source.name);
      if (!prev || ms(t) < ms(prev.at))
        this.sources.set(source.name, { ...source, uri: source.uri ?? prev?.uri ?? null, at: t });
    }
    for (const l of d.symlinks) {
      if (l.namespace === d.namespace && l.name === d.name) continue;
      const prev = this.symlinks.get(refKey(l));
      this.symlinks.set(refKey(l), { ...ref(l), at: minIso(prev?.at ?? null, t) });
    }
  }

  row(): DatasetRow {
    const schema = this.fold.changed(`${FACET_PREFIX}schema`);
    const fieldTypes = schema ? fieldRows(schema.object) : null;
    // A schema that loses to a later one still brings its columns, untyped (only the dataset's schema
    // types its columns); the stored schema's columns have nodes already.
    const storedSchema = this.fold.storedDigest(`${FACET_PREFIX}schema`);
    const typed = new Set(fieldTypes?.map((f) => f.name));
    const others = new Set<string>();
    for (const [json, names] of this.schemas) {
      if (json === schema?.json || digest(json) === storedSchema) continue;
      for (const n of names) if (!typed.has(n)) others.add(n);
    }
    const source = this.fold.changed(`${FACET_PREFIX}dataSource`);
    return {
      namespace: this.ref.namespace,
      name: this.ref.name,
      firstSeen: this.firstSeen,
      lastSeen: this.lastSeen,
      facetProps: this.fold.props(),
      derived: datasetPromoted(this.fold),
      fieldTypes,
      otherFieldNames: [...others].sort(),
      source: source ? dataSourceOf(source.object, this.ref.namespace) : null,
      sourceChanged: source !== undefined,
      sources: [...this.sources.values()].sort(byKey((s) => s.name)),
      symlinks: [...this.symlinks.values()].sort(byRef),
      facetStamps: this.fold.stamps(),
    };
  }
}
