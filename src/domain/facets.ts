/**
 * Facets are stored as one node property per facet, `facet.<name>` (or `jobFacet.<name>` on runs),
 * holding the facet's JSON. `SET n += $props` then replaces a same-name facet whole, leaves other
 * facets alone, and removes a facet sent with `_deleted: true` (null value), with no read-modify-write.
 */
import type { Facets } from './openlineage/types.js';

export const FACET_PREFIX = 'facet.';
export const JOB_FACET_PREFIX = 'jobFacet.';

export function facetProps(facets: Facets, deleted: string[] = [], prefix = FACET_PREFIX): Record<string, string | null> {
  const props: Record<string, string | null> = {};
  for (const [name, facet] of Object.entries(facets)) props[prefix + name] = JSON.stringify(facet);
  for (const name of deleted) props[prefix + name] = null;
  return props;
}

/** Reads the facets back out of a node's property map. */
export function facetsFromProps(props: Record<string, unknown>, prefix = FACET_PREFIX): Record<string, unknown> {
  const facets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith(prefix) && typeof value === 'string') {
      try {
        facets[key.slice(prefix.length)] = JSON.parse(value);
      } catch {
        /* never written by us in another form; skip rather than fail a read */
      }
    }
  }
  return facets;
}
