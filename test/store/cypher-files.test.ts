import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { cypherDir } from '../../src/paths.js';
import { cypherSource } from '../../src/store/cypher.js';
import { testDb } from '../helper.js';

/** Every query file (not schema, not examples with several statements) must compile on the real server. */
function queryFiles(dir = cypherDir, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name === 'schema' ? [] : queryFiles(path.join(dir, e.name), `${prefix}${e.name}/`);
    return e.name.endsWith('.cypher') ? [`${prefix}${e.name.slice(0, -'.cypher'.length)}`] : [];
  });
}

describe('cypher/ query files', () => {
  for (const name of queryFiles()) {
    it(`${name}.cypher compiles (EXPLAIN) and has a header comment`, async () => {
      const text = cypherSource(name);
      expect(text.trimStart().startsWith('//'), 'header comment').to.equal(true);
      await testDb().read({ op: 'test' }, (tx) => tx.run(`EXPLAIN ${text}`));
    });
  }

  // A plain `USING INDEX` hint lets the planner scan the whole index in its order instead of seeking: in a
  // full test run, with another test's index statistics, the page of a dataset's versions did that and read
  // every version of the datasets sorted after it (history-cost.test.ts). `USING INDEX SEEK` allows only a seek.
  it('hints index seeks, never a bare index (which the planner may scan)', () => {
    const bare = queryFiles().filter((name) => /USING INDEX (?!SEEK )/.test(cypherSource(name)));
    expect(bare).to.deep.equal([]);
  });
});
