/**
 * The column-level answer (pure): from the columns a FEEDS walk found (a superset: every mapping ever
 * declared) and, for each, the inputs the declaration in force still lists, a breadth-first walk of
 * `depth` column hops from the start columns, upstream and, when asked, downstream; then the answer's
 * nodes with their inputs and edges among them. docs/lineage.md, "Column-level lineage".
 */
import type { LineageNode } from '../../api/types.js';
import { fieldNodeId } from '../node-id.js';
import { wireEdges } from './graph-nodes.js';

export interface ColumnInput {
  namespace: string;
  dataset: string;
  field: string;
  jobNamespace: string | null;
  jobName: string | null;
  transformationDescription: string | null;
  transformationType: string | null;
  transformations: { type: unknown; subtype: unknown; description: unknown; masking: unknown }[];
}

/** A column the walk found. */
export interface ColumnCandidate {
  nodeId: string;
  namespace: string;
  dataset: string;
  field: string;
  fieldType: string | null;
  /** The dataset version the answer shows for it. */
  datasetVersion: string | null;
  /** Its inputs that the declaration in force lists. */
  inputs: ColumnInput[];
}

const inputId = (i: ColumnInput) => fieldNodeId(i.namespace, i.dataset, i.field);

/**
 * The answer's nodes, by the unversioned ids of `candidates` and `startNodes`. A `versioned` answer (the
 * request named a `#version`) gives each node, and each edge's ends, the id of its column at its dataset
 * version (`datasetField:<ns>:<dataset>:<field>#<datasetVersion>`), as Marquez answers a versioned request;
 * a column whose dataset had no version then keeps the bare id.
 */
export function columnAnswer(
  candidates: ColumnCandidate[],
  startNodes: string[],
  depth: number,
  withDownstream: boolean,
  versioned = false,
): LineageNode[] {
  const byId = new Map(candidates.map((c) => [c.nodeId, c]));
  const answerId = (nodeId: string) => {
    const version = versioned ? byId.get(nodeId)?.datasetVersion : null;
    return version ? `${nodeId}#${version}` : nodeId;
  };
  const consumers = new Map<string, string[]>();
  for (const c of candidates) {
    for (const i of c.inputs) consumers.set(inputId(i), [...(consumers.get(inputId(i)) ?? []), c.nodeId]);
  }
  const reached = new Set(startNodes);
  const walk = (next: (nodeId: string) => string[]) => {
    let frontier = [...startNodes];
    const seen = new Set(startNodes);
    for (let hop = 0; hop < depth && frontier.length; hop++) {
      const following: string[] = [];
      for (const n of frontier) {
        for (const m of next(n)) {
          if (seen.has(m) || !byId.has(m)) continue;
          seen.add(m);
          reached.add(m);
          following.push(m);
        }
      }
      frontier = following;
    }
  };
  walk((n) => (byId.get(n)?.inputs ?? []).map(inputId));
  if (withDownstream) walk((n) => consumers.get(n) ?? []);

  const nodes: LineageNode[] = [];
  const outs = new Map<string, string[]>();
  for (const c of candidates) {
    if (!reached.has(c.nodeId)) continue;
    // Input fields and edges only among the columns of the answer.
    const inputs = c.inputs.filter((i) => reached.has(inputId(i))).sort((a, b) => inputId(a).localeCompare(inputId(b)));
    nodes.push({
      id: answerId(c.nodeId),
      type: 'DATASET_FIELD',
      data: {
        namespace: c.namespace,
        dataset: c.dataset,
        datasetVersion: c.datasetVersion,
        field: c.field,
        fieldType: c.fieldType,
        transformationDescription: inputs[0]?.transformationDescription ?? null,
        transformationType: inputs[0]?.transformationType ?? null,
        inputFields: inputs,
      },
      inEdges: [],
      outEdges: [],
    });
    outs.set(answerId(c.nodeId), (consumers.get(c.nodeId) ?? []).filter((m) => reached.has(m)).map(answerId));
  }
  return wireEdges(nodes, outs);
}
