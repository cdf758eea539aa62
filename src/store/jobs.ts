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

/** Marquez's count of a job's latest runs (its JobDao reads them 10 at a time). */
export const LATEST_RUNS = 10;
/**
 * The most runs a page of a job list carries. Marquez gives every job of a list its 10 latest runs; with
 * facets a run can weigh tens of kilobytes, so a page of 1,000 jobs would hold 10,000 of them. The default
 * page (100 jobs) and smaller ones get 10 per job; a wider page fewer per job, never more runs than a
 * 1,000-job page held when each job carried only its latest run.
 */
export const LIST_RUNS_BUDGET = 1000;

/** How many of each job's latest runs a list page of `limit` jobs carries: 10, fewer on pages past 100 jobs. */
export function runsPerJob(limit: number): number {
  return Math.max(1, Math.min(LATEST_RUNS, Math.floor(LIST_RUNS_BUDGET / Math.max(limit, 1))));
}

export class JobRepository {
  constructor(private readonly db: Db) {}

  /** null when a namespace is given and does not exist. */
  async list(filter: JobFilter, offset: number, limit: number, order: ListOrder = BY_NAME): Promise<Page<Job> | null> {
    const params = {
      states: filter.lastRunStates,
      offset: int(offset),
      limit: int(limit),
      runsPerJob: int(runsPerJob(limit)),
    };
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
