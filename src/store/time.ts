import neo4j from 'neo4j-driver';

/**
 * Strings that Date.prototype.toISOString returns unchanged after parsing them (years 0000-9999). Days 29-31
 * are left to Date, which rolls an impossible one (02-30) over into the next month.
 */
const CANONICAL_UTC = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/**
 * A Neo4j temporal value (or ISO string, or epoch milliseconds: a query's `.epochMillis`, cheaper for Neo4j
 * than `toString` where an answer has thousands of times) as ISO-8601 UTC with millisecond precision and a
 * trailing Z.
 */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  // Strings first: the queries send most times as Neo4j's toString of a UTC DateTime with millisecond
  // precision, which is already the answer.
  if (typeof value === 'string') {
    if (CANONICAL_UTC.test(value)) return value;
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : d.toISOString();
  }
  if (typeof value === 'number') return new Date(value).toISOString();
  if (neo4j.isInt(value)) return new Date((value as neo4j.Integer).toNumber()).toISOString();
  if (neo4j.isDateTime(value) || neo4j.isLocalDateTime(value) || neo4j.isDate(value)) {
    return new Date((value as neo4j.DateTime).toString()).toISOString();
  }
  return null;
}
