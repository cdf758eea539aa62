import { expect } from 'chai';
import {
  diffSchemas,
  isEmptyDiff,
  ownersOf,
  pathTo,
  schemaFields,
  summarize,
  ViaPicker,
  DistanceThenIdOrder,
  sortById,
} from '../../src/domain/impact.js';
import { compareText } from '../../src/domain/compare.js';
import { csvCell, csvLine, csvValue, parseCsv } from '../../src/http/csv.js';
import { directed } from '../../src/store/cypher.js';

describe('impact: via, paths, summary', () => {
  it('via is the first by id among the predecessors one step nearer', () => {
    const v = new ViaPicker();
    expect(v.next('s', 0, [])).to.equal(null);
    expect(v.next('j2', 1, ['s'])).to.equal('s');
    expect(v.next('j1', 1, ['s', 'other'])).to.equal('s');
    expect(v.next('d', 2, ['j2', 'j1', 'x'])).to.equal('j1');
    // A predecessor at the same distance is not nearer.
    expect(v.next('e', 2, ['d'])).to.equal(null);
    expect(v.next('f', 3, ['d', 'e'])).to.equal('d');
    expect(() => v.next('g', 1, [])).to.throw(/order/);
  });

  it('via with rows named by another key (elementIds): the id of the first by id among the nearer keys', () => {
    const v = new ViaPicker();
    expect(v.next('s', 0, [], '4:x:0')).to.equal(null);
    expect(v.next('j2', 1, ['4:x:0'], '4:x:9')).to.equal('s');
    expect(v.next('j1', 1, ['4:x:0', '4:x:7'], '4:x:8')).to.equal('s');
    // By id (j1 < j2), not by key ('4:x:8' < '4:x:9' would pick the same here; '4:x:10' < '4:x:9' would not).
    expect(v.next('j0', 1, ['4:x:0'], '4:x:10')).to.equal('s');
    expect(v.next('d', 2, ['4:x:9', '4:x:10', '4:x:8', 'j1', '4:x:99'], '4:x:20')).to.equal('j0');
    expect(v.next('e', 2, ['4:x:20'], '4:x:21')).to.equal(null);
  });

  it('rows in distance order come out in (distance, id) order (code-unit order), a distance at a time', () => {
    const order = new DistanceThenIdOrder<{ distance: number; id: string }>();
    const out: string[][] = [];
    for (const [distance, id] of [
      [0, 's'],
      [1, 'job:b'],
      [1, 'dataset:z'],
      [1, 'job:B'],
      [2, 'job:é'],
      [2, 'job:e'],
      [4, 'x'],
    ] as const)
      out.push(order.push({ distance, id }).map((r) => `${r.distance} ${r.id}`));
    out.push(order.flush().map((r) => `${r.distance} ${r.id}`));
    // Each distance is released by the first row of the next, whole and sorted; the last by flush.
    expect(out).to.deep.equal([
      [],
      ['0 s'],
      [],
      [],
      ['1 dataset:z', '1 job:B', '1 job:b'],
      [],
      ['2 job:e', '2 job:é'],
      ['4 x'],
    ]);
    expect(order.flush()).to.deep.equal([]);
    const backwards = new DistanceThenIdOrder<{ distance: number; id: string }>();
    backwards.push({ distance: 2, id: 'a' });
    expect(() => backwards.push({ distance: 1, id: 'b' })).to.throw(/out of distance order/);
  });

  it('sorts by id in code-point order, with or without characters outside the BMP', () => {
    // Random ids over an alphabet with the characters where code units and code points disagree.
    const alphabet = ['a', 'b', 'é', ':', '\uE000', '\uFFFD', '😀', '\u{10000}', 'dataset:ns:'];
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const id = (astral: boolean) =>
      Array.from({ length: 1 + Math.floor(rand() * 6) }, () => {
        const c = alphabet[Math.floor(rand() * alphabet.length)];
        return !astral && (c === '😀' || c === '\u{10000}') ? 'z' : c;
      }).join('');
    for (const astral of [false, true])
      for (let round = 0; round < 200; round++) {
        const rows = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => ({ id: id(astral) }));
        const want = [...rows].sort((a, b) => compareText(a.id, b.id)).map((r) => r.id);
        expect(sortById([...rows]).map((r) => r.id)).to.deep.equal(want);
      }
  });

  it('pathTo follows the vias back to the start', () => {
    const via = new Map<string, string | null>([
      ['s', null],
      ['a', 's'],
      ['b', 'a'],
    ]);
    expect(pathTo('b', via)).to.deep.equal(['s', 'a', 'b']);
    expect(pathTo('s', via)).to.deep.equal(['s']);
    expect(pathTo('zz', new Map([['zz', 'missing']]))).to.equal(null);
  });

  it('summarize adds up counts per distance and type', () => {
    expect(
      summarize([
        [1, 'JOB', 2, 1],
        [2, 'DATASET', 3, 0],
        [3, 'JOB', 1, 1],
      ]),
    ).to.deep.equal({ total: 6, byDistance: { 1: 2, 2: 3, 3: 1 }, byType: { JOB: 3, DATASET: 3 }, failedJobs: 2 });
  });

  it('ownersOf reads the ownership facet', () => {
    expect(
      ownersOf(JSON.stringify({ owners: [{ name: 'team:a', type: 'TEAM' }, { name: 'bob' }, { type: 'x' }] })),
    ).to.deep.equal(['team:a', 'bob']);
    expect(ownersOf(null)).to.deep.equal([]);
    expect(ownersOf('not json')).to.deep.equal([]);
  });
});

