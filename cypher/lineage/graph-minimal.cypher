// The lineage graph of graph.cypher with the least a graph view draws (GET /api/v1/lineage?fields=minimal):
// the same walk, nodes and edges, but of each node only its key and, for a job, its latest run's id,
// state and times at $asOf. No inputs/outputs lists, tags, versions or other properties, so each node
// costs the walk, its edges and one latest-run lookup.
// The walk, the edge predicate and the latest-run subquery are graph.cypher's: keep the copies equal
// (direction and the /*maxRels*/ bound are set the same way).
// Params: $startId (elementId of the resolved start node), $asOf, $windowStart (DateTime), $pointInTime (boolean),
//   $maxNodes (integer: at most this many nodes; the service asks for one more than its cap to detect truncation),
//   $chunk (integer: most nodes per record)
// Returns records of up to $chunk nodes each, in the walk's order: at (the record's first node's position)
//   and nodes, a list of nodes, each [isJob, namespace, name, latestRun, out] (lists, not maps: see
//   graph.cypher): latestRun the job's latest run at $asOf as [id, state, startedAt, endedAt], or null;
//   out the node's outgoing edges in view to nodes of the answer, each [namespace, name, firstSeenAt,
//   lastSeenAt, lastRunId, lastRunState] of the node at its other end. Times as epoch milliseconds.
MATCH (s) WHERE elementId(s) = $startId
MATCH (s)(()-[e:INPUT_TO|PRODUCES WHERE CASE WHEN $pointInTime THEN e.firstSeenAt <= $asOf AND any(i IN range(0,
  size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart OR e.heldUntil[i] > $asOf))
  ELSE e.lastSeenAt >= $windowStart OR e.current END]->/*downstream*/(x)
    WHERE CASE WHEN $pointInTime THEN x.createdAt <= $asOf AND NOT (coalesce(x.isDeleted, false)
      AND coalesce(x.deletedAt, x.createdAt) <= $asOf) ELSE NOT x:Deleted END){0, 42 /*maxRels*/}(n)
WITH DISTINCT n LIMIT $maxNodes
// The answer's nodes: `out` edges are read only to them (a hub read by thousands of jobs answers a
// handful of them in an upstream graph).
WITH collect(n) AS members
// A record per $chunk nodes, each node rendered in the list comprehension (graph.cypher says why).
UNWIND range(0, size(members) - 1, $chunk) AS at
RETURN at, [n IN members[at..at + $chunk] |
  [run IN [CASE WHEN NOT n:Job THEN null WHEN NOT $pointInTime THEN [(n)-[:LATEST_RUN]->(l:Run) | l][0] ELSE COLLECT {
    OPTIONAL MATCH (n)-[:LATEST_RUN]->(l:Run)
    OPTIONAL CALL (n, l) {
      WITH n, l WHERE l.sortTime > $asOf
      // A subquery of its own so that the condition gates the lookup: planned in one query part, the
      // condition was tested on every run the seek read (test/store/history-cost.test.ts).
      CALL (n) {
        MATCH (r:Run) USING INDEX SEEK r:Run(jobNamespace, jobName, sortTime, id) WHERE r.jobNamespace = n.namespace
          AND r.jobName = n.name AND r.sortTime <= $asOf AND r.id IS NOT NULL
        RETURN r ORDER BY r.jobNamespace DESC, r.jobName DESC, r.sortTime DESC, r.id DESC LIMIT 1
      }
      RETURN r
    }
    RETURN CASE WHEN l.sortTime <= $asOf THEN l ELSE r END AS run
  }[0] END] |
  [n:Job, n.namespace, n.name,
    CASE WHEN run IS NULL THEN null ELSE [run.id, run.state, run.startedAt.epochMillis, run.endedAt.epochMillis] END,
    [(n)-[e:INPUT_TO|PRODUCES]->(m) WHERE m IN members AND CASE WHEN $pointInTime THEN e.firstSeenAt <= $asOf
      AND any(i IN range(0, size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart
      OR e.heldUntil[i] > $asOf)) ELSE e.lastSeenAt >= $windowStart OR e.current END
      | [m.namespace, m.name, e.firstSeenAt.epochMillis, e.lastSeenAt.epochMillis, e.lastRunId, e.lastRunState]]]
  ][0]] AS nodes
