// Stored raw lineage events with $after <= eventTime < $before (a half-open window, as Marquez reads it),
// oldest first, one page, with the total.
// (Two files, -asc and -desc, so the eventTime range index provides the order.)
// Params: $after, $before (ISO-8601 strings), $offset, $limit (integers).
// Returns one row {totalCount, events: [payload JSON text]}.
CALL () {
  MATCH (e:LineageEvent) WHERE e.eventTime >= datetime($after) AND e.eventTime < datetime($before)
  RETURN count(e) AS totalCount
}
CALL () {
  MATCH (e:LineageEvent) WHERE e.eventTime >= datetime($after) AND e.eventTime < datetime($before)
  WITH e ORDER BY e.eventTime ASC, e.id ASC SKIP $offset LIMIT $limit
  RETURN collect(e.payload) AS events
}
RETURN totalCount, events
