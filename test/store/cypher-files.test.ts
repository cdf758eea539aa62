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
});
