// Writes runs' state, times and facets (folded over their events by the planner: the state by the
// run state machine in src/domain/run-state.ts, facets latest by event time), ties each to its job
// and parent run, and moves the job's LATEST_RUN (the run with the greatest sortTime, then id, among all its
// runs: parent runs known only from their children's facets too).
// Params: $runs: [{id, job: {namespace, name}, firstSeen, lastSeen (ISO), state, startedAt, endedAt, terminalState,
//   facetProps (map of JSON strings or null: facets whose content changed), nominalChanged (boolean),
//   nominalStartTime, nominalEndTime (ISO or null), parentChanged (boolean), parentRunId (or null),
//   facetStamps ([string] or null), latestCandidate (boolean: the newest run of its job in this batch),
//   sortTimeDecreased (boolean: its sortTime moved earlier)}]. Parent runs exist (parent-runs.cypher).
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $runs AS run
WITH run, datetime(run.firstSeen) AS t, datetime(run.lastSeen) AS t1
MATCH (j:Job {namespace: run.job.namespace, name: run.job.name})
MATCH (r:Run {id: run.id})
// jobNamespace and jobName mirror RUN_OF (set below with it): a linked run needs no check of its job's
// many RUN_OF relationships, and one without jobName has no RUN_OF yet (r is locked: runs-prepare).
// One linked to another job was only named as a parent (the planner refuses a run whose own events
// name another job): its own events move it.
WITH run, t, t1, j, r, coalesce(r.jobNamespace = j.namespace AND r.jobName = j.name, false) AS linked,
  r.jobName IS NULL AS unlinked
SET r += run.facetProps,
    r.state = run.state,
    r.terminalState = run.terminalState,
    r.startedAt = CASE WHEN run.startedAt IS NULL THEN null ELSE datetime(run.startedAt) END,
    r.endedAt = CASE WHEN run.endedAt IS NULL THEN null ELSE datetime(run.endedAt) END,
    r.createdAt = CASE WHEN t < r.createdAt THEN t ELSE r.createdAt END,
    r.lastEventAt = CASE WHEN r.lastEventAt IS NULL OR t1 > r.lastEventAt THEN t1 ELSE r.lastEventAt END,
    r.nominalStartTime = CASE WHEN run.nominalChanged THEN datetime(run.nominalStartTime) ELSE r.nominalStartTime END,
    r.nominalEndTime = CASE WHEN run.nominalChanged THEN datetime(run.nominalEndTime) ELSE r.nominalEndTime END,
    r.facetStamps = coalesce(run.facetStamps, r.facetStamps),
    r.jobNamespace = j.namespace,
    r.jobName = j.name
SET r.sortTime = coalesce(r.startedAt, r.endedAt, r.createdAt), r.updatedAt = r.lastEventAt
FOREACH (_ IN CASE WHEN unlinked THEN [1] ELSE [] END | CREATE (r)-[:RUN_OF]->(j))
WITH run, j, r, linked, unlinked
CALL (j, r, linked, unlinked) {
  WITH j, r WHERE NOT linked AND NOT unlinked
  OPTIONAL MATCH (r)-[old:RUN_OF]->(other:Job) WHERE other <> j
  DELETE old
  WITH j, r, other
  // The job the parent reference gave the run loses it, and its LATEST_RUN is chosen again among the runs
  // left. That job is not this batch's: locked first, then read (see parent-runs.cypher).
  CALL (other) {
    WITH other WHERE other IS NOT NULL
    SET other.name = other.name
    WITH other
    OPTIONAL CALL (other) {
      MATCH (x:Run) USING INDEX SEEK x:Run(jobNamespace, jobName, sortTime, id) WHERE x.jobNamespace = other.namespace
        AND x.jobName = other.name AND x.sortTime IS NOT NULL AND x.id IS NOT NULL
      RETURN x ORDER BY x.jobNamespace DESC, x.jobName DESC, x.sortTime DESC, x.id DESC LIMIT 1
    }
    OPTIONAL MATCH (other)-[l:LATEST_RUN]->(cur:Run)
    WITH other, x, l, cur WHERE cur IS NULL OR x IS NULL OR cur <> x
    DELETE l
    FOREACH (_ IN CASE WHEN x IS NULL THEN [] ELSE [1] END | CREATE (other)-[:LATEST_RUN]->(x))
    SET other.latestRunState = x.state, other.latestRunEndedAt = x.endedAt
  }
  WITH DISTINCT j, r
  MERGE (r)-[:RUN_OF]->(j)
}
CALL (run, r) {
  WITH run, r WHERE run.parentChanged
  OPTIONAL MATCH (r)-[old:CHILD_OF]->(:Run)
  DELETE old
  WITH DISTINCT run, r WHERE run.parentRunId IS NOT NULL
  MATCH (p:Run {id: run.parentRunId})
  CREATE (r)-[:CHILD_OF]->(p)
}
CALL (run, j, r) {
  WITH run, j, r WHERE run.latestCandidate
  OPTIONAL MATCH (j)-[l:LATEST_RUN]->(cur:Run)
  WITH j, r, l, cur
  WHERE cur IS NULL OR (cur <> r AND (cur.sortTime < r.sortTime OR (cur.sortTime = r.sortTime AND cur.id < r.id)))
  DELETE l
  // j is locked (jobs-upsert) and has no LATEST_RUN left: CREATE spares MERGE's check of a dense node.
  CREATE (j)-[:LATEST_RUN]->(r)
}
CALL (run, j, r) {
  // The latest run moved earlier: the latest is chosen again among the job's runs.
  WITH run, j, r WHERE run.sortTimeDecreased AND EXISTS { (j)-[:LATEST_RUN]->(r) }
  // The lookup is a subquery of its own so that the condition above gates it: in the same query part
  // the planner, planning on an empty database, tested the condition on every run of the job the seek
  // read (test/store/history-cost.test.ts).
  CALL (j) {
    // All four properties of the index run_job_sort_order, ordered as it is: few entries read.
    MATCH (x:Run) USING INDEX SEEK x:Run(jobNamespace, jobName, sortTime, id) WHERE x.jobNamespace = j.namespace
      AND x.jobName = j.name AND x.sortTime IS NOT NULL AND x.id IS NOT NULL
    RETURN x ORDER BY x.jobNamespace DESC, x.jobName DESC, x.sortTime DESC, x.id DESC LIMIT 1
  }
  WITH j, r, x WHERE x <> r
  MATCH (j)-[l:LATEST_RUN]->(r)
  DELETE l
  CREATE (j)-[:LATEST_RUN]->(x)
}
// Denormalized so `lastRunStates` filters are an index lookup instead of a walk over every job, and the
// blast radius reads a job's latest run from the job alone.
WITH DISTINCT j
OPTIONAL MATCH (j)-[:LATEST_RUN]->(lr:Run)
SET j.latestRunState = lr.state, j.latestRunEndedAt = lr.endedAt
