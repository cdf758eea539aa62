// Writes the dataset-level lineage edges a batch created or changed: (:Dataset)-[:INPUT_TO]->(:Job)
// and (:Job)-[:PRODUCES]->(:Dataset), each with its observation history (cypher/README.md, "Lineage
// edges"; the rule in src/domain/edge-history.ts). Edges accumulate: nothing here deletes one. The
// planner read every edge of the batch's jobs under their locks (jobs-state.cypher), so it knows which
// edges exist: a new one is created without a MERGE's check of dense nodes.
// Params: $edges: [{existed (boolean), input (true: INPUT_TO, false: PRODUCES), jobNamespace, jobName,
//   namespace, name (the dataset), set (a map of the properties that change: firstSeenAt, lastSeenAt
//   (DateTime), lastRunId, lastRunState, seenFrom, seenTo, heldUntil (DateTime lists), current; a new
//   edge gets all of them)}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $edges AS row
MATCH (d:Dataset {namespace: row.namespace, name: row.name})
MATCH (j:Job {namespace: row.jobNamespace, name: row.jobName})
CALL (row, d, j) {
  WITH row, d, j WHERE row.existed AND row.input
  MATCH (d)-[e:INPUT_TO]->(j)
  RETURN e
  UNION
  WITH row, d, j WHERE row.existed AND NOT row.input
  MATCH (j)-[e:PRODUCES]->(d)
  RETURN e
  UNION
  WITH row, d, j WHERE NOT row.existed AND row.input
  CREATE (d)-[e:INPUT_TO]->(j)
  RETURN e
  UNION
  WITH row, d, j WHERE NOT row.existed AND NOT row.input
  CREATE (j)-[e:PRODUCES]->(d)
  RETURN e
}
SET e += row.set
