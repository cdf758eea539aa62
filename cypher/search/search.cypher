// Case-insensitive substring search over live dataset and job names (GET /api/v1/search), one page,
// with the real total. The text indexes on `searchName` (lower-cased name) serve `CONTAINS`.
// A dataset found by a symlink alias name is reported as its primary dataset (once).
// Params: $q (lower-cased search text), $filter ('all' | 'dataset' | 'job'), $namespace (string or null),
//   $after, $before (ISO-8601 strings or null: updatedAt >= $after, updatedAt < $before),
//   $sort ('name' = name ascending | 'updated_at' = most recently updated first), $offset, $limit (integers).
// Returns one row {totalCount, results: [{type: 'DATASET' | 'JOB', namespace, name, updatedAt}]}.
CALL () {
  CALL () {
    MATCH (x:Dataset) WHERE x.searchName CONTAINS $q AND $filter <> 'job'
    OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
    WITH DISTINCT coalesce(p, x) AS d
    WHERE NOT d.isDeleted AND ($namespace IS NULL OR d.namespace = $namespace)
      AND ($after IS NULL OR d.updatedAt >= datetime($after)) AND ($before IS NULL OR d.updatedAt < datetime($before))
    RETURN 'DATASET' AS type, d.namespace AS namespace, d.name AS name, d.updatedAt AS updatedAt
    UNION ALL
    MATCH (j:Job) WHERE j.searchName CONTAINS $q AND $filter <> 'dataset'
      AND NOT j.isDeleted AND ($namespace IS NULL OR j.namespace = $namespace)
      AND ($after IS NULL OR j.updatedAt >= datetime($after)) AND ($before IS NULL OR j.updatedAt < datetime($before))
    RETURN 'JOB' AS type, j.namespace AS namespace, j.name AS name, j.updatedAt AS updatedAt
  }
  RETURN count(*) AS totalCount
}
CALL () {
  CALL () {
    MATCH (x:Dataset) WHERE x.searchName CONTAINS $q AND $filter <> 'job'
    OPTIONAL MATCH (x)-[:ALIAS_OF]->(p:Dataset)
    WITH DISTINCT coalesce(p, x) AS d
    WHERE NOT d.isDeleted AND ($namespace IS NULL OR d.namespace = $namespace)
      AND ($after IS NULL OR d.updatedAt >= datetime($after)) AND ($before IS NULL OR d.updatedAt < datetime($before))
    RETURN 'DATASET' AS type, d.namespace AS namespace, d.name AS name, d.updatedAt AS updatedAt
    UNION ALL
    MATCH (j:Job) WHERE j.searchName CONTAINS $q AND $filter <> 'dataset'
      AND NOT j.isDeleted AND ($namespace IS NULL OR j.namespace = $namespace)
      AND ($after IS NULL OR j.updatedAt >= datetime($after)) AND ($before IS NULL OR j.updatedAt < datetime($before))
    RETURN 'JOB' AS type, j.namespace AS namespace, j.name AS name, j.updatedAt AS updatedAt
  }
  WITH type, namespace, name, updatedAt
  ORDER BY CASE WHEN $sort = 'updated_at' THEN updatedAt END DESC, name, namespace, type
  SKIP $offset LIMIT $limit
  RETURN collect({type: type, namespace: namespace, name: name, updatedAt: updatedAt}) AS results
}
RETURN totalCount, results
