// Shortest lineage paths from one job or dataset to another, for GET /api/v1/impact/paths: up to k
// directed paths (following the arrows, dataset -> job that reads it -> dataset it writes ...), the
// shortest first; with fewer than k of the shortest length, the next longer ones follow (SHORTEST k).
// Planned as StatefulShortestPath(Into): a bidirectional search between the two bound nodes, no
// enumeration of the graph around them.
//
// Time: the edge and node rules of cypher/lineage/graph.cypher, written out the same way (an edge in
// view at $asOf looking back to $windowStart; a node that existed at $asOf, not soft-deleted by then).
//
// The bounds marked `/*k*/` (5) and `/*maxRels*/` (42 = 20 job hops from a dataset) are replaced by the
// store with validated integers: Cypher takes no parameters there.
//
// Params: $fromId, $toId (elementIds of the resolved nodes), $asOf, $windowStart (DateTime)
// Returns one row per path: nodes ([[isJob, namespace, name]], from first to last) and edges
//   ([{firstSeenAt, lastSeenAt (ISO), lastRunId, lastRunState}], edge i joins node i and node i + 1).
MATCH (a) WHERE elementId(a) = $fromId
MATCH (b) WHERE elementId(b) = $toId
MATCH p = SHORTEST 5 /*k*/ (a)(()-[e:INPUT_TO|PRODUCES WHERE e.firstSeenAt <= $asOf AND any(i IN range(0,
  size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart OR e.heldUntil[i] > $asOf))]->(x)
    WHERE x.createdAt <= $asOf AND NOT (coalesce(x.isDeleted, false) AND coalesce(x.deletedAt,
      x.createdAt) <= $asOf)){1, 42 /*maxRels*/}(b)
RETURN [n IN nodes(p) | [n:Job, n.namespace, n.name]] AS nodes,
  [r IN relationships(p) | {firstSeenAt: toString(r.firstSeenAt), lastSeenAt: toString(r.lastSeenAt),
    lastRunId: r.lastRunId, lastRunState: r.lastRunState}] AS edges
