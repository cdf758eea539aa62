/**
 * The query catalogue (src/store/catalogue.ts) says what the files under cypher/ say: every query file
 * the service runs is declared, its `$parameters` (as the loader sends the text) are exactly the declared
 * ones and its header names each of them, and the columns it returns (as Neo4j reports them for
 * EXPLAIN) are exactly the declared row fields.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { cypherDir } from '../../src/paths.js';
import { catalogue, queryName, type QueryName } from '../../src/store/catalogue.js';
import { composite, compositeParams, cypher, cypherSource, runQuery } from '../../src/store/cypher.js';
import type { Db } from '../../src/store/db.js';
import { testDb } from '../helper.js';

/** The folders whose files have loaders and tests of their own, and are not in the catalogue. */
const NOT_QUERIES = new Set(['schema', 'examples']);

function queryFiles(dir = cypherDir, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory())
      return NOT_QUERIES.has(e.name) && !prefix ? [] : queryFiles(path.join(dir, e.name), `${prefix}${e.name}/`);
    return e.name.endsWith('.cypher') ? [`${prefix}${e.name.slice(0, -'.cypher'.length)}`] : [];
  });
}

const declared = Object.keys(catalogue).sort() as QueryName[];
const paramsUsed = (text: string) => [...new Set([...text.matchAll(/\$(\w+)/g)].map((m) => m[1]))].sort();
/** The leading `//` lines of a file: its header. */
const header = (source: string) => source.match(/^(?:[ \t]*\/\/.*\r?\n)*/)![0];

describe('query catalogue', () => {
  it('declares every query file under cypher/ (schema/ and examples/ aside), and nothing else', () => {
    expect(declared).to.deep.equal(queryFiles().sort());
  });

  it('queryName accepts declared names only', () => {
    expect(queryName('datasets/list')).to.equal('datasets/list');
    expect(() => queryName('datasets/nope')).to.throw(/not declared/);
  });

  for (const name of declared) {
    describe(`${name}.cypher`, () => {
      const params = Object.keys(catalogue[name].params).sort();
      const row = Object.keys(catalogue[name].row).sort();

      it('takes exactly the declared parameters (in the text the loader sends)', () => {
        expect(paramsUsed(cypher(name))).to.deep.equal(params);
      });

      it('names each parameter in its header, after "Params:"', () => {
        const head = header(cypherSource(name));
        expect(head, 'header').to.match(/\/\/\s*Params:/);
        const afterParams = head.slice(head.search(/Params:/));
        for (const p of params) expect(afterParams, `$${p}`).to.match(new RegExp(`\\$${p}\\b`));
      });

      it('returns exactly the declared row fields (EXPLAIN on the real server)', async () => {
        const keys = await testDb().read({ op: 'test' }, async (tx) => {
          const result = tx.run(`EXPLAIN ${cypher(name)}`);
          const k = await result.keys();
          await result.summary();
          return k;
        });
        expect([...keys].sort()).to.deep.equal(row);
      });
    });
  }

  it("a composite statement takes, for each file, exactly that file's declared parameters", () => {
    const names = declared.filter((n) => n.startsWith('ingest/') && Object.keys(catalogue[n].row).length === 0);
    const text = composite(names);
    expect(paramsUsed(text)).to.deep.equal(['batch']);
    const refs = [...text.matchAll(/\$batch\.(s\d+_\w+)/g)].map((m) => m[1]);
    const expected = Object.keys(
      compositeParams(names.map((n) => Object.fromEntries(Object.keys(catalogue[n].params).map((p) => [p, null]))))
        .batch as Record<string, unknown>,
    );
    expect([...new Set(refs)].sort()).to.deep.equal(expected.sort());
  });
});

/**
 * What the compiler rejects (checked by `npm run typecheck`, never run): a misspelt name, a missing,
 * extra or mistyped parameter, a field the query does not return.
 */
// biome-ignore lint/suspicious/noExportsInTest: compiled by typecheck, never run; exported so it is not unused
export function compileTimeChecks(db: Db): void {
  const page = { offset: neo4j.int(0), limit: neo4j.int(10) };
  void (async () => {
    // @ts-expect-error: no such query file
    await db.query('datasets/lists', { namespace: 'ns', ...page });
    // @ts-expect-error: $namespace missing
    await db.query('datasets/list', { ...page });
    // @ts-expect-error: datasets/get takes no $tag
    await db.query('datasets/get', { namespace: 'ns', name: 'n', tag: 't' });
    // @ts-expect-error: $offset is an Integer
    await db.query('datasets/list', { namespace: 'ns', offset: 0, limit: neo4j.int(10) });
    const res = await db.query('datasets/list', { namespace: 'ns', ...page });
    // @ts-expect-error: datasets/list returns totalCount and datasets
    res.records[0].get('total');
    const count: neo4j.Integer = res.records[0].get('totalCount');
    void count;
    // @ts-expect-error: a computed name must be a declared one
    await db.query(`stats/${'tags' as 'tags' | 'jobs'}`, { period: 'DAY', timezone: 'UTC', now: '' });
    await db.query(`stats/${'jobs' as 'jobs' | 'datasets'}`, { period: 'DAY', timezone: 'UTC', now: '' });
    await db.write({ op: 'test' }, async (tx) => {
      // @ts-expect-error: migrations/record takes $name and $now
      await runQuery(tx, 'migrations/record', { name: 'x' });
      (await runQuery(tx, 'migrations/applied', { name: 'x' })).records[0].get('applied') satisfies boolean;
    });
  });
}
