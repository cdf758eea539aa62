// Lists visible (not soft-deleted) namespaces ordered by name, one page, with the total.
// Params: $offset, $limit (integers). Returns one row {totalCount: integer, namespaces: [map]}
// (an offset past the end gives an empty list and the real total).
MATCH (n:Namespace) WHERE NOT n.isHidden
WITH count(n) AS totalCount
CALL () {
  MATCH (n:Namespace) WHERE NOT n.isHidden
  WITH n ORDER BY n.name SKIP $offset LIMIT $limit
  RETURN collect(n {.*}) AS namespaces
}
RETURN totalCount, namespaces
