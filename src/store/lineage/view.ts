/**
 * Which edges and nodes a dataset-level answer holds (docs/lineage.md, "Time"), as the parameters of
 * the traversal queries, and the traversal's text for a direction and depth.
 */
import neo4j from 'neo4j-driver';
import { minus, parseDuration, type Duration } from '../../domain/duration.js';
import { FOREVER } from '../../domain/edge-history.js';
import { START_OF_TIME_MS } from '../../domain/utc.js';
import { directed, withMaxRels, type WalkDirection } from '../cypher.js';

export type Direction = WalkDirection;
export const DIRECTIONS: readonly Direction[] = ['both', 'upstream', 'downstream'];

/**
 * The graph at `asOf` (null: now, with everything stored) with the edges observed within `window`
 * before it (null: all history) plus each job's latest known I/O.
 */
export interface LineageView {
  asOf: Date | null;
  window: Duration | null;
}

export const DEFAULT_WINDOW: Duration = parseDuration('P30D')!;
// Without asOf, everything stored counts: asOf is the last instant before FOREVER, so an edge still
// held (heldUntil = FOREVER) is held then.
export const END_OF_TIME = neo4j.types.DateTime.fromStandardDate(new Date(FOREVER - 1));
const START_OF_TIME = neo4j.types.DateTime.fromStandardDate(new Date(START_OF_TIME_MS));

/** The time parameters of graph.cypher (and the impact queries) for a view. */
export function viewParams(view: LineageView, now = Date.now()) {
  const asOf = view.asOf === null ? END_OF_TIME : neo4j.types.DateTime.fromStandardDate(view.asOf);
  const windowStart =
    view.window === null
      ? START_OF_TIME
      : neo4j.types.DateTime.fromStandardDate(new Date(minus(view.asOf?.getTime() ?? now, view.window)));
  return { asOf, windowStart, pointInTime: view.asOf !== null };
}

/**
 * Relationships from the start node for `depth` job hops: the jobs next to the start are hop 0, each
 * further job layer one more hop, and the datasets of every included job come with it. From a job:
 * job, dataset, job, ... = 2 * depth + 1; from a dataset one more.
 */
export function maxRelsFor(kind: 'job' | 'dataset', depth: number): number {
  return kind === 'job' ? 2 * depth + 1 : 2 * depth + 2;
}

/**
 * The dataset-level traversal for one direction and bound (see cypher/lineage/graph.cypher, or
 * graph-minimal.cypher for the `fields=minimal` projection).
 */
export function graphQuery(
  direction: Direction,
  maxRels: number,
  name: 'lineage/graph' | 'lineage/graph-minimal' = 'lineage/graph',
): string {
  const text = directed(withMaxRels(name, maxRels), direction);
  if (!text.includes(`/*${direction}*/`)) throw new Error(`cypher/${name}.cypher lost its /*downstream*/ walk`);
  return text;
}
