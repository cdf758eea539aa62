// Creates the runs a batch names as parents (the `parent` run facet) and dates each by its earliest
// mention. A run known only as a parent belongs to the job named by its earliest mention (on a tie, the
// smaller job key: namespace, then name), whatever order the mentions arrive in: a better mention moves it.
// A run with events of its own is never moved by a parent reference (its own events decide its job,
// runs-upsert).
// A parent run counts among its job's runs, so the job's LATEST_RUN (its run with the greatest sortTime,
// then id) is chosen again when this stage gives the job a run or moves one of its runs earlier.
// Params: $parents: [{runId, externalRunId, job: {namespace, name}, at (ISO: the earliest event naming it),
// own (boolean: the batch holds events of this run itself)}], sorted by runId. The parent jobs exist
// (parent-jobs.cypher).
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $parents AS parent
WITH parent, datetime(parent.at) AS t
MERGE (p:Run {id: parent.runId})
  ON CREATE SET p.externalId = parent.externalRunId, p.createdAt = t, p.updatedAt = t, p.state = 'NEW', p.sortTime = t
// Read before either change: an earlier mention, and a run no job holds yet (the runs of the batch link
// their own, runs-upsert).
WITH parent, t, p, t < p.createdAt AS earlier, NOT parent.own AND p.jobName IS NULL AS linking,
  NOT parent.own AND p.lastEventAt IS NULL AND p.jobName IS NOT NULL
    AND NOT (p.jobNamespace = parent.job.namespace AND p.jobName = parent.job.name)
    AND (t < p.createdAt OR (t = p.createdAt AND (parent.job.namespace < p.jobNamespace
      OR (parent.job.namespace = p.jobNamespace AND parent.job.name < p.jobName)))) AS moving
// A better mention of a run known only as a parent moves it to the job it names. Decided on the run as read
// before its lock, the test is read again under the lock: the pair (earliest mention, job key) a run holds
// only ever decreases, so a mention that is not better before the lock is not better after it either.
CALL (parent, t, p, moving) {
  WITH parent, t, p WHERE moving
  SET p.id = p.id
  WITH parent, t
  MATCH (locked:Run {id: parent.runId})-[old:RUN_OF]->(from:Job)
  WHERE locked.lastEventAt IS NULL AND NOT (locked.jobNamespace = parent.job.namespace
    AND locked.jobName = parent.job.name) AND (t < locked.createdAt OR (t = locked.createdAt
    AND (parent.job.namespace < locked.jobNamespace OR (parent.job.namespace = locked.jobNamespace
    AND parent.job.name < locked.jobName))))
  MATCH (pj:Job {namespace: parent.job.namespace, name: parent.job.name})
  DELETE old
  CREATE (locked)-[:RUN_OF]->(pj)
  SET locked.jobNamespace = pj.namespace, locked.jobName = pj.name, locked.externalId = parent.externalRunId
  // The job that loses the run chooses its latest run again among the runs left (none: no LATEST_RUN).
  // Not necessarily this batch's job: locked first, then read (see namespaces.cypher).
  WITH from
  SET from.name = from.name
  WITH from
  OPTIONAL CALL (from) {
    MATCH (x:Run) USING INDEX SEEK x:Run(jobNamespace, jobName, sortTime, id) WHERE x.jobNamespace = from.namespace
      AND x.jobName = from.name AND x.sortTime IS NOT NULL AND x.id IS NOT NULL
    RETURN x ORDER BY x.jobNamespace DESC, x.jobName DESC, x.sortTime DESC, x.id DESC LIMIT 1
  }
  OPTIONAL MATCH (from)-[l:LATEST_RUN]->(cur:Run)
  WITH from, x, l, cur WHERE cur IS NULL OR x IS NULL OR cur <> x
  DELETE l
  FOREACH (_ IN CASE WHEN x IS NULL THEN [] ELSE [1] END | CREATE (from)-[:LATEST_RUN]->(x))
  SET from.latestRunState = x.state, from.latestRunEndedAt = x.endedAt
}
// A parent run not of this batch is not locked: an earlier mention locks it and reads it again (see namespaces.cypher).
CALL (parent, t, p, earlier) {
  WITH parent, t, p WHERE earlier
  SET p.id = p.id
  WITH parent, t
  MATCH (locked:Run {id: parent.runId}) WHERE t < locked.createdAt
  SET locked.createdAt = t, locked.sortTime = coalesce(locked.startedAt, locked.endedAt, t),
    locked.updatedAt = coalesce(locked.lastEventAt, t)
}
CALL (parent, p, linking) {
  WITH parent, p WHERE linking
  MATCH (pj:Job {namespace: parent.job.namespace, name: parent.job.name})
  CREATE (p)-[:RUN_OF]->(pj)
  SET p.jobNamespace = pj.namespace, p.jobName = pj.name
}
// Only a first, earlier or moving mention gets here, so the children of a DAG, each naming its run later,
// do not queue on the parent job's lock.
WITH p WHERE (earlier OR linking OR moving) AND p.jobName IS NOT NULL
WITH DISTINCT p.jobNamespace AS jobNamespace, p.jobName AS jobName
CALL (jobNamespace, jobName) {
  // The job may be another writer's, not locked by this batch: locked first, then its runs are read,
  // so that two writers choosing its latest run at once choose in turn.
  MATCH (j:Job {namespace: jobNamespace, name: jobName})
  SET j.name = j.name
  WITH j
  CALL (j) {
    // All four properties of the index run_job_sort_order, ordered as it is: one entry read.
    MATCH (x:Run) USING INDEX SEEK x:Run(jobNamespace, jobName, sortTime, id) WHERE x.jobNamespace = j.namespace
      AND x.jobName = j.name AND x.sortTime IS NOT NULL AND x.id IS NOT NULL
    RETURN x ORDER BY x.jobNamespace DESC, x.jobName DESC, x.sortTime DESC, x.id DESC LIMIT 1
  }
  OPTIONAL MATCH (j)-[l:LATEST_RUN]->(cur:Run)
  WITH j, x, l, cur WHERE cur IS NULL OR cur <> x
  DELETE l
  CREATE (j)-[:LATEST_RUN]->(x)
  SET j.latestRunState = x.state, j.latestRunEndedAt = x.endedAt
}
