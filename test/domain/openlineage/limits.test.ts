import { expect } from 'chai';
import { EVENT_LIMITS, nestingProblem } from '../../../src/domain/openlineage/limits.js';

/** `levels` objects and arrays nested inside each other, alternating, built as text and parsed. */
function nested(levels: number, innermost = '1'): unknown {
  let text = innermost;
  for (let i = 0; i < levels; i++) text = i % 2 === 0 ? `[${text}]` : `{"k":${text}}`;
  return JSON.parse(text);
}

describe('event limits: nesting depth', () => {
  const limit = EVENT_LIMITS.nestingDepth;

  it('accepts exactly the limit and refuses one level more, for objects and arrays alike', () => {
    expect(nestingProblem(nested(limit))).to.equal(null);
    expect(nestingProblem(nested(limit + 1))?.limit).to.equal('nestingDepth');
    expect(nestingProblem({ a: nested(limit - 1) })).to.equal(null);
    expect(nestingProblem([nested(limit)])?.limit).to.equal('nestingDepth');
  });

  it('counts an empty object or array as a level, and a scalar body as none', () => {
    expect(nestingProblem(nested(limit - 1, '{}'))).to.equal(null);
    expect(nestingProblem(nested(limit, '[]'))?.limit).to.equal('nestingDepth');
    expect(nestingProblem('text')).to.equal(null);
    expect(nestingProblem(null)).to.equal(null);
  });

  it('finds the deep branch anywhere: after shallow siblings, in the last key or element', () => {
    const wide = { a: 1, b: [1, 2, { c: 3 }], z: nested(limit) };
    expect(nestingProblem(wide)?.limit).to.equal('nestingDepth');
    expect(nestingProblem([1, 'x', null, nested(limit)])?.limit).to.equal('nestingDepth');
    expect(nestingProblem({ a: nested(limit - 2), b: nested(limit - 1) })).to.equal(null);
  });

  it('answers for 100,000 levels without overflowing the stack', () => {
    expect(nestingProblem(nested(100_000))?.limit).to.equal('nestingDepth');
  });
});
