/** Job aggregate: jobs (with their latest run), job versions, a job's runs, and soft deletion. */
import type { EagerResult } from 'neo4j-driver';
import type { Job, JobVersion, Page, Run } from '../api/types.js';
import { int, type Db } from './db.js';
import type { RowOf } from './catalogue.js';
import { toJob, toJobVersion, toRun } from './mappers.js';
import { BY_NAME, isByName, orderedQuery, type ListOrder } from './list-order.js';

export interface JobFilter {
  /** null = every namespace. */
  namespace: string | null;
  /** Only jobs whose latest run is in one of these states; null = no filter. */
  lastRunStates: string[] | null;
}

export class JobRepository {
  constructor(private readonly db: Db) {}

  /** null when a namespace is given and does not exist. */
  async list(filter: JobFilter, offset: number, limit: number, order: ListOrder = BY_NAME): Promise<Page<Job> | null> {
    const params = { states: filter.lastRunStates, offset: int(offset), limit: int(limit) };
    let res: EagerResult<RowOf<'jobs/list'>>;
    if (filter.namespace === null) {
      res = isByName(order)
        ? await this.db.query('jobs/list', params)
        : await this.db.execute('READ', 'jobs/list', orderedQuery('jobs/list', 'j', order), params);
    } else {
      const inNamespace = { ...params, namespace: filter.namespace };
      const name = 'jobs/list-in-namespace';
      res = isByName(order)
        ? await this.db.query(name, inNamespace)
        : await this.db.execute('READ', name, orderedQuery(name, 'j', order), inNamespace);
    }
    const row = res.records[0];
    if (!row.get('namespaceExists')) return null;
    return { totalCount: Number(row.get('totalCount')), items: (row.get('jobs') as unknown[]).map(toJob) };
  }

  async get(namespace: string, name: string): Promise<Job | null> {
    const res = await this.db.query('jobs/get', { namespace, name });
    return res.records.length ? toJob(res.records[0].get('job')) : null;
  }

  /** The live jobs naming this one as their parent, by (namespace, name); null when the job does not exist. */
  async children(namespace: string, name: string, offset: number, limit: number): Promise<Page<Job> | null> {
    const res = await this.db.query('jobs/children', { namespace, name, offset: int(offset), limit: int(limit) });
    const row = res.records[0];
    if (!row) return null;
    return { totalCount: Number(row.get('totalCount')), items: (row.get('jobs') as unknown[]).map(toJob) };
  }

  async versions(namespace: string, name: string, offset: number, limit: number): Promise<Page<JobVersion> | null> {
    const res = await this.db.query('jobs/versions', { namespace, name, offset: int(offset), limit: int(limit) });
    const row = res.records[0];
    if (!row) return null;
    const job = row.get('job');
    return {
      totalCount: Number(row.get('totalCount')),
      items: (row.get('versions') as { version: unknown; latestRun: unknown }[]).map((v) =>
        toJobVersion({ job, version: v.version, latestRun: v.latestRun }),
      ),
    };
  }

  async version(namespace: string, name: string, version: string): Promise<JobVersion | null> {
    const res = await this.db.query('jobs/version', { namespace, name, version });
    const row = res.records[0];
    return row
      ? toJobVersion({ job: row.get('job'), version: row.get('version'), latestRun: row.get('latestRun') })
      : null;
  }

  async runs(namespace: string, name: string, offset: number, limit: number): Promise<Page<Run> | null> {
    const res = await this.db.query('jobs/runs', { namespace, name, offset: int(offset), limit: int(limit) });
    const row = res.records[0];
    if (!row) return null;
    return { totalCount: Number(row.get('totalCount')), items: (row.get('runs') as unknown[]).map((r) => toRun(r)!) };
  }

  async softDelete(namespace: string, name: string): Promise<Job | null> {
    const res = await this.db.command('jobs/delete', { namespace, name });
    return res.records.length ? toJob(res.records[0].get('job')) : null;
  }

  /** Tags the job (creating an unknown tag). null when the job does not exist. */
  async tag(namespace: string, name: string, tag: string, now = new Date()): Promise<Job | null> {
    const res = await this.db.command('jobs/tag', { namespace, name, tag, now: now.toISOString() });
    return res.records.length ? toJob(res.records[0].get('job')) : null;
  }

  async untag(namespace: string, name: string, tag: string): Promise<Job | null> {
    const res = await this.db.command('jobs/untag', { namespace, name, tag });
    return res.records.length ? toJob(res.records[0].get('job')) : null;
  }
}
