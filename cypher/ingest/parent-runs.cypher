// Creates the runs a batch names as parents (the `parent` run facet) and dates each by its earliest
// mention. A run known only as a parent belongs to the job named with it; a run that belongs to a
// job already is never moved by a parent reference (its own events decide its job, runs-upsert).
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
// A parent run not of this batch is not locked: an earlier mention locks it and reads it again (see namespaces.cypher).
WITH parent, t, p
CALL (parent, t, p) {
  WITH parent, t, p WHERE t < p.createdAt
  SET p.id = p.id
  WITH parent, t
  MATCH (locked:Run {id: parent.runId}) WHERE t < locked.createdAt
  SET locked.createdAt = t, locked.sortTime = coalesce(locked.startedAt, locked.endedAt, t),
    locked.updatedAt = coalesce(locked.lastEventAt, t)
}
WITH parent, p WHERE NOT parent.own AND p.jobName IS NULL
MATCH (pj:Job {namespace: parent.job.namespace, name: parent.job.name})
CREATE (p)-[:RUN_OF]->(pj)
SET p.jobNamespace = pj.namespace, p.jobName = pj.name
