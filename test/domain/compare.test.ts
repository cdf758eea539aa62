import { expect } from 'chai';
import { compareText } from '../../src/domain/compare.js';

/** Code-point order, the slow and obvious way. */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return Math.sign(x.length - y.length);
}

describe('compareText: the text order of Cypher (code points)', () => {
  it('sorts a character outside the BMP after U+E000-U+FFFF, as Cypher does, and otherwise as `<`', () => {
    expect(compareText('\u{1f600}', '\ue000')).to.equal(1);
    expect(compareText('\ue000', '\u{1f600}')).to.equal(-1);
    expect(compareText('\u{1f600}', '\ud7ff')).to.equal(1);
    expect(compareText('a', 'b')).to.equal(-1);
    expect(compareText('ab', 'a')).to.equal(1);
    expect(compareText('x', 'x')).to.equal(0);
  });

  it('agrees with code-point order on random strings of tricky characters', () => {
    const alphabet = ['a', 'B', '\u00e9', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{1f600}', '\u{10ffff}', ':'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const word = () => Array.from({ length: next() % 4 }, () => alphabet[next() % alphabet.length]).join('');
    for (let i = 0; i < 5000; i++) {
      const [a, b] = [word(), word()];
      expect(compareText(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).to.equal(byCodePoints(a, b));
    }
  });
});
