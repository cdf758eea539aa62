/**
 * The column lineage page's mappings table from a GET /column-lineage answer: one row per input column →
 * output column pair (the graph's edges), with every job that maps it and every transformation stated.
 * Pure, tested in test/web/columns.test.ts.
 */
import type { ColumnFieldData, LineageNode } from './api/types.js';

export interface ColumnRef {
  namespace: string;
  dataset: string;
  field: string;
}

export interface ColumnMapping {
  output: ColumnRef;
  input: ColumnRef;
  /** The jobs whose declarations map it (a pair two jobs map is one row). */
  jobs: { namespace: string; name: string }[];
  /** `DIRECT/IDENTITY`, `INDIRECT/JOIN: on id`, … in the order stated, each once. */
  transformations: string[];
}

type Transformation = { type?: unknown; subtype?: unknown; description?: unknown; masking?: unknown };

/** One transformation for people: `type/subtype`, its description after a colon, `(masking)` when it masks. */
export function transformationText(t: Transformation): string {
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const kind = [str(t.type), str(t.subtype)].filter(Boolean).join('/') || '?';
  const description = str(t.description);
  return `${kind}${description ? `: ${description}` : ''}${t.masking === true ? ' (masking)' : ''}`;
}

const key = (c: ColumnRef) => `${c.namespace}\u0000${c.dataset}\u0000${c.field}`;

/** The mappings of an answer, by output column then input column (dataset, then name). */
export function columnMappings(graph: LineageNode[]): ColumnMapping[] {
  const rows = new Map<string, ColumnMapping>();
  for (const n of graph) {
    const d = n.data as unknown as ColumnFieldData;
    const output = { namespace: d.namespace, dataset: d.dataset, field: d.field };
    for (const i of d.inputFields ?? []) {
      const input = { namespace: i.namespace, dataset: i.dataset, field: i.field };
      const id = `${key(output)}\u0001${key(input)}`;
      let row = rows.get(id);
      if (!row) {
        row = { output, input, jobs: [], transformations: [] };
        rows.set(id, row);
      }
      if (i.jobName && i.jobNamespace && !row.jobs.some((j) => j.namespace === i.jobNamespace && j.name === i.jobName))
        row.jobs.push({ namespace: i.jobNamespace, name: i.jobName });
      const stated: Transformation[] =
        i.transformations ??
        (i.transformationType ? [{ type: i.transformationType, description: i.transformationDescription }] : []);
      for (const t of stated) {
        const text = transformationText(t);
        if (!row.transformations.includes(text)) row.transformations.push(text);
      }
    }
  }
  const name = (c: ColumnRef) => `${c.dataset}.${c.field}\u0000${c.namespace}`;
  return [...rows.values()].sort(
    (a, b) => name(a.output).localeCompare(name(b.output)) || name(a.input).localeCompare(name(b.input)),
  );
}
