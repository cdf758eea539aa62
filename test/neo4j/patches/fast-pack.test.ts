import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { installFastPack } from '../../../src/neo4j/patches/fast-pack.js';
import { CHUNKING_MODULE } from '../../../src/neo4j/patches/bolt-chunks.js';
import { PACKSTREAM_MODULE } from '../../../src/neo4j/patches/fast-unpack.js';
import { requireFromDriver, unpatched } from '../../../src/neo4j/patches/driver-internals.js';
import { testDb } from '../../helper.js';
import { seededSamples, TEXT_ALPHABET } from './packstream-samples.js';

const packstream = requireFromDriver(PACKSTREAM_MODULE);
const { Chunker } = requireFromDriver(CHUNKING_MODULE);
const { alloc } = requireFromDriver('neo4j-driver-bolt-connection/lib/channel/index.js');
const Transformer = requireFromDriver('neo4j-driver-bolt-connection/lib/bolt/transformer.js').default;
const typeTransformers = requireFromDriver(
  'neo4j-driver-bolt-connection/lib/bolt/bolt-protocol-v5x8.transformer.js',
).default;

type PackerInstance = { packable(x: unknown, dehydrate?: (v: unknown) => unknown): () => void };
const Packer = packstream.Packer as new (channel: unknown) => PackerInstance;
/**
 * The driver's own packer at every level: its `packable` recurses through `this.packable`, so the driver's
 * function sits on this class's prototype.
 */
class DriverPacker extends Packer {}
(DriverPacker.prototype as PackerInstance).packable = unpatched(packstream.Packer.prototype.packable);

/** The driver's dehydration of its own types (temporal, spatial, graph) into Bolt structures. */
const transformer = new Transformer(
  Object.values(typeTransformers).map((create) => (create as (config: object, log: unknown) => unknown)({}, undefined)),
);
const dehydrate = (v: unknown) => transformer.toStructure(v);

/**
 * `value` packed as one Bolt message by `P` into a driver Chunker of `chunkSize` bytes: the message's bytes
 * with the chunk framing taken off, and how many chunks carried them.
 */
function message(P: new (channel: unknown) => PackerInstance, value: unknown, chunkSize = 16 * 1024) {
  const written: Buffer[] = [];
  const chunker = new Chunker({ write: (b: { _buffer: Buffer }) => written.push(Buffer.from(b._buffer)) }, chunkSize);
  new P(chunker).packable(value, dehydrate)();
  chunker.messageBoundary();
  chunker.flush();
  const stream = Buffer.concat(written);
  const payload: Buffer[] = [];
  let chunks = 0;
  for (let at = 0; at < stream.length; ) {
    const size = stream.readUInt16BE(at);
    at += 2;
    if (size === 0) continue;
    payload.push(stream.subarray(at, at + size));
    at += size;
    chunks++;
  }
  return { bytes: Buffer.concat(payload), chunks, stream };
}

/** Deterministic values of every kind a parameter can hold, at the length boundaries of each marker. */
function samples(): unknown[] {
  const { rand, text, nested: nestedOf } = seededSamples(11, [...TEXT_ALPHABET, '\u0000', '\u007f']);
  const strings = [
    0, 1, 15, 16, 17, 31, 32, 33, 255, 256, 5_000, 16_370, 16_377, 16_378, 16_400, 65_535, 65_536,
  ].flatMap((n) => ['x'.repeat(n), text(n)]);
  const scalars = [null, true, false, 0, 1, -1, 2 ** 31, 2 ** 53 + 2, 1.5, -0.25, Number.NaN, -0, Infinity];
  // Integers at each boundary of the tiny, 8-, 16-, 32- and 64-bit forms, and driver types whose structures
  // hold Integers (temporal values) or floats (points).
  const integers = [
    0,
    -1,
    -16,
    -17,
    127,
    128,
    -128,
    -129,
    32_767,
    32_768,
    -32_768,
    -32_769,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    -(2 ** 31) - 1,
    2 ** 32,
    -(2 ** 32),
    2 ** 53 - 1,
    -(2 ** 53) + 1,
  ]
    .map((n) => neo4j.int(n))
    .concat([neo4j.int('9007199254740993'), neo4j.int('9223372036854775807'), neo4j.int('-9223372036854775808')]);
  const temporal = [
    new neo4j.types.DateTime(2026, 11, 24, 3, 4, 5, 6_000_000, 3600),
    neo4j.types.DateTime.fromStandardDate(new Date(Date.UTC(2026, 10, 24, 3, 4, 5, 6))),
    new neo4j.types.DateTime(1969, 12, 31, 23, 59, 59, 999_999_999, -64_800),
    new neo4j.types.DateTime(50, 3, 1, 12, 0, 0, 0, 50_400),
    new neo4j.types.Date(2026, 11, 24),
    new neo4j.types.Date(-4000, 1, 1),
    new neo4j.types.LocalTime(23, 59, 59, 999_999_999),
    new neo4j.types.Time(1, 2, 3, 4, -3600),
    new neo4j.types.Duration(14, 400, 2 ** 40, 999_999_999),
    new neo4j.types.Point(7203, 1.5, 2.5),
    ...integers,
  ];
  const leaf = () => {
    const r = rand();
    if (r < 0.5) return strings[Math.floor(rand() * 18)];
    if (r < 0.9) return scalars[Math.floor(rand() * scalars.length)];
    return temporal[Math.floor(rand() * temporal.length)];
  };
  const nested = (depth: number) => nestedOf(depth, leaf);
  return [
    ...strings,
    ...scalars,
    ...temporal,
    [],
    {},
    [undefined, 1, undefined],
    { kept: 1, left: undefined, also: 'yes' },
    Object.assign(Object.create(null), { 'null prototype': true }),
    Array.from({ length: 300 }, (_, i) => (i % 2 ? `s${i % 7}` : i)),
    Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`key${i}`, i % 3 ? `value${i}` : null])),
    Int8Array.from([1, -2, 3]),
    new Set(['a set', 'is a list']),
    new Map([['a map', 'is a list of pairs']]),
    [{ at: new neo4j.types.LocalDateTime(2026, 11, 24, 3, 4, 5, 0) }, neo4j.int(5)],
    // Each Integer and driver type inside a map (where the patch packs it), not only at the top (the driver's).
    { nested: temporal, one: { by: temporal.map((v) => [v]) } },
    ...Array.from({ length: 150 }, () => ({ rows: [nested(4), nested(4)] })),
  ];
}

