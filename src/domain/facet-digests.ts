/**
 * Unchanged facets are not resent. A node that holds facets (`facet.<name>` properties, and
 * `jobFacet.<name>` on runs) keeps next to them a list `facetDigests` of `"<property> <digest>"`
 * strings. Every ingest write of facet properties updates the entries of the properties it writes,
 * so each entry always matches its property's value (the list may lack entries: nodes written
 * before digests existed, or by hand). The ingest transaction reads the lists of the nodes it is
 * about to write, under their write locks (cypher/ingest/*-state.cypher, runs-prepare.cypher), and
 * leaves out every facet whose digest is unchanged. Most events repeat facets verbatim (every run
 * reports its job's facets, every consumer its input's schema), so this removes most of the bytes a
 * batch sends and most of the large-string comparisons Neo4j would make to find nothing changed.
 *
 * Datasets store a list the planner computes whole (withoutUnchangedFacets); jobs, runs and dataset
 * versions get the entries of the facets sent (`sentDigests`) and merge them in Cypher, because a
 * version can be written by rows whose stored list the planner does not know (a run's own outputs,
 * DatasetEvents).
 */
import { createHash } from 'node:crypto';
import type { DatasetUpsertRow } from './ingest-plan.js';

export type StoredDigests = readonly string[];
export type FacetProps = Record<string, string | null>;

export function digest(value: string): string {
  return createHash('sha1').update(value).digest('base64url').slice(0, 22);
}

/**
 * A batch's digest function: one event's facets appear in several rows (a dataset, the version it
 * reads or writes, a job and its run), each hashed once per batch.
 */
export function batchDigest(): (value: string) => string {
  const memo = new Map<string, string>();
  return (value) => {
    let d = memo.get(value);
    if (d === undefined) {
      d = digest(value);
      memo.set(value, d);
    }
    return d;
  };
}

/** A stored `facetDigests` list as a map from property key to digest. */
export function digestMap(stored: StoredDigests | null | undefined): Map<string, string> {
  const known = new Map<string, string>();
  for (const entry of stored ?? []) {
    const space = entry.indexOf(' ');
    if (space > 0) known.set(entry.slice(0, space), entry.slice(space + 1));
  }
  return known;
}

export interface SentFacets {
  /** The facet properties to write: the changed ones, and every deletion. */
  facetProps: FacetProps;
  /** `"<property> <digest>"` for each property written with a value. */
  sentDigests: string[];
}

/**
 * The part of `props` a node must be sent, given `known`, what its digests say it holds (null when
 * unknown: all is sent). `known` is updated to the node's state after this write, so rows that write
 * the same node in order (dataset versions read by several runs of one batch) each see the ones
 * before them. Deletions are always sent: a missing digest does not prove a missing facet.
 */
export function changedFacets(props: FacetProps, known: Map<string, string> | null, hash: (value: string) => string = digest): SentFacets {
  const facetProps: FacetProps = {};
  const sentDigests: string[] = [];
  for (const [key, value] of Object.entries(props)) {
    if (value === null) {
      known?.delete(key);
      facetProps[key] = null;
      continue;
    }
    const d = hash(value);
    if (known?.get(key) === d) continue;
    known?.set(key, d);
    facetProps[key] = value;
    sentDigests.push(`${key} ${d}`);
  }
  return { facetProps, sentDigests };
}

export interface DigestedRow {
  /** The new `facetDigests` list to store, or null when nothing changed. */
  facetDigests: string[] | null;
}

/**
 * Returns `row` without what the dataset already holds. `stored` is the dataset's `facetDigests`
 * (empty for a dataset written before digests existed, or a new one: then everything is sent).
 */
export function withoutUnchangedFacets<T extends DatasetUpsertRow>(row: T, stored: StoredDigests, hash: (value: string) => string = digest): T & DigestedRow {
  const known = digestMap(stored);
  const before = known.size;
  const { facetProps, sentDigests } = changedFacets(row.facetProps, known, hash);
  const changed = sentDigests.length > 0 || known.size !== before;
  const schemaUnchanged = row.facetProps['facet.schema'] != null && !('facet.schema' in facetProps);
  return {
    ...row,
    facetProps,
    // `fields` and the field rows are derived from the schema facet: unchanged with it.
    ...(schemaUnchanged ? { fields: null, fieldTypes: [] } : {}),
    facetDigests: changed ? [...known.entries()].map(([k, d]) => `${k} ${d}`).sort() : null,
  };
}
