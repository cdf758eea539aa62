/**
 * cypher/lineage/graph.cypher answers in records of up to $chunk nodes: however the answer is cut into
 * records, the nodes, their order (node id order) and everything rendered of them are the same, now and at a
 * point in time, with and without facets and run details.
 */
import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { graphQuery, maxRelsFor, viewParams } from '../../../src/store/lineage/index.js';
import { useTestApp } from '../../helper.js';
import { rows } from '../../support/graph.js';
import { runJob } from '../../http/lineage/support.js';

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
        const names = whole.nodes.map((n: [boolean, unknown, unknown, { name: string }]) => n[3].name);
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
});
