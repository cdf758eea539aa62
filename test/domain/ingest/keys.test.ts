import { expect } from 'chai';
import { byRef, refKey, refOfKey } from '../../../src/domain/ingest/keys.js';

describe('ingest keys', () => {
  const tricky = [
    { namespace: 'a', name: 'b:c' },
    { namespace: 'a:b', name: 'c' },
    { namespace: '1:a', name: '' },
    { namespace: '', name: '1:a' },
    { namespace: 'postgres://db:5432', name: 'public.orders' },
    { namespace: 'ns', name: 'naïve "quoted" \\ name \u0000' },
    { namespace: '12', name: '3' },
    { namespace: '1', name: '23' },
  ];

  it('gives every (namespace, name) pair its own key, and reads the pair back', () => {
    const keys = tricky.map(refKey);
    expect(new Set(keys).size).to.equal(tricky.length);
    for (const r of tricky) expect(refOfKey(refKey(r))).to.deep.equal(r);
  });

  it('orders refs by namespace, then name, in code-unit order', () => {
    const sorted = [...tricky].sort(byRef).map((r) => [r.namespace, r.name]);
    expect(sorted).to.deep.equal(
      tricky
        .map((r) => [r.namespace, r.name])
        .sort(([a1, a2], [b1, b2]) => (a1 < b1 ? -1 : a1 > b1 ? 1 : a2 < b2 ? -1 : a2 > b2 ? 1 : 0)),
    );
    expect(sorted[0]).to.deep.equal(['', '1:a']);
  });
});
