// Case-insensitive substring search over live dataset and job names (GET /api/v1/search), one page,
// with the real total. The text indexes on `searchName` (lower-cased name) serve `CONTAINS`; the
// matches are read once, then counted and sorted.
// A dataset found by a symlink alias name is reported as its primary dataset (once).
// Params: $q (lower-cased search text), $filter ('all' | 'dataset' | 'job'), $namespace (string or null),
//   $after, $before (ISO-8601 strings or null: updatedAt >= $after, updatedAt < $before),
//   $sort ('name' = name ascending | 'updated_at' = most recently updated first), $offset, $limit (integers).
// Returns one row {totalCount, results: [{type: 'DATASET' | 'JOB', namespace, name, updatedAt}]}.
CALL () {
  MATCH (d:Dataset) WHERE d.searchName CONTAINS $q AND $filter <> 'job'
    AND d.isAlias IS NULL AND NOT d.isDeleted
  RETURN 'DATASET' AS type, d.namespace AS namespace, d.name AS name, d.updatedAt AS updatedAt
  UNION ALL
  // Primaries found only through an alias name (a primary whose own name matches is found above).
  MATCH (a:Dataset) WHERE a.searchName CONTAINS $q AND $filter <> 'job' AND a.isAlias = true
  MATCH (a)-[:ALIAS_OF]->(d:Dataset) WHERE NOT d.isDeleted AND NOT d.searchName CONTAINS $q
  WITH DISTINCT d
  RETURN 'DATASET' AS type, d.namespace AS namespace, d.name AS name, d.updatedAt AS updatedAt
  UNION ALL
  MATCH (j:Job) WHERE j.searchName CONTAINS $q AND $filter <> 'dataset' AND NOT j.isDeleted
  RETURN 'JOB' AS type, j.namespace AS namespace, j.name AS name, j.updatedAt AS updatedAt
}
WITH type, namespace, name, updatedAt
WHERE ($namespace IS NULL OR namespace = $namespace)
  AND ($after IS NULL OR updatedAt >= datetime($after)) AND ($before IS NULL OR updatedAt < datetime($before))
ORDER BY CASE WHEN $sort = 'updated_at' THEN updatedAt END DESC, name, namespace, type
WITH collect({type: type, namespace: namespace, name: name, updatedAt: updatedAt}) AS matches
RETURN size(matches) AS totalCount, matches[$offset..$offset + $limit] AS results
