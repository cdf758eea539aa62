/** Builders and assertions shared by the lineage graph tests. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { TestApp } from '../../helper.js';
import { facet, runEvent, type DatasetSpec } from '../../support/events.js';

export const NS = 'postgres://db.example.com:5432';
export const JOB_NS = 'airflow';

export interface GraphNode {
  id: string;
  type: string;
  data: any;
  inEdges: { origin: string; destination: string }[];
  outEdges: { origin: string; destination: string }[];
}

export const ds = (name: string, ns = NS) => `dataset:${ns}:${name}`;
export const job = (name: string, ns = JOB_NS) => `job:${ns}:${name}`;

/** One finished run of `name` reading `inputs` and writing `outputs` (a single COMPLETE event). */
export async function runJob(
  t: TestApp,
  name: string,
  inputs: (string | DatasetSpec)[],
  outputs: (string | DatasetSpec)[],
  opts: { jobNamespace?: string; eventType?: string; runId?: string } = {},
): Promise<string> {
  const runId = opts.runId ?? randomUUID();
  const res = await t.post(
    '/api/v1/lineage',
    runEvent({
      job: name,
      jobNamespace: opts.jobNamespace ?? JOB_NS,
      runId,
      eventType: opts.eventType ?? 'COMPLETE',
      inputs,
      outputs,
    }),
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return runId;
}

export async function getGraph(t: TestApp, path: string): Promise<GraphNode[]> {
  const res = await t.get(path);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  checkInvariants(res.body.graph);
  return res.body.graph;
}

export function lineagePath(
  nodeId: string,
  params: Record<string, string | number | boolean> = {},
  base = '/api/v1/lineage',
): string {
  const q = new URLSearchParams({
    nodeId,
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
  });
  return `${base}?${q}`;
}

/** Every edge endpoint is a node; in- and out-edges agree; no duplicates. */
export function checkInvariants(graph: GraphNode[]): void {
  const ids = new Set(graph.map((n) => n.id));
  expect(ids.size, 'unique node ids').to.equal(graph.length);
  const outs = new Set<string>();
  const ins = new Set<string>();
  for (const n of graph) {
    for (const e of n.outEdges) {
      expect(e.origin).to.equal(n.id);
      expect(ids.has(e.destination), `edge destination ${e.destination} is a node`).to.equal(true);
      outs.add(`${e.origin} -> ${e.destination}`);
    }
    for (const e of n.inEdges) {
      expect(e.destination).to.equal(n.id);
      expect(ids.has(e.origin), `edge origin ${e.origin} is a node`).to.equal(true);
      ins.add(`${e.origin} -> ${e.destination}`);
    }
    expect(new Set(n.outEdges.map((e) => e.destination)).size, 'no duplicate out-edges').to.equal(n.outEdges.length);
  }
  expect([...ins].sort()).to.deep.equal([...outs].sort());
}

export const nodeIds = (graph: GraphNode[]) => graph.map((n) => n.id).sort();
export const edges = (graph: GraphNode[]) =>
  graph.flatMap((n) => n.outEdges.map((e) => `${e.origin} -> ${e.destination}`)).sort();

/** Asserts the exact node and edge sets of a lineage query. */
export async function expectGraph(
  t: TestApp,
  path: string,
  expected: { nodes: string[]; edges: string[] },
): Promise<GraphNode[]> {
  const graph = await getGraph(t, path);
  expect(nodeIds(graph), `nodes of ${decodeURIComponent(path)}`).to.deep.equal([...expected.nodes].sort());
  expect(edges(graph), `edges of ${decodeURIComponent(path)}`).to.deep.equal([...expected.edges].sort());
  return graph;
}

export const e = (a: string, b: string) => `${a} -> ${b}`;

/** A node id without its `#<version>`. */
export const bare = (id: string) => id.replace(/#[^#]*$/, '');

/**
 * Asserts a column-lineage answer to a `#version` request: every node id is its column's at the dataset
 * version its data reports, and the nodes and edges, by their bare ids, are the expected ones.
 */
export async function expectVersionedGraph(
  t: TestApp,
  path: string,
  expected: { nodes: string[]; edges: string[] },
): Promise<GraphNode[]> {
  const graph = await getGraph(t, path);
  for (const n of graph) expect(n.id, 'a versioned id').to.equal(`${bare(n.id)}#${n.data.datasetVersion}`);
  const nodes = graph.map((n) => bare(n.id)).sort();
  const links = graph.flatMap((n) => n.outEdges.map((x) => e(bare(x.origin), bare(x.destination)))).sort();
  expect(nodes, `nodes of ${decodeURIComponent(path)}`).to.deep.equal([...expected.nodes].sort());
  expect(links, `edges of ${decodeURIComponent(path)}`).to.deep.equal([...expected.edges].sort());
  return graph;
}

export function columnLineageFacet(
  fields: Record<string, { namespace?: string; name: string; field: string; transformations?: unknown[] }[]>,
) {
  return facet(
    {
      fields: Object.fromEntries(
        Object.entries(fields).map(([out, inputs]) => [
          out,
          { inputFields: inputs.map((i) => ({ namespace: i.namespace ?? NS, ...i })) },
        ]),
      ),
    },
    'ColumnLineageDatasetFacet',
  );
}