describe('driver fast packing of parameters', () => {
  before(() => installFastPack());

  it('is installed on the pinned driver (a false here means a driver upgrade moved the patched function)', () => {
    expect(installFastPack()).to.equal(true);
  });

  it('writes every kind of value, at every length boundary, as the bytes the driver writes', () => {
    for (const value of samples()) {
      const driver = message(DriverPacker, value);
      const patched = message(Packer, value);
      expect(patched.bytes.equals(driver.bytes), `value ${JSON.stringify(value)?.slice(0, 80)}`).to.equal(true);
    }
  });

  it('frames the message in valid chunks whatever the chunk size, splitting only what cannot fit one', () => {
    const value = { facets: 'é'.repeat(3_000), names: Array.from({ length: 500 }, (_, i) => `name_${i}`) };
    for (const size of [64, 1_400, 16 * 1024]) {
      const driver = message(DriverPacker, value, size);
      const patched = message(Packer, value, size);
      expect(patched.bytes.equals(driver.bytes)).to.equal(true);
      // Each chunk's declared size is what follows it, and the stream ends with the message boundary.
      expect(patched.stream.subarray(-2).readUInt16BE(0)).to.equal(0);
    }
  });

  it('leaves a packer that writes anywhere but a Chunker, and what it cannot pack, to the driver', () => {
    const buffer = alloc(1024) as { position: number };
    new Packer(buffer).packable({ a: ['b', 1] }, dehydrate)();
    const driverBuffer = alloc(1024) as { position: number };
    new DriverPacker(driverBuffer).packable({ a: ['b', 1] }, dehydrate)();
    expect(buffer.position).to.equal(driverBuffer.position);
    const cannot = (P: new (channel: unknown) => PackerInstance) => {
      try {
        message(P, { f: () => 1 });
        return 'packed';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(cannot(Packer)).to.equal(cannot(DriverPacker));
    expect(cannot(Packer)).to.match(/Unable to pack/);
  });

  it('sends Neo4j the values the service passed', async () => {
    const params = {
      name: 'naïve ✓ 😀',
      long: 'é'.repeat(20_000),
      empty: '',
      f: 1.5,
      n: neo4j.int(42),
      yes: true,
      nothing: null,
      list: ['two', [true, false], { deep: 'map' }],
      at: neo4j.types.DateTime.fromStandardDate(new Date('2026-11-24T03:04:05.006Z')),
      rows: Array.from({ length: 2_000 }, (_, i) => ({ k: `key${i % 3}`, v: `value${i}` })),
    };
    const res = await testDb().read({ op: 'test' }, (tx) =>
      tx.run(
        `RETURN $name AS name, size($long) AS long, $empty AS empty, $f AS f, $n AS n, $yes AS yes,
           $nothing AS nothing, $list AS list, toString($at) AS at, size($rows) AS rows, $rows[1999].v AS last`,
        params,
      ),
    );
    const r = res.records[0];
    expect([r.get('name'), r.get('long').toNumber(), r.get('empty'), r.get('f')]).to.deep.equal([
      'naïve ✓ 😀',
      20_000,
      '',
      1.5,
    ]);
    expect([r.get('n').toNumber(), r.get('yes'), r.get('nothing')]).to.deep.equal([42, true, null]);
    expect(r.get('list')).to.deep.equal(['two', [true, false], { deep: 'map' }]);
    expect(r.get('at')).to.equal('2026-11-24T03:04:05.006Z');
    expect([r.get('rows').toNumber(), r.get('last')]).to.deep.equal([2_000, 'value1999']);
  });
});
