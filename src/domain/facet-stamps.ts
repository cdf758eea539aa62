/**
 * Facets (and the values promoted from them) as a function of the *set* of events, not of their
 * arrival order: for each facet name an entity keeps the one reported by the latest event (by
 * eventTime; ties by the greater digest of the facet's JSON, so the choice never depends on order),
 * and a `_deleted` facet is a report too, the tombstone winning ties.
 *
 * Each entity that carries facets (datasets, jobs, runs, dataset versions, READ relationships) keeps
 * next to its `facet.<name>` properties a list `facetStamps` of `"<property> <epoch ms> <digest>"`
 * strings: when and with what content each facet was last reported. The ingest transaction reads it
 * (under the entity's lock) and folds the batch's reports into it (`FacetFold`): only facets whose
 * content changed are sent, so the common case (every run re-reporting the same schema) sends no
 * facet JSON, only the stamps.
 */
import { hash } from 'node:crypto';

export interface Stamp {
  /** eventTime of the report, epoch ms. */
  at: number;
  /** Digest of the facet's JSON, or DELETED. */
  digest: string;
}

/** The digest of a deletion: sorts after every digest, so a deletion wins a tie. */
export const DELETED = '~';

export function digest(json: string): string {
  // One-shot hash: no Hash object per facet (the same bytes as createHash's).
  return hash('sha1', json, 'base64url').slice(0, 22);
}

// One event's facet objects are folded into several entities (a dataset and the version written, a
// job and its run): each object's digest is computed once while the object lives.
const digests = new WeakMap<object, string>();

function digestOf(r: Report<unknown>): string {
  if (r.json === null) return DELETED;
  const o = r.object;
  if (o === null || typeof o !== 'object') return digest(r.json);
  let d = digests.get(o);
  if (d === undefined) {
    d = digest(r.json);
    digests.set(o, d);
  }
  return d;
}

export function parseStamps(list: readonly string[] | null | undefined): Map<string, Stamp> {
  const stamps = new Map<string, Stamp>();
  for (const entry of list ?? []) {
    const [key, at, d] = entry.split(' ');
    const ms = Number(at);
    if (key && d && Number.isFinite(ms)) stamps.set(key, { at: ms, digest: d });
  }
  return stamps;
}

export function formatStamps(stamps: Map<string, Stamp>): string[] {
  return [...stamps.entries()].map(([key, s]) => `${key} ${s.at} ${s.digest}`).sort();
}

/** Does report `a` replace `b`? Later wins; at the same time, the greater digest. */
export function wins(a: Stamp, b: Stamp | undefined): boolean {
  return !b || a.at > b.at || (a.at === b.at && a.digest > b.digest);
}

/** One reported facet: its property key, JSON (null: deleted) and the object it came from. */
export interface Report<O = unknown> {
  key: string;
  json: string | null;
  object: O | null;
}

interface Winner<O> extends Report<O> {
  stamp: Stamp;
}

/**
 * The facets of one entity after a batch: the stored stamps plus every report of the batch, in any
 * order. `props()` is what to write (only facets whose content changed), `stamps()` the new list (null
 * when nothing changed), `winner(key)` a report of this batch that won (for promoted values).
 */
export class FacetFold<O = unknown> {
  private readonly stored: Map<string, Stamp>;
  private readonly won = new Map<string, Winner<O>>();

  constructor(stored: readonly string[] | null | undefined) {
    this.stored = parseStamps(stored);
  }

  offer(reports: Iterable<Report<O>>, at: number): void {
    for (const r of reports) {
      const stamp = { at, digest: digestOf(r) };
      const current = this.won.get(r.key)?.stamp ?? this.stored.get(r.key);
      if (wins(stamp, current)) this.won.set(r.key, { ...r, stamp });
    }
  }

  /** Facets whose content this batch changed: JSON, or null to remove the property. */
  props(): Record<string, string | null> {
    const out: Record<string, string | null> = {};
    for (const [key, w] of this.won) if (w.stamp.digest !== this.stored.get(key)?.digest) out[key] = w.json;
    return out;
  }

  /** A report of this batch that now holds `key` with new content (undefined: unchanged by the batch). */
  changed(key: string): Report<O> | undefined {
    const w = this.won.get(key);
    return w && w.stamp.digest !== this.stored.get(key)?.digest ? w : undefined;
  }

  /** The report holding `key` after the batch, if it came in this batch (new content or not). */
  winner(key: string): Report<O> | undefined {
    return this.won.get(key);
  }

  /** The new stamp list, or null when the batch changed no stamp. */
  stamps(): string[] | null {
    if (this.won.size === 0) return null;
    const all = new Map(this.stored);
    for (const [key, w] of this.won) all.set(key, w.stamp);
    return formatStamps(all);
  }

  /** The stored digest of `key` (for callers comparing content without a report). */
  storedDigest(key: string): string | undefined {
    return this.stored.get(key)?.digest;
  }

  /** The digest of the content holding `key` after the batch (undefined: none). */
  digestAfter(key: string): string | undefined {
    return (this.won.get(key)?.stamp ?? this.stored.get(key))?.digest;
  }

  /** Keys whose content after the batch is `other`'s too (copied from it instead of sent). */
  sharedWith(other: FacetFold<O>, keys: Iterable<string>): string[] {
    const out: string[] = [];
    for (const key of keys) {
      const d = this.digestAfter(key);
      if (d !== undefined && d !== DELETED && d === other.digestAfter(key)) out.push(key);
    }
    return out.sort();
  }
}

/** Reports of a facet slot: every facet object as JSON, and deletions as null. */
export function reportsOf<O extends object>(
  facets: Record<string, O>,
  deleted: readonly string[],
  prefix: string,
  json: (o: O) => string,
): Report<O>[] {
  const out: Report<O>[] = [];
  for (const name of Object.keys(facets))
    out.push({ key: prefix + name, json: json(facets[name]), object: facets[name] });
  for (const name of deleted) if (!(name in facets)) out.push({ key: prefix + name, json: null, object: null });
  return out;
}
