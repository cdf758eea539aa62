// Migration `latest-run-end` (src/store/migrations.ts): gives a batch of jobs whose LATEST_RUN has
// ended the run's end as `latestRunEndedAt` (data written before jobs kept it beside latestRunState).
// Params: $limit (integer: jobs per batch).
// Returns one row: jobs (the jobs given it in this batch; 0 when none was left).
CALL () {
  MATCH (j:Job)-[:LATEST_RUN]->(r:Run) WHERE r.endedAt IS NOT NULL AND j.latestRunEndedAt IS NULL
  WITH j, r LIMIT $limit
  SET j.latestRunEndedAt = r.endedAt
  RETURN count(*) AS jobs
}
RETURN jobs
