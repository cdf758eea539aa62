// Migration `deleted-label` (src/store/migrations.ts): gives a batch of soft-deleted datasets and jobs
// (isDeleted = true) the label `Deleted`, which the lineage walks test instead of the property (data
// written before deletes set the label). Each half reads the isDeleted index.
// Params: $limit (integer: nodes of each label per batch).
// Returns one row: nodes (the datasets and jobs labelled in this batch; 0 when none was left).
CALL () {
  MATCH (d:Dataset) WHERE d.isDeleted = true AND NOT d:Deleted
  WITH d LIMIT $limit
  SET d:Deleted
  RETURN count(*) AS datasets
}
CALL () {
  MATCH (j:Job) WHERE j.isDeleted = true AND NOT j:Deleted
  WITH j LIMIT $limit
  SET j:Deleted
  RETURN count(*) AS jobs
}
RETURN datasets + jobs AS nodes
