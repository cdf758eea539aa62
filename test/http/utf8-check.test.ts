/** Utf8Check (src/http/utf8-check.ts): UTF-8 checked chunk by chunk, characters split between chunks carried. */
import { expect } from 'chai';
import { firstInvalid, incompleteTail, Utf8Check } from '../../src/http/utf8-check.js';

/** Pushes `bytes` in chunks of `size` and returns where the first invalid byte is (-1: none). */
function check(bytes: Buffer, size: number): number {
  const c = new Utf8Check();
  for (let i = 0; i < bytes.length; i += size) c.push(bytes.subarray(i, i + size));
  c.end();
  return c.invalidFrom;
}

describe('Utf8Check', () => {
  const text = Buffer.from('{"name": "jöb-名前-😀-\uFFFD"}', 'utf8');

  it('accepts UTF-8 however it is cut into chunks (U+FFFD sent as such included)', () => {
    for (let size = 1; size <= text.length; size++) expect(check(text, size), `chunks of ${size}`).to.equal(-1);
  });

  it('finds the first byte that is not UTF-8, in any chunking', () => {
    const latin1 = Buffer.from('{"name": "edge_jöb"}', 'latin1');
    const at = latin1.indexOf(0xf6);
    for (let size = 1; size <= latin1.length; size++) expect(check(latin1, size), `chunks of ${size}`).to.equal(at);
  });

  it('rejects a character cut short at the end, overlong forms, surrogates and stray continuation bytes', () => {
    expect(check(Buffer.from([0x41, 0xe2, 0x82]), 2)).to.equal(1);
    expect(check(Buffer.from([0x41, 0xc0, 0xaf]), 1)).to.equal(1); // overlong '/'
    expect(check(Buffer.from([0x41, 0xed, 0xa0, 0x80]), 3)).to.equal(1); // a UTF-16 surrogate
    expect(check(Buffer.from([0x41, 0x80, 0x41]), 8)).to.equal(1);
    expect(check(Buffer.from([0xf5, 0x80, 0x80, 0x80]), 2)).to.equal(0);
  });

  it('incompleteTail and firstInvalid', () => {
    expect(incompleteTail(Buffer.from([0x41, 0xe2, 0x82]))).to.equal(2);
    expect(incompleteTail(Buffer.from([0x41, 0xe2, 0x82, 0xac]))).to.equal(0);
    expect(incompleteTail(Buffer.from([0xf0, 0x9f, 0x98]))).to.equal(3);
    expect(incompleteTail(Buffer.from([0x41]))).to.equal(0);
    expect(firstInvalid(Buffer.from('ab€', 'utf8'))).to.equal(5);
    expect(firstInvalid(Buffer.from([0x61, 0xff]))).to.equal(1);
  });
});
