/**
 * Date.UTC without its legacy reading of years 0-99 as 1900-1999 (`Date.UTC(1, 0, 1)` is 1901-01-01).
 * Event times, `asOf` and windows reach back to year 0, the earliest a four-digit ISO year can name.
 * Out-of-range months, days and clock fields roll over as with Date.UTC.
 */
export function utc(year: number, monthIndex: number, day = 1, hours = 0, minutes = 0, seconds = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hours, minutes, seconds, ms);
  return date.getTime();
}

/** Midnight of 1 January of year 0: before every time an event or a query can name. */
export const START_OF_TIME_MS = utc(0, 0, 1);
