/** Comparators shared by the planner, the stores and the mappers: one definition of text order. */

/** Code-unit order of two strings (what Cypher's ORDER BY does with strings), not locale order. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A comparator by a string key (lock orders, stable output). */
export const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T): number =>
    compareText(key(a), key(b));
