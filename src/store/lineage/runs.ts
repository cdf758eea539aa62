/** Run-level (version) lineage: the runs that wrote the exact dataset versions a run read, level by level. */
import { compactCypher } from '../cypher.js';
import { toNative } from '../db.js';
import { iso } from '../time.js';
import type { RunLineage } from '../../api/types.js';
import type { LineageReader } from './resolver.js';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export class RunLineageReader {
  constructor(private readonly reader: LineageReader) {}

  /**
   * The run, the runs that wrote the exact dataset versions it read, and so on up to `depth` producer
   * hops (breadth-first, each run once; one query per level: cypher/lineage/run-upstream-step.cypher
   * says why). Null when the run is unknown.
   */
  async upstream(runId: string, depth: number): Promise<RunLineage | null> {
    const seen = new Set<string>();
    const runs: RunLineage['runs'] = [];
    let frontier = [runId];
    for (let level = 0; level <= depth && frontier.length; level++) {
      for (const id of frontier) seen.add(id);
      const recs = await this.reader.run('lineage/run-upstream-step', compactCypher('lineage/run-upstream-step'), {
        runIds: frontier,
      });
      if (level === 0 && !recs.length) return null;
      const next = new Set<string>();
      for (const rec of recs) {
        const inputs = toNative(rec.get('inputs')) as RunLineage['runs'][number]['inputs'];
        runs.push({
          job: {
            namespace: str(rec.get('jobNamespace')),
            name: str(rec.get('jobName')),
            version: str(rec.get('jobVersion')),
          },
          run: {
            id: rec.get('id') as string,
            start: iso(rec.get('startedAt')),
            end: iso(rec.get('endedAt')),
            status: str(rec.get('state')),
          },
          inputs: inputs.map((i) => ({
            namespace: i.namespace,
            name: i.name,
            version: i.version,
            producedByRunId: i.producedByRunId ?? null,
          })),
        });
        for (const i of inputs) if (i.producedByRunId && !seen.has(i.producedByRunId)) next.add(i.producedByRunId);
      }
      frontier = [...next];
    }
    return { runs };
  }
}
