import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { iso, isoFromEpochMillis } from '../../src/store/time.js';

/** What iso gives a string by definition: Date's own reading of it, or the string when Date cannot read it. */
const byDate = (s: string) => (Number.isNaN(new Date(s).getTime()) ? s : new Date(s).toISOString());

describe('iso: times as ISO 8601 UTC with milliseconds', () => {
  it('gives every string what Date gives it (canonical ones are returned as they are)', () => {
    const samples = [
      '2026-11-25T21:22:33.123Z',
      '0000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '2026-02-28T23:59:59.999Z',
      '2026-02-29T00:00:00.000Z',
      '2026-02-30T00:00:00.000Z',
      '2026-04-31T10:00:00.000Z',
      '2024-02-29T12:00:00.000Z',
      '2026-11-25T24:00:00.000Z',
      '2026-11-25T21:22:33Z',
      '2026-11-25T21:22:33.123456789Z',
      '2026-11-25T21:22:33.123+02:00',
      '2026-11-25',
      'not a time',
      '',
    ];
    for (const s of samples) expect(iso(s), s).to.equal(byDate(s));
    // Random canonical instants from 1900 to 9999.
    for (let i = 0; i < 2000; i++) {
      const s = new Date(
        Date.UTC(0, 0, 1) + Math.random() * (Date.UTC(9999, 11, 31) - Date.UTC(0, 0, 1)),
      ).toISOString();
      expect(iso(s), s).to.equal(s);
    }
  });

  it('converts Neo4j temporal values and epoch milliseconds (the epochMillis of a query), and null to null', () => {
    const t = new neo4j.types.DateTime(2026, 11, 25, 21, 22, 33, 123_000_000, 0);
    expect(iso(t)).to.equal('2026-11-25T21:22:33.123Z');
    const ms = Date.UTC(2026, 10, 25, 21, 22, 33, 123);
    expect(iso(neo4j.int(ms)), 'an Integer').to.equal('2026-11-25T21:22:33.123Z');
    expect(iso(ms), 'a number').to.equal('2026-11-25T21:22:33.123Z');
    expect(iso(neo4j.int(-1))).to.equal('1969-12-31T23:59:59.999Z');
    expect(iso(null)).to.equal(null);
    expect(iso(undefined)).to.equal(null);
    expect(iso(true)).to.equal(null);
  });
});

describe('isoFromEpochMillis: toISOString, faster', () => {
  it('gives what Date.prototype.toISOString gives, for random times and the edges of four-digit years', () => {
    const edges = [0, -1, 1, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1];
    const year0 = new Date(0).setUTCFullYear(0, 0, 1);
    edges.push(year0, year0 - 1, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2026, 11, 31, 0, 0, 0, 0));
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const span = 8.64e15;
    const randoms = Array.from({ length: 20_000 }, (_, i) =>
      // Mostly recent times (the same days again, as in an answer), some anywhere Date can go.
      i % 4 === 0 ? Math.floor((random() * 2 - 1) * span) : Date.UTC(2026, 0, 1) + Math.floor(random() * 4e10),
    );
    for (const ms of [...edges, ...randoms])
      expect(isoFromEpochMillis(ms), String(ms)).to.equal(new Date(ms).toISOString());
  });
});
