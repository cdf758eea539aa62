/** The page parameters every list endpoint declares (limit and offset), and their bounds. */
import { Param } from './params.js';

export const MAX_LIMIT = 1000;
/**
 * Deepest page a list serves. Neo4j must read and sort `offset + limit` rows to answer a page, so an
 * unbounded offset lets one request hold a transaction's memory for seconds; past it, a 400 says to
 * narrow the filter instead (an offset past the end of a shorter list is an empty page).
 */
export const MAX_OFFSET = 100_000;

export interface PageParams {
  limit: number;
  offset: number;
}

/** `limit` (default `defaultLimit`, 1..MAX_LIMIT) and `offset` (default 0) as query parameters of a route. */
export function pageQuery(defaultLimit = 100) {
  return {
    limit: Param.integer({
      minimum: 1,
      maximum: MAX_LIMIT,
      default: defaultLimit,
      description: `Most items answered (default ${defaultLimit}, at most ${MAX_LIMIT})`,
    }),
    offset: Param.integer({
      minimum: 0,
      maximum: MAX_OFFSET,
      default: 0,
      description: `Items skipped (default 0, at most ${MAX_OFFSET}: narrow the filter to go deeper)`,
    }),
  };
}
