/** The stored raw lineage events (LineageEvent nodes), listed by event time. */
import type { Page } from '../api/types.js';
import { int, type Db } from './db.js';
import { toLineageEvent } from './mappers.js';

export interface EventWindow {
  /** Inclusive bounds on eventTime (ISO-8601). */
  after: string;
  before: string;
  direction: 'asc' | 'desc';
}

export class EventRepository {
  constructor(private readonly db: Db) {}

  async list(w: EventWindow, offset: number, limit: number): Promise<Page<Record<string, unknown>>> {
    const row = (
      await this.db.query(`events/list-${w.direction}`, {
        after: w.after,
        before: w.before,
        offset: int(offset),
        limit: int(limit),
      })
    ).records[0];
    return { totalCount: Number(row.get('totalCount')), items: (row.get('events') as unknown[]).map(toLineageEvent) };
  }
}
