/**
 * The impact queries are planned the way docs/impact.md says: the blast radius as a pruning
 * breadth-first expand that yields each node's shortest distance (no path enumeration, no per-node
 * shortest-path search), ordered by distance; paths as a bidirectional
 * stateful shortest-path search between two bound nodes. And they use the lineage graph's time rule,
 * verbatim.
 */
import { expect } from 'chai';
import neo4j, { type Plan, type ProfiledPlan } from 'neo4j-driver';
import { cypherSource } from '../../src/store/cypher.js';
import { impactQuery } from '../../src/store/impact.js';
import { maxRelsFor, viewParams } from '../../src/store/lineage/index.js';
import { useTestApp } from '../helper.js';
import { rows } from '../support/graph.js';
import { ds, runJob } from '../http/lineage/support.js';
import { postHistoriesOfEveryKind } from '../support/histories.js';

/** A query file's code with its whitespace collapsed: rules are compared as text, however the lines wrap. */
const flatSource = (name: Parameters<typeof cypherSource>[0]) =>
  cypherSource(name)
    .replace(/^[ \t]*\/\/.*$/gm, '')
    .replace(/\s+/g, ' ');

function operators(plan: Plan | ProfiledPlan, out: { op: string; details: string; rows?: number }[] = []) {
  out.push({
    op: plan.operatorType.replace(/@neo4j$/, ''),
    details: String(plan.arguments?.Details ?? ''),
    rows: (plan as ProfiledPlan).rows,
  });
  for (const child of plan.children) operators(child as Plan, out);
  return out;
}

const view = viewParams({ asOf: null, window: null });
const blastParams = (startId: string, chunk = 1000) => ({
  startId,
  ...view,
  rows: neo4j.int(10_001),
  state: null,
  chunk: neo4j.int(chunk),
});

