/**
 * Facets are stored as one node property per facet, `facet.<name>` (or `jobFacet.<name>` on runs),
 * holding the facet's JSON. `SET n += $props` then replaces a same-name facet whole, leaves other
 * facets alone, and removes a facet sent with `_deleted: true` (null value), with no read-modify-write.
 */
import type { Facets } from './openlineage/types.js';

export const FACET_PREFIX = 'facet.';
export const JOB_FACET_PREFIX = 'jobFacet.';

// One event's facet objects are serialized for several rows (a dataset and the version it reads or
// writes, a job and its run): the JSON of each facet object is kept while the object lives.
const facetJson = new WeakMap<object, string>();

export function jsonOf(facet: unknown): string {
  if (facet === null || typeof facet !== 'object') return JSON.stringify(facet);
  let json = facetJson.get(facet);
  if (json === undefined) {
    json = JSON.stringify(facet);
    facetJson.set(facet, json);
  }
  return json;
}

export function facetProps(
  facets: Facets,
  deleted: string[] = [],
  prefix = FACET_PREFIX,
): Record<string, string | null> {
  const props: Record<string, string | null> = {};
  for (const name of Object.keys(facets)) props[prefix + name] = jsonOf(facets[name]);
  for (const name of deleted) props[prefix + name] = null;
  return props;
}

/** Reads the facets back out of a node's property map, by name (Neo4j keeps properties in no set order). */
export function facetsFromProps(props: Record<string, unknown>, prefix = FACET_PREFIX): Record<string, unknown> {
  const facets: Record<string, unknown> = {};
  // Filtered before sorting: most nodes carry a few facet keys among many other properties.
  for (const key of Object.keys(props)
    .filter((k) => k.startsWith(prefix))
    .sort()) {
    const value = props[key];
    if (typeof value === 'string') {
      try {
        facets[key.slice(prefix.length)] = JSON.parse(value);
      } catch {
        /* never written by us in another form; skip rather than fail a read */
      }
    }
  }
  return facets;
}
