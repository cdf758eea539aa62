import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import {
  installPlainParamsFastPath,
  requireFromDriver,
  TRANSFORMER_MODULE,
} from '../../../src/neo4j/patches/plain-params.js';
import { testDb } from '../../helper.js';

describe('driver parameter packing fast path', () => {
  it('is installed on the pinned driver (a false here means a driver upgrade moved the patched function)', () => {
    expect(installPlainParamsFastPath()).to.equal(true);
  });

  it('skips the type checks for primitives, arrays and plain objects, and only for them', () => {
    installPlainParamsFastPath();
    const Transformer = requireFromDriver(TRANSFORMER_MODULE).default;
    const asked: unknown[] = [];
    const transformer = new Transformer([
      {
        signature: 0x7f,
        isTypeInstance: (v: unknown) => {
          asked.push(v);
          return false;
        },
        toStructure: (v: unknown) => v,
        fromStructure: (v: unknown) => v,
      },
    ]);
    for (const value of ['s', 1, 2n, null, true, undefined, [1], { a: 1 }, Object.create(null)]) {
      expect(transformer.toStructure(value)).to.equal(value);
    }
    expect(asked).to.deep.equal([]);
    class Thing {}
    const thing = new Thing();
    expect(transformer.toStructure(thing)).to.equal(thing);
    expect(asked).to.deep.equal([thing]);
  });

  it('sends primitives, lists, maps and the driver types exactly as the driver alone would', async () => {
    installPlainParamsFastPath();
    const params = {
      text: 'naïve ✓',
      empty: '',
      float: 1.5,
      whole: 3,
      yes: true,
      no: false,
      nothing: null,
      big: neo4j.int('9007199254740993'),
      bigint: 9007199254740995n,
      list: ['a', 1, null, [true]],
      map: { nested: { deeper: 'x', n: 2 }, when: new neo4j.types.Date(2026, 11, 24) },
      at: new neo4j.types.DateTime(2026, 11, 24, 3, 4, 5, 6_000_000, 3600),
      zoned: new neo4j.types.DateTime(2026, 11, 24, 3, 4, 5, 0, undefined, 'Europe/Paris'),
      local: new neo4j.types.LocalDateTime(2026, 11, 24, 3, 4, 5, 0),
      lasting: new neo4j.types.Duration(1, 2, 3, 4),
      place: new neo4j.types.Point(7203, 1.5, 2.5),
    };
    const res = await testDb().read({ op: 'test' }, (tx) =>
      tx.run(
        `RETURN $text AS text, $empty AS empty, $float AS float, $whole AS whole, $yes AS yes, $no AS no,
                $nothing AS nothing, $big AS big, $bigint AS bigint, $list AS list, $map AS map,
                toString($at) AS at, toString($zoned) AS zoned, toString($local) AS local,
                toString($lasting) AS lasting, $place.x + $place.y AS place,
                valueType($float) AS floatType, valueType($whole) AS wholeType, valueType($map.when) AS dateType`,
        params,
      ),
    );
    const r = res.records[0].toObject();
    expect(r.text).to.equal('naïve ✓');
    expect(r.empty).to.equal('');
    expect(r.float).to.equal(1.5);
    // The driver sends JavaScript numbers as floats; only Integer and bigint become Cypher integers.
    expect(r.floatType).to.equal('FLOAT NOT NULL');
    expect(r.wholeType).to.equal('FLOAT NOT NULL');
    expect([r.yes, r.no, r.nothing]).to.deep.equal([true, false, null]);
    expect(r.big.toString()).to.equal('9007199254740993');
    expect(r.bigint.toString()).to.equal('9007199254740995');
    expect(r.list[0]).to.equal('a');
    expect(r.list[1]).to.equal(1);
    expect(r.list[2]).to.equal(null);
    expect(r.list[3]).to.deep.equal([true]);
    expect(r.map.nested).to.deep.equal({ deeper: 'x', n: 2 });
    expect(r.map.when.toString()).to.equal('2026-11-24');
    expect(r.dateType).to.equal('DATE NOT NULL');
    expect(r.at).to.equal('2026-11-24T03:04:05.006+01:00');
    expect(r.zoned).to.equal('2026-11-24T03:04:05+01:00[Europe/Paris]');
    expect(r.local).to.equal('2026-11-24T03:04:05');
    expect(r.lasting).to.equal('P1M2DT3.000000004S');
    expect(r.place).to.equal(4);
  });
});
