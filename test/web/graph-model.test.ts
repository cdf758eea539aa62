import { expect } from 'chai';
import type { LineageGraph, LineageNode } from '../../src/api/types.js';
import { layeredLayout, placeInOrder } from '../../web/src/graph/layout.js';
import { describeNode, shortestPath, staleness, toModel } from '../../web/src/graph/model.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-10T12:00:00Z');

function node(id: string, outs: string[], ins: string[], lastSeen: Record<string, string> = {}): LineageNode {
  const [kind, ns, name] = id.split(':');
  const type = kind === 'job' ? 'JOB' : 'DATASET';
  return {
    id,
    type,
    data: {
      id: { namespace: ns, name },
      namespace: ns,
      name,
      ...(type === 'JOB' ? { latestRun: { state: name === 'c2' ? 'FAILED' : 'COMPLETED' } } : {}),
    },
    outEdges: outs.map((d) => ({
      origin: id,
      destination: d,
      lastSeenAt: lastSeen[`${id}->${d}`] ?? new Date(NOW - 3600_000).toISOString(),
    })),
    inEdges: ins.map((o) => ({ origin: o, destination: id })),
  };
}

// raw -(load)-> hub ; hub -(c1)-> o1 ; hub -(c2)-> o2 (docs/lineage.md's example)
const answer: LineageGraph = {
  truncated: false,
  graph: [
    node('dataset:w:raw', ['job:a:load'], []),
    node('job:a:load', ['dataset:w:hub'], ['dataset:w:raw']),
    node('dataset:w:hub', ['job:a:c1', 'job:a:c2'], ['job:a:load']),
    node('job:a:c1', ['dataset:w:o1'], ['dataset:w:hub']),
    node('job:a:c2', ['dataset:w:o2'], ['dataset:w:hub'], {
      'job:a:c2->dataset:w:o2': new Date(NOW - 20 * DAY).toISOString(),
    }),
    node('dataset:w:o1', [], ['job:a:c1']),
    node('dataset:w:o2', [], ['job:a:c2']),
  ],
};

describe('web graph model', () => {
  it('turns a lineage answer into nodes with states and edges with staleness', () => {
    const m = toModel(answer, NOW);
    expect(m.nodes.map((n) => [n.id, n.kind, n.label, n.state])).to.deep.include.members([
      ['job:a:c2', 'job', 'c2', 'FAILED'],
      ['dataset:w:hub', 'dataset', 'hub', null],
    ]);
    expect(m.edges).to.have.length(6);
    expect(m.edges.find((e) => e.id === 'job:a:c2->dataset:w:o2')!.staleness).to.equal('stale');
    expect(m.edges.find((e) => e.id === 'job:a:c1->dataset:w:o1')!.staleness).to.equal('fresh');
  });

  it('names nodes of the same name apart: type and namespace; columns with their dataset', () => {
    const same: LineageGraph = {
      truncated: false,
      graph: [
        node('dataset:landing:orders', ['job:shop:report.orders_daily'], []),
        node('dataset:warehouse:orders', [], []),
        node('job:shop:report.orders_daily', ['dataset:shop:report.orders_daily'], ['dataset:landing:orders']),
        node('dataset:shop:report.orders_daily', [], ['job:shop:report.orders_daily']),
      ],
    };
    const names = toModel(same, NOW).nodes.map(describeNode);
    expect(names).to.deep.equal([
      'orders, dataset in landing',
      'orders, dataset in warehouse',
      'report.orders_daily, job in shop',
      'report.orders_daily, dataset in shop',
    ]);
    expect(new Set(names).size).to.equal(4);
    const field = (dataset: string, name: string): LineageNode => ({
      id: `datasetField:w:${dataset}:${name}`,
      type: 'DATASET_FIELD',
      data: { namespace: 'w', dataset, datasetVersion: null, field: name, fieldType: null, inputFields: [] },
      inEdges: [],
      outEdges: [],
    });
    const columns = toModel({ truncated: false, graph: [field('cll_source1', 'a'), field('cll_source2', 'a')] }, NOW);
    expect(columns.nodes.map((n) => n.label)).to.deep.equal(['cll_source1.a', 'cll_source2.a']);
    expect(describeNode(columns.nodes[0])).to.equal('cll_source1.a, column in w');
  });

  it('dates staleness: a day, a week, older, unknown', () => {
    expect(staleness(new Date(NOW - DAY + 1).toISOString(), NOW)).to.equal('fresh');
    expect(staleness(new Date(NOW - 3 * DAY).toISOString(), NOW)).to.equal('recent');
    expect(staleness(new Date(NOW - 8 * DAY).toISOString(), NOW)).to.equal('stale');
    expect(staleness(null, NOW)).to.equal('unknown');
  });

  it('finds the path between two nodes along the arrows, against them, or ignoring them', () => {
    const m = toModel(answer, NOW);
    expect(shortestPath(m, 'dataset:w:raw', 'dataset:w:o2')!.nodes).to.deep.equal([
      'dataset:w:raw',
      'job:a:load',
      'dataset:w:hub',
      'job:a:c2',
      'dataset:w:o2',
    ]);
    expect(shortestPath(m, 'dataset:w:o2', 'dataset:w:raw')!.nodes).to.deep.equal([
      'dataset:w:raw',
      'job:a:load',
      'dataset:w:hub',
      'job:a:c2',
      'dataset:w:o2',
    ]);
    const siblings = shortestPath(m, 'dataset:w:o1', 'dataset:w:o2')!;
    expect(siblings.nodes).to.deep.equal(['dataset:w:o1', 'job:a:c1', 'dataset:w:hub', 'job:a:c2', 'dataset:w:o2']);
    expect(siblings.edges).to.have.length(4);
    expect(shortestPath(m, 'dataset:w:raw', 'dataset:w:nope')).to.equal(null);
  });
});

