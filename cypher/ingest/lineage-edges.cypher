// Writes the dataset-level lineage edges a batch created or changed: (:Dataset)-[:INPUT_TO]->(:Job)
// and (:Job)-[:PRODUCES]->(:Dataset), each with its observation history (cypher/README.md, "Lineage
// edges"; the rule in src/domain/edge-history.ts). Edges accumulate: nothing here deletes one. The
// planner read every edge of the batch's jobs under their locks (jobs-state.cypher), so it knows which
// edges exist and their element ids: an edge that exists is found by its id, without finding its two
// nodes by key (bench:seek-cost: a key seek costs 4.6-11.5 µs of Neo4j's CPU, an id seek 1-4), and a new
// one is created without a MERGE's check of dense nodes.
// Params: $edges: [{eid (the relationship's elementId, as jobs-state.cypher returned it in this transaction;
//   null: create it), input (true: INPUT_TO, false: PRODUCES), jobNamespace, jobName, namespace, name (the
//   dataset), set (a map of the properties that change: firstSeenAt, lastSeenAt (DateTime), lastRunId,
//   lastRunState, seenFrom, seenTo, heldUntil (DateTime lists), current; a new edge gets all of them)}]
// Returns nothing.
// Its plan starts from unique-key and id seeks, so statistics cannot improve it: keep the cached plan
// (cypher/README.md).
CYPHER replan=skip
UNWIND $edges AS row
// Each branch is a subquery of its own so that its condition gates it, and the relationship is typed:
// untyped, `elementId(e) = …` was planned as a scan of every relationship.
CALL (row) {
  WITH row WHERE row.eid IS NOT NULL AND row.input
  MATCH ()-[e:INPUT_TO]->() WHERE elementId(e) = row.eid
  RETURN e
  UNION
  WITH row WHERE row.eid IS NOT NULL AND NOT row.input
  MATCH ()-[e:PRODUCES]->() WHERE elementId(e) = row.eid
  RETURN e
  UNION
  WITH row WHERE row.eid IS NULL
  CALL (row) {
    MATCH (d:Dataset {namespace: row.namespace, name: row.name})
    MATCH (j:Job {namespace: row.jobNamespace, name: row.jobName})
    CALL (row, d, j) {
      WITH row, d, j WHERE row.input
      CREATE (d)-[e:INPUT_TO]->(j)
      RETURN e
      UNION
      WITH row, d, j WHERE NOT row.input
      CREATE (j)-[e:PRODUCES]->(d)
      RETURN e
    }
    RETURN e
  }
  RETURN e
}
SET e += row.set
