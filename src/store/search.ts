/** Search over dataset and job names (one query: count and page, served by the searchName text indexes). */
import type { SearchResult } from '../api/types.js';
import { int, type Db } from './db.js';
import { toSearchResult } from './mappers.js';

export const SEARCH_FILTERS = ['dataset', 'job'] as const;
export const SEARCH_SORTS = ['name', 'updated_at', 'relevance'] as const;

export interface SearchQuery {
  /** The text to find (any case). */
  q: string;
  filter: (typeof SEARCH_FILTERS)[number] | null;
  sort: (typeof SEARCH_SORTS)[number];
  namespace: string | null;
  /** updatedAt >= after (ISO) */
  after: string | null;
  /** updatedAt < before (ISO) */
  before: string | null;
  offset: number;
  limit: number;
}

export class SearchRepository {
  constructor(private readonly db: Db) {}

  async search(s: SearchQuery): Promise<{ totalCount: number; results: SearchResult[] }> {
    const row = (
      await this.db.query('search/search', {
        q: s.q.toLowerCase(),
        filter: s.filter ?? 'all',
        sort: s.sort,
        namespace: s.namespace,
        after: s.after,
        before: s.before,
        offset: int(s.offset),
        limit: int(s.limit),
      })
    ).records[0];
    return {
      totalCount: Number(row.get('totalCount')),
      results: (row.get('results') as unknown[]).map(toSearchResult),
    };
  }
}
