/** Source aggregate: the data sources datasets come from (from the `dataSource` dataset facet). */
import type { Page, Source } from '../api/types.js';
import { int, type Db } from './db.js';
import { toSource } from './mappers.js';

export class SourceRepository {
  constructor(private readonly db: Db) {}

  async list(offset: number, limit: number): Promise<Page<Source>> {
    const row = (await this.db.query('sources/list', { offset: int(offset), limit: int(limit) })).records[0];
    return { totalCount: Number(row.get('totalCount')), items: (row.get('sources') as unknown[]).map(toSource) };
  }

  /** PUT (legacy write API): creates the source or replaces its type, URL and description. */
  async upsert(
    name: string,
    meta: { type: string; connectionUrl: string; description: string | null },
    now = new Date(),
  ): Promise<Source> {
    const res = await this.db.command('sources/upsert', { name, ...meta, now: now.toISOString() });
    return toSource(res.records[0].get('source'));
  }

  async get(name: string): Promise<Source | null> {
    const res = await this.db.query('sources/get', { name });
    return res.records.length ? toSource(res.records[0].get('source')) : null;
  }
}
