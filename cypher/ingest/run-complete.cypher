// On runs' completion, each dataset version they wrote becomes its dataset's current version,
// unless a version committed later (by eventTime) is already current: out-of-order completions
// converge on the same answer.
// Params: $runIds ([string]). Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $runIds AS runId
MATCH (r:Run {id: runId})-[:WROTE]->(v:DatasetVersion)-[:VERSION_OF]->(d:Dataset)
// Writing d first takes its lock, so the CURRENT_VERSION read below sees committed state.
SET v.committedAt = r.endedAt, d.currentVersion = d.currentVersion
WITH v, d
CALL (v, d) {
  OPTIONAL MATCH (d)-[c:CURRENT_VERSION]->(cur:DatasetVersion)
  WITH v, d, c, cur
  WHERE cur IS NULL OR (cur <> v AND coalesce(cur.committedAt, cur.createdAt) <= v.committedAt)
  DELETE c
  // d is locked and has no CURRENT_VERSION left: CREATE spares MERGE's check of a dense node.
  CREATE (d)-[:CURRENT_VERSION]->(v)
  SET d.currentVersion = v.id,
      d.lastModifiedAt = v.committedAt,
      d.lastLifecycleState = coalesce(v.lifecycleState, d.lastLifecycleState)
}
