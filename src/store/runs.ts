/** Run aggregate: one run by id, with its job and dataset versions, and its raw facets. */
import type { Run } from '../api/types.js';
import { facetsFromProps } from '../domain/facets.js';
import { toNative, type Db } from './db.js';
import { toRun } from './mappers.js';

export class RunRepository {
  constructor(private readonly db: Db) {}

  async get(id: string): Promise<Run | null> {
    const res = await this.db.query('runs/get', { id });
    return res.records.length ? toRun(res.records[0].get('run')) : null;
  }

  /** The job a run belongs to, or null when the run is unknown (or known only as a parent, without its job). */
  async jobOf(id: string): Promise<{ namespace: string; name: string } | null> {
    const res = await this.db.query('runs/get', { id });
    if (!res.records.length) return null;
    const props = toNative(res.records[0].get('run')) as Record<string, unknown>;
    return typeof props.jobName === 'string' ? { namespace: props.jobNamespace as string, name: props.jobName } : null;
  }

  /** The run's own facets (`type=run`) or the job facets its events carried (`type=job`). */
  async facets(id: string, type: 'run' | 'job'): Promise<Record<string, unknown> | null> {
    const res = await this.db.query('runs/get', { id });
    if (!res.records.length) return null;
    const props = toNative(res.records[0].get('run')) as Record<string, unknown>;
    return facetsFromProps(props, type === 'run' ? 'facet.' : 'jobFacet.');
  }
}
