/**
 * A budget for the property keys facets create. A facet is stored as the node property
 * `facet.<name>` (and `jobFacet.<name>` on runs; cypher/README.md), which keeps the graph readable
 * in Cypher, but Neo4j never frees a property key: every distinct facet name any producer ever sent
 * stays in the database's token store. One event is held to EVENT_LIMITS.facetNamesPerEvent
 * names; this caps the total. Once the database holds FACET_KEYS_MAX facet keys, an event that
 * would add new ones is refused with 422 `limit_exceeded` (facets already known are accepted as
 * always). The count is of this service instance's view: the keys in the database when it first
 * needed them, plus those it has admitted since.
 */
import type { Db } from '../store/db.js';
import type { NormalizedEvent } from '../domain/openlineage/types.js';
import { FACET_PREFIX, JOB_FACET_PREFIX } from '../domain/facets.js';
import { HttpError } from '../http/errors.js';

/** The property keys `event` writes for its facets. */
export function facetKeysOf(event: NormalizedEvent): Set<string> {
  const keys = new Set<string>();
  const add = (prefix: string, names: Iterable<string>) => {
    for (const n of names) keys.add(prefix + n);
  };
  for (const d of [...event.inputs, ...event.outputs, ...(event.dataset ? [event.dataset] : [])]) {
    add(FACET_PREFIX, Object.keys(d.facets));
    add(FACET_PREFIX, d.deletedFacets);
    add(FACET_PREFIX, Object.keys(d.inputFacets));
    add(FACET_PREFIX, Object.keys(d.outputFacets));
  }
  if (event.job) {
    add(FACET_PREFIX, Object.keys(event.job.facets));
    add(FACET_PREFIX, event.job.deletedFacets);
    // A run carries its events' job facets too.
    if (event.run) {
      add(JOB_FACET_PREFIX, Object.keys(event.job.facets));
      add(JOB_FACET_PREFIX, event.job.deletedFacets);
    }
  }
  if (event.run) add(FACET_PREFIX, Object.keys(event.run.facets));
  return keys;
}

/** FACET_KEYS_MAX's default (config.ts). */
export const DEFAULT_FACET_KEYS_MAX = 5000;

export class FacetKeyBudget {
  private known: Set<string> | null = null;
  private loading: Promise<Set<string>> | null = null;

  constructor(
    private readonly db: Db,
    readonly max: number,
  ) {}

  /** Facet keys known now (null before the first event needed them). */
  get count(): number | null {
    return this.known?.size ?? null;
  }

  /** Resolves when `event`'s facet keys fit the budget (and counts the new ones); a 422 otherwise. */
  async admit(event: NormalizedEvent): Promise<void> {
    const keys = facetKeysOf(event);
    if (keys.size === 0) return;
    const known = this.known ?? (await this.load());
    const fresh = [...keys].filter((k) => !known.has(k));
    if (fresh.length === 0) return;
    if (known.size + fresh.length > this.max) {
      const names = fresh.slice(0, 5).map((k) => k.slice(k.indexOf('.') + 1));
      throw new HttpError(
        422,
        'limit_exceeded',
        `The database already holds ${known.size} facet property keys, the most allowed (FACET_KEYS_MAX ` +
          `${this.max}); this event would add ${fresh.length} new facet names ` +
          `(${names.join(', ')}${fresh.length > 5 ? ', …' : ''}). Events with known facet names are accepted as ` +
          `always (limit: facetKeys)`,
        { limits: ['facetKeys'] },
      );
    }
    for (const k of fresh) known.add(k);
  }

  private load(): Promise<Set<string>> {
    this.loading ??= this.db
      .query('facets/property-keys', { facet: FACET_PREFIX, jobFacet: JOB_FACET_PREFIX })
      .then((res) => {
        this.known ??= new Set(res.records[0].get('keys') as string[]);
        return this.known;
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }
}
