// Migration `placeholder-last-modified` (src/store/migrations.ts): a dataset whose current version is the
// placeholder (nothing known wrote it, only runs read it) has no `lastModifiedAt`; data written before
// this rule took the placeholder's time for it. Clears it for a batch of such datasets.
// Params: $limit (integer: datasets per batch).
// Returns one row: datasets (the datasets cleared in this batch; 0 when none was left).
CALL () {
  MATCH (d:Dataset)-[:CURRENT_VERSION]->(v:DatasetVersion) WHERE v.placeholder AND d.lastModifiedAt IS NOT NULL
  WITH d LIMIT $limit
  SET d.lastModifiedAt = null
  RETURN count(*) AS datasets
}
RETURN datasets
