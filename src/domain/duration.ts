/**
 * ISO 8601 durations (`P30D`, `PT12H`, `P1Y2M`, `P2W`) for the lineage window. Years and months are
 * calendar units: `P1M` before 31 March is 28 or 29 February's same time, as Neo4j's own
 * `datetime - duration('P1M')` would answer.
 */
import { START_OF_TIME_MS, utc } from './utc.js';

export interface Duration {
  years: number;
  months: number;
  days: number;
  /** Hours, minutes and seconds, in ms. */
  ms: number;
  /** As given (normalized to upper case), for messages and responses. */
  text: string;
}

const PATTERN =
  /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d{1,9})?)S)?)?$/;

/** The duration, or null when `text` is not an ISO 8601 duration (negative ones included). */
export function parseDuration(text: string): Duration | null {
  const upper = text.trim().toUpperCase();
  const m = PATTERN.exec(upper);
  if (!m || upper === 'P' || upper.endsWith('T')) return null;
  const n = (i: number) => (m[i] === undefined ? 0 : Number(m[i].replace(',', '.')));
  const parts = [n(1), n(2), n(3), n(4), n(5), n(6), n(7)];
  if (parts.some((p) => !Number.isFinite(p) || p > 1e7)) return null;
  const [years, months, weeks, days, hours, minutes, seconds] = parts;
  return {
    years,
    months,
    days: weeks * 7 + days,
    ms: Math.round(((hours * 60 + minutes) * 60 + seconds) * 1000),
    text: upper,
  };
}

/**
 * `time` (epoch ms) minus `d`, calendar units first (then days, then the clock part). A duration that
 * reaches before the year 0 (`P9999999Y`) ends at its start: no stored time is earlier, so the window
 * is everything, where the arithmetic would leave JavaScript's date range.
 */
export function minus(time: number, d: Duration): number {
  const shifted = calendarMinus(time, d);
  return Number.isFinite(shifted) && shifted > START_OF_TIME_MS ? shifted : START_OF_TIME_MS;
}

function calendarMinus(time: number, d: Duration): number {
  const t = new Date(time);
  const targetMonth = t.getUTCMonth() - d.months - d.years * 12;
  const day = t.getUTCDate();
  // Month arithmetic clamps to the last day of the target month (31 March - P1M = 28/29 February).
  const lastDay = new Date(utc(t.getUTCFullYear(), targetMonth + 1, 0)).getUTCDate();
  const shifted = utc(
    t.getUTCFullYear(),
    targetMonth,
    Math.min(day, lastDay),
    t.getUTCHours(),
    t.getUTCMinutes(),
    t.getUTCSeconds(),
    t.getUTCMilliseconds(),
  );
  return shifted - d.days * 86_400_000 - d.ms;
}
