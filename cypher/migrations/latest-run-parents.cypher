// Migration `latest-run-parents` (src/store/migrations.ts): a job's LATEST_RUN counts the runs known only
// from their children's `parent` facets since this version (before, only runs with events of their own).
// For the next batch of such runs after a cursor, their jobs' LATEST_RUN is chosen again, with the state
// and end the job keeps beside it.
// Params: $after (the cursor: a run id, or '' for the first batch), $limit (integer).
// Returns one row: last (the last run id of the batch, or null when none was left), runs (runs in the batch).
CALL () {
  MATCH (r:Run) WHERE r.id > $after AND r.lastEventAt IS NULL AND r.jobName IS NOT NULL
  WITH r ORDER BY r.id LIMIT $limit
  WITH collect(r) AS runs
  CALL (runs) {
    UNWIND runs AS r
    WITH DISTINCT r.jobNamespace AS jobNamespace, r.jobName AS jobName
    MATCH (j:Job {namespace: jobNamespace, name: jobName})
    CALL (j) {
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
  RETURN runs[-1].id AS last, size(runs) AS n
}
RETURN last, n AS runs