describe('impact: schema diffs', () => {
  const f = (fields: unknown) => schemaFields(JSON.stringify(fields));

  it('reads nested columns as parent.child', () => {
    expect(
      f([
        { name: 'a', type: 'INT' },
        { name: 's', type: 'STRUCT', fields: [{ name: 'x', type: 'STRING' }] },
      ]),
    ).to.deep.equal([
      { name: 'a', type: 'INT' },
      { name: 's', type: 'STRUCT' },
      { name: 's.x', type: 'STRING' },
    ]);
    expect(schemaFields(null)).to.equal(null);
    expect(schemaFields('{}')).to.equal(null);
  });

  it('finds added, removed and retyped columns; a type changing case only is no change', () => {
    const before = f([
      { name: 'id', type: 'int' },
      { name: 'amount', type: 'DECIMAL' },
      { name: 'tax', type: 'DECIMAL' },
    ]);
    const after = f([
      { name: 'id', type: 'INT' },
      { name: 'tax', type: 'DOUBLE' },
      { name: 'note', type: 'VARCHAR', description: 'x' },
    ]);
    const diff = diffSchemas(before, after)!;
    expect(diff).to.deep.equal({
      added: [{ name: 'note', type: 'VARCHAR' }],
      removed: [{ name: 'amount', type: 'DECIMAL' }],
      retyped: [{ name: 'tax', from: 'DECIMAL', to: 'DOUBLE' }],
    });
    expect(isEmptyDiff(diffSchemas(before, before)!)).to.equal(true);
    expect(diffSchemas(null, after)).to.equal(null);
  });
});

describe('impact: CSV (RFC 4180)', () => {
  it('quotes fields with commas, quotes or line breaks, doubles quotes, ends lines with CRLF', () => {
    expect(csvCell('plain')).to.equal('plain');
    expect(csvCell('a,b')).to.equal('"a,b"');
    expect(csvCell('say "hi"')).to.equal('"say ""hi"""');
    expect(csvCell('two\nlines')).to.equal('"two\nlines"');
    expect(csvCell(null)).to.equal('');
    expect(csvCell(3)).to.equal('3');
    expect(csvCell(['x', 'y,z'])).to.equal('"[""x"",""y,z""]"');
    expect(csvLine(['a', null, 'b,c'])).to.equal('a,,"b,c"\r\n');
  });

  it('puts an apostrophe before a text cell a spreadsheet would run as a formula, and csvValue removes it', () => {
    for (const formula of ['=HYPERLINK("http://evil.example","x")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx', `'x`]) {
      const cell = parseCsv(csvLine([formula]))[0][0];
      expect(cell.startsWith(`'`), formula).to.equal(true);
      expect(csvValue(cell)).to.equal(formula);
    }
    // Numbers are not formulas; neither is a name with the character elsewhere, nor one already quoted.
    expect(csvCell(-3)).to.equal('-3');
    expect(csvCell('a=b')).to.equal('a=b');
    // A text starting with an apostrophe gets one more, so that one apostrophe less is always exact.
    expect(csvCell(`'quoted`)).to.equal(`''quoted`);
    expect(csvValue(csvCell(`'=x`))).to.equal(`'=x`);
  });

  it('parses back what it writes', () => {
    const rows = [
      ['id', 'note'],
      ['1', 'a "quoted", multi\r\nline value'],
      ['2', ''],
    ];
    expect(parseCsv(rows.map(csvLine).join(''))).to.deep.equal(rows);
  });
});

describe('impact: walking direction', () => {
  it('turns every marked relationship against the arrows, brackets inside included', () => {
    const text =
      'MATCH (s)(()-[e:R WHERE e.a[i] > 0]->/*downstream*/(x)){0, 4}(n) RETURN [(m)-[f:R WHERE f.b[0] = ' +
      '1]->/*downstream*/(n) | m]';
    expect(directed(text, 'downstream')).to.equal(text);
    expect(directed(text, 'upstream')).to.equal(
      'MATCH (s)(()<-[e:R WHERE e.a[i] > 0]-/*upstream*/(x)){0, 4}(n) RETURN [(m)<-[f:R WHERE f.b[0] = ' +
        '1]-/*upstream*/(n) | m]',
    );
    expect(directed('(a)<-[r]-/*downstream*/(b)', 'upstream')).to.equal('(a)-[r]->/*upstream*/(b)');
  });
});
