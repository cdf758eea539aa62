// Blast radius of one start node (job or dataset), for GET /api/v1/impact: every job and dataset
// reachable from it within the bound, each with its distance, in distance order, plus a summary of the
// whole reachable set. As written it walks downstream (follows the arrows); the store swaps each
// relationship marked `/*downstream*/` for the other direction (upstream: against the arrows).
//
// Distance is the number of relationships (INPUT_TO / PRODUCES) on a shortest directed path in view:
// from a dataset, the jobs reading it are at 1 and what they write at 2. `min(length(p))` grouped by
// end node is planned as VarLengthExpand(Pruning,BFS) with a depth: every node is expanded once, at its
// shortest distance, and no path is ever enumerated.
//
// Time (docs/lineage.md "Time"): the same rule as cypher/lineage/graph.cypher: an edge takes part when
// it existed at $asOf and was observed within [$windowStart, $asOf], or was still among its job's latest
// known I/O at $asOf (heldUntil); a node when it existed at $asOf and was not soft-deleted by then. Both
// readings are graph.cypher's, verbatim: with a point in time the full rule; without one ($asOf is the end
// of time) the values the edge keeps for "now": seen within the window (lastSeenAt, the end of its last
// span) or still held (current: its last heldUntil is FOREVER), and the node not deleted; the same edges
// and nodes, for events dated before 9999-12-31T23:59:59.999Z, at half the cost of the walk
// (test/store/impact-plans.test.ts checks both the text and the equivalence on stored histories).
// A job's latest run is the one graph.cypher answers (the latest started at or before $asOf), and its
// state is the state it had then (RUNNING or NEW if it ended, or started, later); without a point in
// time that is the job's LATEST_RUN, whose state and end the job keeps as latestRunState and latestRunEndedAt
// (cypher/ingest/runs-upsert).
//
// The quantifier bound marked `/*maxRels*/` (42 = depth 20 from a dataset) is replaced by the store
// with a validated integer (relationships: 2 * depth + 1 from a job, 2 * depth + 2 from a dataset).
//
// Params: $startId (elementId of the resolved start node), $asOf, $windowStart (DateTime),
//   $pointInTime (boolean: an explicit asOf), $rows (integer: rows wanted, the start node included;
//   the service asks for limit + 1, or for every reached node when it filters by $state),
//   $state (a run state or null: only the start and the jobs whose latest run is in that state get tags and
//   owners),
//   $chunk (integer: most nodes per record)
// Returns the nodes in distance order (the start node first), every node up to the distance of the
// $rows-th nearest (so more than $rows when others tie with it; the service orders each distance by node
// id and keeps the first $rows), up to $chunk of one distance and type in a record:
//   isJob, distance, nodes: a list of [namespace, name, state, endedAt (ISO; the latest run's, jobs only),
//   eid (the node's elementId), preds ([eid]: the nodes one step before it on the walk through an edge in
//   view, i.e. its inputs downstream, its consumers or producers upstream; the service picks `via` among
//   those it answered at the distance before), tags ([name]), owner (the `facet.ownership` JSON text)],
//   tags and owner null for a job that does not match $state; and, on the first record only (null on the
//   others): total (nodes reached, the start excluded) and counts ([[distance, isJob, nodes, jobs whose
//   latest run is FAILED]] over every reached node).
MATCH (s) WHERE elementId(s) = $startId
MATCH p = (s)(()-[e:INPUT_TO|PRODUCES WHERE CASE WHEN $pointInTime THEN e.firstSeenAt <= $asOf AND any(i IN range(0,
  size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart OR e.heldUntil[i] > $asOf))
  ELSE e.lastSeenAt >= $windowStart OR e.current END]->/*downstream*/(x)
    WHERE CASE WHEN $pointInTime THEN x.createdAt <= $asOf AND NOT (coalesce(x.isDeleted, false)
      AND coalesce(x.deletedAt, x.createdAt) <= $asOf) ELSE NOT x:Deleted END){0, 42 /*maxRels*/}(n)
