// Writes a run's state, times and facets (already merged by the run state machine in
// src/domain/run-state.ts), ties it to its job and parent run, and moves the job's LATEST_RUN.
// Params: $eventTime (ISO), $job: {namespace, name}, $run: {id, state, startedAt, endedAt, terminalState,
//   nominalStartTime, nominalEndTime (ISO or null), facetProps, jobFacetProps (maps of JSON strings),
//   parent ({runId, externalRunId, job: {namespace, name}} or null)}
// Returns nothing.
WITH datetime($eventTime) AS t
MATCH (j:Job {namespace: $job.namespace, name: $job.name})
MATCH (r:Run {id: $run.id})
SET r += $run.facetProps,
    r += $run.jobFacetProps,
    r.state = $run.state,
    r.terminalState = $run.terminalState,
    r.startedAt = CASE WHEN $run.startedAt IS NULL THEN null ELSE datetime($run.startedAt) END,
    r.endedAt = CASE WHEN $run.endedAt IS NULL THEN null ELSE datetime($run.endedAt) END,
    r.createdAt = CASE WHEN t < r.createdAt THEN t ELSE r.createdAt END,
    r.updatedAt = CASE WHEN r.updatedAt IS NULL OR t > r.updatedAt THEN t ELSE r.updatedAt END,
    r.nominalStartTime = CASE WHEN $run.nominalStartTime IS NULL THEN r.nominalStartTime ELSE datetime($run.nominalStartTime) END,
    r.nominalEndTime = CASE WHEN $run.nominalEndTime IS NULL THEN r.nominalEndTime ELSE datetime($run.nominalEndTime) END,
    r.jobNamespace = j.namespace,
    r.jobName = j.name
SET r.sortTime = coalesce(r.startedAt, r.endedAt, r.createdAt)
MERGE (r)-[:RUN_OF]->(j)
WITH t, j, r
CALL (t, r) {
  WITH t, r WHERE $run.parent IS NOT NULL
  MERGE (p:Run {id: $run.parent.runId})
    ON CREATE SET p.externalId = $run.parent.externalRunId, p.createdAt = t, p.updatedAt = t, p.state = 'NEW', p.sortTime = t
  MERGE (r)-[:CHILD_OF]->(p)
  WITH p
  MATCH (pj:Job {namespace: $run.parent.job.namespace, name: $run.parent.job.name})
  MERGE (p)-[:RUN_OF]->(pj)
  SET p.jobNamespace = pj.namespace, p.jobName = pj.name
}
CALL (j, r) {
  OPTIONAL MATCH (j)-[l:LATEST_RUN]->(cur:Run)
  WITH j, r, l, cur
  WHERE cur IS NULL OR (cur <> r AND (cur.sortTime < r.sortTime OR (cur.sortTime = r.sortTime AND cur.id < r.id)))
  DELETE l
  MERGE (j)-[:LATEST_RUN]->(r)
}
