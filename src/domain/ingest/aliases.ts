/** Symlink aliases: other names of a dataset, resolved to the primary before anything is planned. */
import type { DatasetRef } from '../openlineage/types.js';
import type { Incoming } from './rows.js';
import { byRef, ref, refKey } from './keys.js';

export class AliasMap {
  private readonly map = new Map<string, DatasetRef>();
  constructor(aliases: { from: DatasetRef; to: DatasetRef }[] = []) {
    for (const a of aliases) this.map.set(refKey(a.from), a.to);
  }
  resolve<T extends DatasetRef>(d: T): T {
    const to = this.map.get(refKey(d));
    return to ? { ...d, namespace: to.namespace, name: to.name } : d;
  }
  has(d: DatasetRef): boolean {
    return this.map.has(refKey(d));
  }
  /** This map with more aliases (those a batch declares), for the batch's own events. */
  with(more: { from: DatasetRef; to: DatasetRef }[]): AliasMap {
    const out = new AliasMap();
    for (const [k, v] of this.map) out.map.set(k, v);
    for (const a of more) if (!out.map.has(refKey(a.from))) out.map.set(refKey(a.from), this.resolve(a.to));
    return out;
  }
}

/**
 * The symlink aliases a batch declares that are not known yet: each identifier of a dataset's symlinks facet names that
 * dataset.
 */
export function declaredAliases(items: Incoming[], known: AliasMap): { from: DatasetRef; to: DatasetRef }[] {
  const out = new Map<string, { from: DatasetRef; to: DatasetRef }>();
  for (const { event } of items) {
    for (const d of [...event.inputs, ...event.outputs, ...(event.dataset ? [event.dataset] : [])]) {
      const primary = known.resolve(d);
      for (const l of d.symlinks) {
        if ((l.namespace === primary.namespace && l.name === primary.name) || known.has(l)) continue;
        out.set(refKey(l), { from: ref(l), to: ref(primary) });
      }
    }
  }
  return [...out.values()].sort((a, b) => byRef(a.from, b.from));
}
