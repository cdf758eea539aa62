import neo4j from 'neo4j-driver';

/** A Neo4j temporal value (or ISO string) as ISO-8601 UTC with millisecond precision and a trailing Z. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (neo4j.isDateTime(value) || neo4j.isLocalDateTime(value) || neo4j.isDate(value)) {
    return new Date((value as neo4j.DateTime).toString()).toISOString();
  }
  if (typeof value === 'string') {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : d.toISOString();
  }
  return null;
}
