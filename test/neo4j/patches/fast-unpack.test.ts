import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { installFastUnpack, PACKSTREAM_MODULE } from '../../../src/neo4j/patches/fast-unpack.js';
import { requireFromDriver, unpatched } from '../../../src/neo4j/patches/driver-internals.js';
import { testDb } from '../../helper.js';
import { seededSamples } from './packstream-samples.js';

const packstream = requireFromDriver(PACKSTREAM_MODULE);
const { v2 } = requireFromDriver('neo4j-driver-bolt-connection/lib/packstream/index.js');
const { alloc } = requireFromDriver('neo4j-driver-bolt-connection/lib/channel/index.js');
const CombinedBuffer = requireFromDriver('neo4j-driver-bolt-connection/lib/channel/combined-buf.js').default;
const ChannelBuffer = requireFromDriver('neo4j-driver-bolt-connection/lib/channel/channel-buf.js').default;

type Buf = { position: number; _buffer: Buffer };

/** `value` as PackStream bytes, as the server would send it. */
function packed(value: unknown): Buffer {
  const buffer = alloc(4 * 1024 * 1024) as Buf;
  new v2.Packer(buffer).packable(value, (v: unknown) => v)();
  return Buffer.from(buffer._buffer.subarray(0, buffer.position));
}

/**
 * The driver's own unpacker at every level: its `unpack` recurses through `this.unpack`, so the driver's
 * function sits on this class's prototype (called on a patched unpacker, it would read only the top level).
 */
const Unpacker = packstream.Unpacker as new (
  disableLosslessIntegers: boolean,
  useBigInt: boolean,
) => {
  unpack(buffer: Buf): unknown;
};
class DriverUnpacker extends Unpacker {}
DriverUnpacker.prototype.unpack = unpatched(packstream.Unpacker.prototype.unpack);

/** The value the driver's own unpacker and the patched one read from the same bytes, and where each stopped. */
function bothWays(bytes: Buffer, wrap: (b: Buffer) => Buf = (b) => new ChannelBuffer(b)) {
  const driverBuf = wrap(bytes);
  const patchedBuf = wrap(bytes);
  const driver = new DriverUnpacker(false, false).unpack(driverBuf);
  const patched = new Unpacker(false, false).unpack(patchedBuf);
  return { driver, patched, driverEnd: driverBuf.position, patchedEnd: patchedBuf.position };
}

/** Deterministic values of every PackStream kind, at the length boundaries of each marker. */
function samples(): unknown[] {
  const { rand, text, nested: nestedOf } = seededSamples(7);
  const strings = [0, 1, 15, 16, 17, 23, 24, 25, 47, 48, 49, 255, 256, 300, 65_535, 65_536, 70_000].flatMap((n) => [
    'x'.repeat(n),
    text(n),
  ]);
  const scalars = [
    null,
    true,
    false,
    0,
    1,
    -1,
    127,
    -16,
    -17,
    128,
    40_000,
    2 ** 31,
    1.5,
    -0.25,
    neo4j.int('9007199254740993'),
  ];
  const leaf = () => (rand() < 0.5 ? strings[Math.floor(rand() * 20)] : scalars[Math.floor(rand() * scalars.length)]);
  const nested = (depth: number) => nestedOf(depth, leaf);
  return [
    ...strings,
    ...scalars,
    [],
    {},
    Array.from({ length: 300 }, (_, i) => (i % 2 ? `s${i % 7}` : i)),
    Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key${i}`, `value${i % 3}`])),
    new neo4j.types.DateTime(2026, 11, 24, 3, 4, 5, 6_000_000, 3600),
    [new neo4j.types.Date(2026, 11, 24), { at: new neo4j.types.LocalDateTime(2026, 11, 24, 3, 4, 5, 0) }],
    Int8Array.from([1, -2, 3]),
    ...Array.from({ length: 100 }, () => nested(4)),
  ];
}

describe('driver fast unpacking of answers', () => {
  before(() => installFastUnpack());

  it('is installed on the pinned driver (a false here means a driver upgrade moved the patched function)', () => {
    expect(installFastUnpack()).to.equal(true);
  });

  it('reads every kind of value, at every length boundary, exactly as the driver does', () => {
    for (const value of samples()) {
      const { driver, patched, driverEnd, patchedEnd } = bothWays(packed(value));
      expect(patched).to.deep.equal(driver);
      expect(patchedEnd).to.equal(driverEnd);
    }
  });

  it('reads repeated strings from its cache without mixing up strings of the same length', () => {
    // Many distinct short strings, each several times: more than the cache has slots, so slots are reused.
    const values = Array.from({ length: 40_000 }, (_, i) => `n${(i * 7919) % 20_000}`.padEnd(12, 'x'));
    const { driver, patched } = bothWays(packed(values));
    expect(patched).to.deep.equal(driver);
    expect((patched as string[]).slice(0, 3)).to.deep.equal(['n0xxxxxxxxxx', 'n7919xxxxxxx', 'n15838xxxxxx']);
  });

  it('leaves messages assembled from several chunks, and truncated ones, to the driver', () => {
    const value = { name: 'split across chunks', list: ['a', 'bb', 'ccc', 1, null] };
    const bytes = packed(value);
    const split = (b: Buffer) =>
      new CombinedBuffer([new ChannelBuffer(b.subarray(0, 7)), new ChannelBuffer(b.subarray(7))]);
    const { driver, patched } = bothWays(bytes, split);
    expect(patched).to.deep.equal(value);
    expect(patched).to.deep.equal(driver);
    // A string whose declared length runs past the end of the message: the driver's own clamping.
    const cut = packed('a string of 25 characters').subarray(0, 10);
    const truncated = bothWays(cut);
    expect(truncated.patched).to.equal(truncated.driver);
    expect(truncated.patchedEnd).to.equal(truncated.driverEnd);
  });

  it('gives the service the values Neo4j sent', async () => {
    const res = await testDb().read({ op: 'test' }, (tx) =>
      tx.run(
        `RETURN {name: 'naïve ✓', long: $long, empty: '', n: 42, big: 9007199254740993, f: 1.5, yes: true,
           nothing: null, list: [1, 'two', [true, false]], at: datetime('2026-11-24T03:04:05.006Z')} AS v,
           [i IN range(1, 500) | {k: 'key' + (i % 3), v: 'value' + i}] AS rows`,
        { long: 'é'.repeat(300) },
      ),
    );
    const v = res.records[0].get('v');
    expect(v.name).to.equal('naïve ✓');
    expect(v.long).to.equal('é'.repeat(300));
    expect(v.empty).to.equal('');
    expect(neo4j.isInt(v.n) && v.n.toNumber()).to.equal(42);
    expect(v.big.toString()).to.equal('9007199254740993');
    expect([v.f, v.yes, v.nothing]).to.deep.equal([1.5, true, null]);
    expect([neo4j.isInt(v.list[0]), v.list[1], v.list[2]]).to.deep.equal([true, 'two', [true, false]]);
    expect(neo4j.isDateTime(v.at) && v.at.toString()).to.equal('2026-11-24T03:04:05.006000000Z');
    const rows = res.records[0].get('rows') as { k: string; v: string }[];
    expect(rows).to.have.length(500);
    expect(rows[0]).to.deep.equal({ k: 'key1', v: 'value1' });
    expect(rows[499]).to.deep.equal({ k: 'key2', v: 'value500' });
  });
});
