// Data sources ordered by name, one page, with the total.
// Params: $offset, $limit (integers). Returns one row {totalCount, sources: [s {.*}]}.
CALL () {
  MATCH (s:Source) RETURN count(s) AS totalCount
}
CALL () {
  MATCH (s:Source)
  WITH s ORDER BY s.name SKIP $offset LIMIT $limit
  RETURN collect(s {.*}) AS sources
}
RETURN totalCount, sources
