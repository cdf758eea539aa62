/**
 * cypher/lineage/graph.cypher answers in records of up to $chunk nodes: however the answer is cut into
 * records, the nodes, their order (node id order) and everything rendered of them are the same, now and at a
 * point in time, with and without facets and run details.
 */
import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { compareText } from '../../../src/domain/compare.js';
import { graphQuery, maxRelsFor, viewParams } from '../../../src/store/lineage/index.js';
import type { GraphRow } from '../../../src/store/catalogue.js';
import { useTestApp } from '../../helper.js';
import { rows } from '../../support/graph.js';
import { ds, getGraph, lineagePath, runJob } from '../../http/lineage/support.js';

describe('lineage graph query: records of $chunk nodes', () => {
  const t = useTestApp();

  it('gives the same nodes in the same order whatever $chunk, now and as of a time', async function () {
    this.timeout(120_000);
    // A fan-out and a chain: raw -> {a, b, c} -> a_out, b_out, c_out; a_out -> d -> d_out (9 nodes).
    for (const name of ['a', 'b', 'c']) await runJob(t(), name, ['raw'], [`${name}_out`]);
    await runJob(t(), 'd', ['a_out'], ['d_out'], { eventType: 'FAIL' });
    const [{ eid, at }] = await rows(
      t().db,
      'MATCH (d:Dataset {name: $name}) RETURN elementId(d) AS eid, toString(datetime()) AS at',
      { name: 'raw' },
    );
    for (const asOf of [null, new Date(at as string)])
      for (const include of [false, true]) {
        const answer = async (chunk: number) => {
          const res = await t().db.read({ op: 'test' }, (tx) =>
            tx.run(graphQuery('downstream', maxRelsFor('dataset', 20)), {
              startId: eid,
              ...viewParams({ asOf, window: null }),
              facets: include,
              runDetails: include,
              maxNodes: neo4j.int(1000),
              chunk: neo4j.int(chunk),
            }),
          );
          return {
            sizes: res.records.map((r) => (r.get('nodes') as unknown[]).length),
            nodes: res.records.flatMap((r) => r.get('nodes')),
            truncated: [...new Set(res.records.map((r) => r.get('truncated')))],
          };
        };
        const whole = await answer(500);
        expect(whole.sizes, `asOf ${asOf}, include ${include}`).to.deep.equal([9]);
        // In node id order: the datasets, then the jobs (each by namespace and name).
        const names = whole.nodes.map((n: GraphRow) => n[3][1]);
        expect(names).to.deep.equal(['a_out', 'b_out', 'c_out', 'd_out', 'raw', 'a', 'b', 'c', 'd']);
        expect(whole.truncated).to.deep.equal([false]);
        for (const chunk of [1, 2, 4]) {
          const cut = await answer(chunk);
          expect(cut.sizes).to.have.length(Math.ceil(9 / chunk));
          expect(cut.sizes.every((n) => n <= chunk)).to.equal(true);
          expect(cut.nodes, `chunk ${chunk}, asOf ${asOf}, include ${include}`).to.deep.equal(whole.nodes);
        }
      }
  });

  it('orders the nodes as the service orders node ids (code points), whatever the names', async function () {
    this.timeout(60_000);
    // Namespaces where one is a prefix of another (`ns` and `ns:a`: ordering by namespace, then name, would
    // differ), case, accents, a private-use character and one outside the BMP (code-unit and code-point orders
    // differ there), job names likewise.
    const outputs = [
      { namespace: 'ns', name: 'z' },
      { namespace: 'ns:a', name: 'b' },
      { namespace: 'ns', name: 'Z' },
      { namespace: 'ns', name: '\u00e9' },
      { namespace: 'ns', name: '\ue000' },
      { namespace: 'ns', name: '\u{1f600}' },
    ];
    await runJob(t(), 'first', ['src'], outputs);
    for (const [i, name] of ['j:z', 'J', '\ue000', '\u{1f600}'].entries())
      await runJob(t(), name, [outputs[i]], [`out_${i}`]);
    const graph = await getGraph(t(), lineagePath(ds('src'), { depth: 5, direction: 'downstream' }));
    const ids = graph.map((n) => n.id);
    expect(ids).to.have.length(1 + 1 + 6 + 4 + 4);
    expect(ids).to.deep.equal([...ids].sort(compareText));
    // Cypher compares strings by code point: the character outside the BMP after U+E000.
    expect(ids.indexOf(ds('\ue000', 'ns'))).to.be.lessThan(ids.indexOf(ds('\u{1f600}', 'ns')));
  });
});
