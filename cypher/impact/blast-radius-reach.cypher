// Blast radius of one start node (job or dataset), for GET /api/v1/impact, when the database has the
// service's `lineage.reach` procedure (src/neo4j/procedures/: the local Neo4j always has it; a Neo4j of
// your own has it once you copy the jar into its plugins folder, docs/impact.md). It answers exactly
// what impact/blast-radius.cypher answers, in the same records: the procedure does the walk (a
// breadth-first search, each node once at its shortest distance, by graph.cypher's edge and node rules,
// with the predecessors one step nearer through an edge in view), and this query renders what it reached.
// test/neo4j/local/procedures.test.ts holds the two queries' answers equal on stored histories.
//
// Params: $rules (the edition of the walk's rules the service expects: a jar of another edition refuses
//   the call, and the service walks in Cypher), $startId (elementId of the resolved start node),
//   $downstream (boolean: along the arrows, or against them), $maxRels (integer: relationships from the
//   start, 2 * depth + 1 from a job, 2 * depth + 2 from a dataset), $asOf, $windowStart (DateTime),
//   $pointInTime (boolean: an explicit asOf), $rows, $state, $chunk: as in impact/blast-radius.cypher.
// Returns impact/blast-radius.cypher's records.
MATCH (s) WHERE elementId(s) = $startId
CALL lineage.reach($rules, s, $downstream, $maxRels, $pointInTime, $asOf, $windowStart) YIELD node, distance, preds
WITH node AS n, distance, preds, node:Job AS isJob
// At a point in time, a job's latest run then (impact/blast-radius.cypher says why it is written so).
WITH n, distance, preds, isJob, CASE WHEN isJob AND $pointInTime THEN COLLECT {
  OPTIONAL MATCH (n)-[:LATEST_RUN]->(l:Run)
  OPTIONAL CALL (n, l) {
    WITH n, l WHERE l.sortTime > $asOf
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
WITH n, distance, preds, isJob, CASE WHEN $pointInTime THEN atT.state WHEN isJob THEN n.latestRunState END AS state,
  atT.endedAt AS endedAt
WITH distance, isJob, collect({n: n, state: state, endedAt: endedAt, preds: preds}) AS members,
  sum(CASE WHEN state = 'FAILED' THEN 1 ELSE 0 END) AS failed
ORDER BY distance, isJob
WITH collect({distance: distance, isJob: isJob, members: members, failed: failed}) AS groups
WITH groups, [g IN groups WHERE g.distance > 0 | [g.distance, g.isJob, size(g.members), g.failed]] AS counts,
  reduce(seen = [0, null], g IN groups | CASE WHEN seen[0] >= $rows THEN seen
    ELSE [seen[0] + size(g.members), g.distance] END)[1] AS cut
WITH counts, reduce(k = 0, c IN counts | k + c[2]) AS total, [g IN groups WHERE g.distance <= cut] AS kept
UNWIND range(0, size(kept) - 1) AS gi
WITH kept[gi] AS g, gi, total, counts
UNWIND range(0, size(g.members) - 1, $chunk) AS mi
RETURN g.isJob AS isJob, g.distance AS distance,
  CASE WHEN gi = 0 AND mi = 0 THEN total END AS total, CASE WHEN gi = 0 AND mi = 0 THEN counts END AS counts,
  [r IN g.members[mi..mi + $chunk] | [n IN [r.n] | [n.namespace, n.name, r.state,
    toString(CASE WHEN $pointInTime THEN r.endedAt WHEN g.isJob THEN n.latestRunEndedAt END), elementId(n), r.preds,
    CASE WHEN NOT ($state IS NULL OR r.state = $state OR g.distance = 0) THEN null
      WHEN COUNT { (n)-[:TAGGED]->() } = 0 THEN [] ELSE [(n)-[:TAGGED]->(t) | t.name] END,
    CASE WHEN $state IS NULL OR r.state = $state OR g.distance = 0 THEN n.`facet.ownership` END]][0]] AS nodes