WITH n, min(length(p)) AS distance
// Within a distance the service orders rows by node id: here that would build and compare the name of
// every node reached, where only the rows returned need it.
WITH n, distance, n:Job AS isJob
// At a point in time, a job's latest run then. A CASE around a COLLECT subquery, not an OPTIONAL CALL: the
// subquery then runs only when asked, where the call cost every reached node a step even when it did nothing.
WITH n, distance, isJob, CASE WHEN isJob AND $pointInTime THEN COLLECT {
  OPTIONAL MATCH (n)-[:LATEST_RUN]->(l:Run)
  OPTIONAL CALL (n, l) {
    WITH n, l WHERE l.sortTime > $asOf
    // A subquery of its own so that the condition gates the lookup: planned in one query part, the
    // condition was tested on every run the seek read (test/store/history-cost.test.ts).
    CALL (n) {
      MATCH (r:Run) USING INDEX SEEK r:Run(jobNamespace, jobName, sortTime, id) WHERE r.jobNamespace = n.namespace
        AND r.jobName = n.name
        AND r.sortTime <= $asOf AND r.id IS NOT NULL
      RETURN r ORDER BY r.jobNamespace DESC, r.jobName DESC, r.sortTime DESC, r.id DESC LIMIT 1
    }
    RETURN r
  }
  WITH CASE WHEN l.sortTime <= $asOf THEN l ELSE r END AS run
  RETURN {state: CASE WHEN run IS NULL THEN null WHEN run.endedAt <= $asOf THEN run.state
                      WHEN run.startedAt <= $asOf THEN 'RUNNING' ELSE 'NEW' END,
          endedAt: CASE WHEN run.endedAt <= $asOf THEN run.endedAt END}
}[0] END AS atT
// Now: the LATEST_RUN's state from the job (one property), its end (another) only for the rows returned.
WITH n, distance, isJob, CASE WHEN $pointInTime THEN atT.state WHEN isJob THEN n.latestRunState END AS state,
  atT.endedAt AS endedAt
// One group per distance and type, in distance order: grouping is a hash aggregation where sorting every
// node reached by distance was a sort of them all (25,856 for the bench's hub), and the summary's counts
// are then the groups' sizes.
WITH distance, isJob, collect({n: n, state: state, endedAt: endedAt}) AS members,
  sum(CASE WHEN state = 'FAILED' THEN 1 ELSE 0 END) AS failed
ORDER BY distance, isJob
WITH collect({distance: distance, isJob: isJob, members: members, failed: failed}) AS groups
// Every group up to the distance of the $rows-th nearest node (the cut), so that the service can keep the
// first by id among those that tie with it.
WITH groups, [g IN groups WHERE g.distance > 0 | [g.distance, g.isJob, size(g.members), g.failed]] AS counts,
  reduce(seen = [0, null], g IN groups | CASE WHEN seen[0] >= $rows THEN seen
    ELSE [seen[0] + size(g.members), g.distance] END)[1] AS cut
WITH counts, reduce(k = 0, c IN counts | k + c[2]) AS total, [g IN groups WHERE g.distance <= cut] AS kept
UNWIND range(0, size(kept) - 1) AS gi
WITH kept[gi] AS g, gi, total, counts
// A record per $chunk nodes of a group, not per node: a record costs Neo4j and the service more than the
// node it carries (the hub's 10,000 rows: 90 ms less of Neo4j's CPU as 1,000-node lists).
UNWIND range(0, size(g.members) - 1, $chunk) AS mi
RETURN g.isJob AS isJob, g.distance AS distance,
  CASE WHEN gi = 0 AND mi = 0 THEN total END AS total, CASE WHEN gi = 0 AND mi = 0 THEN counts END AS counts,
  // `[n IN [r.n] | ...][0]` names the member's node, so that patterns can start from it.
  [r IN g.members[mi..mi + $chunk] | [n IN [r.n] | [n.namespace, n.name, r.state,
    toString(CASE WHEN $pointInTime THEN r.endedAt WHEN g.isJob THEN n.latestRunEndedAt END), elementId(n),
    // A predecessor that matters is one the walk reached a step nearer, so in view: only the edge is checked.
    [(m)-[e:INPUT_TO|PRODUCES WHERE CASE WHEN $pointInTime THEN e.firstSeenAt <= $asOf AND any(i IN range(0,
      size(e.seenFrom) - 1) WHERE e.seenFrom[i] <= $asOf AND (e.seenTo[i] >= $windowStart OR e.heldUntil[i] > $asOf))
      ELSE e.lastSeenAt >= $windowStart OR e.current END]->/*downstream*/(n) | elementId(m)],
    // A degree check first: most nodes have no tag, and the expand it spares walks the node's whole
    // relationship chain.
    CASE WHEN NOT ($state IS NULL OR r.state = $state OR g.distance = 0) THEN null
      WHEN COUNT { (n)-[:TAGGED]->() } = 0 THEN [] ELSE [(n)-[:TAGGED]->(t) | t.name] END,
    CASE WHEN $state IS NULL OR r.state = $state OR g.distance = 0 THEN n.`facet.ownership` END]][0]] AS nodes
