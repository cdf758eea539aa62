// Blast radius of one start node (job or dataset), for GET /api/v1/impact, when the database has the
// service's `lineage.blastRadius` procedure (src/neo4j/procedures/lineage/BlastRadius.java; the local
// Neo4j always has it, a Neo4j of your own once you copy the jar into its plugins folder, docs/impact.md).
// It answers exactly what impact/blast-radius.cypher answers, in the same records: the procedure walks as
// lineage.reach does (a breadth-first search, each node once at its shortest distance, by graph.cypher's
// edge and node rules), finds each job's latest run at a point in time, then groups, counts, cuts and
// renders in one pass over what it reached, where in Cypher those steps cost as much as the walk (the
// bench's hub: 25,856 nodes reached, 10,000 rendered). test/neo4j/local/procedures.test.ts holds the
// answers equal on stored histories, now and at points in time.
//
// Params: $rules (the edition of the rules the service expects: a jar of another edition refuses the
//   call, and the service walks in Cypher), $startId (elementId of the resolved start node), $downstream
//   (boolean: along the arrows, or against them), $maxRels (integer: relationships from the start,
//   2 * depth + 1 from a job, 2 * depth + 2 from a dataset), $pointInTime, $asOf, $windowStart, $rows,
//   $state, $chunk: as in impact/blast-radius.cypher.
// Returns impact/blast-radius.cypher's records, with each node's endedAt as epoch milliseconds, and its eid
// and preds as keys within this answer (its position in the walk, base 36: 1-4 characters where an
// elementId has 45) rather than elementIds: the service only matches predecessors by them.
MATCH (s) WHERE elementId(s) = $startId
CALL lineage.blastRadius($rules, s, $downstream, $maxRels, $pointInTime, $asOf, $windowStart, $rows, $state, $chunk)
  YIELD isJob, distance, total, counts, nodes
RETURN isJob, distance, total, counts, nodes
