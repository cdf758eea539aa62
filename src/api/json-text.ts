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
 * An object's whole JSON text, made ahead of time: a lineage edge is serialized as its record arrives,
 * once, though the answer writes it twice (in its origin's outEdges and its destination's inEdges).
 */
export const OWN_JSON_TEXT: unique symbol = Symbol('ownJsonText');

export type WithOwnJsonText = { [OWN_JSON_TEXT]?: string };

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

/** Records `obj`'s JSON text on it. `obj` must not change afterwards: call it once the object is final. */
export function keepOwnJsonText<T extends object>(obj: T): T {
  Object.defineProperty(obj, OWN_JSON_TEXT, { value: JSON.stringify(obj), enumerable: false });
  return obj;
}
