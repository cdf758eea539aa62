// Case-insensitive substring search over live dataset and job names (GET /api/v1/search), one page,
// with the real total. The text indexes on `searchName` (lower-cased name) serve `CONTAINS`; each
// match is read once. When only a few nodes are hidden (soft-deleted, aliases: found
// through indexes) they are excluded by identity, so counting reads no properties and only the sort
// keys are read per match; with many hidden, the flags are read instead (no quadratic list test).
// A dataset found by a symlink alias name is reported as its primary dataset (once).
// Params: $q (lower-cased search text), $filter ('all' | 'dataset' | 'job'), $namespace (string or null),
//   $after, $before (ISO-8601 strings or null: updatedAt >= $after, updatedAt < $before),
//   $sort ('name' = name ascending | 'updated_at' = most recently updated first | 'relevance' = names equal
//   to $q first, then names starting with it, then the others, each by name), $offset, $limit (integers).
// Returns one row {totalCount, results: [{type: 'DATASET' | 'JOB', namespace, name, updatedAt}]}.
WITH COLLECT { MATCH (x:Dataset) USING INDEX SEEK x:Dataset(isDeleted) WHERE x.isDeleted = true RETURN x LIMIT 101 }
   + COLLECT { MATCH (x:Dataset) USING INDEX SEEK x:Dataset(isAlias) WHERE x.isAlias = true RETURN x LIMIT 101 }
   + COLLECT { MATCH (x:Job) USING INDEX SEEK x:Job(isDeleted) WHERE x.isDeleted = true RETURN x LIMIT 101 } AS hidden
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
// The matches are sorted as the four values a page needs, then sliced: a sort (Top) in a subquery
// importing the list of matches kept that whole list with each row it held, as Neo4j tracks memory
// (a page of 1,000 at offset 500 over 1,560 matches exhausted the transaction memory pool).
WITH type, n.namespace AS namespace, n.name AS name, n.updatedAt AS updatedAt, n.searchName AS searchName
ORDER BY CASE WHEN $sort = 'updated_at' THEN updatedAt END DESC,
  CASE WHEN $sort = 'relevance' THEN CASE WHEN searchName = $q THEN 0 WHEN searchName STARTS WITH $q THEN 1 ELSE 2 END
  END, name, namespace, type
WITH collect({type: type, namespace: namespace, name: name, updatedAt: updatedAt}) AS matches
RETURN size(matches) AS totalCount, matches[$offset..($offset + $limit)] AS results
