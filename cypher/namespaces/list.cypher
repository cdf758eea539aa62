// Lists visible (not soft-deleted) namespaces ordered by name, one page, with the total.
// Params: $offset, $limit (integers). Returns one row {totalCount: integer, namespaces: [map]}.
MATCH (n:Namespace) WHERE NOT n.isHidden
WITH count(n) AS totalCount
CALL () {
  MATCH (n:Namespace) WHERE NOT n.isHidden
  RETURN n ORDER BY n.name SKIP $offset LIMIT $limit
}
RETURN totalCount, collect(n {.*}) AS namespaces
