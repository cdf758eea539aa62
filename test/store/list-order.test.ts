import { expect } from 'chai';
import { cypher } from '../../src/store/cypher.js';
import { isByName, listOrder, orderedQuery } from '../../src/store/list-order.js';

describe('list order: the ORDER BY … /*order*/ swap of the job and dataset lists', () => {
  const orderBy = (text: string) => /ORDER BY ([^/]*?) \/\*order\*\//.exec(text)?.[1];

  it('defaults the order to A to Z by name and newest first by updatedAt', () => {
    expect(listOrder()).to.deep.equal({ sort: 'name', order: 'asc' });
    expect(listOrder('updatedAt')).to.deep.equal({ sort: 'updatedAt', order: 'desc' });
    expect(listOrder('updatedAt', 'asc')).to.deep.equal({ sort: 'updatedAt', order: 'asc' });
    expect(isByName(listOrder('name'))).to.equal(true);
    expect(isByName(listOrder('name', 'desc'))).to.equal(false);
  });

  it('swaps only the marked keys, for each list file', () => {
    for (const [name, alias] of [
      ['jobs/list', 'j'],
      ['jobs/list-in-namespace', 'j'],
      ['datasets/list', 'd'],
    ] as const) {
      const file = cypher(name);
      expect(orderBy(file), name).to.equal(`${alias}.namespace, ${alias}.name`);
      expect(orderBy(orderedQuery(name, alias, listOrder('name', 'asc')))).to.equal(
        `${alias}.namespace, ${alias}.name`,
      );
      expect(orderBy(orderedQuery(name, alias, listOrder('name', 'desc')))).to.equal(
        `${alias}.namespace DESC, ${alias}.name DESC`,
      );
      expect(orderBy(orderedQuery(name, alias, listOrder('updatedAt')))).to.equal(
        `${alias}.updatedAt DESC, ${alias}.namespace, ${alias}.name`,
      );
      const swapped = orderedQuery(name, alias, listOrder('updatedAt', 'asc'));
      expect(orderBy(swapped)).to.equal(`${alias}.updatedAt, ${alias}.namespace, ${alias}.name`);
      // Nothing else in the text changes.
      expect(swapped.replace(/ORDER BY [^/]*\/\*order\*\//, '')).to.equal(
        file.replace(/ORDER BY [^/]*\/\*order\*\//, ''),
      );
    }
  });

  it('refuses a file without the mark', () => {
    expect(() => orderedQuery('jobs/runs', 'j', listOrder('updatedAt'))).to.throw(/no ORDER BY/);
  });
});
