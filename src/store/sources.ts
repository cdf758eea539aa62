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

  async get(name: string): Promise<Source | null> {
    const res = await this.db.query('sources/get', { name });
    return res.records.length ? toSource(res.records[0].get('source')) : null;
  }
}
