/** Comparators shared by the planner, the stores and the mappers: one definition of text order. */

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * Code-point order of two strings, as Cypher's ORDER BY compares strings (not locale order). It is
 * JavaScript's code-unit order (`<`) except where a character outside the BMP (a surrogate pair) meets one
 * at U+E000-U+FFFF: by code point the first sorts after, by code unit before. Where an answer's order comes
 * from Neo4j and the service (the lineage graph's nodes and edges, list pages), both must agree.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length < b.length ? -1 : 1;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  if (isSurrogate(x) !== isSurrogate(y)) {
    if (isSurrogate(x) && y >= 0xe000) return 1;
    if (isSurrogate(y) && x >= 0xe000) return -1;
  }
  return x < y ? -1 : 1;
}

/** A comparator by a string key (lock orders, stable output). */
export const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T): number =>
    compareText(key(a), key(b));
