// Writes runs' state, times and facets (already folded over their events by the run state machine
// in src/domain/run-state.ts), ties each to its job and parent run, and moves the job's LATEST_RUN.
// Params: $runs: [{id, job: {namespace, name}, firstSeen, lastSeen (ISO), state, startedAt, endedAt, terminalState,
//   nominalStartTime, nominalEndTime (ISO or null), facetProps, jobFacetProps (maps of JSON strings or null),
//   parent ({runId, externalRunId, job: {namespace, name}, linkJob (false when the parent run's own events
//   are in this batch)} or null), latestCandidate (boolean: the newest run of its job in this batch)}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $runs AS run
WITH run, datetime(run.firstSeen) AS t, datetime(run.lastSeen) AS t1
MATCH (j:Job {namespace: run.job.namespace, name: run.job.name})
MATCH (r:Run {id: run.id})
// jobNamespace and jobName mirror RUN_OF (set below with it): a linked run needs no check of its job's
// many RUN_OF relationships, and one without jobName has no RUN_OF yet (r is locked: runs-prepare).
WITH run, t, t1, j, r, coalesce(r.jobNamespace = j.namespace AND r.jobName = j.name, false) AS linked, r.jobName IS NULL AS unlinked
SET r += run.facetProps,
    r += run.jobFacetProps,
    r.state = run.state,
    r.terminalState = run.terminalState,
    r.startedAt = CASE WHEN run.startedAt IS NULL THEN null ELSE datetime(run.startedAt) END,
    r.endedAt = CASE WHEN run.endedAt IS NULL THEN null ELSE datetime(run.endedAt) END,
    r.createdAt = CASE WHEN t < r.createdAt THEN t ELSE r.createdAt END,
    r.updatedAt = CASE WHEN r.updatedAt IS NULL OR t1 > r.updatedAt THEN t1 ELSE r.updatedAt END,
    r.lastEventAt = CASE WHEN r.lastEventAt IS NULL OR t1 > r.lastEventAt THEN t1 ELSE r.lastEventAt END,
    r.nominalStartTime = CASE WHEN run.nominalStartTime IS NULL THEN r.nominalStartTime ELSE datetime(run.nominalStartTime) END,
    r.nominalEndTime = CASE WHEN run.nominalEndTime IS NULL THEN r.nominalEndTime ELSE datetime(run.nominalEndTime) END,
    r.jobNamespace = j.namespace,
    r.jobName = j.name
SET r.sortTime = coalesce(r.startedAt, r.endedAt, r.createdAt)
FOREACH (_ IN CASE WHEN unlinked THEN [1] ELSE [] END | CREATE (r)-[:RUN_OF]->(j))
WITH t, run, j, r, linked, unlinked
// Linked to another job: a run known so far only from another run's parent facet (the planner
// refuses a run id reused by another job's own events): its own events decide its job.
CALL (r, j, linked, unlinked) {
  WITH r, j WHERE NOT linked AND NOT unlinked
  OPTIONAL MATCH (r)-[old:RUN_OF]->(:Job)
  DELETE old
  WITH DISTINCT r, j
  CREATE (r)-[:RUN_OF]->(j)
}
WITH t, run, j, r
CALL (t, run, r) {
  WITH t, run, r WHERE run.parent IS NOT NULL
  MERGE (p:Run {id: run.parent.runId})
    ON CREATE SET p.externalId = run.parent.externalRunId, p.createdAt = t, p.updatedAt = t, p.state = 'NEW', p.sortTime = t
  MERGE (r)-[:CHILD_OF]->(p)
  // A parent reference gives a job only to a run that has none: it never re-homes a run (then any
  // producer could move run X of J1 to J2), and leaves a run whose own events are in this batch to them.
  // Without jobName p has no RUN_OF: MERGE above created it in this transaction, or another one
  // creating it held its key until it committed with the link.
  WITH run, p
  WHERE run.parent.linkJob AND p.jobName IS NULL
  MATCH (pj:Job {namespace: run.parent.job.namespace, name: run.parent.job.name})
  CREATE (p)-[:RUN_OF]->(pj)
  SET p.jobNamespace = pj.namespace, p.jobName = pj.name
}
CALL (run, j, r) {
  WITH run, j, r WHERE run.latestCandidate
  OPTIONAL MATCH (j)-[l:LATEST_RUN]->(cur:Run)
  WITH j, r, l, cur
  WHERE cur IS NULL OR (cur <> r AND (cur.sortTime < r.sortTime OR (cur.sortTime = r.sortTime AND cur.id < r.id)))
  DELETE l
  MERGE (j)-[:LATEST_RUN]->(r)
}
// Denormalized so `lastRunStates` filters are an index lookup instead of a walk over every job.
WITH j
SET j.latestRunState = [(j)-[:LATEST_RUN]->(lr:Run) | lr.state][0]
