/** Identity and ordering helpers shared by the ingest planner. */
import type { DatasetRef } from '../openlineage/types.js';
import { byKey, compareText } from '../compare.js';

/**
 * The key of a dataset or job in the planner's maps: its (namespace, name) pair, one string per pair
 * (the namespace's length first, so no two pairs share a key; `refOfKey` reads it back). An in-memory
 * key only: it is never stored and orders nothing. Built for dozens of lookups per event, where JSON
 * of the pair cost ten times as much.
 */
export const refKey = (r: DatasetRef): string => `${r.namespace.length}:${r.namespace}${r.name}`;

/** The (namespace, name) pair a `refKey` was made from. */
export function refOfKey(key: string): DatasetRef {
  const colon = key.indexOf(':');
  const end = colon + 1 + Number(key.slice(0, colon));
  return { namespace: key.slice(colon + 1, end), name: key.slice(end) };
}

export { byKey };

/** (namespace, name) order, by code units: the order rows are written in (so locks are taken in one order). */
export const byRef = (a: DatasetRef, b: DatasetRef): number =>
  compareText(a.namespace, b.namespace) || compareText(a.name, b.name);

/** Just the (namespace, name) of a dataset or job. */
export const ref = (r: DatasetRef): DatasetRef => ({ namespace: r.namespace, name: r.name });

export const ms = (iso: string): number => Date.parse(iso);

/** The earlier / later of two ISO times (null: none yet). */
export const minIso = (a: string | null, b: string): string => (a === null || ms(b) < ms(a) ? b : a);
export const maxIso = (a: string | null, b: string): string => (a === null || ms(b) > ms(a) ? b : a);
