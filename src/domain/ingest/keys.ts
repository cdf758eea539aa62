/** Identity and ordering helpers shared by the ingest planner. */
import type { DatasetRef } from '../openlineage/types.js';
import { byKey } from '../compare.js';

/** The key of a dataset or job: its (namespace, name) pair. */
export const refKey = (r: DatasetRef): string => JSON.stringify([r.namespace, r.name]);

export { byKey };

export const byRef = byKey<DatasetRef>(refKey);

/** Just the (namespace, name) of a dataset or job. */
export const ref = (r: DatasetRef): DatasetRef => ({ namespace: r.namespace, name: r.name });

export const ms = (iso: string): number => Date.parse(iso);

/** The earlier / later of two ISO times (null: none yet). */
export const minIso = (a: string | null, b: string): string => (a === null || ms(b) < ms(a) ? b : a);
export const maxIso = (a: string | null, b: string): string => (a === null || ms(b) > ms(a) ? b : a);
