// Datasets of one namespace ordered by name, one page, with the total (soft-deleted datasets and
// symlink aliases left out).
// Params: $namespace, $offset, $limit (integers).
// Returns no row when the namespace does not exist, else one row {totalCount, datasets: [dataset projection]}
// where a dataset projection is d {.*, tags: [name], fieldTags: [[field, tag]]}.
MATCH (ns:Namespace {name: $namespace})
CALL () {
  MATCH (d:Dataset) WHERE d.namespace = $namespace AND NOT d.isDeleted AND d.isAlias IS NULL
  RETURN count(d) AS totalCount
}
CALL () {
  // Equality on namespace lets the (namespace, name) constraint index deliver rows in name order.
  MATCH (d:Dataset) WHERE d.namespace = $namespace AND d.name IS NOT NULL AND NOT d.isDeleted AND d.isAlias IS NULL
  WITH d ORDER BY d.name SKIP $offset LIMIT $limit
  RETURN collect(d {.*,
    tags: [(d)-[:TAGGED]->(t:Tag) | t.name],
    fieldTags: [(d)-[:HAS_FIELD]->(f:DatasetField)-[:TAGGED]->(t:Tag) | [f.name, t.name]]}) AS datasets
}
RETURN totalCount, datasets
