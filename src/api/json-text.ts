/**
 * Members of an answer's objects whose JSON text was made ahead of time: a lineage node's `data` is
 * serialized as its record arrives from Neo4j (on the second core, while Neo4j still renders the rest),
 * so the streamed JSON writer (src/http/middleware/json-stream.ts) does not serialize it again after the
 * last record, on the answer's critical path. JSON.stringify ignores the symbol: an answer written any
 * other way is unchanged.
 */
export const JSON_TEXT: unique symbol = Symbol('jsonText');

export type WithJsonText = { [JSON_TEXT]?: Record<string, string> };

/**
 * Records `obj[key]`'s JSON text on `obj`. The member must not change afterwards (the text would be
 * stale): call it once the member is final.
 */
export function keepJsonText<T extends object>(obj: T, key: keyof T & string): T {
  const text = JSON.stringify(obj[key]);
  if (text === undefined) return obj;
  const texts = (obj as WithJsonText)[JSON_TEXT];
  if (texts) texts[key] = text;
  // Not enumerable: copies, deep comparisons and every other writer see the object as it is.
  else Object.defineProperty(obj, JSON_TEXT, { value: { [key]: text }, enumerable: false });
  return obj;
}
