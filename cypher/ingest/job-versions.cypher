// Creates (or finds) job versions, ties each finished run to its version (exactly one per run), and
// makes a version its job's current one when it is the newest. The job's dataset-level lineage edges
// (INPUT_TO / PRODUCES) do not follow it: they accumulate with their history (lineage-edges.cypher).
// Params: $versions: [{id, job: {namespace, name}, runId (or null for a JobEvent), eventTime (ISO),
//   versionTime (ISO: the run's end, or the JobEvent's time), location, context (JSON string),
//   inputs, outputs ([{namespace, name}]), candidate (boolean: the newest version of its job in this batch)}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $versions AS ver
WITH ver, datetime(ver.eventTime) AS t, datetime(ver.versionTime) AS vt
// A version that exists already has its job and dataset links: its id derives from them, and they are
// made with it. Checking them again against dense datasets costs more than this lookup.
OPTIONAL MATCH (known:JobVersion {id: ver.id})
WITH ver, t, vt, known IS NOT NULL AS existed
MATCH (j:Job {namespace: ver.job.namespace, name: ver.job.name})
MERGE (v:JobVersion {id: ver.id})
  ON CREATE SET v.namespace = j.namespace, v.name = j.name, v.location = ver.location,
                v.context = ver.context, v.createdAt = t, v.updatedAt = t
SET v.createdAt = CASE WHEN t < v.createdAt THEN t ELSE v.createdAt END,
    v.updatedAt = CASE WHEN t > v.updatedAt THEN t ELSE v.updatedAt END
FOREACH (_ IN CASE WHEN existed THEN [] ELSE [1] END | MERGE (v)-[:VERSION_OF]->(j))
WITH ver, j, v, vt, existed
CALL (ver, v, existed) {
  WITH ver, v WHERE NOT existed
  UNWIND ver.inputs AS ref
  MATCH (d:Dataset {namespace: ref.namespace, name: ref.name})
  MERGE (v)-[:HAS_INPUT]->(d)
}
CALL (ver, v, existed) {
  WITH ver, v WHERE NOT existed
  UNWIND ver.outputs AS ref
  MATCH (d:Dataset {namespace: ref.namespace, name: ref.name})
  MERGE (v)-[:HAS_OUTPUT]->(d)
}
CALL (ver, v) {
  WITH ver, v WHERE ver.runId IS NOT NULL
  MATCH (r:Run {id: ver.runId})
  OPTIONAL MATCH (r)-[old:EXECUTED]->(other:JobVersion) WHERE other <> v
  DELETE old
  MERGE (r)-[:EXECUTED]->(v)
  SET r.jobVersion = v.id
}
CALL (ver, j, v, vt) {
  WITH ver, j, v, vt WHERE ver.candidate
  OPTIONAL MATCH (j)-[c:CURRENT_VERSION]->(cur:JobVersion)
  WITH j, v, vt, c, cur
  WHERE cur IS NULL OR (cur <> v AND (j.currentVersionAt IS NULL OR j.currentVersionAt <= vt))
  DELETE c
  // j is locked (jobs-upsert) and has no CURRENT_VERSION left (see run-complete).
  CREATE (j)-[:CURRENT_VERSION]->(v)
  SET j.currentVersion = v.id, j.currentVersionAt = vt, j.location = v.location, j.context = v.context
}
