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
  if (typeof value === 'number') return isoFromEpochMillis(value);
  if (neo4j.isInt(value)) return isoFromEpochMillis((value as neo4j.Integer).toNumber());
  if (neo4j.isDateTime(value) || neo4j.isLocalDateTime(value) || neo4j.isDate(value)) {
    return new Date((value as neo4j.DateTime).toString()).toISOString();
  }
  return null;
}

const DAY_MS = 86_400_000;
/** Years 0000-9999, where toISOString writes `YYYY-MM-DD`; outside them it writes `±YYYYYY`. */
// (Date.UTC reads years 0-99 as 1900-1999: year 0 is set apart.)
const FOUR_DIGIT_YEARS = [new Date(0).setUTCFullYear(0, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999)];
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** Day number → its `YYYY-MM-DDT` (an answer's thousands of times fall on few days). */
const dayPrefixes = new Map<number, string>();

/**
 * `new Date(ms).toISOString()`, about five times faster: the date part from a cache per day, the time of
 * day by arithmetic (a lineage answer has tens of thousands of times; test/store/time.test.ts compares both).
 */
export function isoFromEpochMillis(ms: number): string {
  if (!Number.isInteger(ms) || ms < FOUR_DIGIT_YEARS[0] || ms > FOUR_DIGIT_YEARS[1]) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= 10_000) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${prefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[millis]}Z`;
}
