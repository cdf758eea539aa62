/**
 * The fast-datetime driver patch (src/neo4j/patches/fast-datetime.ts): DateTimes with an offset are
 * encoded as the driver encodes them, value for value, and Neo4j reads them back as the same times.
 */
import { expect } from 'chai';
import neo4j, { type Integer } from 'neo4j-driver';
import {
  dateTimeStructure,
  installFastDateTime,
  UTC_TRANSFORMER_MODULE,
} from '../../../src/neo4j/patches/fast-datetime.js';
import { requireFromDriver, TRANSFORMER_MODULE } from '../../../src/neo4j/patches/plain-params.js';
import { testDb } from '../../helper.js';

const { DateTime } = neo4j.types;
const { Structure } = requireFromDriver('neo4j-driver-bolt-connection/lib/packstream/index.js').structure;
type Struct = { signature: number; fields: Integer[] };
const driverEncoding = requireFromDriver(UTC_TRANSFORMER_MODULE).default.createDateTimeWithOffsetTransformer({}) as {
  toStructure(v: unknown): Struct;
};

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('driver patch fast-datetime', () => {
  it('is installed on the pinned driver (a false here means a driver upgrade changed what it replaces)', () => {
    expect(installFastDateTime()).to.equal(true);
  });

  it("encodes 20,000 random times with offsets as the driver's own transformer does", () => {
    const next = random(42);
    const pick = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
    for (let i = 0; i < 20_000; i++) {
      // Mostly years 0-9999 (what ISO event times name), some far ones; any day of the month it has.
      const year = i % 10 === 0 ? pick(-199_000, 199_000) : pick(0, 9999);
      const month = pick(1, 12);
      const day = pick(1, new Date(Date.UTC(2001, month, 0)).getUTCDate());
      const value =
        i % 3 === 0
          ? DateTime.fromStandardDate(new Date(pick(-62_135_596_800_000, 253_402_300_799_999)))
          : new DateTime(
              year,
              month,
              day,
              pick(0, 23),
              pick(0, 59),
              pick(0, 59),
              pick(0, 999_999_999),
              pick(-64_800, 64_800),
            );
      const ours = dateTimeStructure(value, Structure) as Struct;
      const theirs = driverEncoding.toStructure(value);
      expect(ours, String(value)).to.be.instanceOf(Structure);
      expect(ours.signature).to.equal(theirs.signature);
      expect(
        ours.fields.map((f) => f.toString()),
        String(value),
      ).to.deep.equal(theirs.fields.map((f) => f.toString()));
    }
  });

  it('leaves to the driver what it does not certainly encode as the driver would', () => {
    expect(dateTimeStructure(new DateTime(2026, 11, 27, 1, 2, 3, 0, undefined, 'Europe/Paris'), Structure)).to.equal(
      undefined,
    );
    const [y, mo, d, h, mi, sec, ns, off] = [2026, 11, 27, 1, 2, 3, 0, 0].map((n) => neo4j.int(n));
    expect(dateTimeStructure(new DateTime(y, mo, d, h, mi, sec, ns, off), Structure)).to.equal(undefined);
    expect(dateTimeStructure(new DateTime(300_000, 1, 1, 0, 0, 0, 0, 0), Structure)).to.equal(undefined);
    expect(dateTimeStructure(new neo4j.types.LocalDateTime(2026, 11, 27, 1, 2, 3, 0), Structure)).to.equal(undefined);
    expect(dateTimeStructure({ year: 2026 }, Structure)).to.equal(undefined);
    // A connection encoding times in local seconds (Bolt 4 without the utc patch) gets the driver's encoding.
    installFastDateTime();
    const Transformer = requireFromDriver(TRANSFORMER_MODULE).default;
    const legacy = requireFromDriver('neo4j-driver-bolt-connection/lib/bolt/bolt-protocol-v2.transformer.js').default;
    const transformer = new Transformer(Object.values(legacy).map((create: any) => create({}, undefined)));
    const at = new DateTime(2026, 11, 27, 1, 2, 3, 0, 3600);
    expect((transformer.toStructure(at) as Struct).signature).to.equal(0x46);
  });

  it("answers a UTC connection's DateTimes without asking its type transformers", () => {
    installFastDateTime();
    const Transformer = requireFromDriver(TRANSFORMER_MODULE).default;
    const asked: unknown[] = [];
    const transformer = new Transformer([
      {
        signature: 0x49,
        isTypeInstance: (v: unknown) => {
          asked.push(v);
          return false;
        },
        toStructure: (v: unknown) => v,
        fromStructure: (v: unknown) => v,
      },
    ]);
    const at = DateTime.fromStandardDate(new Date(Date.UTC(2026, 10, 27, 1, 2, 3, 456)));
    const struct = transformer.toStructure(at) as Struct;
    expect(asked).to.deep.equal([]);
    expect([struct.signature, ...struct.fields.map(String)]).to.deep.equal([0x49, '1795741323', '456000000', '0']);
    // Any other value still goes to the transformers.
    const zoned = new DateTime(2026, 11, 27, 1, 2, 3, 0, undefined, 'Europe/Paris');
    transformer.toStructure(zoned);
    expect(asked).to.deep.equal([zoned]);
  });

  it('sends times Neo4j reads back as the same dates, times, nanoseconds and offsets', async () => {
    installFastDateTime();
    const times = [
      DateTime.fromStandardDate(new Date(Date.UTC(2026, 10, 27, 1, 2, 3, 456))),
      new DateTime(1969, 12, 31, 23, 59, 59, 999_999_999, 0),
      new DateTime(50, 3, 1, 12, 0, 0, 0, 50_400),
      new DateTime(0, 1, 1, 0, 0, 0, 0, -3600),
      new DateTime(9999, 12, 31, 23, 59, 59, 999_000_000, 0),
    ];
    const res = await testDb().read({ op: 'test' }, (tx) =>
      tx.run('UNWIND $times AS t RETURN toString(t) AS text', { times }),
    );
    expect(res.records.map((r) => r.get('text'))).to.deep.equal([
      '2026-11-27T01:02:03.456Z',
      '1969-12-31T23:59:59.999999999Z',
      '0050-03-01T12:00:00+14:00',
      '0000-01-01T00:00:00-01:00',
      '9999-12-31T23:59:59.999Z',
    ]);
  });
});
