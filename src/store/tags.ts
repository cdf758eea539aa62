/** Tag aggregate: the tags themselves (tagging datasets, fields and jobs lives with those aggregates). */
import type { Page, Tag } from '../api/types.js';
import { int, type Db } from './db.js';
import { toTag } from './mappers.js';

export class TagRepository {
  constructor(private readonly db: Db) {}

  async list(offset: number, limit: number): Promise<Page<Tag>> {
    const row = (await this.db.query('tags/list', { offset: int(offset), limit: int(limit) })).records[0];
    return { totalCount: Number(row.get('totalCount')), items: (row.get('tags') as unknown[]).map(toTag) };
  }

  /** Creates the tag or replaces its description. */
  async upsert(name: string, description: string | null, now = new Date()): Promise<Tag> {
    const res = await this.db.command('tags/upsert', { name, description, now: now.toISOString() });
    return toTag(res.records[0].get('tag'));
  }
}
