/**
 * The run page's readings of the API: a failed run's `errorMessage` facet, and how far each upstream run
 * of GET /runlineage/upstream is from the run (the answer lists them breadth-first without a distance).
 * Pure, tested in test/web/run.test.ts.
 */
import type { RunLineage } from './api/types.js';

export interface RunError {
  message: string;
  programmingLanguage: string | null;
  stackTrace: string | null;
}

/** The run facet `errorMessage` ({message, programmingLanguage, stackTrace?}); null without a message. */
export function runError(facets: Record<string, unknown> | null | undefined): RunError | null {
  const f = facets?.errorMessage as { message?: unknown; programmingLanguage?: unknown; stackTrace?: unknown } | null;
  if (!f || typeof f !== 'object' || typeof f.message !== 'string' || !f.message.trim()) return null;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  return { message: f.message, programmingLanguage: text(f.programmingLanguage), stackTrace: text(f.stackTrace) };
}

type Entry = RunLineage['runs'][number];

export interface UpstreamRun {
  entry: Entry;
  /**
   * Producer hops from the run: 1 wrote a version the run read, 2 wrote one that such a writer read, …;
   * null for a run of the answer that no input names (the service's walk never lists one).
   */
  hops: number | null;
  /** The versions it wrote that a run one hop nearer read, with that reader (the run itself at hop 1). */
  wrote: { namespace: string; name: string; version: string; readBy: string }[];
}

/**
 * The answer's runs after the first (the run itself), each with its distance: the fewest producer hops
 * from the run along `inputs[].producedByRunId`, nearest first (the answer's order within a distance).
 */
export function upstreamRuns(lineage: RunLineage): UpstreamRun[] {
  const [self, ...rest] = lineage.runs;
  if (!self) return [];
  const byId = new Map(lineage.runs.map((e) => [e.run.id, e]));
  const found = new Map<string, UpstreamRun>();
  let frontier = [self];
  const seen = new Set([self.run.id]);
  for (let hops = 1; frontier.length > 0; hops++) {
    const next: Entry[] = [];
    for (const reader of frontier) {
      for (const input of reader.inputs) {
        const writer = input.producedByRunId ? byId.get(input.producedByRunId) : undefined;
        if (!writer || writer === self) continue;
        const wrote = { namespace: input.namespace, name: input.name, version: input.version, readBy: reader.run.id };
        const known = found.get(writer.run.id);
        if (known) {
          if (known.hops === hops) known.wrote.push(wrote);
          continue;
        }
        if (seen.has(writer.run.id)) continue;
        seen.add(writer.run.id);
        found.set(writer.run.id, { entry: writer, hops, wrote: [wrote] });
        next.push(writer);
      }
    }
    frontier = next;
  }
  const order = new Map(rest.map((e, i) => [e.run.id, i]));
  const reached = [...found.values()].sort(
    (a, b) => (a.hops ?? 0) - (b.hops ?? 0) || (order.get(a.entry.run.id) ?? 0) - (order.get(b.entry.run.id) ?? 0),
  );
  const unreached = rest.filter((e) => !found.has(e.run.id)).map((entry) => ({ entry, hops: null, wrote: [] }));
  return [...reached, ...unreached];
}
