import { expect } from 'chai';
import type { Plan } from 'neo4j-driver';
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

/**
 * Queries that read all nodes of a label by design: lists, statistics, search (a text index's CONTAINS
 * scan), the implied `default` source (every dataset naming no source), and one-off migrations.
 */
const SCANNING = [
  /^jobs\/list$/,
  /^namespaces\/list$/,
  /^search\/search$/,
  /^sources\/(get|list)$/,
  /^stats\//,
  /^tags\/list$/,
  /^migrations\//,
];

/**
 * The operators of a plan that read every node of a label, every relationship (of a type) or every entry of
 * an index. A relationship matched by `elementId` without a type was planned as a scan of all of them.
 */
const SCAN_OPERATOR =
  /^(AllNodesScan|NodeByLabelScan|NodeIndexScan|(Undirected|Directed)(RelationshipType|AllRelationships)Scan)/;

function scans(plan: Plan, out: string[] = []): string[] {
  if (SCAN_OPERATOR.test(plan.operatorType)) out.push(`${plan.operatorType} ${String(plan.arguments?.Details ?? '')}`);
  for (const child of plan.children) scans(child, out);
  return out;
}

describe('cypher/ query files', () => {
  for (const name of queryFiles()) {
    it(`${name}.cypher compiles (EXPLAIN), has a header comment, and scans nothing unless it lists`, async () => {
      const text = cypherSource(name);
      expect(text.trimStart().startsWith('//'), 'header comment').to.equal(true);
      const answer = await testDb().read({ op: 'test' }, (tx) => tx.run(`EXPLAIN ${text}`));
      // Planned on a small database, where a scan looks cheap: a query about given nodes must still start
      // from them (column-graph's `elementId(s) IN $ids` scanned every column).
      if (!SCANNING.some((allowed) => allowed.test(name))) {
        expect(scans(answer.summary.plan as Plan), 'operators reading a whole label or index').to.deep.equal([]);
      }
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
