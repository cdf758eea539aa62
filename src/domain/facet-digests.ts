/**
 * Unchanged dataset facets are not resent. A dataset keeps, next to its `facet.<name>` properties, a
 * list `facetDigests` of `"<property> <digest>"` strings; the ingest transaction reads it (under the
 * dataset's write lock) and drops from the upsert row every facet whose digest is unchanged, and the
 * schema-derived `fields` with the schema facet. Most events repeat a dataset's facets verbatim (every
 * run of a producer and of each consumer reports the same schema), so this removes most of the bytes
 * a batch sends and most of the large-string comparisons Neo4j would make to find nothing changed.
 */
import { createHash } from 'node:crypto';
import type { DatasetUpsertRow } from './ingest-plan.js';

export type StoredDigests = readonly string[];

export function digest(value: string): string {
  return createHash('sha1').update(value).digest('base64url').slice(0, 22);
}

/** A stored `facetDigests` list as a map from property key to digest. */
export function digestMap(stored: StoredDigests): Map<string, string> {
  const known = new Map<string, string>();
  for (const entry of stored) {
    const space = entry.indexOf(' ');
    if (space > 0) known.set(entry.slice(0, space), entry.slice(space + 1));
  }
  return known;
}

export interface DigestedRow {
  /** The new `facetDigests` list to store, or null when nothing changed. */
  facetDigests: string[] | null;
}

/**
 * Returns `row` without what the dataset already holds. `stored` is the dataset's `facetDigests`
 * (empty for a dataset written before digests existed, or a new one: then everything is sent).
 */
export function withoutUnchangedFacets<T extends DatasetUpsertRow>(row: T, stored: StoredDigests): T & DigestedRow {
  const known = digestMap(stored);
  const facetProps: Record<string, string | null> = {};
  let changed = false;
  for (const [key, value] of Object.entries(row.facetProps)) {
    if (value === null) {
      // Always sent: the list may lack an entry for a facet the dataset has (written before digests
      // existed, or edited by hand with the list removed), and a deletion costs few bytes.
      facetProps[key] = null;
      if (known.delete(key)) changed = true;
      continue;
    }
    const d = digest(value);
    if (known.get(key) === d) continue;
    known.set(key, d);
    facetProps[key] = value;
    changed = true;
  }
  const schemaUnchanged = row.facetProps['facet.schema'] != null && !('facet.schema' in facetProps);
  return {
    ...row,
    facetProps,
    // `fields` and the field rows are derived from the schema facet: unchanged with it.
    ...(schemaUnchanged ? { fields: null, fieldTypes: [] } : {}),
    facetDigests: changed ? [...known.entries()].map(([k, d]) => `${k} ${d}`).sort() : null,
  };
}