describe('impact query plans', () => {
  const t = useTestApp();
  const explain = async (text: string, params: Record<string, unknown>) =>
    operators((await t().db.read({ op: 'test' }, (tx) => tx.run(`EXPLAIN ${text}`, params))).summary.plan as Plan);

  // The reading of the rule without a point in time ($asOf is the end of time), in graph.cypher and the blast radius.
  const NOW_EDGE = 'e.lastSeenAt >= $windowStart OR e.current';
  const NOW_NODE = 'NOT x:Deleted';

  /** graph.cypher's edge and node rules at a point in time, as written there (each beside its "now" reading). */
  function graphRules() {
    const graph = flatSource('lineage/graph');
    const edge = new RegExp(
      String.raw`e:INPUT_TO\|PRODUCES WHERE CASE WHEN \$pointInTime THEN (e\.firstSeenAt <= \$asOf AND ` +
        String.raw`any\(i IN range\(0, size\(e\.seenFrom\) - 1\) WHERE .*?\)\)) ELSE `,
    ).exec(graph)?.[1];
    const node = new RegExp(
      String.raw`WHERE CASE WHEN \$pointInTime THEN (x\.createdAt <= \$asOf AND ` +
        String.raw`NOT \(coalesce\(x\.isDeleted, false\) AND coalesce\(x\.deletedAt, x\.createdAt\) <= \$asOf\)) ELSE `,
    ).exec(graph)?.[1];
    expect(edge, 'edge rule in graph.cypher').to.be.a('string');
    expect(node, 'node rule in graph.cypher').to.be.a('string');
    return { edge: edge!, node: node! };
  }

  it("uses graph.cypher's edge and node rules verbatim (the lineage graph and blast radius: both readings)", () => {
    const { edge, node } = graphRules();
    // The lineage graph (and its minimal projection): every lineage relationship read, by both readings.
    for (const [file, edges] of [
      // The walk; a dataset's edges to and from the answer's jobs; a job's inputs and outputs.
      ['lineage/graph', 5],
      ['lineage/graph-minimal', 2],
    ] as const) {
      const text = flatSource(file);
      expect(text.split(`CASE WHEN $pointInTime THEN ${edge} ELSE ${NOW_EDGE} END`), file).to.have.length(edges + 1);
      expect(text.split(`WHERE CASE WHEN $pointInTime THEN ${node} ELSE ${NOW_NODE} END)`), file).to.have.length(2);
      expect(
        text.match(/e:(INPUT_TO|PRODUCES|INPUT_TO\|PRODUCES)\]->\(\w\) WHERE |e:INPUT_TO\|PRODUCES WHERE /g),
        file,
      ).to.have.length(edges);
    }
    for (const [file, edges, nodes] of [
      ['impact/blast-radius', 2, 1],
      ['impact/paths', 1, 1],
      ['impact/schema-changes', 1, 1],
    ] as const) {
      const text = flatSource(file);
      expect(text.split(edge).length - 1, `${file}: edge rule`).to.equal(edges);
      expect(text.split(node).length - 1, `${file}: node rule`).to.equal(nodes);
      // Every lineage relationship it reads is filtered by the rule.
      expect(text.match(/\[e:INPUT_TO\|PRODUCES WHERE /g), file).to.have.length(edges);
    }
    // The blast radius: graph.cypher's rule with a point in time, its "now" reading otherwise (equivalent: below).
    const text = flatSource('impact/blast-radius');
    expect(
      text.split(`[e:INPUT_TO|PRODUCES WHERE CASE WHEN $pointInTime THEN ${edge} ELSE ${NOW_EDGE} END]`),
    ).to.have.length(3);
    expect(text.split(`WHERE CASE WHEN $pointInTime THEN ${node} ELSE ${NOW_NODE} END)`)).to.have.length(2);
  });

  it("the rule for now selects the point-in-time rule's edges and nodes at the end of time", async function () {
    this.timeout(180_000);
    // Histories of every kind: runs days apart, a failed run without outputs, partitions, symlinks, a JobEvent,
    // a dropped input (run 1 only), an edge seen once long ago, a deleted dataset and a deleted job.
    await postHistoriesOfEveryKind(t());

    const { edge, node } = graphRules();
    const rule = (r: string) => r.replace(/\$asOf/g, '$end');
    // Every stored observation time, a millisecond either side, and the start of time: all windows that differ.
    const [{ times, edges, nodes }] = await rows(
      t().db,
      `MATCH ()-[e:INPUT_TO|PRODUCES]->() WITH collect(e) AS es, count(*) AS edges
       UNWIND es AS e UNWIND e.seenFrom + e.seenTo AS at WITH DISTINCT edges, at
       UNWIND [at - duration('PT0.001S'), at, at + duration('PT0.001S')] AS w
       WITH edges, collect(DISTINCT w) AS times
       RETURN times, edges, COUNT { (x) WHERE x:Job OR x:Dataset } AS nodes`,
    );
    expect(edges).to.be.greaterThan(20);
    expect(nodes).to.be.greaterThan(20);
    const windows = [view.windowStart, ...times.map((w: string) => neo4j.types.DateTime.fromStandardDate(new Date(w)))];
    const differ = await rows(
      t().db,
      `UNWIND $windows AS windowStart
       CALL (windowStart) {
         MATCH (a)-[e:INPUT_TO|PRODUCES]->(b)
         WITH a, e, b, windowStart AS ws WHERE (${rule(edge).replace(/\$windowStart/g, 'ws')})
           <> (${rule(NOW_EDGE).replace(/\$windowStart/g, 'ws')})
         RETURN 'edge ' + a.name + ' -> ' + b.name + ' from ' + toString(ws) AS what
       }
       RETURN what
       UNION
       MATCH (x) WHERE (x:Job OR x:Dataset) AND (${rule(node)}) <> (${rule(NOW_NODE)})
       RETURN 'node ' + x.name AS what`,
      { windows, end: view.asOf },
    );
    expect(windows.length).to.be.greaterThan(20);
    expect(differ).to.deep.equal([]);
    // Both parts of the rule took part: some edges are still held (current), some are not.
    const [{ notCurrent, stillHeld }] = await rows(
      t().db,
      `MATCH ()-[e:INPUT_TO|PRODUCES]->()
       RETURN count(CASE WHEN NOT e.current THEN 1 END) AS notCurrent,
         count(CASE WHEN e.current THEN 1 END) AS stillHeld`,
    );
    expect(notCurrent).to.be.greaterThan(0);
    expect(stillHeld).to.be.greaterThan(0);
  });

  for (const direction of ['downstream', 'upstream'] as const) {
    it(
      `blast radius ${direction}: a pruning BFS giving distances, groups sorted by distance, no scan, ` +
        'no shortest-path search',
      async () => {
        const ops = await explain(
          impactQuery('blast-radius', direction, maxRelsFor('dataset', 20)),
          blastParams('4:x:1'),
        );
        const expand = ops.find((o) => o.op === 'VarLengthExpand(Pruning,BFS,All)');
        expect(expand, ops.map((o) => o.op).join(' < ')).to.not.equal(undefined);
        expect(expand!.details).to.match(
          direction === 'downstream'
            ? /\(s\)-\[:INPUT_TO\|PRODUCES\*0\.\.42\]->\(n\)/
            : /\(s\)<-\[:INPUT_TO\|PRODUCES\*0\.\.42\]-\(n\)/,
        );
        // Ordered by distance alone (the service orders each distance by id): the reached nodes grouped by
        // distance and type and only the groups sorted, never the nodes, and no node's name read to sort them.
        const plan = ops.map((o) => `${o.op} ${o.details}`).join('\n');
        expect(
          ops.some((o) => o.op === 'EagerAggregation' && /^distance, isJob, collect\(/.test(o.details)),
          plan,
        ).to.equal(true);
        expect(
          ops.filter((o) => o.op === 'Sort').map((o) => o.details),
          plan,
        ).to.deep.equal(['distance ASC, isJob ASC']);
        // A job's run at a point in time is an expression evaluated only when asked, not an Apply per node;
        // so are each returned node's predecessors and tags, within its record's list.
        expect(
          ops.filter((o) => /Apply/.test(o.op)).map((o) => o.details),
          plan,
        ).to.deep.equal([]);
        expect(ops.filter((o) => /Scan|ShortestPath|^VarLengthExpand\(All\)$/.test(o.op))).to.deep.equal([]);
      },
    );
  }

  it(
    'blast radius: each node is expanded once, however many paths reach it (PROFILE on a ladder of ' + 'diamonds)',
    async function () {
      this.timeout(180_000);
      // d0 -> {a_i, b_i} -> d1 -> ... : 2^6 = 64 paths from d0 to d6, 6 * 3 + 1 = 19 datasets, 18 jobs.
      for (let i = 0; i < 6; i++) {
        await runJob(t(), `a${i}`, [`d${i}`], [`a${i}_out`]);
        await runJob(t(), `b${i}`, [`d${i}`], [`b${i}_out`]);
        await runJob(t(), `m${i}`, [`a${i}_out`, `b${i}_out`], [`d${i + 1}`]);
      }
      const [{ eid }] = await rows(t().db, 'MATCH (d:Dataset {name: $name}) RETURN elementId(d) AS eid', {
        name: 'd0',
      });
      const profiled = (chunk: number) =>
        t().db.read({ op: 'test' }, (tx) =>
          tx.run(
            `PROFILE ${impactQuery('blast-radius', 'downstream', maxRelsFor('dataset', 20))}`,
            blastParams(eid, chunk),
          ),
        );
      const res = await profiled(1000);
      const nodes = (r: typeof res) =>
        r.records.flatMap((rec) =>
          (rec.get('nodes') as unknown[][]).map((n) => [n[1], rec.get('distance').toNumber(), rec.get('isJob')]),
        );
      expect(res.records).to.have.length(25); // a record per distance (one type each): 0..24
      expect(nodes(res)).to.have.length(37);
      const expand = operators(res.summary.profile as ProfiledPlan).find(
        (o) => o.op === 'VarLengthExpand(Pruning,BFS,All)',
      );
      expect(expand?.rows).to.equal(37); // every node once (start included), not once per path
      expect(nodes(res)[36]).to.deep.equal(['d6', 24, false]);
      // Records of at most $chunk nodes: the same nodes in the same order, a group split over records.
      const small = await profiled(1);
      expect(small.records).to.have.length(37);
      expect(nodes(small)).to.deep.equal(nodes(res));
      expect((await profiled(2)).records.map((r) => (r.get('nodes') as unknown[]).length)).to.include(2);
      expect(ds('d6')).to.be.a('string');
    },
  );

  it('column impact: a pruning BFS over FEEDS from the start column', async () => {
    for (const direction of ['downstream', 'upstream'] as const) {
      const ops = await explain(impactQuery('column-blast-radius', direction, 20), {
        startId: '4:x:1',
        maxNodes: neo4j.int(100_001),
      });
      expect(ops.map((o) => o.op)).to.include('VarLengthExpand(Pruning,BFS,All)');
      expect(ops.filter((o) => /Scan/.test(o.op))).to.deep.equal([]);
    }
  });

  it('paths: a stateful shortest-path search between the two bound nodes', async () => {
    const text = impactQuery('paths', 'downstream', maxRelsFor('dataset', 20)).replace(/\b\d+\s*\/\*k\*\//, '5 /*k*/');
    const ops = await explain(text, { fromId: '4:x:1', toId: '4:x:2', asOf: view.asOf, windowStart: view.windowStart });
    expect(ops.map((o) => o.op)).to.include('StatefulShortestPath(Into)');
    expect(ops.filter((o) => /Scan/.test(o.op))).to.deep.equal([]);
  });

  it('schema changes: a range seek on version commit time, previous version sought, pruning BFS counts', async () => {
    const ops = await explain(impactQuery('schema-changes', 'downstream', maxRelsFor('dataset', 20)), {
      since: view.windowStart,
      namespace: null,
      asOf: view.asOf,
      windowStart: view.windowStart,
      limit: neo4j.int(1001),
    });
    expect(
      ops.some((o) => /NodeIndexSeekByRange/.test(o.op) && /v:DatasetVersion\(committedAt\)/.test(o.details)),
      ops.map((o) => `${o.op} ${o.details}`).join('\n'),
    ).to.equal(true);
    // The previous committed version: one entry of the commit-order index, not a walk over every version.
    expect(
      ops.some(
        (o) => o.op === 'NodeIndexSeek' && /o:DatasetVersion\(namespace, name, committedAt, id\)/.test(o.details),
      ),
    ).to.equal(true);
    expect(ops.map((o) => o.op)).to.include('VarLengthExpand(Pruning,BFS,All)');
    expect(ops.filter((o) => /Scan/.test(o.op))).to.deep.equal([]);
  });
});
