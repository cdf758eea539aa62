// Case-insensitive substring search over live dataset and job names (GET /api/v1/search), one page,
// with the real total. The text indexes on `searchName` (lower-cased name) serve `CONTAINS`; the
// matches are read once, as nodes. When only a few nodes are hidden (soft-deleted, aliases: found
// through indexes) they are excluded by identity, so counting reads no properties and only the sort
// keys are read per match; with many hidden, the flags are read instead (no quadratic list test).
// A dataset found by a symlink alias name is reported as its primary dataset (once).
// Params: $q (lower-cased search text), $filter ('all' | 'dataset' | 'job'), $namespace (string or null),
//   $after, $before (ISO-8601 strings or null: updatedAt >= $after, updatedAt < $before),
//   $sort ('name' = name ascending | 'updated_at' = most recently updated first), $offset, $limit (integers).
// Returns one row {totalCount, results: [{type: 'DATASET' | 'JOB', namespace, name, updatedAt}]}.
WITH COLLECT { MATCH (x:Dataset) WHERE x.isDeleted = true RETURN x LIMIT 101 }
   + COLLECT { MATCH (x:Dataset) WHERE x.isAlias = true RETURN x LIMIT 101 }
   + COLLECT { MATCH (x:Job) WHERE x.isDeleted = true RETURN x LIMIT 101 } AS hidden
WITH hidden, size(hidden) <= 100 AS fewHidden
CALL (hidden, fewHidden) {
  MATCH (d:Dataset) WHERE d.searchName CONTAINS $q AND $filter <> 'job'
    AND CASE WHEN fewHidden THEN NOT d IN hidden ELSE d.isAlias IS NULL AND NOT d.isDeleted END
  RETURN 'DATASET' AS type, d AS n
  UNION ALL
  // Primaries found only through an alias name (a primary whose own name matches is found above).
  MATCH (a:Dataset) WHERE a.searchName CONTAINS $q AND $filter <> 'job' AND a.isAlias = true
  MATCH (a)-[:ALIAS_OF]->(d:Dataset) WHERE NOT d.isDeleted AND NOT d.searchName CONTAINS $q
  WITH DISTINCT d
  RETURN 'DATASET' AS type, d AS n
  UNION ALL
  MATCH (j:Job) WHERE j.searchName CONTAINS $q AND $filter <> 'dataset'
    AND CASE WHEN fewHidden THEN NOT j IN hidden ELSE NOT j.isDeleted END
  RETURN 'JOB' AS type, j AS n
}
WITH type, n
WHERE ($namespace IS NULL OR n.namespace = $namespace)
  AND ($after IS NULL OR n.updatedAt >= datetime($after)) AND ($before IS NULL OR n.updatedAt < datetime($before))
WITH collect({type: type, n: n}) AS matches
CALL (matches) {
  UNWIND matches AS m
  WITH m ORDER BY CASE WHEN $sort = 'updated_at' THEN m.n.updatedAt END DESC, m.n.name, m.n.namespace, m.type
  SKIP $offset LIMIT $limit
  RETURN collect({type: m.type, namespace: m.n.namespace, name: m.n.name, updatedAt: m.n.updatedAt}) AS results
}
RETURN size(matches) AS totalCount, results
