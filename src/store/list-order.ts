/**
 * The order of the job and dataset lists (`sort`, `order` on their routes). Cypher takes no parameter
 * in ORDER BY, so a list file marks its ordering `ORDER BY <keys> /*order*\/` and the store swaps in
 * one of a fixed set of orderings: one cached plan per ordering, nothing from user input in the text.
 */
import { cypher } from './cypher.js';
import type { QueryName } from './catalogue.js';

export const LIST_SORTS = ['name', 'updatedAt'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export interface ListOrder {
  sort: ListSort;
  order: SortOrder;
}

/** Marquez's order, the files' own: by name (within a namespace), A to Z. */
export const BY_NAME: ListOrder = { sort: 'name', order: 'asc' };

/** True for the files' own order (then the file is sent as written). */
export function isByName(o: ListOrder): boolean {
  return o.sort === 'name' && o.order === 'asc';
}

/** An `order` left out: A to Z by name, newest first by updatedAt. */
export function listOrder(sort: ListSort = 'name', order?: SortOrder): ListOrder {
  return { sort, order: order ?? (sort === 'updatedAt' ? 'desc' : 'asc') };
}

const ORDER_MARK = /ORDER BY ([^/]*?)\s*\/\*order\*\//;

/**
 * The text of a list file ordered by `o`, its rows bound to `alias` (`j`, `d`). By name: the file's
 * (namespace, name) keys, descending when asked. By updatedAt: then by (namespace, name) ascending, so
 * ties keep a stable order across pages.
 */
export function orderedQuery(name: QueryName, alias: string, o: ListOrder): string {
  const text = cypher(name);
  const mark = ORDER_MARK.exec(text);
  if (!mark) throw new Error(`cypher/${name}.cypher has no ORDER BY … /*order*/`);
  const keys = `${alias}.namespace, ${alias}.name`;
  const dir = o.order === 'desc' ? ' DESC' : '';
  const by = o.sort === 'name' ? `${alias}.namespace${dir}, ${alias}.name${dir}` : `${alias}.updatedAt${dir}, ${keys}`;
  return text.replace(ORDER_MARK, `ORDER BY ${by} /*order*/`);
}
