// Creates (or finds) a job version, ties the run to it (exactly one version per run), and makes it
// the job's current version when it is the newest; the job's lineage edges (INPUT_TO / PRODUCES)
// are then rebuilt from that version's inputs and outputs.
// Params: $eventTime (ISO), $versionTime (ISO: the run's end, or the JobEvent's time), $runId (or null),
//   $job: {namespace, name}, $version: {id, location, context (JSON string), inputs, outputs ([{namespace, name}])}
// Returns nothing.
WITH datetime($eventTime) AS t, datetime($versionTime) AS vt
MATCH (j:Job {namespace: $job.namespace, name: $job.name})
MERGE (v:JobVersion {id: $version.id})
  ON CREATE SET v.namespace = j.namespace, v.name = j.name, v.location = $version.location,
                v.context = $version.context, v.createdAt = t, v.updatedAt = t
SET v.createdAt = CASE WHEN t < v.createdAt THEN t ELSE v.createdAt END,
    v.updatedAt = CASE WHEN t > v.updatedAt THEN t ELSE v.updatedAt END
MERGE (v)-[:VERSION_OF]->(j)
WITH j, v, vt
CALL (v) {
  UNWIND $version.inputs AS ref
  MATCH (d:Dataset {namespace: ref.namespace, name: ref.name})
  MERGE (v)-[:HAS_INPUT]->(d)
}
CALL (v) {
  UNWIND $version.outputs AS ref
  MATCH (d:Dataset {namespace: ref.namespace, name: ref.name})
  MERGE (v)-[:HAS_OUTPUT]->(d)
}
CALL (v) {
  WITH v WHERE $runId IS NOT NULL
  MATCH (r:Run {id: $runId})
  OPTIONAL MATCH (r)-[old:EXECUTED]->(other:JobVersion) WHERE other <> v
  DELETE old
  MERGE (r)-[:EXECUTED]->(v)
  SET r.jobVersion = v.id
}
CALL (j, v, vt) {
  OPTIONAL MATCH (j)-[c:CURRENT_VERSION]->(cur:JobVersion)
  WITH j, v, vt, c, cur
  WHERE cur IS NULL OR (cur <> v AND (j.currentVersionAt IS NULL OR j.currentVersionAt <= vt))
  DELETE c
  MERGE (j)-[:CURRENT_VERSION]->(v)
  SET j.currentVersion = v.id, j.currentVersionAt = vt, j.location = v.location, j.context = v.context
  WITH j, v
  CALL (j) { MATCH (j)-[e:PRODUCES]->(:Dataset) DELETE e }
  CALL (j) { MATCH (:Dataset)-[e:INPUT_TO]->(j) DELETE e }
  CALL (j, v) { MATCH (v)-[:HAS_INPUT]->(d:Dataset) MERGE (d)-[:INPUT_TO]->(j) }
  CALL (j, v) { MATCH (v)-[:HAS_OUTPUT]->(d:Dataset) MERGE (j)-[:PRODUCES]->(d) }
}
