/** Durations and their calendar arithmetic (src/domain/duration.ts), and the UTC helper it uses. */
import { expect } from 'chai';
import { minus, parseDuration } from '../../src/domain/duration.js';
import { START_OF_TIME_MS, utc } from '../../src/domain/utc.js';

const iso = (ms: number) => new Date(ms).toISOString();
const duration = (text: string) => {
  const d = parseDuration(text);
  if (!d) throw new Error(`not a duration: ${text}`);
  return d;
};

describe('durations', () => {
  it('utc reads years 0-99 as themselves, where Date.UTC reads them as 1900-1999', () => {
    expect(iso(utc(1, 0, 1))).to.equal('0001-01-01T00:00:00.000Z');
    expect(iso(START_OF_TIME_MS)).to.equal('0000-01-01T00:00:00.000Z');
    expect(iso(utc(50, 1, 28, 23, 59, 59, 999))).to.equal('0050-02-28T23:59:59.999Z');
    // Out-of-range fields roll over as with Date.UTC.
    expect(iso(utc(2026, 12, 1))).to.equal('2027-01-01T00:00:00.000Z');
    expect(iso(utc(2026, 2, 0))).to.equal('2026-02-28T00:00:00.000Z');
    expect(utc(2026, 10, 27, 1, 2, 3, 4)).to.equal(Date.UTC(2026, 10, 27, 1, 2, 3, 4));
  });

  it('minus: calendar units first, clamped to the end of the month, in any year', () => {
    expect(iso(minus(Date.parse('2026-03-31T10:00:00Z'), duration('P1M')))).to.equal('2026-02-28T10:00:00.000Z');
    expect(iso(minus(Date.parse('2024-03-31T10:00:00Z'), duration('P1M')))).to.equal('2024-02-29T10:00:00.000Z');
    expect(iso(minus(Date.parse('2026-01-15T00:00:00Z'), duration('P1Y2M')))).to.equal('2024-11-15T00:00:00.000Z');
    expect(iso(minus(Date.parse('2026-11-27T12:00:00Z'), duration('P30D')))).to.equal('2026-10-28T12:00:00.000Z');
    expect(iso(minus(Date.parse('2026-11-27T12:00:00Z'), duration('PT1H30M')))).to.equal('2026-11-27T10:30:00.000Z');
    // Years 0-99 stay where they are (Date.UTC would have moved them to 1900-1999).
    expect(iso(minus(Date.parse('0050-03-31T00:00:00Z'), duration('P1M')))).to.equal('0050-02-28T00:00:00.000Z');
    expect(iso(minus(Date.parse('0001-03-01T00:00:00Z'), duration('P1Y')))).to.equal('0000-03-01T00:00:00.000Z');
  });

  it('minus: a duration reaching before the year 0 ends there (a window of everything), never an invalid time', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    for (const text of ['P9999999Y', 'P300000Y', 'P10000000M', 'P9999999W', 'P3000Y'])
      expect(iso(minus(now, duration(text))), text).to.equal('0000-01-01T00:00:00.000Z');
    expect(iso(minus(now, duration('P2026Y')))).to.equal('0000-11-27T12:00:00.000Z');
  });
});
