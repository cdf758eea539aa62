// Tags ordered by name, one page, with the total.
// Params: $offset, $limit (integers). Returns one row {totalCount, tags: [t {.*}]}.
CALL () {
  MATCH (t:Tag) RETURN count(t) AS totalCount
}
CALL () {
  MATCH (t:Tag)
  WITH t ORDER BY t.name SKIP $offset LIMIT $limit
  RETURN collect(t {.*}) AS tags
}
RETURN totalCount, tags
