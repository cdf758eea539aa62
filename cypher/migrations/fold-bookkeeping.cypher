// Migration `fold-bookkeeping` (src/store/migrations.ts): gives data written before ingestion folded
// every value over the set of events (docs/ingest.md) the bookkeeping the fold reads, for the next
// batch of runs after a cursor: each READ's `at` (when the run first named the input: its start, the
// best the old data tells), each job's `lastEventAt` (its updatedAt was its latest event), and each
// version no run executes its `declaredFrom`/`declaredTo` (JobEvents; its createdAt/updatedAt).
// Params: $after (the cursor: a run id, or '' for the first batch), $limit (integer).
// Returns one row: last (the last run id of the batch, or null when none was left).
CALL () {
  MATCH (r:Run) WHERE r.id > $after
  WITH r ORDER BY r.id LIMIT $limit
  CALL (r) {
    MATCH (r)-[rd:READ]->() WHERE rd.at IS NULL
    SET rd.at = coalesce(r.startedAt, r.createdAt)
  }
  CALL (r) {
    MATCH (r)-[:RUN_OF]->(j:Job) WHERE j.lastEventAt IS NULL
    SET j.lastEventAt = j.updatedAt
  }
  CALL (r) {
    MATCH (r)-[:RUN_OF]->(:Job)<-[:VERSION_OF]-(v:JobVersion) WHERE v.declaredFrom IS NULL
      AND NOT EXISTS { (v)<-[:EXECUTED]-() }
    SET v.declaredFrom = v.createdAt, v.declaredTo = v.updatedAt
  }
  RETURN max(r.id) AS last
}
RETURN last
