/** The page parameters every list endpoint declares (limit and offset), and their bounds. */
import { Type } from '@sinclair/typebox';
import { Param } from './params.js';
import { LIST_SORTS, SORT_ORDERS } from '../store/list-order.js';

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

/** `sort` and `order` of the job and dataset lists (src/store/list-order.ts); the order holds over all pages. */
export function sortQuery() {
  return {
    sort: Param.oneOf(LIST_SORTS, {
      default: 'name',
      description: 'Order by `name` (the default, as Marquez) or `updatedAt`; ties by namespace and name',
    }),
    order: Type.Optional(
      Param.oneOf(SORT_ORDERS, { description: 'Default: `asc` by name, `desc` (newest first) by updatedAt' }),
    ),
  };
}