describe('web layered layout', () => {
  it('places nodes left to right along the edges, sources next to their first reader', () => {
    // 0 → 1 → 2 → 3, and 4 → 3 (a source feeding the last job)
    const r = layeredLayout({
      widths: [100, 100, 100, 100, 100],
      edges: [
        [0, 1],
        [1, 2],
        [2, 3],
        [4, 3],
      ],
    });
    expect([...r.layer]).to.deep.equal([0, 1, 2, 3, 2]);
    expect(r.x[0]).to.be.below(r.x[1]);
    expect(r.x[4]).to.equal(r.x[2]);
  });

  it('survives cycles and self loops, and keeps nodes of a layer apart', () => {
    const edges: [number, number][] = [
      [0, 1],
      [1, 2],
      [2, 0],
      [2, 2],
      [1, 3],
      [1, 4],
      [1, 5],
    ];
    const r = layeredLayout({ widths: [80, 80, 80, 80, 80, 80], edges }, { nodeHeight: 30, nodeGap: 10 });
    expect(r.layers).to.be.greaterThan(1);
    const byLayer = new Map<number, number[]>();
    for (const [v, l] of r.layer.entries()) byLayer.set(l, [...(byLayer.get(l) ?? []), r.y[v]]);
    for (const ys of byLayer.values()) {
      const sorted = ys.sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).to.be.at.least(40 - 1e-9);
    }
  });

  it('lays out 2,000 nodes (layers of a wide DAG) with every node placed', () => {
    const widths: number[] = [];
    const edges: [number, number][] = [];
    for (let k = 0; k < 40; k++)
      for (let i = 0; i < 50; i++) {
        widths.push(120);
        if (k > 0) edges.push([(k - 1) * 50 + i, k * 50 + i], [(k - 1) * 50 + ((i * 7) % 50), k * 50 + i]);
      }
    const r = layeredLayout({ widths, edges });
    expect(r.layers).to.equal(40);
    expect([...r.x, ...r.y].every(Number.isFinite)).to.equal(true);
  });

  it('solves order-preserving placement by least squares', () => {
    expect(placeInOrder([0, 0, 0], 10)).to.deep.equal([-10, 0, 10]);
    expect(placeInOrder([0, 100, 5], 10)).to.deep.equal([0, 47.5, 57.5]);
  });
});
